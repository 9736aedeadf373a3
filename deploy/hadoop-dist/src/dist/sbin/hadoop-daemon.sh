#!/usr/bin/env bash
# hadoop-daemon.sh start|stop|status|run DAEMON
#
# DAEMON: namenode, datanode, secondarynamenode (HDFS), resourcemanager, nodemanager (YARN).
#   start   in the background: pid in $HADOOP_PID_DIR/hadoop-DAEMON.pid, log in
#           $HADOOP_LOG_DIR/hadoop-DAEMON.log (stdout and stderr in hadoop-DAEMON.out);
#           exits 0 at once when it runs already
#   stop    SIGTERM, then SIGKILL after $HADOOP_STOP_TIMEOUT seconds (default 30); 0 when not running
#   status  exit 0 when it runs, 3 when not (as LSB init scripts do)
#   run     in the foreground, logging to the same file (what a systemd unit runs)
# For hosts without systemd (containers, network namespaces); with systemd use `run` in a unit.
set -euo pipefail
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../libexec/hadoop-config.sh"

usage() {
    echo "usage: hadoop-daemon.sh start|stop|status|run namenode|datanode|secondarynamenode|resourcemanager|nodemanager" >&2
    exit 1
}
[[ $# -eq 2 ]] || usage
action="$1" daemon="$2"
case "$daemon" in
    namenode | datanode | secondarynamenode) tool=hdfs ;;
    resourcemanager | nodemanager) tool=yarn ;;
    *) usage ;;
esac
class="$(hadoop_class "$tool" "$daemon")"
pid_file="$HADOOP_PID_DIR/hadoop-$daemon.pid"
name="hadoop-$daemon"
stop_timeout="${HADOOP_STOP_TIMEOUT:-30}"

# The pid in the pid file, when that process is this daemon (a reused pid is not ours).
running_pid() {
    [[ -f "$pid_file" ]] || return 1
    local pid
    pid="$(cat "$pid_file" 2>/dev/null)" || return 1
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    [[ -r "/proc/$pid/cmdline" ]] || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF " $class" || return 1
    echo "$pid"
}

java_command() {
    local jvm=()
    mapfile -t jvm < <(hadoop_java_args "$name")
    # shellcheck disable=SC2206
    local extra=(${HADOOP_OPTS:-} $(hadoop_daemon_opts "$daemon"))
    local logger="${HADOOP_DAEMON_ROOT_LOGGER:-INFO,RFA}"
    cmd=("$JAVA" "${jvm[@]}" "-Dhadoop.root.logger=$logger" "-Dyarn.root.logger=$logger" "${extra[@]}"
        -cp "$HADOOP_CLASSPATH_ALL" "$class")
}

case "$action" in
    run)
        mkdir -p "$HADOOP_LOG_DIR"
        java_command
        exec "${cmd[@]}"
        ;;
    start)
        if pid="$(running_pid)"; then
            echo "$daemon running as process $pid"
            exit 0
        fi
        mkdir -p "$HADOOP_LOG_DIR" "$HADOOP_PID_DIR"
        java_command
        # setsid: the daemon outlives the shell (and an ssh session) that started it.
        setsid nohup "${cmd[@]}" >"$HADOOP_LOG_DIR/$name.out" 2>&1 </dev/null &
        echo $! >"$pid_file"
        sleep 1
        if ! pid="$(running_pid)"; then
            echo "$daemon did not start; the end of $HADOOP_LOG_DIR/$name.out:" >&2
            tail -n 20 "$HADOOP_LOG_DIR/$name.out" >&2
            exit 1
        fi
        echo "started $daemon as process $pid"
        ;;
    stop)
        if ! pid="$(running_pid)"; then
            rm -f "$pid_file"
            echo "no $daemon running"
            exit 0
        fi
        kill -TERM "$pid"
        for ((i = 0; i < stop_timeout * 10; i++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$pid" 2>/dev/null; then
            echo "$daemon (process $pid) did not stop within $stop_timeout s: killing it" >&2
            kill -KILL "$pid" 2>/dev/null || true
        fi
        rm -f "$pid_file"
        echo "stopped $daemon"
        ;;
    status)
        if pid="$(running_pid)"; then
            echo "$daemon running as process $pid"
            exit 0
        fi
        echo "$daemon not running"
        exit 3
        ;;
    *) usage ;;
esac
