#!/usr/bin/env bash
# Create (idempotently) the peers venv and install requirements.txt.
# Last line of stdout: path of the venv's python.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${TIANWANG_PEERS_VENV:-$HOME/.cache/tianwang/peers-venv}"
py="${PYTHON:-python3}"
die() { echo "setup.sh: error: $*" >&2; exit 1; }

command -v "$py" >/dev/null || die "'$py' not found (set PYTHON=/path/to/python3)"
if [ ! -x "$venv/bin/python" ]; then
    echo "creating venv at $venv" >&2
    mkdir -p "$(dirname "$venv")" || die "cannot create $(dirname "$venv")"
    "$py" -m venv "$venv" >&2 || die "could not create venv at $venv (python3-venv missing?)"
fi
pip=("$venv/bin/python" -m pip install --quiet --disable-pip-version-check)
# pip < 24 trips over lxml[html_clean] vs lxml[html-clean] extras (internal AssertionError).
"${pip[@]}" 'pip>=24.1' >&2 || die "could not upgrade pip in $venv (PyPI reachable?)"
"${pip[@]}" -r "$here/requirements.txt" >&2 \
    || die "pip install -r $here/requirements.txt failed (network/PyPI reachable?)"
"$venv/bin/python" -c "import readability, trafilatura, sklearn, jieba, networkx, datasketch, simhash, libcachesim, pandas" \
    || die "peer tools installed but not importable in $venv"
echo "$venv/bin/python"
