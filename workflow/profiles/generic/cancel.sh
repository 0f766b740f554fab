#!/usr/bin/env bash
# Cancel command of the generic cluster profile's stand-in scheduler (submit.sh): Snakemake
# passes the ids submit.sh printed; each is the session and process group of one job, whose
# processes all receive SIGTERM. On a real cluster use the scheduler's command (qdel, bkill).
set -uo pipefail
for job in "$@"; do
    kill -TERM -- "-$job" 2>/dev/null || echo "cancel.sh: job $job had already ended" >&2
done
