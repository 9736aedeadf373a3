#!/usr/bin/env bash
# TPC-H SF <sf>: the 22 queries of docs/queries/tpch on DuckDB (2 threads) and Spark SQL (local[2],
# over Parquet) and, given a running cluster loaded at the same SF, on the engine (ooo bench tpch),
# in one run on this machine; compares every engine's rows with DuckDB's and writes
# <out>/<name>.json, .png and .md (default: docs/benchmarks/tpch.*).
#
#   tpch-peers.sh --sf 1 [--cluster DIR] [--repeat 3] [--queries 1,3,...] [--engines duckdb,spark,ooo]
#                 [--out docs/benchmarks] [--name tpch] [--note "what else ran on the machine"]
#                 [--command "the cluster's start and load commands, listed in the document"]...
#
# The data comes from io.trino.tpch through the engine's TPC-H schema (TpchData.java), the generator
# 'ooo load tpch' uses, as '|'-separated files converted once to Parquet, kept under
# ~/.cache/ooo-bench/tpch-sf<sf> (OOO_BENCH_CACHE). The script makes its own Python virtual
# environment there (pyspark==4.0.1, duckdb, matplotlib from PyPI) on first use.
# Without --cluster only DuckDB and Spark run.
set -euo pipefail

here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
root="$(cd "$here/../../../.." && pwd)"
ooo="${OOO:-$root/ooo}"
cache="${OOO_BENCH_CACHE:-$HOME/.cache/ooo-bench}"
venv="$cache/venv"

die() { echo "tpch-peers: $*" >&2; exit 1; }
usage() { sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

sf="" cluster="" repeat=3 queries="" engines="" out="$root/docs/benchmarks" name="tpch" note="" commands=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --sf) sf="$2"; shift 2 ;;
        --cluster) cluster="$2"; shift 2 ;;
        --repeat) repeat="$2"; shift 2 ;;
        --queries) queries="$2"; shift 2 ;;
        --engines) engines="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --name) name="$2"; shift 2 ;;
        --note) note="$2"; shift 2 ;;
        --command) commands+=(--command "$2"); shift 2 ;;
        -h|--help) usage 0 ;;
        *) echo "tpch-peers: unknown option $1" >&2; usage 2 ;;
    esac
done
[[ -n "$sf" ]] || die "give --sf <scale factor>"
engines="${engines:-duckdb,spark${cluster:+,ooo}}"

if [[ ! -f "$venv/.installed" ]]; then
    echo "tpch-peers: Python environment in $venv (pyspark==4.0.1, duckdb, matplotlib)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q pyspark==4.0.1 duckdb matplotlib
    touch "$venv/.installed"
fi

# Builds the engine when needed; the generator runs on its classpath.
"$ooo" --version >/dev/null
classpath="$root/cluster-tools/target/cluster-tools.jar:$(sed "s#lib/#$root/cluster-tools/target/lib/#g" \
    "$root/cluster-tools/target/classpath.txt")"
data="$cache/tpch-sf$sf"
if [[ ! -f "$data/.complete" ]]; then
    echo "tpch-peers: generating TPC-H SF $sf into $data" >&2
    rm -rf "$data"
    java -cp "$classpath" "$here/TpchData.java" "$sf" "$data"
    touch "$data/.complete"
fi

args=("${commands[@]}" --sf "$sf" --data "$data" --queries-dir "$root/docs/queries/tpch" --repeat "$repeat" --engines "$engines"
      --out "$out" --name "$name" --ooo "$ooo" --note "$note"
      --command "cluster-tools/src/main/scripts/tpch-peers.sh --sf $sf${cluster:+ --cluster $cluster} --repeat $repeat${queries:+ --queries $queries} --engines $engines --name $name")
[[ -n "$queries" ]] && args+=(--queries "$queries")
[[ -n "$cluster" ]] && args+=(--cluster "$cluster" --command "./ooo cluster stop --cluster $cluster")
exec "$venv/bin/python" "$here/tpch_peers.py" "${args[@]}"
