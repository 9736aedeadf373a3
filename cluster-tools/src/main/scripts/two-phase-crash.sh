#!/usr/bin/env bash
# Crash test of transactions across nodes: a local cluster moves money between accounts on
# different nodes (ooo bench transfers, every transfer a two-phase commit that records itself)
# while, once per run, a random node or the client coordinating the commits is killed with
# SIGKILL at a random moment; a killed node is started again. After every run the tables are
# checked: every transfer the client was told committed is recorded, every balance is what the
# recorded transfers make of the opening ones (no transaction half applied), the total is intact.
#
#   two-phase-crash.sh [--runs 100] [--nodes 4] [--cluster /tmp/ooo-2pc-crash] [--seconds 3]
#                      [--accounts 64] [--tpcc W] [--copies] [--out <file.json>] [--minutes 60]
#
# With --copies, every node keeps analytical copies of the two tables (HTAP): the kills land while
# commits are applied to them and, now and then, during a switch of copies; after every run each
# node's copies must come to hold what its tables hold, row for row.
#
# With --tpcc W, W TPC-C warehouses are loaded too, TPC-C terminals run beside the transfers in
# every run (killed with them when the client is the victim), and the consistency conditions are
# checked after every run. Prints one JSON object (and writes it to --out): runs, kills of nodes
# and of clients, transfers acknowledged and recorded, and whether every check passed. Stops at
# the first failed check (exit 1). The whole run is bounded by --minutes. The cluster directory
# is created anew.
set -euo pipefail

here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
root="$(cd "$here/../../../.." && pwd)"
ooo="${OOO:-$root/ooo}"
usage() { sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

runs=100 nodes=4 dir=/tmp/ooo-2pc-crash seconds=3 accounts=64 tpcc=0 out="" minutes=60 copies=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --nodes) nodes="$2"; shift 2 ;;
        --cluster|--dir) dir="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --accounts) accounts="$2"; shift 2 ;;
        --tpcc) tpcc="$2"; shift 2 ;;
        --copies) copies=(--copies); shift ;;
        --out) out="$2"; shift 2 ;;
        --minutes) minutes="$2"; shift 2 ;;
        -h|--help) usage 0 ;;
        *) echo "two-phase-crash: unknown option $1" >&2; usage 2 ;;
    esac
done
root_flag=()
if [[ "$(id -u)" == 0 ]]; then
    root_flag=(--allow-root)
    export OOO_ALLOW_ROOT=1
fi

"$ooo" cluster stop --cluster "$dir" >/dev/null 2>&1 || true
rm -rf "$dir"
"$ooo" cluster start --nodes "$nodes" --cluster "$dir" --sql-port 0 --base-port 7301 --node-heap 512m "${root_flag[@]}" >&2
trap '"$ooo" cluster stop --cluster "$dir" >/dev/null 2>&1 || true' EXIT
"$ooo" bench transfers --cluster "$dir" --setup --accounts "$accounts" "${copies[@]}" >&2
acked="$dir/acked.txt"
: > "$acked"
if (( tpcc > 0 )); then
    "$ooo" bench tpcc --cluster "$dir" --warehouses "$tpcc" --clients 1 --duration 1 --json >&2
fi

started=$(date +%s)
deadline=$((started + minutes * 60))
node_kills=0 client_kills=0 check="{}"
for ((run = 1; run <= runs; run++)); do
    if (( $(date +%s) > deadline )); then
        echo "two-phase-crash: past --minutes $minutes after $((run - 1)) runs" >&2
        exit 1
    fi
    acked_before=$(stat -c %s "$acked" 2>/dev/null || echo 0)
    "$ooo" bench transfers --cluster "$dir" --duration "$seconds" --accounts "$accounts" --acked "$acked" \
        >"$dir/client.json" 2>"$dir/client.log" &
    client=$!
    terminals=""
    if (( tpcc > 0 )); then
        "$ooo" bench tpcc --cluster "$dir" --warehouses "$tpcc" --clients 2 --duration "$seconds" --json \
            >"$dir/tpcc.json" 2>"$dir/tpcc.log" &
        terminals=$!
    fi
    # somewhere in the client's run, while transfers commit: from its first acknowledged transfer on
    # (a busy machine may take seconds to start its JVM), up to 30 s
    for ((wait = 0; wait < 300; wait++)); do
        (( $(stat -c %s "$acked" 2>/dev/null || echo 0) > acked_before )) && break
        kill -0 "$client" 2>/dev/null || break
        sleep 0.1
    done
    sleep "$(awk -v s="$seconds" -v r="$RANDOM" 'BEGIN { printf "%.2f", (s - 0.5) * r / 32768 }')"
    if (( RANDOM % 3 == 0 )); then
        kill -9 "$client" $terminals 2>/dev/null || true
        client_kills=$((client_kills + 1))
        victim="client"
    else
        victim="n$((RANDOM % nodes + 1))"
        pid=$(head -n 1 "$dir/run/$victim.pid")
        kill -9 "$pid" 2>/dev/null || true
        node_kills=$((node_kills + 1))
        while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
        sleep "0.$((RANDOM % 10))"
        if ! "$ooo" cluster start --cluster "$dir" --sql-port 0 "${root_flag[@]}" >"$dir/restart.log" 2>&1; then
            echo "two-phase-crash: run $run: node $victim did not start again: $(cat "$dir/restart.log")" >&2
            exit 1
        fi
    fi
    wait "$client" 2>/dev/null || true
    [[ -z "$terminals" ]] || wait "$terminals" 2>/dev/null || true
    if (( tpcc > 0 )) && ! tpcc_check=$("$ooo" bench tpcc --cluster "$dir" --warehouses "$tpcc" --check --json); then
        echo "two-phase-crash: run $run (killed $victim): TPC-C's consistency conditions fail: $tpcc_check" >&2
        exit 1
    fi
    if ! check=$("$ooo" bench transfers --cluster "$dir" --verify --accounts "$accounts" --acked "$acked"); then
        echo "two-phase-crash: run $run (killed $victim) failed its check: $check" >&2
        exit 1
    fi
    echo "run $run: killed $victim; $check" >&2
done

acknowledged=$(echo "$check" | sed -n 's/.*"acknowledged_transfers":\([0-9]*\).*/\1/p')
recorded=$(echo "$check" | sed -n 's/.*"recorded_transfers":\([0-9]*\).*/\1/p')
result=$(printf '{"runs":%d,"nodes":%d,"node_kills":%d,"client_kills":%d,"acknowledged_transfers":%s,"recorded_transfers":%s,"tpcc_warehouses":%d,"analytical_copies":%s,"all_checks_ok":true,"seconds":%d}' \
    "$runs" "$nodes" "$node_kills" "$client_kills" "${acknowledged:-0}" "${recorded:-0}" "$tpcc" \
    "$( (( ${#copies[@]} )) && echo true || echo false)" $(( $(date +%s) - started )))
echo "$result"
[[ -z "$out" ]] || echo "$result" > "$out"
