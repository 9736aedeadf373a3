#!/usr/bin/env bash
# Emulated rack network for a local cluster: a Toxiproxy TCP proxy in front of every node, with a
# latency toxic on the answers, so that every request between members (and from the coordinator)
# pays a round trip. The kernel here has no netem qdisc, hence a user-space proxy.
#
#   net-delay.sh install                              build toxiproxy-server v2.12.0 with Go
#   net-delay.sh up     --cluster D [--delay-ms N] [--port-offset K] [--api-port P]
#   net-delay.sh set    --cluster D --delay-ms N [--node ID]     change the delay live
#   net-delay.sh status --cluster D
#   net-delay.sh down   --cluster D
#
# `up` needs the cluster stopped (nodes read their routes at start): it starts Toxiproxy, creates
# one proxy per node listening at the node's port + K (default 1000) and routes members through
# them (`ooo cluster route`). Start the cluster afterwards. `down` routes members directly again
# and stops Toxiproxy; stop the cluster first.
#
# Toxiproxy counts latency in whole milliseconds: the smallest delay it adds is 1 ms per answer.
# --delay-ms 0 keeps the proxy without a toxic, which measures the cost of the proxy hop alone.
set -euo pipefail

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../../.." && pwd)"
ooo="${OOO:-$root/ooo}"
tools="${OOO_TOOLS:-$HOME/.cache/ooo-engine/bin}"
server="$tools/toxiproxy-server"
version=v2.12.0

die() { echo "net-delay: $*" >&2; exit 1; }

usage() {
    sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit "${1:-0}"
}

install_server() {
    [[ -x "$server" ]] && return
    command -v go >/dev/null || die "Go is needed to build Toxiproxy (go.dev/dl; Debian's golang-go is too old for $version)"
    echo "building toxiproxy-server $version into $tools ..." >&2
    mkdir -p "$tools"
    local build
    build="$(mktemp -d)"
    GOBIN="$build" go install "github.com/Shopify/toxiproxy/v2/cmd/server@$version"
    mv "$build/server" "$server"
    rm -rf "$build"
}

dir="" delay="" offset=1000 api_port=8474 node=""
cmd="${1:-}"
[[ -z "$cmd" ]] && usage 2
shift
while [[ $# -gt 0 ]]; do
    case "$1" in
        --cluster|--dir) dir="$2"; shift 2 ;;
        --delay-ms) delay="$2"; shift 2 ;;
        --port-offset) offset="$2"; shift 2 ;;
        --api-port) api_port="$2"; shift 2 ;;
        --node) node="$2"; shift 2 ;;
        -h|--help) usage 0 ;;
        *) echo "net-delay: unknown option $1" >&2; usage 2 ;;
    esac
done
[[ -n "$delay" && ! "$delay" =~ ^[0-9]+$ ]] && die "--delay-ms takes whole milliseconds (Toxiproxy's unit), got '$delay'"
[[ "$cmd" == install ]] && { install_server; exit 0; }
[[ -n "$dir" ]] || die "--cluster <cluster-dir> is required"
dir="$(cd "$dir" && pwd)"
command -v curl >/dev/null || die "curl is needed to drive Toxiproxy's HTTP API"
state="$dir/run/toxiproxy.env"
[[ -f "$state" ]] && source "$state"
api="http://127.0.0.1:$api_port"

toxi() { # method path [json]
    curl -sS --fail-with-body -X "$1" -H 'Content-Type: application/json' "$api$2" ${3:+-d "$3"} >/dev/null \
        || die "Toxiproxy refused $1 $2 ${3:-}"
}

# Sets the latency toxic of one proxy: none for 0 ms, on the answers (downstream) otherwise.
set_delay() { # proxy ms
    curl -sS -X DELETE "$api/proxies/$1/toxics/delay" >/dev/null 2>&1 || true
    if [[ "$2" -gt 0 ]]; then
        toxi POST "/proxies/$1/toxics" \
            "{\"name\":\"delay\",\"type\":\"latency\",\"stream\":\"downstream\",\"toxicity\":1.0,\"attributes\":{\"latency\":$2,\"jitter\":0}}"
    fi
}

proxies() { curl -sS "$api/proxies" | grep -o '"name":"ooo-[^"]*"' | cut -d'"' -f4 | sort -u; }

case "$cmd" in
    up)
        install_server
        [[ -f "$state" ]] && die "a delay proxy is already up for $dir (net-delay.sh down --cluster $dir first)"
        mkdir -p "$dir/run" "$dir/logs"
        # Route first: it refuses while the cluster runs, before anything is started.
        routes="$("$ooo" cluster route --cluster "$dir" --via-port-offset "$offset")"
        "$server" -host 127.0.0.1 -port "$api_port" >"$dir/logs/toxiproxy.log" 2>&1 &
        echo "toxiproxy_pid=$! api_port=$api_port" >"$state"
        for _ in $(seq 50); do curl -s "$api/version" >/dev/null && break; sleep 0.1; done
        curl -s "$api/version" >/dev/null || die "toxiproxy-server did not start; see $dir/logs/toxiproxy.log"
        while read -r id listen dial; do
            toxi POST /proxies "{\"name\":\"ooo-$id\",\"listen\":\"$dial\",\"upstream\":\"$listen\",\"enabled\":true}"
            set_delay "ooo-$id" "${delay:-0}"
            echo "$id: $dial -> $listen, +${delay:-0} ms per answer"
        done <<<"$routes"
        echo "now start the cluster: ooo cluster start --cluster $dir"
        ;;
    set)
        [[ -n "$delay" ]] || die "set needs --delay-ms N"
        [[ -f "$state" ]] || die "no delay proxy is up for $dir (net-delay.sh up --cluster $dir)"
        for p in $(proxies); do
            [[ -z "$node" || "$p" == "ooo-$node" ]] || continue
            set_delay "$p" "$delay"
            echo "${p#ooo-}: +$delay ms per answer"
        done
        ;;
    status)
        [[ -f "$state" ]] || { echo "no delay proxy for $dir"; exit 0; }
        curl -sS "$api/proxies"; echo
        ;;
    down)
        "$ooo" cluster route --cluster "$dir" --direct >/dev/null
        if [[ -f "$state" ]]; then
            kill "$toxiproxy_pid" 2>/dev/null || true
            rm -f "$state"
        fi
        echo "members dial $dir's nodes directly again; the delay proxy is stopped"
        ;;
    *) echo "net-delay: unknown command $cmd" >&2; usage 2 ;;
esac
