# The supervisor of one node (or the coordinator) of a local cluster (POSIX sh): runs the node's
# command and runs it again when it ends abnormally. LocalCluster writes it to <cluster-dir>/run/supervise.sh and starts it as
#   sh <cluster-dir>/run/supervise.sh <node> <cluster-dir> <the node's command...>
# its output appended to the node's log, so that its lines stand among the node's own, and its pid in
# run/<node>.supervisor.pid. 'ooo cluster stop' signals it first, so that it restarts nothing.
#
# The node is not started again when
#   - it was stopped: this supervisor got SIGTERM, SIGINT or SIGHUP ('ooo cluster stop'), or the node
#     itself SIGTERM or SIGINT (exit code 143, 130), or it ended with exit code 0;
#   - its first run ended before it served (wrote run/<node>.pid): 'ooo cluster start' reports why;
#   - it was restarted OOO_MAX_RESTARTS times (default 5) in a row already; a run of at least
#     10 minutes starts the count anew.
# Otherwise (exit code 3: out of memory, by -XX:+ExitOnOutOfMemoryError or the node's garbage
# collection watchdog; 137: SIGKILL, which the kernel's out-of-memory killer sends; any other code)
# it logs the node and the cause, writes them to run/<node>.ended (the epoch second, then the cause)
# for 'ooo cluster status' and for the node started again, which reports it to a coordinator that
# lost its connection to the node (PreviousEnd), and starts the node again 2 s later.
umask 077
node=$1 dir=$2
shift 2
log="$dir/logs/$node.log"
pidfile="$dir/run/$node.pid"
max_restarts=${OOO_MAX_RESTARTS:-5}
reset_after=600
restart_delay=2
restarts=0
first=1
stopping=
child=

what="node $node"
[ "$node" = coordinator ] && what="the coordinator"

say() {
    printf '%s %-5s supervisor - %s\n' "$(date '+%H:%M:%S.000')" "$1" "$2"
}

# Why the node ended: its exit code, and for an out-of-memory end the line that said so in the log
# since the run began (at byte $offset).
cause() {
    case $1 in
        3)
            why=$(tail -c "+$((offset + 1))" "$log" 2>/dev/null \
                | grep -a -e '^Terminating due to java.lang.OutOfMemoryError' -e '^out of memory: ' | tail -n 1 \
                | sed -e 's/^Terminating due to //' -e 's/^out of memory: //' -e 's/; ending the process.*//')
            echo "out of memory, exit code 3${why:+: $why}" ;;
        *)
            if [ "$1" -gt 128 ]; then
                echo "killed by signal $(($1 - 128)), exit code $1"
            else
                echo "exit code $1"
            fi ;;
    esac
}

trap 'stopping=1; [ -n "$child" ] && kill -TERM "$child" 2>/dev/null' TERM INT HUP

while :; do
    started=$(date +%s)
    offset=$(wc -c <"$log" 2>/dev/null || echo 0)
    "$@" &
    child=$!
    # A trapped signal ends a wait early: wait again until the node has ended.
    while :; do
        wait "$child"
        rc=$?
        kill -0 "$child" 2>/dev/null || break
    done
    served=
    [ "$(head -n 1 "$pidfile" 2>/dev/null)" = "$child" ] && served=1
    ran=$(($(date +%s) - started))
    child=
    [ -n "$stopping" ] && exit 0
    case $rc in
        0 | 130 | 143) exit "$rc" ;;
    esac
    if [ -n "$first" ] && [ -z "$served" ]; then
        exit "$rc"
    fi
    first=
    [ "$ran" -ge "$reset_after" ] && restarts=0
    if [ "$restarts" -ge "$max_restarts" ]; then
        say ERROR "$what ended ($(cause "$rc")) after $ran s; restarted $restarts times in a row already, it stays down: see this log, then start it with ooo cluster start --cluster $dir"
        exit "$rc"
    fi
    restarts=$((restarts + 1))
    # What 'ooo cluster status' tells of the restarted node: when and why its predecessor ended.
    printf '%s %s\n' "$(date +%s)" "$(cause "$rc")" >"$dir/run/$node.ended"
    say WARN "$what ended ($(cause "$rc")) after $ran s; restarting it in $restart_delay s (restart $restarts of at most $max_restarts in a row)"
    sleep "$restart_delay" &
    wait $!
    [ -n "$stopping" ] && exit 0
done
