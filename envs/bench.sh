#!/usr/bin/env bash
# Run a command in the benchmark environment .venv-bench: the main lock plus the
# benchmark-only peers of envs/benchmarks.lock (pref_voting, nashpy), built on first use and
# whenever a lock changes. The main .venv is never touched.
#
#   envs/bench.sh python benchmarks/bench_von_neumann.py --markdown benchmarks/von_neumann.md
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv-bench"
lock="$root/envs/benchmarks.lock"
stamp="$venv/.cdbandits-bench-lock.sha256"

CDBANDITS_VENV="$venv" "$root/envs/venv.sh" true
wanted="$(cat "$lock" "$root/envs/requirements.lock" | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    echo "envs/bench.sh: adding envs/benchmarks.lock to $venv" >&2
    # --no-deps: the lock is complete, and pref_voting's caps on numba and tabulate were
    # overridden by the main lock's versions when it was compiled (envs/update_bench_lock.sh).
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
        --require-hashes -r "$lock"
    echo "$wanted" >"$stamp"
fi

cd "$root"
export PATH="$venv/bin:$PATH"
exec "$@"
