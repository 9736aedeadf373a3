#!/usr/bin/env bash
# Checks the weak-scaling model (ooo bench scaling, docs/benchmarks/scaling.md) against measurements:
# clusters of 1, 2, 4, 8 nodes with the same TPC-H data per node, all on this machine — either local
# (every node on loopback) or each node on a host of its own made as a Linux network namespace
# (deploy/netns-hosts.sh up --network-only: its own address on a bridge, a real network stack
# between the nodes). For each size it loads SF (sf-per-node x N), calibrates, runs seed 004's joins
# out of order and cold (ooo bench join) and TPC-H Q1 and Q3 (ooo bench tpch); then it predicts the
# same runs with the model from the 1- and 2-node calibrations (--local: the nodes share this
# machine's cores and device) and prints one JSON object: predicted and measured seconds (medians)
# per query, selectivity and node count, with the error.
#
#   scaling-validate.sh [--nodes "1 2 4 8"] [--placement local|netns] [--sf-per-node 0.1] [--repeat 3]
#                       [--selectivities "0.01 0.001"] [--queries "OL PL Q3 Q8"] [--node-cv 0.068]
#                       [--out DIR] [--no-build]
#
# --placement netns needs root and 'ip netns' (else it says so and exits 2). Raw runs go to DIR
# (default /tmp/ooo-scaling-<placement>): calibration-N.json, join-N.jsonl, tpch-N.json,
# predicted-S.jsonl, validation.json, validation-S.png. Time: about 11 minutes for 1, 2, 4 and 8 nodes on an
# idle 2-core machine.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
nodes_list="1 2 4 8" placement=local sf_per_node=0.1 repeat=3 selectivities="0.01 0.001" queries="OL PL Q3 Q8"
node_cv=0.068 out="" build=true
usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
    case "$1" in
        --nodes) nodes_list="$2"; shift 2 ;;
        --placement) placement="$2"; shift 2 ;;
        --sf-per-node) sf_per_node="$2"; shift 2 ;;
        --repeat) repeat="$2"; shift 2 ;;
        --selectivities) selectivities="$2"; shift 2 ;;
        --queries) queries="$2"; shift 2 ;;
        --node-cv) node_cv="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --no-build) build=false; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "scaling-validate: unknown argument $1" >&2; usage >&2; exit 2 ;;
    esac
done
[[ "$placement" == local || "$placement" == netns ]] || { echo "scaling-validate: --placement local or netns" >&2; exit 2; }
for v in "$sf_per_node" "$node_cv"; do
    [[ "$v" =~ ^[0-9]*\.?[0-9]+$ ]] || { echo "scaling-validate: --sf-per-node and --node-cv take numbers, got '$v'" >&2; exit 2; }
done
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { echo "scaling-validate: --repeat takes a whole number of runs, got '$repeat'" >&2; exit 2; }
nodes_list="${nodes_list//,/ }"
for n in $nodes_list; do [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "scaling-validate: --nodes: node counts, got '$n'" >&2; exit 2; }; done
[[ " $nodes_list " == *" 1 "* && " $nodes_list " == *" 2 "* ]] \
    || { echo "scaling-validate: --nodes must include 1 and 2 (the model's calibrations)" >&2; exit 2; }
max_nodes="$(tr ' ' '\n' <<<"$nodes_list" | sort -n | tail -n 1)"
if [[ "$placement" == netns ]]; then
    if [[ "$(id -u)" -ne 0 ]] || ! ip netns list >/dev/null 2>&1; then
        echo "scaling-validate: --placement netns needs root and 'ip netns'" >&2
        exit 2
    fi
fi
out="${out:-/tmp/ooo-scaling-$placement}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
export OOO_ALLOW_ROOT=1
ooo="$root/ooo"
log() { echo "scaling-validate: [$(date +%T)] $*" >&2; }
[[ "$build" == true ]] && (cd "$root" && mvn -B -q install -DskipTests >"$out/build.log" 2>&1)

