"""Refuse SLURM settings with which snakemake-executor-plugin-slurm would hang or lose outputs.

The plugin learns that a job has ended only from its status queries. Two ways for these to
go blind, both of which leave Snakemake waiting forever for jobs that have long finished:

- ``sacct`` without accounting (no slurmdbd): the plugin uses sacct whenever the binary
  exists, every query fails, and a failed query reports no job at all;
- ``squeue`` on a controller that forgets finished jobs (MinJobAge) before the plugin's
  next query: a job squeue no longer lists is taken as still queued.

And with ``--slurm-array-jobs``, plugin 2.8.0 has every array task after the first check
(and, when it fails, delete) the outputs of the first task (upstream issue #447); array mode
can also stop submitting jobs altogether (#473).

The workflow runs :func:`check_settings` before the first job of a run with ``--executor slurm``
(``workflow/rules/slurm_preflight.smk``). On the command line, to check a cluster before running:

    envs/venv.sh python -m cdbandits.workflow.slurm_preflight [--slurm-status-command squeue]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib.metadata import version

from packaging.version import Version
from snakemake_interface_common.exceptions import WorkflowError

__all__ = [
    "LONGEST_STATUS_GAP_SECONDS",
    "SlurmPreflightError",
    "SlurmSite",
    "check_settings",
    "plugin_status_command",
    "read_site",
]

# The plugin waits at most 180 s between two status checks and gives a query 60 s: squeue
# must remember a finished job at least that long.
LONGEST_STATUS_GAP_SECONDS = 180 + 60
# The newest plugin release whose array jobs check the first task's outputs (upstream issue #447).
LAST_PLUGIN_WITH_BROKEN_ARRAYS = Version("2.8.0")
PLUGIN = "snakemake-executor-plugin-slurm"
# A name no job has: the queries below only test that the command answers.
PROBE_JOB_NAME = "cdbandits-preflight-probe"

Runner = Callable[[Sequence[str]], subprocess.CompletedProcess]


class SlurmPreflightError(WorkflowError):
    """The SLURM settings of a run would make it hang or lose outputs."""


@dataclass(frozen=True)
class SlurmSite:
    """What the plugin's choices depend on: which commands exist and the controller's
    MinJobAge (None when ``scontrol show config`` does not tell)."""

    sacct_on_path: bool
    squeue_on_path: bool
    min_job_age_seconds: int | None


def run_command(command: Sequence[str]) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(list(command), capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        return subprocess.CompletedProcess(command, 127, "", f"{command[0]}: not found")
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(command, 124, "", f"{command[0]}: no answer in 60 s")


def read_site(run: Runner = run_command, which: Callable[[str], str | None] = shutil.which):
    """Inspect this machine's SLURM client commands and controller configuration."""
    if which("sinfo") is None or which("sbatch") is None:
        raise SlurmPreflightError(
            "--executor slurm: the SLURM commands (sinfo, sbatch) are not on PATH; run "
            "Snakemake on a login node of the cluster"
        )
    min_job_age = None
    config = run(["scontrol", "show", "config"])
    if config.returncode != 0:
        raise SlurmPreflightError(
            "--executor slurm: `scontrol show config` failed, the SLURM controller does not "
            f"answer: {config.stderr.strip() or config.stdout.strip()}"
        )
    match = re.search(r"^MinJobAge\s*=\s*(\d+)", config.stdout, re.MULTILINE)
    if match:
        min_job_age = int(match.group(1))
    return SlurmSite(
        sacct_on_path=which("sacct") is not None,
        squeue_on_path=which("squeue") is not None,
        min_job_age_seconds=min_job_age,
    )


def plugin_status_command(requested: str | None, init_seconds: int, site: SlurmSite) -> str:
    """The status command the plugin (2.8.0) ends up using, as in its check_active_jobs."""
    command = requested or ("sacct" if site.sacct_on_path else "squeue")
    min_job_age = site.min_job_age_seconds
    if command == "squeue" and site.sacct_on_path:
        if min_job_age is None or min_job_age < 3 * init_seconds:
            command = "sacct"
    if command == "sacct" and not site.sacct_on_path:
        command = "squeue"
    return command


