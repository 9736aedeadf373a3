#!/usr/bin/env bash
# Runs hive_clients.py (PyHive, its SQLAlchemy dialect, pandas, impyla) against an endpoint, in a
# Python environment of its own cached in ~/.cache/ooo-hive-clients. Exits 77 when that
# environment cannot be installed because PyPI is out of reach: the caller reports a skip.
# Usage: hive-clients.sh --host H --port P --http-port P2 --user U --password W --expected answers.json
set -euo pipefail

here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
cache="${OOO_HIVE_CLIENTS_CACHE:-$HOME/.cache/ooo-hive-clients}"
venv="$cache/venv"
# Pinned so a new release cannot change what the test exercises. PyHive without its [hive] extra:
# that pulls the C 'sasl' package, which no longer builds; pure-sasl does PLAIN in Python.
packages=(PyHive==0.7.0 impyla==0.24.0 SQLAlchemy==2.1.9 pandas==3.1.1 thrift==0.25.0 thrift_sasl==0.4.3
          pure-sasl==0.6.2)
stamp="$venv/.installed-$(printf '%s\n' "${packages[@]}" | md5sum | cut -c1-12)"

if [[ ! -f "$stamp" ]]; then
    echo "hive-clients: Python environment in $venv (${packages[*]})" >&2
    mkdir -p "$cache"
    [[ -x "$venv/bin/pip" ]] || python3 -m venv "$venv" \
        || { echo "hive-clients: SKIP: python3 cannot make a virtual environment"; exit 77; }
    if ! "$venv/bin/pip" install -q "${packages[@]}" >"$cache/pip.log" 2>&1; then
        tail -5 "$cache/pip.log" >&2
        # Only an unreachable package index is a reason to skip; any other failure is a failure.
        if grep -q -E "NewConnectionError|Max retries exceeded|Temporary failure in name resolution|No matching distribution" "$cache/pip.log"; then
            echo "hive-clients: SKIP: PyPI cannot be reached to install ${packages[*]}"
            exit 77
        fi
        exit 1
    fi
    touch "$stamp"
fi

exec "$venv/bin/python" "$here/hive_clients.py" "$@"
