#!/usr/bin/env bash
# Hosts on one machine for the multi-host test: each host of an inventory written by
# `ooo deploy inventory` becomes a Linux network namespace with its own address on a bridge, its own
# sshd, and its own /etc, /opt, /var (overlays on the machine's: what the playbooks install or write
# there stays on that host), /run and /tmp. Every process a host runs (sshd, what Ansible starts over
# ssh) lives in its namespaces. There is no systemd in them: deploy with -e ooo_supervisor=script.
#
#   deploy/netns-hosts.sh up     --inventory DIR [--root /srv/ooo-hosts]   create and start every host
#   deploy/netns-hosts.sh up     --inventory DIR --network-only            only the namespaces, their addresses
#                                                                          and the bridge (no sshd, no overlays):
#                                                                          for 'ooo cluster start --netns'
#   deploy/netns-hosts.sh start  --inventory DIR --host NAME               start one host again (sshd), after kill
#   deploy/netns-hosts.sh kill   --inventory DIR --host NAME               kill every process of one host (a crash)
#   deploy/netns-hosts.sh down   --inventory DIR [--purge]                 kill everything, remove namespaces and bridge
#   deploy/netns-hosts.sh status --inventory DIR
#   deploy/netns-hosts.sh ssh    --inventory DIR --host NAME [command...]
#
# The bridge (ooo-br0) gets the subnet's first address (say 10.10.0.1/24), so this machine reaches the
# hosts; root's ssh key for them is <root>/ssh/id_ed25519 (ssh_config beside it). Needs root, ip netns,
# unshare and overlayfs; installs openssh-server with apt-get when sshd is missing.
set -euo pipefail

action="${1:-}"
[[ -n "$action" ]] && shift
inventory="" root_dir=/srv/ooo-hosts host="" purge=false bridge=ooo-br0 network_only=false
while [[ $# -gt 0 ]]; do
    case "$1" in
        --inventory) inventory="$2"; shift 2 ;;
        --root) root_dir="$2"; shift 2 ;;
        --host) host="$2"; shift 2 ;;
        --bridge) bridge="$2"; shift 2 ;;
        --purge) purge=true; shift ;;
        --network-only) network_only=true; shift ;;
        --) shift; break ;;
        -h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) [[ "$action" == ssh ]] && break; echo "netns-hosts: unknown argument $1" >&2; exit 2 ;;
    esac
done

die() { echo "netns-hosts: $*" >&2; exit 1; }
log() { echo "netns-hosts: $*" >&2; }

[[ -n "$inventory" && -r "$inventory/inventory.yml" ]] || die "--inventory DIR: a directory written by 'ooo deploy inventory'"
[[ "$(id -u)" -eq 0 ]] || die "needs root (network namespaces, mounts)"
command -v ip >/dev/null && ip netns list >/dev/null 2>&1 || die "needs 'ip netns' (iproute2)"
command -v unshare >/dev/null || die "needs unshare (util-linux)"