def check_status_queries(
    requested: str | None, init_seconds: int, site: SlurmSite, run: Runner = run_command
) -> str:
    """The status command the plugin will use, after checking that it can see every job
    end; raises SlurmPreflightError otherwise."""
    command = plugin_status_command(requested, init_seconds, site)
    min_job_age = site.min_job_age_seconds
    if command == "sacct":
        # The plugin's own query (job_status_query.query_job_status_sacct).
        since = f"{datetime.now() - timedelta(days=2):%Y-%m-%dT%H:00}"
        probe = run(
            ["sacct", "-X", "--parsable2", "--clusters", "all", "--noheader"]
            + ["--format=JobIdRaw,State", "--starttime", since, "--endtime", "now"]
            + ["--name", PROBE_JOB_NAME]
        )
        if probe.returncode != 0:
            why = probe.stderr.strip() or probe.stdout.strip()
            if requested == "squeue":
                advice = (
                    f"the plugin replaces squeue by sacct because MinJobAge ({min_job_age} s) "
                    f"is less than three times --slurm-init-seconds-before-status-checks "
                    f"({init_seconds} s): lower that setting"
                )
            else:
                advice = (
                    "add --slurm-status-command squeue to the command line"
                    if min_job_age is not None and min_job_age > LONGEST_STATUS_GAP_SECONDS
                    else "ask the administrators to set up job accounting (slurmdbd)"
                )
            raise SlurmPreflightError(
                f"--executor slurm: job status would be read with sacct, which fails here "
                f"({why}). The plugin would take every job as still running and wait "
                f"forever. Refusing to start; {advice}."
            )
        return command
    if min_job_age is None or min_job_age <= LONGEST_STATUS_GAP_SECONDS:
        known = "unknown" if min_job_age is None else f"{min_job_age} s"
        raise SlurmPreflightError(
            f"--executor slurm: job status would be read with squeue, but the controller "
            f"forgets finished jobs after MinJobAge ({known}), which must exceed the "
            f"plugin's longest gap between status checks ({LONGEST_STATUS_GAP_SECONDS} s); "
            "a job that ends unseen is waited for forever. Refusing to start; use sacct "
            "(with job accounting) or ask the administrators to raise MinJobAge."
        )
    probe = run(["squeue", "--noheader", "--states=all", "--name", PROBE_JOB_NAME])
    if probe.returncode != 0:
        raise SlurmPreflightError(
            f"--executor slurm: job status would be read with squeue, which fails here: "
            f"{probe.stderr.strip() or probe.stdout.strip()}"
        )
    return command


def check_array_jobs(array_jobs: str | None, plugin_version: Version) -> None:
    if array_jobs and array_jobs.strip() and plugin_version <= LAST_PLUGIN_WITH_BROKEN_ARRAYS:
        raise SlurmPreflightError(
            f"--slurm-array-jobs {array_jobs}: with {PLUGIN} {plugin_version}, every array "
            "task after the first checks the outputs of the first task, fails when they are "
            "not there yet and, when it fails, deletes them (upstream issue #447); array mode "
            "can also stop submitting jobs (#473). Refusing to start; drop "
            "--slurm-array-jobs (each shard is then its own SLURM job)."
        )


def check_settings(
    status_command: str | None,
    init_seconds: int,
    array_jobs: str | None = None,
    run: Runner = run_command,
    which: Callable[[str], str | None] = shutil.which,
) -> str:
    """Check the SLURM executor settings of a run against this cluster.

    Parameters
    ----------
    status_command, init_seconds, array_jobs
        The plugin's settings ``--slurm-status-command`` (None: the plugin's default),
        ``--slurm-init-seconds-before-status-checks`` and ``--slurm-array-jobs``.
    run, which
        How to run a command and find a program (replaced in the tests).

    Returns
    -------
    str
        The status command the plugin will use ("sacct" or "squeue").

    Raises
    ------
    SlurmPreflightError
        With what would go wrong and what to change.
    """
    check_array_jobs(array_jobs, Version(version(PLUGIN)))
    site = read_site(run, which)
    return check_status_queries(status_command, init_seconds, site, run)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slurm-status-command", choices=["sacct", "squeue"])
    parser.add_argument("--slurm-init-seconds-before-status-checks", type=int, default=40)
    parser.add_argument("--slurm-array-jobs")
    arguments = parser.parse_args(argv)
    try:
        command = check_settings(
            arguments.slurm_status_command,
            arguments.slurm_init_seconds_before_status_checks,
            arguments.slurm_array_jobs,
        )
    except SlurmPreflightError as error:
        print(f"preflight.py: {error}", file=sys.stderr)
        return 1
    print(f"preflight.py: job status will be read with {command}; it sees every job end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
