#!/usr/bin/env bash
# Runs the transaction benchmarks of docs/benchmarks/transactions.md and writes their JSON.
#
#   bench-txn.sh matrix   [OUT]  five protocols x four workloads x 1 and 2 threads, under nvm-sim:50
#                                and fsync, plus RocksDB optimistic and pessimistic at the same
#                                settings (default OUT: docs/benchmarks/transactions.json)
#   bench-txn.sh headline [OUT]  U-10 under nvm-sim:50, every engine and protocol, three rounds
#                                interleaved (default OUT: docs/benchmarks/transactions-headline.json)
#
# Environment: BENCH_DIR (scratch directory, default /tmp/ooo-bench-txn), SECONDS_PER_RUN (3),
# ROWS (100000), THETA (0.5).
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../../.." && pwd)"
mode="${1:-matrix}"
dir="${BENCH_DIR:-/tmp/ooo-bench-txn}"
secs="${SECONDS_PER_RUN:-3}"
rows="${ROWS:-100000}"
theta="${THETA:-0.5}"
protocols=(nlr nlr-group:16 elr elr-group:16 elr-swal)
workloads=(U-1 U-10 U-5R-5 R-10)
mkdir -p "$dir"
lines="$(mktemp)"
trap 'rm -f "$lines"' EXIT

run() { # engine protocol durability workload threads
    "$root/ooo" bench txn --scratch "$dir" --engine "$1" --protocol "$2" --durability "$3" --workload "$4" \
        --threads "$5" --rows "$rows" --theta "$theta" --duration "$secs" --json | tee -a "$lines" >&2
}

case "$mode" in
matrix)
    out="${2:-$root/docs/benchmarks/transactions.json}"
    for durability in nvm-sim:50 fsync; do
        for workload in "${workloads[@]}"; do
            for threads in 1 2; do
                for protocol in "${protocols[@]}"; do
                    run ooo "$protocol" "$durability" "$workload" "$threads"
                done
                for engine in rocksdb-optimistic rocksdb-pessimistic; do
                    run "$engine" nlr "$durability" "$workload" "$threads"
                done
            done
        done
    done
    ;;
headline)
    out="${2:-$root/docs/benchmarks/transactions-headline.json}"
    for round in 1 2 3; do
        for threads in 1 2; do
            for protocol in "${protocols[@]}"; do
                run ooo "$protocol" nvm-sim:50 U-10 "$threads"
            done
            for engine in rocksdb-optimistic rocksdb-pessimistic; do
                run "$engine" nlr nvm-sim:50 U-10 "$threads"
            done
        done
    done
    ;;
*)
    echo "usage: $0 matrix|headline [OUT]" >&2
    exit 2
    ;;
esac
jq -s . "$lines" > "$out"
echo "wrote $(jq length "$out") runs to $out" >&2