# Hosts of the inventory: "name address" per line, in order.
hosts_of() {
    awk '/^  hosts:$/ { h = 1; next } h && /^  [a-z]/ { h = 0 }
         h && /^    [^ ].*:$/ { name = $1; sub(":", "", name) }
         h && /^      ansible_host:/ { print name, $2 }' "$inventory/inventory.yml"
}
mapfile -t HOSTS < <(hosts_of)
[[ ${#HOSTS[@]} -gt 0 ]] || die "no hosts in $inventory/inventory.yml"
prefix_len="$(awk '/addresses in/ { split($NF, a, "/"); sub("\\.$", "", a[2]); print a[2] }' "$inventory/inventory.yml")"
[[ "$prefix_len" =~ ^[0-9]+$ ]] || die "cannot read the subnet from $inventory/inventory.yml"
first_address() { # the subnet's .1: the bridge
    local ip="${HOSTS[0]#* }"
    python3 -c "import ipaddress,sys; n=ipaddress.ip_network('$ip/$prefix_len', strict=False); print(n.network_address + 1)"
}
gateway="$(first_address)"

ns_of() { echo "ooo-$1"; }
veth_of() { printf 'ooov%d' "$1"; }
address_of() {
    local h
    for h in "${HOSTS[@]}"; do [[ "${h% *}" == "$1" ]] && { echo "${h#* }"; return 0; }; done
    die "no host $1 in the inventory"
}
index_of() {
    local i
    for i in "${!HOSTS[@]}"; do [[ "${HOSTS[$i]% *}" == "$1" ]] && { echo "$i"; return 0; }; done
    die "no host $1 in the inventory"
}

ensure_sshd() {
    if [[ ! -x /usr/sbin/sshd ]]; then
        log "installing openssh-server"
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server openssh-client >&2
    fi
    mkdir -p "$root_dir/ssh"
    chmod 700 "$root_dir/ssh"
    [[ -f "$root_dir/ssh/id_ed25519" ]] || ssh-keygen -q -t ed25519 -N '' -C ooo-netns-hosts -f "$root_dir/ssh/id_ed25519"
    [[ -f "$root_dir/ssh/host_ed25519" ]] || ssh-keygen -q -t ed25519 -N '' -C ooo-netns-host -f "$root_dir/ssh/host_ed25519"
    cp "$root_dir/ssh/id_ed25519.pub" "$root_dir/ssh/authorized_keys"
    chmod 600 "$root_dir/ssh/authorized_keys"
    cat >"$root_dir/ssh/ssh_config" <<CFG
Host *
    User root
    IdentityFile $root_dir/ssh/id_ed25519
    StrictHostKeyChecking no
    UserKnownHostsFile /dev/null
    LogLevel ERROR
CFG
}

bridge_up() {
    if ! ip link show "$bridge" >/dev/null 2>&1; then
        ip link add "$bridge" type bridge
        ip addr add "$gateway/$prefix_len" dev "$bridge"
    fi
    ip link set "$bridge" up
}

# start_host NAME: the namespace and its link (once), then sshd in a mount namespace of the host's own.
start_host() {
    local name="$1" i ns veth addr dir
    i="$(index_of "$name")" ns="$(ns_of "$name")" veth="$(veth_of "$i")" addr="$(address_of "$name")"
    dir="$root_dir/$name"
    if ! ip netns list | grep -qx "$ns\( (id: [0-9]*)\)\?"; then
        ip netns add "$ns"
    fi
    if ! ip link show "${veth}b" >/dev/null 2>&1; then
        ip link add "${veth}b" type veth peer name "${veth}h"
        ip link set "${veth}h" netns "$ns"
        ip link set "${veth}b" master "$bridge" up
        ip -n "$ns" link set "${veth}h" name eth0
        ip -n "$ns" addr add "$addr/$prefix_len" dev eth0
        ip -n "$ns" link set eth0 up
        ip -n "$ns" link set lo up
        ip -n "$ns" route add default via "$gateway"
    fi
    [[ "$network_only" == true ]] && { log "$name at $addr (network only)"; return 0; }
    if [[ -n "$(ip netns pids "$ns")" ]]; then
        log "$name ($addr) runs already"
        return 0
    fi
    local d
    for d in etc opt var; do mkdir -p "$dir/$d.upper" "$dir/$d.work"; done
    mkdir -p "$dir/tmp"
    chmod 1777 "$dir/tmp"
    cat >"$dir/sshd_config" <<CFG
ListenAddress $addr
Port 22
HostKey $root_dir/ssh/host_ed25519
AuthorizedKeysFile $root_dir/ssh/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
UsePAM no
StrictModes no
PidFile /run/sshd.pid
Subsystem sftp internal-sftp
AcceptEnv LANG LC_*
CFG
    # The host's own /etc, /opt and /var are overlays (what it writes stays in $dir/*.upper), /run and
    # /tmp its own; its name in /etc/hostname and the kernel's (UTS namespace).
    ip netns exec "$ns" unshare --mount --uts --propagation private bash -c "
        set -e
        for d in etc opt var; do
            mount -t overlay overlay -o lowerdir=/\$d,upperdir='$dir'/\$d.upper,workdir='$dir'/\$d.work /\$d
        done
        mount -t tmpfs -o mode=755 tmpfs /run
        mkdir -p /run/sshd /run/lock
        mount --bind '$dir/tmp' /tmp
        hostname '$name'
        echo '$name' >/etc/hostname
        exec /usr/sbin/sshd -D -e -f '$dir/sshd_config'
    " >>"$dir/sshd.log" 2>&1 </dev/null &
    disown
    for _ in $(seq 1 50); do
        if ip netns exec "$ns" bash -c "exec 3<>/dev/tcp/$addr/22" 2>/dev/null; then
            log "$name up at $addr"
            return 0
        fi
        sleep 0.2
    done
    die "$name: sshd did not come up; see $dir/sshd.log"
}

# kill_host NAME: every process of the host, as a power cut would (the namespace and files stay).
kill_host() {
    local ns pids
    ns="$(ns_of "$1")"
    ip netns list | grep -q "^$ns\b" || return 0
    pids="$(ip netns pids "$ns" | tr '\n' ' ')"
    [[ -z "$pids" ]] && return 0
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
    for _ in $(seq 1 50); do
        [[ -z "$(ip netns pids "$ns")" ]] && return 0
        sleep 0.1
    done
    log "$1: processes left: $(ip netns pids "$ns" | tr '\n' ' ')"
}

case "$action" in
    up)
        [[ "$network_only" == true ]] || ensure_sshd
        bridge_up
        for h in "${HOSTS[@]}"; do start_host "${h% *}"; done
        if [[ "$network_only" == true ]]; then
            log "${#HOSTS[@]} network namespaces up: $(printf 'ooo-%s ' "${HOSTS[@]% *}")"
        else
            log "${#HOSTS[@]} hosts up; ssh -F $root_dir/ssh/ssh_config <address>"
        fi
        ;;
    start)
        [[ -n "$host" ]] || die "start needs --host NAME"
        ensure_sshd
        bridge_up
        start_host "$host"
        ;;
    kill)
        [[ -n "$host" ]] || die "kill needs --host NAME"
        kill_host "$host"
        log "$host killed"
        ;;
    down)
        for i in "${!HOSTS[@]}"; do
            name="${HOSTS[$i]% *}"
            ns="$(ns_of "$name")"
            if ip netns list | grep -q "^$ns\b"; then
                # SIGTERM first, so the daemons may flush; then what is left is killed.
                pids="$(ip netns pids "$ns" | tr '\n' ' ')"
                # shellcheck disable=SC2086
                [[ -n "$pids" ]] && kill -TERM $pids 2>/dev/null || true
            fi
        done
        sleep 2
        for i in "${!HOSTS[@]}"; do
            name="${HOSTS[$i]% *}"
            kill_host "$name"
            ip link del "$(veth_of "$i")b" 2>/dev/null || true
            ip netns del "$(ns_of "$name")" 2>/dev/null || true
            [[ "$purge" == true ]] && rm -rf "${root_dir:?}/$name"
        done
        ip link del "$bridge" 2>/dev/null || true
        [[ "$purge" == true ]] && rm -rf "${root_dir:?}/ssh"
        log "down"
        ;;
    status)
        for h in "${HOSTS[@]}"; do
            name="${h% *}" ns="$(ns_of "${h% *}")"
            if ! ip netns list | grep -q "^$ns\b"; then
                echo "$name ${h#* } absent"
            else
                echo "$name ${h#* } processes=$(ip netns pids "$ns" | wc -l)"
            fi
        done
        ;;
    ssh)
        [[ -n "$host" ]] || die "ssh needs --host NAME"
        exec ssh -F "$root_dir/ssh/ssh_config" "$(address_of "$host")" "$@"
        ;;
    *)
        sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2
        exit 2
        ;;
esac
