#!/usr/bin/env bash
# Submit command of the generic cluster profile (snakemake-executor-plugin-cluster-generic).
#
# Snakemake runs `submit.sh JOBSCRIPT` in the working directory and reads the job id from
# the last line this prints. The job script's second line is `# properties = {...}` (JSON)
# with the job's rule, threads and resources (mem_mb, runtime in minutes); the job script
# signals success or failure to Snakemake itself, so no status command is needed on a
# shared file system.
#
# As shipped this is a stand-in scheduler: it runs the job in the background on this
# machine, in a new session whose id (printed) cancel.sh uses to end the job. Needs Linux
# (setsid, from util-linux). On a real cluster replace the block marked below by the
# scheduler's submit command, printing only the job id, for example
#   PBS/Torque: qsub -l "nodes=1:ppn=$threads,mem=${mem_mb}mb,walltime=00:$runtime:00" "$jobscript"
#   SGE:        qsub -terse -cwd -pe smp "$threads" -l "h_vmem=${mem_mb}M,h_rt=00:$runtime:00" "$jobscript"
#   LSF:        bsub -n "$threads" -M "${mem_mb}MB" -W "$runtime" <"$jobscript" | sed 's/.*<\([0-9]*\)>.*/\1/'
# and set cluster-generic-cancel-cmd in config.yaml to qdel or bkill.
set -euo pipefail

jobscript="$1"
properties="$(sed -n 's/^# properties = //p' "$jobscript")"
property() { sed -n "s/.*\"$1\": *\([0-9][0-9]*\).*/\1/p" <<<"$properties" | head -n 1; }
threads="$(property threads)"
mem_mb="$(property mem_mb)"
runtime="$(property runtime)"

# --- stand-in scheduler: replace from here on a real cluster ---
logdir=".snakemake/cluster-generic-logs"
mkdir -p "$logdir"
log="$logdir/$(basename "$jobscript" .sh).log"
echo "job script $(basename "$jobscript"): threads=${threads:-1} mem_mb=${mem_mb:-unset} runtime=${runtime:-unset} min" >"$log"
setsid bash "$jobscript" >>"$log" 2>&1 </dev/null &
echo "$!"
