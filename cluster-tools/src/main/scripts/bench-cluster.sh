#!/usr/bin/env bash
# The cluster figures of docs/benchmarks/cluster.md that need more than one `ooo bench` call.
#
#   bench-cluster.sh delay   --cluster D [--delays-us 0,100,500] [--selectivities 0.01,0.001,0.0001] [--out O]
#       PL in every distributed mode with each node holding its answers back by each delay in µs
#       (ooo cluster start --answer-delay), plus the remote-fetch micro-benchmark at each.
#   bench-cluster.sh proxy   --cluster D [--delays 0,1,2] [--selectivities 0.01,0.001,0.0001] [--out O]
#       The same, directly and then through the Toxiproxy delay proxy at each added delay in ms
#       (net-delay.sh); the proxy's own hop is measured too.
#   bench-cluster.sh mapreduce --cluster D [--selectivities 0.01,0.001,0.0001,0.00001] [--out O]
#       OL and PL as PSMJ jobs, as OoO joins inside a MapReduce job and in daemon mode.
#   bench-cluster.sh scaling --dirs 1:D1,2:D2,4:D4,8:D8 [--selectivities 0.001] [--out O]
#       Weak scaling: OL and PL at fixed selectivities on clusters of N nodes, each holding the same
#       data per node (load them with ooo load tpch --sf <N x per-node SF>).
#
# Clusters must be loaded and stopped; the script starts and stops them. Results go to O (default:
# the current directory) as JSON, markdown and PNG, one set per configuration. As root, export
# OOO_ALLOW_ROOT=1 first: cluster members refuse root otherwise.
set -euo pipefail

here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
root="$(cd "$here/../../../.." && pwd)"
ooo="${OOO:-$root/ooo}"
export OOO="$ooo"

die() { echo "bench-cluster: $*" >&2; exit 1; }
usage() { sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

cmd="${1:-}"
[[ -z "$cmd" ]] && usage 2
shift
dir="" dirs="" delays="0,1,2" delays_us="0,100,500" sels="" out="." repeat=3
while [[ $# -gt 0 ]]; do
    case "$1" in
        --cluster|--dir) dir="$2"; shift 2 ;;
        --dirs) dirs="$2"; shift 2 ;;
        --delays) delays="$2"; shift 2 ;;
        --delays-us) delays_us="$2"; shift 2 ;;
        --repeat) repeat="$2"; shift 2 ;;
        --selectivities) sels="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        -h|--help) usage 0 ;;
        *) echo "bench-cluster: unknown option $1" >&2; usage 2 ;;
    esac
done
mkdir -p "$out"

sweep() { # cluster-dir query selectivities modes name
    echo "== $5 ($(date +%T))" >&2
    "$ooo" bench sweep --cluster "$1" --query "$2" --cold --selectivities "$3" --modes "$4" --repeat "$repeat" \
        --json-out "$out/$5.json" --markdown "$out/$5.md" --plot "$out/$5.png"
}

fetch() { # cluster-dir name
    echo "== $2 ($(date +%T))" >&2
    "$ooo" bench fetch --cluster "$1" --json --plot "$out/$2.png" >"$out/$2.json"
}

case "$cmd" in
    delay)
        [[ -n "$dir" ]] || die "delay needs --cluster <cluster-dir>"
        sels="${sels:-0.01,0.001,0.0001}"
        trap '"$ooo" cluster stop --cluster "$dir" >/dev/null' EXIT
        for d in ${delays_us//,/ }; do
            "$ooo" cluster start --cluster "$dir" --answer-delay "$d"
            sweep "$dir" PL "$sels" ooo,ooo-local,inorder "delay-${d}us-PL"
            fetch "$dir" "fetch-delay-${d}us"
            "$ooo" cluster stop --cluster "$dir"
        done
        ;;
    mapreduce)
        [[ -n "$dir" ]] || die "mapreduce needs --cluster <cluster-dir>"
        sels="${sels:-0.01,0.001,0.0001,0.00001}"
        trap '"$ooo" cluster stop --cluster "$dir" >/dev/null' EXIT
        "$ooo" cluster start --cluster "$dir"
        for q in OL PL; do
            sweep "$dir" "$q" "$sels" psmj,ooo-mr,ooo "mapreduce-$q"
        done
        ;;
    proxy)
        [[ -n "$dir" ]] || die "proxy needs --cluster <cluster-dir>"
        sels="${sels:-0.01,0.001,0.0001}"
        trap '"$ooo" cluster stop --cluster "$dir" >/dev/null; "$here/net-delay.sh" down --cluster "$dir" >/dev/null' EXIT
        "$ooo" cluster start --cluster "$dir"
        sweep "$dir" PL "$sels" ooo,ooo-local,inorder delay-direct-PL
        fetch "$dir" fetch-direct
        "$ooo" cluster stop --cluster "$dir"
        "$here/net-delay.sh" up --cluster "$dir" --delay-ms 0
        "$ooo" cluster start --cluster "$dir"
        for d in ${delays//,/ }; do
            "$here/net-delay.sh" set --cluster "$dir" --delay-ms "$d"
            sweep "$dir" PL "$sels" ooo,ooo-local,inorder "delay-proxy-${d}ms-PL"
            fetch "$dir" "fetch-proxy-${d}ms"
        done
        ;;
    scaling)
        [[ -n "$dirs" ]] || die "scaling needs --dirs N:<cluster-dir>,..."
        sels="${sels:-0.001}"
        for entry in ${dirs//,/ }; do
            n="${entry%%:*}" d="${entry#*:}"
            "$ooo" cluster start --cluster "$d"
            for q in OL PL; do
                sweep "$d" "$q" "$sels" ooo,inorder "scaling-${n}nodes-$q" || { "$ooo" cluster stop --cluster "$d"; exit 1; }
            done
            "$ooo" cluster stop --cluster "$d"
        done
        ;;
    *) echo "bench-cluster: unknown command $cmd" >&2; usage 2 ;;
esac
