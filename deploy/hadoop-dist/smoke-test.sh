#!/usr/bin/env bash
# Starts the assembled Hadoop distribution on this machine and checks it works: formats a NameNode,
# starts a NameNode, a DataNode, a ResourceManager and a NodeManager (sbin/hadoop-daemon.sh),
# writes and reads a file on HDFS, checks the web UIs answer, runs a MapReduce job on YARN that
# reads its input from HDFS (mrbench from Hadoop's job client tests jar), and stops everything.
#
#   mvn -Pdeploy -DskipTests package -pl deploy/hadoop-dist      # once: target/dist/hadoop-<version>
#   deploy/hadoop-dist/smoke-test.sh [--base-port 19100] [--keep]
#
# Ports: base .. base+13 on 127.0.0.1. Everything lives in a temporary directory, removed at the end
# unless --keep. Prints one JSON line: {"hdfs_ok":..,"web_ok":..,"mapreduce_on_yarn_ok":..,"seconds":..}.
set -euo pipefail

here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
base=19100
keep=false
while [[ $# -gt 0 ]]; do
    case "$1" in
        --base-port) base="$2"; shift 2 ;;
        --keep) keep=true; shift ;;
        -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "smoke-test: unknown argument $1" >&2; exit 2 ;;
    esac
done

dist="$(ls -d "$here"/target/dist/hadoop-* 2>/dev/null | head -1 || true)"
if [[ -z "$dist" ]]; then
    echo "smoke-test: no assembled distribution; build it with: mvn -Pdeploy -DskipTests package -pl deploy/hadoop-dist" >&2
    exit 1
fi
version="${dist##*/hadoop-}"
start_s=$(date +%s)
work="$(mktemp -d /tmp/hadoop-smoke.XXXXXX)"
conf="$work/conf"
mkdir -p "$conf"
cp "$dist/etc/hadoop/log4j.properties" "$dist/etc/hadoop/capacity-scheduler.xml" "$conf/"
export HADOOP_CONF_DIR="$conf" HADOOP_LOG_DIR="$work/logs" HADOOP_PID_DIR="$work/run" HADOOP_HEAPSIZE=512m
export HADOOP_STOP_TIMEOUT=15

