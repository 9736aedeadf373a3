#!/usr/bin/env bash
# TPC-H at a large scale factor with small heaps: a local cluster of 4 nodes in which every node
# and the coordinator have 2 GiB of heap runs the 22 queries; DuckDB answers them too and every
# answer is compared with its answer (tpch-peers.sh); the report gives each query's time and the
# bytes it spilled to disk. Writes <out>/<name>.json, .png and .md.
#
#   tpch-sf10.sh [--sf 10] [--cluster /tmp/ooo-sf10] [--heap 2g] [--repeat 1] [--out docs/benchmarks]
#                [--name tpch-sf10] [--hours 3] [--replication N] [--duckdb-memory 8GB] [--keep]
#
# Starts the cluster in --cluster (as root it passes --allow-root), loads the scale factor unless the
# directory already holds it, and stops the cluster at the end unless --keep. The whole run is
# bounded by --hours (default 3): past that it is stopped and the script fails. --replication 1 keeps
# one copy of each partition (the data on disk is about 2.5 GiB per scale factor and copy).
# DuckDB runs beside the cluster's idle JVMs with a memory limit (default 8GB), spilling beyond it:
# with its default, 80% of RAM, the kernel's OOM killer ended it at SF 10 on a 24 GiB machine.
set -euo pipefail

here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
root="$(cd "$here/../../../.." && pwd)"
ooo="${OOO:-$root/ooo}"
usage() { sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

sf=10 dir=/tmp/ooo-sf10 heap=2g repeat=1 out="$root/docs/benchmarks" name="tpch-sf10" hours=3 keep="" replication=() duckdb_memory=8GB
while [[ $# -gt 0 ]]; do
    case "$1" in
        --sf) sf="$2"; shift 2 ;;
        --cluster|--dir) dir="$2"; shift 2 ;;
        --heap) heap="$2"; shift 2 ;;
        --repeat) repeat="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --name) name="$2"; shift 2 ;;
        --hours) hours="$2"; shift 2 ;;
        --replication) replication=(--replication "$2"); shift 2 ;;
        --duckdb-memory) duckdb_memory="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) usage 0 ;;
        *) echo "tpch-sf10: unknown option $1" >&2; usage 2 ;;
    esac
done
root_flag=()
if [[ "$(id -u)" == 0 ]]; then
    root_flag=(--allow-root)
    export OOO_ALLOW_ROOT=1
fi

start=(cluster start --nodes 4 --cluster "$dir" --node-heap "$heap" --sql-heap "$heap" "${replication[@]}" "${root_flag[@]}")
"$ooo" "${start[@]}"
[[ -n "$keep" ]] || trap '"$ooo" cluster stop --cluster "$dir" >&2 || true' EXIT
if ! "$ooo" cluster status --cluster "$dir" | grep -q "lineitem=[1-9]"; then
    echo "tpch-sf10: loading TPC-H SF $sf into $dir" >&2
    timeout "${hours}h" "$ooo" load tpch --sf "$sf" --cluster "$dir"
fi
# the engine's coordinator part (ooo bench tpch) runs in a process of the same heap
OOO_HEAP="$heap" timeout "${hours}h" "$here/tpch-peers.sh" --sf "$sf" --cluster "$dir" --repeat "$repeat" \
    --engines duckdb,ooo --duckdb-memory "$duckdb_memory" --out "$out" --name "$name" \
    --note "nodes and coordinator with $heap of heap each (ooo bench tpch ran with OOO_HEAP=$heap)" \
    --command "./ooo ${start[*]}" --command "./ooo load tpch --sf $sf --cluster $dir"
