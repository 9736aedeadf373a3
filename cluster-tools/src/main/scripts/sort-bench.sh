#!/usr/bin/env bash
# Times ORDER BY ... LIMIT, ORDER BY and window functions over TPC-H SF 1 on a running cluster:
# per query the total EXPLAIN ANALYZE reports (the statement as the engine ran it, without the
# shell's start), one warm-up then --runs runs; prints a JSON line per query with every run and
# the median. Run it with two builds against the same cluster to compare them; --queries times
# other queries the same way.
set -euo pipefail

usage() {
    cat <<EOF
Usage: $0 --cluster DIR [--runs N] [--label TEXT] [--ooo PATH] [--queries FILE]
  --cluster DIR   a running cluster loaded with ooo load tpch --sf 1
  --runs N        timed runs per query after one warm-up (default 5)
  --label TEXT    "build" field of each line (default: the build's commit)
  --ooo PATH      the ooo launcher to run (default: the one of this checkout)
  --queries FILE  the queries to time, one per line (default: the sorts and windows below)
EOF
}

here="$(cd "$(dirname "$0")/../../../.." && pwd)"
cluster="" runs=5 label="" ooo="$here/ooo" queries_file=""
while [[ $# -gt 0 ]]; do
    if [[ "$1" =~ ^--(cluster|runs|label|ooo|queries)$ && $# -lt 2 ]]; then
        echo "$1 needs a value" >&2; usage >&2; exit 2
    fi
    case "$1" in
        --cluster) cluster="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --label) label="$2"; shift 2 ;;
        --ooo) ooo="$2"; shift 2 ;;
        --queries) queries_file="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
done
[[ -n "$cluster" ]] || { echo "--cluster is required" >&2; usage >&2; exit 2; }
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "--runs must be a positive integer, not $runs" >&2; usage >&2; exit 2; }
[[ -n "$label" ]] || label="$(git -C "$(dirname "$ooo")" rev-parse --short HEAD)"

queries=(
    "select l_orderkey, l_extendedprice from lineitem order by l_extendedprice desc limit 10"
    "select * from lineitem order by l_shipdate, l_orderkey limit 5"
    "select l_orderkey, l_comment from lineitem order by l_comment limit 10"
    "select o_orderkey, o_totalprice from orders where o_orderstatus = 'F' order by o_orderdate desc, o_totalprice limit 100"
    "select o_orderkey, o_orderdate from orders order by o_orderdate, o_orderkey desc limit 200000"
    "select max(r) from (select rank() over (partition by o_custkey order by o_totalprice desc) r from orders) t"
    "select count(*) from (select o_custkey, row_number() over (partition by o_custkey order by o_orderdate) r from orders) t where r <= 2"
)
if [[ -n "$queries_file" ]]; then
    [[ -r "$queries_file" ]] || { echo "cannot read --queries $queries_file" >&2; usage >&2; exit 2; }
    mapfile -t queries < <(grep -v '^[[:space:]]*$' "$queries_file")
    [[ ${#queries[@]} -gt 0 ]] || { echo "no query in $queries_file" >&2; exit 2; }
fi

for q in "${queries[@]}"; do
    times=()
    for ((i = 0; i <= runs; i++)); do
        # the plan's first operator line carries the statement's total: "[actual rows N, T s"
        t=$("$ooo" sql --cluster "$cluster" --quiet -e "explain analyze $q" | grep -m1 -o "actual rows [0-9,]*, [0-9.]* s" \
            | grep -o "[0-9.]* s$" | tr -d " s")
        [[ -n "$t" ]] || { echo "no time in EXPLAIN ANALYZE of: $q" >&2; exit 1; }
        ((i > 0)) && times+=("$t")
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
    printf '{"build":"%s","query":"%s","runs_s":[%s],"median_s":%s}\n' "$label" "$q" "$(IFS=,; echo "${times[*]}")" "$median"
done
