# What tpch-peers.sh and tpcds-peers.sh share, sourced by them with $bench set (tpch or tpcds):
# their options, the Python environment, the engine's classpath and the start of the Python part.
# The caller's header comment is its usage.

here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
root="$(cd "$here/../../../.." && pwd)"
ooo="${OOO:-$root/ooo}"
cache="${OOO_BENCH_CACHE:-$HOME/.cache/ooo-bench}"
venv="$cache/venv"
caller="$(readlink -f "$0")"

die() { echo "$bench-peers: $*" >&2; exit 1; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$caller"; exit "${1:-0}"; }

# peers_options "$@": sets sf, cluster, repeat, queries, engines, out, name (default: $default_name,
# else $bench), note, timeout, spark_memory, duckdb_memory, warm_engine, commands.
peers_options() {
    sf="" cluster="" repeat=3 queries="" engines="" out="$root/docs/benchmarks" name="${default_name:-$bench}" note="" timeout=""
    spark_memory="" duckdb_memory="" warm_engine="" commands=()
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --sf) sf="$2"; shift 2 ;;
            --cluster) cluster="$2"; shift 2 ;;
            --repeat) repeat="$2"; shift 2 ;;
            --queries) queries="$2"; shift 2 ;;
            --engines) engines="$2"; shift 2 ;;
            --timeout) timeout="$2"; shift 2 ;;
            --spark-memory) spark_memory="$2"; shift 2 ;;
            --duckdb-memory) duckdb_memory="$2"; shift 2 ;;
            --out) out="$2"; shift 2 ;;
            --name) name="$2"; shift 2 ;;
            --note) note="$2"; shift 2 ;;
            --warm-engine) warm_engine=1; shift ;;
            --command) commands+=(--command "$2"); shift 2 ;;
            -h|--help) usage 0 ;;
            *) echo "$bench-peers: unknown option $1" >&2; usage 2 ;;
        esac
    done
    [[ -n "$sf" ]] || die "give --sf <scale factor>"
    engines="${engines:-duckdb,spark${cluster:+,ooo}}"
}

# The Python environment, made on first use.
peers_venv() {
    if [[ ! -f "$venv/.installed" ]]; then
        echo "$bench-peers: Python environment in $venv (pyspark==4.0.1, duckdb, matplotlib)" >&2
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q pyspark==4.0.1 duckdb matplotlib
        touch "$venv/.installed"
    fi
}

# Builds the engine when needed and sets $classpath: the data generators run on it.
peers_classpath() {
    "$ooo" --version >/dev/null
    classpath="$root/cluster-tools/target/cluster-tools.jar:$(sed "s#lib/#$root/cluster-tools/target/lib/#g" \
        "$root/cluster-tools/target/classpath.txt")"
}

# peers_run <data dir> [more arguments of the Python part]: replaces the shell with <bench>_peers.py.
peers_run() {
    local data="$1"
    shift
    local args=("${commands[@]}" --sf "$sf" --data "$data" --queries-dir "$root/docs/queries/$bench"
          --repeat "$repeat" --engines "$engines" --out "$out" --name "$name" --ooo "$ooo" --note "$note"
          --command "cluster-tools/src/main/scripts/$bench-peers.sh --sf $sf${cluster:+ --cluster $cluster} --repeat $repeat${queries:+ --queries $queries}${timeout:+ --timeout $timeout}${spark_memory:+ --spark-memory $spark_memory}${duckdb_memory:+ --duckdb-memory $duckdb_memory}${warm_engine:+ --warm-engine} --engines $engines --name $name")
    [[ -n "$queries" ]] && args+=(--queries "$queries")
    [[ -n "$timeout" ]] && args+=(--timeout "$timeout")
    [[ -n "$spark_memory" ]] && args+=(--spark-driver-memory "$spark_memory")
    [[ -n "$duckdb_memory" ]] && args+=(--duckdb-memory "$duckdb_memory")
    [[ -n "$warm_engine" ]] && args+=(--warm-engine)
    [[ -n "$cluster" ]] && args+=(--cluster "$cluster" --command "./ooo cluster stop --cluster $cluster")
    exec "$venv/bin/python" "$here/${bench}_peers.py" "${args[@]}" "$@"
}