# Network-namespace hosts (one per node of the largest cluster) on a bridge of their own.
inv="$out/hosts" bridge=ooo-sv0
hosts_down() { [[ "$placement" == netns ]] && "$root/deploy/netns-hosts.sh" down --inventory "$inv" --bridge "$bridge" >/dev/null 2>&1 || true; }
current=""
cleanup() { [[ -n "$current" ]] && "$ooo" cluster stop --cluster "$current" >/dev/null 2>&1; hosts_down; }
trap cleanup EXIT
if [[ "$placement" == netns ]]; then
    "$ooo" deploy inventory --racks 1 --nodes-per-rack "$max_nodes" --prefix sv --subnet 10.78.0.0/24 --out "$inv" >/dev/null
    hosts_down
    "$root/deploy/netns-hosts.sh" up --network-only --inventory "$inv" --bridge "$bridge" 2>>"$out/hosts.log"
    # "name address" of each host, in order; deploy/netns-hosts.sh names a host's namespace ooo-<name>.
    mapfile -t host_names < <(awk '/^  hosts:$/ { h = 1; next } h && /^  [a-z]/ { h = 0 } h && /^    [^ ].*:$/ { sub(":", "", $1); print $1 }' "$inv/inventory.yml")
    mapfile -t addresses < <(awk '/ansible_host:/ { print $2 }' "$inv/inventory.yml")
fi
join_by_comma() { local IFS=,; echo "$*"; }

for n in $nodes_list; do
    dir="$out/cluster-$n"
    sf="$(python3 -c "print(round($sf_per_node * $n, 6))")"
    rm -rf "$dir" "$out/join-$n.jsonl"
    placed=(--base-port $((7400 + 10 * n)))
    if [[ "$placement" == netns ]]; then
        ns=()
        for h in "${host_names[@]:0:$n}"; do ns+=("ooo-$h"); done
        placed=(--hosts "$(join_by_comma "${addresses[@]:0:$n}")" --netns "$(join_by_comma "${ns[@]}")" --base-port 7101)
    fi
    log "$n nodes ($placement), TPC-H SF $sf"
    current="$dir"
    "$ooo" cluster start --cluster "$dir" --nodes "$n" --replication 1 --node-heap 1g --sql-port 0 "${placed[@]}" >"$out/start-$n.log" 2>&1
    "$ooo" load tpch --sf "$sf" --cluster "$dir" >"$out/load-$n.log" 2>&1
    "$ooo" calibrate --cluster "$dir" --duration 1 >"$out/calibrate-$n.log" 2>&1
    cp "$dir/calibration.json" "$out/calibration-$n.json"
    log "  loaded and calibrated"
    for q in $queries; do
        for s in $selectivities; do
            "$ooo" bench join --cluster "$dir" --query "$q" --selectivity "$s" --mode ooo --cold --repeat "$repeat" --json \
                >>"$out/join-$n.jsonl" 2>>"$out/join-$n.err" || log "  $q at $s failed: see $out/join-$n.err"
        done
    done
    "$ooo" bench tpch --cluster "$dir" --queries 1,3 --repeat "$repeat" --json >"$out/tpch-$n.json" 2>"$out/tpch-$n.err" \
        || log "  TPC-H failed: see $out/tpch-$n.err"
    "$ooo" cluster stop --cluster "$dir" >/dev/null
    current=""
    log "  measured"
done

# The model's predictions from the 1-node calibration (a 2-node one for the cost of a remote request).
predict() { # predict SELECTIVITY ARGS...
    local s="$1"; shift
    "$ooo" bench scaling --local --calibration "$out/calibration-1.json,$out/calibration-2.json" --statistics "$out/cluster-1" \
        --tpch-base "$out/tpch-1.json" --tpch-base-sf "$sf_per_node" --sf-per-node "$sf_per_node" \
        --nodes "$(join_by_comma $nodes_list)" --selectivity "$s" --mode ooo --node-cv "$node_cv" "$@"
}
for s in $selectivities; do
    predict "$s" --json >"$out/predicted-$s.jsonl" 2>"$out/predicted-$s.err"
done

python3 "$here/scaling_validation.py" --dir "$out" --placement "$placement" --nodes "$nodes_list" \
    --selectivities "$selectivities" --queries "$queries" --sf-per-node "$sf_per_node" >"$out/validation.json"
# The model's scalability against the measured, a plot per selectivity.
for s in $selectivities; do
    predict "$s" --measured "$out/validation.json" --plot "$out/validation-$s.png" >/dev/null 2>>"$out/predicted-$s.err"
done
cat "$out/validation.json"
