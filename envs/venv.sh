#!/usr/bin/env bash
# Run a command inside the project's virtual environment, creating or refreshing it first.
#
#   envs/venv.sh snakemake --cores all     # the whole workflow on config/config.yaml
#   envs/venv.sh pytest                    # the test suite
#
# The environment lives in .venv/ (override with CDBANDITS_VENV) and is built from
# envs/requirements.lock with pip's hash checking. It is rebuilt whenever the lock or
# pyproject.toml changes. Needs only Python >= 3.11 with pip and venv.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${CDBANDITS_VENV:-$root/.venv}"
lock="$root/envs/requirements.lock"
stamp="$venv/.cdbandits-lock.sha256"

find_python() {
    for candidate in "${PYTHON:-}" python3.11 python3.12 python3.13 python3; do
        [ -n "$candidate" ] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    echo "envs/venv.sh: no Python >= 3.11 found (set PYTHON=/path/to/python3.11)" >&2
    return 1
}

wanted="$(cat "$lock" "$root/pyproject.toml" | sha256sum | cut -d' ' -f1)"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    python="$(find_python)"
    echo "envs/venv.sh: creating $venv from envs/requirements.lock" >&2
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --require-hashes -r "$lock"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -e "$root"
    echo "$wanted" >"$stamp"
fi

cd "$root"
export PATH="$venv/bin:$PATH"
exec "$@"
