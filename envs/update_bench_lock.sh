#!/usr/bin/env bash
# Pin the benchmark-only peers (envs/benchmarks.in) into envs/benchmarks.lock (needs uv:
# pip install uv). Every package the main lock pins keeps that version (--override: it
# wins over the peers' caps, e.g. pref_voting's numba<0.63 and tabulate<0.10), so the
# benchmark lock only adds packages and installing it on top of the main lock changes
# nothing in the main environment. envs/bench.sh installs it with --no-deps.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
main_pins="$(mktemp)"
trap 'rm -f "$main_pins"' EXIT
grep -E '^[A-Za-z0-9_.-]+==' envs/requirements.lock | sed -E 's/ .*//' >"$main_pins"
uv pip compile --quiet envs/benchmarks.in --override "$main_pins" \
    --python-version 3.11 --python-platform x86_64-unknown-linux-gnu --generate-hashes \
    --no-header --annotation-style line -o envs/benchmarks.lock
