#!/usr/bin/env bash
# A keyed INSERT of every lineitem row with a node killed while it runs: a local cluster loaded with
# TPC-H at --sf copies lineitem into a table with a primary key (written in place on every node, in
# one statement), and once per run node n<--nodes> is killed with SIGKILL at a random moment of
# the statement; its supervisor starts it again. After every run the table holds every row or none,
# and every row when the client was told the INSERT succeeded.
#
#   kill-insert.sh [--runs 5] [--sf 0.1] [--nodes 3] [--cluster /tmp/ooo-kill-insert]
#                  [--out <file.json>] [--minutes 30] [--keep]
#
# Run 0 is not killed: it measures how long the INSERT takes, and the kills of the other runs fall
# at random within that time. Prints one JSON object (and writes it to --out): the rows, each run's
# kill moment, the client's answer and the rows found after, and whether every run held. Exit
# code 1 at the first run that did not; the whole run is bounded by --minutes.
set -euo pipefail

here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
root="$(cd "$here/../../../.." && pwd)"
ooo="${OOO:-$root/ooo}"
usage() { sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

args=("$@")
runs=5 sf=0.1 nodes=3 dir=/tmp/ooo-kill-insert out="" minutes=30 keep=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --sf) sf="$2"; shift 2 ;;
        --nodes) nodes="$2"; shift 2 ;;
        --cluster|--dir) dir="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --minutes) minutes="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) usage 0 ;;
        *) echo "kill-insert: unknown option $1" >&2; usage 2 ;;
    esac
done
for n in "$runs" "$sf" "$nodes" "$minutes"; do
    [[ "$n" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "kill-insert: '$n' is not a number" >&2; usage 2; }
done
if [[ -z "${KILL_INSERT_BOUNDED:-}" ]]; then
    KILL_INSERT_BOUNDED=1 exec timeout "${minutes}m" "${BASH_SOURCE[0]}" "${args[@]}"
fi
root_flag=()
if [[ "$(id -u)" == 0 ]]; then
    root_flag=(--allow-root)
    export OOO_ALLOW_ROOT=1
fi
victim="n$nodes"
log() { echo "kill-insert: $*" >&2; }
sql() { "$ooo" sql --cluster "$dir" -e "$1" 2>&1; }
# The single value of a one-row, one-column answer (ooo sql prints a header line, then the row).
value() { sql "$1" | grep -E '^[|[:space:]]*[0-9]+[|[:space:]]*$' | tr -dc '0-9'; }

rm -rf "$dir"
# Every run kills the victim: its supervisor must not give up after the default 5 restarts in a row.
export OOO_MAX_RESTARTS=1000
"$ooo" cluster start --nodes "$nodes" --replication 1 --cluster "$dir" "${root_flag[@]}" >&2
[[ -n "$keep" ]] || trap '"$ooo" cluster stop --cluster "$dir" >&2 || true' EXIT
"$ooo" load tpch --sf "$sf" --cluster "$dir" >&2
rows="$(value "SELECT count(*) FROM lineitem")"
log "lineitem: $rows rows"

fresh_table() {
    sql "DROP TABLE IF EXISTS keyed" >/dev/null
    sql "CREATE TABLE keyed (id bigint, comment string, PRIMARY KEY (id) DISABLE NOVALIDATE)" >/dev/null
}
insert="INSERT INTO keyed SELECT l_orderkey * 8 + l_linenumber, l_comment FROM lineitem"

# Until the victim answers again (its supervisor restarts it 2 s after it ended).
await_victim() {
    for _ in $(seq 1 120); do
        "$ooo" cluster status --cluster "$dir" --node "$victim" >/dev/null 2>&1 && return 0
        sleep 1
    done
    log "$victim did not answer again within 120 s"
    return 1
}

results="$(mktemp)"
ok=true
for run in $(seq 0 "$runs"); do
    fresh_table
    t0=$(date +%s.%N)
    "$ooo" sql --cluster "$dir" -e "$insert" >"$dir/insert.out" 2>&1 &
    client=$!
    kill_at=null
    if [[ "$run" -gt 0 ]]; then
        kill_at=$(python3 -c "import random; print(round(random.uniform(0.2, $took), 2))")
        sleep "$kill_at"
        pid="$(head -n 1 "$dir/run/$victim.pid" 2>/dev/null || true)"
        [[ -n "$pid" ]] && kill -KILL "$pid" 2>/dev/null || log "run $run: $victim had already ended"
    fi
    answer=0
    wait "$client" || answer=$?
    elapsed=$(python3 -c "import time; print(round(time.time() - $t0, 2))")
    [[ "$run" -eq 0 ]] && took="$elapsed"
    await_victim
    found="$(value "SELECT count(*) FROM keyed")"
    said="$(tail -n 3 "$dir/insert.out" | tr '\n' ' ' | cut -c1-300)"
    held=false
    if [[ "$answer" -eq 0 && "$found" == "$rows" ]] || [[ "$answer" -ne 0 && ( "$found" == 0 || "$found" == "$rows" ) ]]; then
        held=true
    fi
    python3 -c 'import json, sys
print(json.dumps({"run": int(sys.argv[1]), "killAtSeconds": None if sys.argv[2] == "null" else float(sys.argv[2]),
  "seconds": float(sys.argv[3]), "clientExit": int(sys.argv[4]), "rowsAfter": int(sys.argv[5] or -1), "held": sys.argv[6] == "true",
  "clientSaid": sys.argv[7]}))' "$run" "$kill_at" "$elapsed" "$answer" "$found" "$held" "$said" >>"$results"
    log "run $run: killed $victim at ${kill_at} s; client exit $answer after $elapsed s; $found of $rows rows after"
    if [[ "$held" != true ]]; then
        ok=false
        break
    fi
done

report="$(python3 -c 'import json, sys, subprocess
runs = [json.loads(l) for l in open(sys.argv[1])]
print(json.dumps({"command": "cluster-tools/src/main/scripts/kill-insert.sh " + sys.argv[5],
  "sf": float(sys.argv[2]), "nodes": int(sys.argv[3]), "rows": int(sys.argv[4]), "victim": "n" + sys.argv[3],
  "commit": subprocess.run(["git", "-C", sys.argv[6], "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip(),
  "runs": runs, "killed": sum(1 for r in runs if r["killAtSeconds"] is not None),
  "clientFailed": sum(1 for r in runs if r["clientExit"] != 0), "allHeld": all(r["held"] for r in runs)}, indent=1))' \
    "$results" "$sf" "$nodes" "$rows" "--runs $runs --sf $sf --nodes $nodes" "$root")"
rm -f "$results"
echo "$report"
[[ -z "$out" ]] || echo "$report" >"$out"
[[ "$ok" == true ]]
