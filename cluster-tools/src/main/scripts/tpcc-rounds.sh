#!/usr/bin/env bash
# TPC-C rounds, both engines side by side: in every round each engine gets a freshly started local
# cluster with TPC-C freshly loaded, a warm-up run that is not counted (the nodes' code is not
# compiled yet), then a measured run per terminal count; the cluster is stopped and deleted before
# the other engine's. Engines alternate which goes first from round to round.
#
#   tpcc-rounds.sh [--rounds 3] [--clients "8 32"] [--warehouses 4] [--nodes 4] [--seconds 20]
#                  [--warmup 20] [--node-heap 4g] [--node-gc g1|parallel] [--cluster /tmp/ooo-tpcc-rounds]
#                  [--out <file.jsonl>]
#
# Every run's JSON goes to --out (one line each, with its round); at the end one JSON object per
# terminal count: the median tpmC of each engine over the rounds and their ratio.
set -euo pipefail

here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
root="$(cd "$here/../../../.." && pwd)"
ooo="${OOO:-$root/ooo}"
usage() { sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

rounds=3 clients="8 32" warehouses=4 nodes=4 seconds=20 warmup=20 heap=4g gc=g1 dir=/tmp/ooo-tpcc-rounds out=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --clients) clients="$2"; shift 2 ;;
        --warehouses) warehouses="$2"; shift 2 ;;
        --nodes) nodes="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --node-heap) heap="$2"; shift 2 ;;
        --node-gc) gc="$2"; shift 2 ;;
        --cluster|--dir) dir="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        -h|--help) usage 0 ;;
        *) echo "tpcc-rounds: unknown option $1" >&2; usage 2 ;;
    esac
done
root_flag=()
if [[ "$(id -u)" == 0 ]]; then
    root_flag=(--allow-root)
    export OOO_ALLOW_ROOT=1
fi
out="${out:-$dir.jsonl}"
: > "$out"
trap '"$ooo" cluster stop --cluster "$dir" >/dev/null 2>&1 || true' EXIT

engines=(ooo rocksdb-pessimistic)
for ((round = 1; round <= rounds; round++)); do
    order=("${engines[@]}")
    if (( round % 2 == 0 )); then
        order=("${engines[1]}" "${engines[0]}")
    fi
    for engine in "${order[@]}"; do
        "$ooo" cluster stop --cluster "$dir" >/dev/null 2>&1 || true
        rm -rf "$dir"
        "$ooo" cluster start --nodes "$nodes" --cluster "$dir" --sql-port 0 --base-port 7401 --node-heap "$heap" \
            --node-gc "$gc" "${root_flag[@]}" >&2
        first=${clients%% *}
        echo "round $round, $engine: loading and warming up" >&2
        "$ooo" bench tpcc --cluster "$dir" --engine "$engine" --warehouses "$warehouses" --clients "$first" \
            --warmup 0 --duration "$warmup" --json >/dev/null
        for n in $clients; do
            line=$("$ooo" bench tpcc --cluster "$dir" --engine "$engine" --warehouses "$warehouses" --clients "$n" \
                --duration "$seconds" --json)
            echo "round $round, $engine, $n terminals: $line" >&2
            echo "{\"round\":$round,\"node_gc\":\"$gc\",${line#\{}" >> "$out"
        done
    done
done

python3 - "$out" <<'EOF'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for n in sorted({r["clients"] for r in runs}):
    med = {e: statistics.median(r["tpmC"] for r in runs if r["clients"] == n and r["engine"] == e)
           for e in ("ooo", "rocksdb-pessimistic")}
    ok = all(r["consistency_ok"] for r in runs if r["clients"] == n)
    print(json.dumps({"clients": n, "rounds": sum(1 for r in runs if r["clients"] == n and r["engine"] == "ooo"),
                      "ooo_tpmC": med["ooo"], "rocksdb_tpmC": med["rocksdb-pessimistic"],
                      "ratio": round(med["ooo"] / med["rocksdb-pessimistic"], 2), "consistency_ok": ok}))
EOF
