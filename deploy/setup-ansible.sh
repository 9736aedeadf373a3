#!/usr/bin/env bash
# Installs Ansible (ansible-core from PyPI, pinned) into a virtual environment of the project and
# prints the path of its ansible-playbook. Idempotent: a second run with the venv in place and the
# pinned version installed changes nothing and only prints the path.
#
#   deploy/setup-ansible.sh            # venv in deploy/.venv (git-ignored)
#   OOO_ANSIBLE_VENV=/opt/ansible deploy/setup-ansible.sh
#
# The playbooks under deploy/ansible run with this ansible-playbook:
#   "$(deploy/setup-ansible.sh)" -i inventory.yml deploy/ansible/deploy.yml
set -euo pipefail

ANSIBLE_CORE_VERSION=2.19.14

here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
venv="${OOO_ANSIBLE_VENV:-$here/.venv}"

log() { echo "setup-ansible: $*" >&2; }

installed_version() {
    [[ -x "$venv/bin/python" ]] || return 1
    "$venv/bin/python" - <<'PY' 2>/dev/null
from importlib.metadata import version
print(version("ansible-core"))
PY
}

if [[ "$(installed_version || true)" == "$ANSIBLE_CORE_VERSION" && -x "$venv/bin/ansible-playbook" ]]; then
    echo "$venv/bin/ansible-playbook"
    exit 0
fi

# ansible-core 2.19 needs Python 3.11 or newer on the controller.
python="${PYTHON:-}"
if [[ -z "$python" ]]; then
    for candidate in python3 /usr/bin/python3; do
        if command -v "$candidate" >/dev/null 2>&1 \
            && "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
            python="$(command -v "$candidate")"
            break
        fi
    done
fi
if [[ -z "$python" ]]; then
    log "no Python 3.11 or newer found (ansible-core $ANSIBLE_CORE_VERSION needs one); set PYTHON=/path/to/python3"
    exit 1
fi

# Debian splits venv/ensurepip into python3-venv.
if ! "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    if [[ "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        log "installing python3-venv with apt-get"
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
    else
        log "$python lacks the venv module: install python3-venv (apt-get install python3-venv) and run again"
        exit 1
    fi
fi

if [[ ! -x "$venv/bin/python" ]]; then
    log "creating a virtual environment in $venv with $python"
    "$python" -m venv "$venv" >&2
fi
log "installing ansible-core==$ANSIBLE_CORE_VERSION into $venv"
"$venv/bin/python" -m pip install -q "ansible-core==$ANSIBLE_CORE_VERSION" >&2

version="$(installed_version || true)"
if [[ "$version" != "$ANSIBLE_CORE_VERSION" ]]; then
    log "ansible-core in $venv is '${version:-missing}', expected $ANSIBLE_CORE_VERSION"
    exit 1
fi
echo "$venv/bin/ansible-playbook"
