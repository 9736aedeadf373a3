# Sourced by bin/* and sbin/*: where this distribution, its configuration, logs and pid files are,
# which java runs it and with which flags. Every variable may be set beforehand (for instance in
# $HADOOP_CONF_DIR/hadoop-env.sh, sourced below).
#
#   HADOOP_HOME      this distribution (default: the directory above bin/)
#   HADOOP_CONF_DIR  *-site.xml, log4j.properties, hadoop-env.sh (default: $HADOOP_HOME/etc/hadoop)
#   HADOOP_LOG_DIR   daemon logs (default: $HADOOP_HOME/logs)
#   HADOOP_PID_DIR   daemon pid files (default: $HADOOP_HOME/run)
#   JAVA_HOME        the JDK (default: the one of `java` on the PATH); exported, since the
#                    NodeManager starts containers with $JAVA_HOME/bin/java
#   HADOOP_HEAPSIZE  -Xmx of clients and daemons, e.g. 1g (default: the JVM's)
#   HADOOP_OPTS      JVM flags for every command; HADOOP_<DAEMON>_OPTS for one daemon
#                    (HADOOP_NAMENODE_OPTS, HADOOP_DATANODE_OPTS, YARN_RESOURCEMANAGER_OPTS, ...)

HADOOP_HOME="${HADOOP_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
HADOOP_CONF_DIR="${HADOOP_CONF_DIR:-$HADOOP_HOME/etc/hadoop}"
if [[ -f "$HADOOP_CONF_DIR/hadoop-env.sh" ]]; then
    # shellcheck disable=SC1091
    . "$HADOOP_CONF_DIR/hadoop-env.sh"
fi
HADOOP_LOG_DIR="${HADOOP_LOG_DIR:-$HADOOP_HOME/logs}"
HADOOP_PID_DIR="${HADOOP_PID_DIR:-$HADOOP_HOME/run}"

if [[ -z "${JAVA_HOME:-}" ]]; then
    if ! command -v java >/dev/null 2>&1; then
        echo "hadoop: no java on the PATH and JAVA_HOME is not set" >&2
        exit 1
    fi
    JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
fi
JAVA="$JAVA_HOME/bin/java"

# The NodeManager hands these to containers (yarn.nodemanager.env-whitelist); MapReduce's
# application master and tasks find the jars through them.
export HADOOP_HOME HADOOP_CONF_DIR HADOOP_LOG_DIR HADOOP_PID_DIR JAVA_HOME
export HADOOP_COMMON_HOME="$HADOOP_HOME" HADOOP_HDFS_HOME="$HADOOP_HOME" HADOOP_YARN_HOME="$HADOOP_HOME"
export HADOOP_MAPRED_HOME="$HADOOP_HOME"

HADOOP_CLASSPATH_ALL="$HADOOP_CONF_DIR:$HADOOP_HOME/share/hadoop/hdfs:$HADOOP_HOME/lib/*${HADOOP_CLASSPATH:+:$HADOOP_CLASSPATH}"

# Hadoop 3.4 reaches into these JDK packages on Java 17.
HADOOP_JVM_OPENS=(
    --add-opens java.base/java.lang=ALL-UNNAMED
    --add-opens java.base/java.nio=ALL-UNNAMED
    --add-opens java.base/java.util=ALL-UNNAMED
    --add-opens java.base/java.util.concurrent=ALL-UNNAMED
    --add-opens java.base/sun.nio.ch=ALL-UNNAMED
    --add-opens java.base/java.net=ALL-UNNAMED
    --add-opens java.base/java.lang.reflect=ALL-UNNAMED
    --add-opens java.base/java.io=ALL-UNNAMED
    --add-opens java.base/sun.security.util=ALL-UNNAMED
)