p() { echo $((base + $1)); }
prop() { printf '  <property><name>%s</name><value>%s</value></property>\n' "$1" "$2"; }
site() { # site FILE NAME VALUE ...
    local f="$1"; shift
    { echo '<?xml version="1.0"?>'; echo '<configuration>'
      while [[ $# -gt 0 ]]; do prop "$1" "$2"; shift 2; done
      echo '</configuration>'; } >"$conf/$f"
}
opens="--add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.net=ALL-UNNAMED"

site core-site.xml fs.defaultFS "hdfs://127.0.0.1:$(p 0)" hadoop.tmp.dir "$work/tmp"
site hdfs-site.xml \
    dfs.namenode.name.dir "$work/nn" dfs.datanode.data.dir "$work/dn" dfs.replication 1 \
    dfs.namenode.http-address "127.0.0.1:$(p 1)" dfs.namenode.secondary.http-address "127.0.0.1:$(p 2)" \
    dfs.datanode.address "127.0.0.1:$(p 3)" dfs.datanode.http.address "127.0.0.1:$(p 4)" \
    dfs.datanode.ipc.address "127.0.0.1:$(p 5)"
site yarn-site.xml \
    yarn.resourcemanager.hostname 127.0.0.1 \
    yarn.resourcemanager.address "127.0.0.1:$(p 6)" yarn.resourcemanager.scheduler.address "127.0.0.1:$(p 7)" \
    yarn.resourcemanager.resource-tracker.address "127.0.0.1:$(p 8)" yarn.resourcemanager.admin.address "127.0.0.1:$(p 9)" \
    yarn.resourcemanager.webapp.address "127.0.0.1:$(p 10)" \
    yarn.nodemanager.address "127.0.0.1:$(p 11)" yarn.nodemanager.webapp.address "127.0.0.1:$(p 12)" \
    yarn.nodemanager.localizer.address "127.0.0.1:$(p 13)" mapreduce.shuffle.port "$(p 14)" \
    yarn.nodemanager.hostname 127.0.0.1 \
    yarn.nodemanager.local-dirs "$work/nm-local" yarn.nodemanager.log-dirs "$work/logs/containers" \
    yarn.nodemanager.aux-services mapreduce_shuffle \
    yarn.nodemanager.aux-services.mapreduce_shuffle.class org.apache.hadoop.mapred.ShuffleHandler \
    yarn.nodemanager.resource.memory-mb 3072 yarn.nodemanager.resource.cpu-vcores 2 \
    yarn.scheduler.minimum-allocation-mb 256 yarn.nodemanager.vmem-check-enabled false \
    yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage 99 \
    yarn.application.classpath "$conf,$dist/lib/*" \
    yarn.nodemanager.env-whitelist JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,CLASSPATH_PREPEND_DISTCACHE,HADOOP_YARN_HOME,HADOOP_HOME,PATH,LANG,TZ,HADOOP_MAPRED_HOME
site mapred-site.xml \
    mapreduce.framework.name yarn mapreduce.application.classpath "$conf,$dist/lib/*" \
    yarn.app.mapreduce.am.resource.mb 512 mapreduce.map.memory.mb 384 mapreduce.reduce.memory.mb 384 \
    yarn.app.mapreduce.am.command-opts "-Xmx384m $opens" \
    mapreduce.map.java.opts "-Xmx256m $opens" mapreduce.reduce.java.opts "-Xmx256m $opens" \
    yarn.app.mapreduce.am.staging-dir /tmp/staging

daemons=(namenode datanode resourcemanager nodemanager)
cleanup() {
    for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do
        "$dist/sbin/hadoop-daemon.sh" stop "${daemons[$i]}" >/dev/null 2>&1 || true
    done
    if [[ "$keep" == true ]]; then
        echo "smoke-test: kept $work" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT

log() { echo "smoke-test: $*" >&2; }
wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
    local limit="$1" what="$2"; shift 2
    for ((i = 0; i < limit; i++)); do
        if timeout 20 "$@" >/dev/null 2>&1; then return 0; fi
        sleep 1
    done
    log "$what: not within $limit s"
    return 1
}

log "formatting the NameNode"
"$dist/bin/hdfs" namenode -format -nonInteractive -force >"$work/format.log" 2>&1
for d in "${daemons[@]}"; do
    "$dist/sbin/hadoop-daemon.sh" start "$d" >&2
done
wait_for 90 "a live DataNode" bash -c "'$dist/bin/hdfs' dfsadmin -report -live 2>/dev/null | grep -q 'Live datanodes (1)'"
"$dist/bin/hdfs" dfsadmin -safemode wait >/dev/null 2>&1

hdfs_ok=false
echo "hello from hadoop-dist $version" >"$work/hello.txt"
if "$dist/bin/hdfs" dfs -mkdir -p /smoke 2>/dev/null && "$dist/bin/hdfs" dfs -put -f "$work/hello.txt" /smoke/ 2>/dev/null \
    && [[ "$("$dist/bin/hdfs" dfs -cat /smoke/hello.txt 2>/dev/null)" == "hello from hadoop-dist $version" ]]; then
    hdfs_ok=true
fi
log "HDFS put and cat: $hdfs_ok"

web_ok=true
for port in "$(p 1)" "$(p 4)" "$(p 10)" "$(p 12)"; do
    path=/; [[ "$port" == "$(p 1)" ]] && path=/dfshealth.html
    code="$(curl -s -L -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port$path" || true)"
    log "web UI on $port$path: HTTP $code"
    [[ "$code" == 200 ]] || web_ok=false
done

mr_ok=false
wait_for 60 "a running NodeManager" bash -c "'$dist/bin/yarn' node -list 2>/dev/null | grep -q RUNNING"
tests_jar="$work/hadoop-mapreduce-client-jobclient-tests.jar"
if (cd "$here" && mvn -q -B dependency:copy \
        -Dartifact="org.apache.hadoop:hadoop-mapreduce-client-jobclient:$version:jar:tests" \
        -DoutputDirectory="$work" -Dmdep.stripVersion=true) >&2; then
    log "running mrbench (input written to and read from HDFS) on YARN"
    # mrbench writes its input into HDFS and runs a job over it: map and reduce tasks in NodeManager containers.
    if HADOOP_CLASSPATH="$tests_jar" "$dist/bin/hadoop" org.apache.hadoop.mapred.MRBench -baseDir /smoke/mrbench -numRuns 1 -maps 2 -reduces 1 -inputLines 100 \
        >"$work/mrbench.log" 2>&1 && grep -q "DataLines" "$work/mrbench.log"; then
        mr_ok=true
    else
        tail -n 30 "$work/mrbench.log" >&2
    fi
fi
log "MapReduce on YARN: $mr_ok"
printf '{"hadoop_version":"%s","hdfs_ok":%s,"web_ok":%s,"mapreduce_on_yarn_ok":%s,"seconds":%d}\n' \
    "$version" "$hdfs_ok" "$web_ok" "$mr_ok" $(($(date +%s) - start_s))
[[ "$hdfs_ok" == true && "$web_ok" == true && "$mr_ok" == true ]]
