#!/usr/bin/env bash
# Statements that exhaust the nodes, run side by side: a local cluster of --nodes nodes (default
# heaps: 1 GiB each) loaded with TPC-H at --sf runs `ooo bench stress` (8 clients for 5 minutes of
# a cross join, a grouped self-join of lineitem and TPC-H queries, every node's status asked each
# second, a TPC-H query timed before and after). Writes <out>/<name>.json and prints it.
#
#   stress.sh [--sf 1] [--nodes 4] [--clients 8] [--seconds 300] [--node-heap 1g]
#             [--cluster /tmp/ooo-stress] [--out docs/benchmarks] [--name stress-sf1] [--minutes 40] [--keep]
#
# Starts the cluster in --cluster (as root it passes --allow-root), loads the scale factor unless the
# directory already holds it, and stops the cluster at the end unless --keep. The whole run is
# bounded by --minutes: past that it is stopped and the script fails. Exit code: that of
# `ooo bench stress` (0 when every node answered within 2 s, every failure had a named cause and
# no client hung).
set -euo pipefail

here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
root="$(cd "$here/../../../.." && pwd)"
ooo="${OOO:-$root/ooo}"
usage() { sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

sf=1 nodes=4 clients=8 seconds=300 heap=1g dir=/tmp/ooo-stress out="$root/docs/benchmarks" name="stress-sf1"
minutes=40 keep=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --sf) sf="$2"; shift 2 ;;
        --nodes) nodes="$2"; shift 2 ;;
        --clients) clients="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --node-heap) heap="$2"; shift 2 ;;
        --cluster|--dir) dir="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --name) name="$2"; shift 2 ;;
        --minutes) minutes="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) usage 0 ;;
        *) echo "stress: unknown option $1" >&2; usage 2 ;;
    esac
done
for n in "$sf" "$nodes" "$clients" "$seconds" "$minutes"; do
    [[ "$n" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "stress: '$n' is not a number" >&2; usage 2; }
done
root_flag=()
if [[ "$(id -u)" == 0 ]]; then
    root_flag=(--allow-root)
    export OOO_ALLOW_ROOT=1
fi

start=(cluster start --nodes "$nodes" --replication 1 --cluster "$dir" --node-heap "$heap" "${root_flag[@]}")
timeout 300 "$ooo" "${start[@]}"
[[ -n "$keep" ]] || trap '"$ooo" cluster stop --cluster "$dir" >&2 || true' EXIT
if ! "$ooo" cluster status --cluster "$dir" | grep -q "lineitem=[1-9]"; then
    echo "stress: loading TPC-H SF $sf into $dir" >&2
    timeout "${minutes}m" "$ooo" load tpch --sf "$sf" --cluster "$dir"
fi
mkdir -p "$out"
status=0
timeout "${minutes}m" "$ooo" bench stress --cluster "$dir" --clients "$clients" --duration "$seconds" \
    > "$out/$name.json.tmp" || status=$?
python3 - "$out/$name.json.tmp" "$out/$name.json" "$sf" "$nodes" "$heap" "./ooo ${start[*]}" "$clients" "$seconds" <<'PY'
import json, os, platform, subprocess, sys
src, dst, sf, nodes, heap, start, clients, seconds = sys.argv[1:]
with open(src) as f:
    lines = f.read().strip().splitlines()
if not lines:
    sys.exit("stress: ooo bench stress printed no result (see its errors above)")
result = json.loads(lines[-1])
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
result["setup"] = {"scaleFactor": float(sf), "nodes": int(nodes), "nodeHeap": heap, "commit": commit,
                   "cores": os.cpu_count(), "machine": platform.platform(),
                   "commands": [start, "./ooo load tpch --sf %s --cluster <dir>" % sf,
                                "./ooo bench stress --cluster <dir> --clients %s --duration %s" % (clients, seconds)]}
with open(dst, "w") as f:
    json.dump(result, f, indent=2)
    f.write("\n")
os.remove(src)
print(json.dumps(result, indent=2))
PY
exit "$status"