# hadoop_class TOOL SUBCOMMAND: the main class of `TOOL SUBCOMMAND` (hdfs namenode, yarn node, ...),
# or nothing for an unknown one. A fully qualified class name runs as it is.
hadoop_class() {
    case "$1:$2" in
        hdfs:namenode) echo org.apache.hadoop.hdfs.server.namenode.NameNode ;;
        hdfs:datanode) echo org.apache.hadoop.hdfs.server.datanode.DataNode ;;
        hdfs:secondarynamenode) echo org.apache.hadoop.hdfs.server.namenode.SecondaryNameNode ;;
        hdfs:dfs | hadoop:fs | hadoop:dfs) echo org.apache.hadoop.fs.FsShell ;;
        hdfs:dfsadmin) echo org.apache.hadoop.hdfs.tools.DFSAdmin ;;
        hdfs:fsck) echo org.apache.hadoop.hdfs.tools.DFSck ;;
        hdfs:getconf) echo org.apache.hadoop.hdfs.tools.GetConf ;;
        hdfs:balancer) echo org.apache.hadoop.hdfs.server.balancer.Balancer ;;
        yarn:resourcemanager) echo org.apache.hadoop.yarn.server.resourcemanager.ResourceManager ;;
        yarn:nodemanager) echo org.apache.hadoop.yarn.server.nodemanager.NodeManager ;;
        yarn:node) echo org.apache.hadoop.yarn.client.cli.NodeCLI ;;
        yarn:application | yarn:app) echo org.apache.hadoop.yarn.client.cli.ApplicationCLI ;;
        yarn:rmadmin) echo org.apache.hadoop.yarn.client.cli.RMAdminCLI ;;
        yarn:logs) echo org.apache.hadoop.yarn.client.cli.LogsCLI ;;
        mapred:job) echo org.apache.hadoop.mapred.JobClient ;;
        *:jar) echo org.apache.hadoop.util.RunJar ;;
        *:version) echo org.apache.hadoop.util.VersionInfo ;;
        *:*.*) echo "$2" ;;
    esac
}

# hadoop_daemon_opts SUBCOMMAND: the HADOOP_<NAME>_OPTS / YARN_<NAME>_OPTS of a daemon.
hadoop_daemon_opts() {
    local upper
    upper="$(echo "$1" | tr '[:lower:]' '[:upper:]')"
    local h="HADOOP_${upper}_OPTS" y="YARN_${upper}_OPTS"
    echo "${!h:-} ${!y:-}"
}

# hadoop_java_args NAME: the JVM flags of a command or daemon called NAME (its log file is NAME.log).
hadoop_java_args() {
    local name="$1"
    local args=("${HADOOP_JVM_OPENS[@]}")
    [[ -n "${HADOOP_HEAPSIZE:-}" ]] && args+=("-Xmx$HADOOP_HEAPSIZE")
    args+=("-Dhadoop.log.dir=$HADOOP_LOG_DIR" "-Dhadoop.log.file=$name.log" "-Dhadoop.home.dir=$HADOOP_HOME"
        "-Dyarn.log.dir=$HADOOP_LOG_DIR" "-Dyarn.log.file=$name.log" "-Dyarn.home.dir=$HADOOP_HOME"
        "-Dhadoop.id.str=$(id -un)" "-Djava.net.preferIPv4Stack=true")
    printf '%s\n' "${args[@]}"
}

# hadoop_run TOOL SUBCOMMAND [ARGS...]: runs the command in the foreground (exec).
hadoop_run() {
    local tool="$1" sub="${2:-}"
    if [[ -z "$sub" || "$sub" == --help || "$sub" == -h ]]; then
        hadoop_usage "$tool"
        exit 1
    fi
    shift 2
    if [[ "$sub" == classpath ]]; then
        echo "$HADOOP_CLASSPATH_ALL"
        exit 0
    fi
    local class
    class="$(hadoop_class "$tool" "$sub")"
    if [[ -z "$class" ]]; then
        echo "$tool: unknown command '$sub'" >&2
        hadoop_usage "$tool"
        exit 1
    fi
    local jvm=()
    mapfile -t jvm < <(hadoop_java_args "$tool-$sub")
    local root_logger="${HADOOP_ROOT_LOGGER:-INFO,console}"
    # shellcheck disable=SC2206
    local extra=(${HADOOP_OPTS:-} $(hadoop_daemon_opts "$sub") ${HADOOP_CLIENT_OPTS:-})
    exec "$JAVA" "${jvm[@]}" "-Dhadoop.root.logger=$root_logger" "-Dyarn.root.logger=$root_logger" "${extra[@]}" \
        -cp "$HADOOP_CLASSPATH_ALL" "$class" "$@"
}

hadoop_usage() {
    case "$1" in
        hdfs) echo "usage: hdfs namenode [-format] | datanode | secondarynamenode | dfs | dfsadmin | fsck | getconf | balancer | classpath | version | <class> [args]" >&2 ;;
        yarn) echo "usage: yarn resourcemanager | nodemanager | node | application | rmadmin | logs | jar | classpath | version | <class> [args]" >&2 ;;
        mapred) echo "usage: mapred job | classpath | version | <class> [args]" >&2 ;;
        *) echo "usage: hadoop fs | jar | classpath | version | <class> [args]" >&2 ;;
    esac
}
