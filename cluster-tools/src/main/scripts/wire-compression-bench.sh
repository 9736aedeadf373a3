#!/usr/bin/env bash
# TPC-H on a loaded cluster with the members' frames sent plain and LZ4-compressed, alternated:
# per round and setting, the cluster restarted with ooo cluster start --wire-compression, a
# warm-up pass of ooo bench tpch, then --repeat timed passes; prints a JSON line each with the
# sum of the query medians, the bytes that crossed the loopback (members on one host) and the CPU
# seconds of the coordinator and nodes over the timed passes. Arguments after -- go to ooo bench
# tpch (e.g. --set ooo.join.method=hash). To emulate a slower link between members, hold the
# loopback to a rate first: tc qdisc add dev lo root tbf rate 1gbit burst 256kb latency 50ms.
set -euo pipefail

usage() {
    cat <<EOF
Usage: $0 --cluster DIR [--rounds N] [--repeat N] [--ooo PATH] [-- BENCH-ARGS...]
  --cluster DIR   a cluster on this host loaded with ooo load tpch (it is restarted)
  --rounds N      rounds of none then lz4 (default 2)
  --repeat N      timed passes per setting after one warm-up (default 3)
  --ooo PATH      the ooo launcher to run (default: the one of this checkout)
EOF
}

here="$(cd "$(dirname "$0")/../../../.." && pwd)"
cluster="" rounds=2 repeat=3 ooo="$here/ooo" bench_args=()
while [[ $# -gt 0 ]]; do
    if [[ "$1" =~ ^--(cluster|rounds|repeat|ooo)$ && $# -lt 2 ]]; then
        echo "$1 needs a value" >&2; usage >&2; exit 2
    fi
    case "$1" in
        --cluster) cluster="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --repeat) repeat="$2"; shift 2 ;;
        --ooo) ooo="$2"; shift 2 ;;
        --) shift; bench_args=("$@"); break ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
done
[[ -n "$cluster" ]] || { echo "--cluster is required" >&2; usage >&2; exit 2; }
for n in "$rounds" "$repeat"; do
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "--rounds and --repeat take positive integers, not $n" >&2; usage >&2; exit 2; }
done

loopback_bytes() { awk '/ lo:/ {print $2}' /proc/net/dev; }
# CPU ticks (user + system) of the coordinator and the nodes, from their pid files
cpu_ticks() {
    local total=0 pid
    for f in "$cluster"/run/*.pid; do
        [[ "$f" == *.supervisor.pid ]] && continue
        pid=$(head -1 "$f" 2>/dev/null || true)
        if [[ -n "$pid" && -r /proc/$pid/stat ]]; then
            total=$((total + $(awk '{print $14 + $15}' /proc/"$pid"/stat)))
        fi
    done
    echo "$total"
}

out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ((r = 1; r <= rounds; r++)); do
    for mode in none lz4; do
        "$ooo" cluster stop --cluster "$cluster" --quiet >/dev/null
        "$ooo" cluster start --cluster "$cluster" --wire-compression "$mode" --quiet >/dev/null
        "$ooo" bench tpch --cluster "$cluster" --repeat 1 --quiet --json "${bench_args[@]}" >/dev/null
        b0=$(loopback_bytes) c0=$(cpu_ticks)
        "$ooo" bench tpch --cluster "$cluster" --repeat "$repeat" --quiet --json "${bench_args[@]}" >"$out"
        b1=$(loopback_bytes) c1=$(cpu_ticks)
        python3 - "$out" "$mode" "$r" "$((b1 - b0))" "$((c1 - c0))" "$(getconf CLK_TCK)" <<'PY'
import json, sys
run, mode, rnd, lo, ticks, hz = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
qs = json.load(open(run))["queries"]
print(json.dumps({"mode": mode, "round": rnd, "total_s": round(sum(q["median_s"] for q in qs), 3),
                  "loopback_mb": round(lo / 1e6, 1), "cluster_cpu_s": round(ticks / hz, 2),
                  "q": {q["query"]: q["median_s"] for q in qs}}))
PY
    done
done
