"""The workflow under a real SLURM scheduler, through workflow/profiles/slurm.

A one-node cluster (tests/slurm_cluster.py) is started once per session; without Slurm the
tests are skipped with the reason, unless CDBANDITS_REQUIRE_SLURM=1 (set by .ci/run), which
turns the skip into a failure. Also tested here without a cluster: the profile's preflight
checks (cdbandits.workflow.slurm_preflight), which refuse settings that would hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
import subprocess
import tempfile
import time
import types
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import pytest
import slurm_cluster
import yaml
from conftest import REPO_ROOT, SNAKEMAKE, TINY_CONFIG, TINY_RUN_GROUP, reproducible_outputs
from packaging.version import Version
from slurm_cluster import SlurmCluster, SlurmUnavailable, start_cluster
from test_cluster import dry_run_jobs

from cdbandits.workflow import slurm_preflight as preflight

pytestmark = TINY_RUN_GROUP

PROFILE = REPO_ROOT / "workflow" / "profiles" / "slurm"
REQUIRE_SLURM = "CDBANDITS_REQUIRE_SLURM"
# A tiny run takes a few minutes on 2 idle cores (20 on a busy machine); past this it is stuck.
RUN_TIMEOUT_SECONDS = 3000

SUBMITTED = re.compile(
    r"^Job (?P<job>\d+) has been submitted with SLURM jobid (?P<slurm>\d+) ", re.M
)
RUN_ID = re.compile(r"^SLURM run ID: (\S+)$", re.M)
ERROR_BLOCK = re.compile(r"^Error in rule (?P<rule>\w+):\n    message: (?P<message>.*)$", re.M)


# --- the cluster and how runs are started on it ---


@pytest.fixture(scope="session")
def slurm() -> SlurmCluster:
    try:
        cluster = start_cluster()
    except SlurmUnavailable as error:
        if os.environ.get(REQUIRE_SLURM) == "1":
            pytest.fail(f"{REQUIRE_SLURM}=1 but no SLURM cluster could be started: {error}")
        pytest.skip(f"no SLURM cluster could be started: {error}")
    try:
        yield cluster
    finally:
        cluster.stop()


def start_snakemake(log: Path, *arguments: str, environment: dict[str, str]) -> subprocess.Popen:
    """Snakemake in its own session (so that it can be ended with everything it started),
    its output going to `log`."""
    with open(log, "w") as output:
        return subprocess.Popen(
            [*SNAKEMAKE, *arguments],
            cwd=REPO_ROOT,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def end(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def finish(process: subprocess.Popen, log: Path, timeout: float = RUN_TIMEOUT_SECONDS) -> str:
    """The output of a run once it ends; a run still going after `timeout` fails the test."""
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        end(process)
        pytest.fail(f"snakemake still running after {timeout} s:\n{log.read_text()[-5000:]}")
    return log.read_text()


def run_snakemake(log: Path, *arguments: str, environment: dict[str, str], timeout=None) -> str:
    process = start_snakemake(log, *arguments, environment=environment)
    return finish(process, log, timeout or RUN_TIMEOUT_SECONDS)


def tiny_run_on(cluster: SlurmCluster, directory: Path, data_mirror: Path, *extra: str):
    """Arguments for the tiny config through the profile, as docs/cluster.md tells users, plus
    what keeps the test fast (first status check after 1 s) and the Slurm logs."""
    return (
        "--profile",
        str(PROFILE),
        "--directory",
        str(directory),
        "--configfile",
        str(TINY_CONFIG),
        "--config",
        f"data_mirror={data_mirror}",
        "--default-resources",
        f"slurm_partition={cluster.partition}",
        "--slurm-init-seconds-before-status-checks",
        "1",
        "--slurm-keep-successful-logs",
        *extra,
    )


SQUEUE_STATUS = ("--slurm-status-command", "squeue")


def submissions(output: str) -> dict[str, list[str]]:
    """Snakemake job id -> the SLURM job ids it was submitted as, in order."""
    submitted: dict[str, list[str]] = {}
    for match in SUBMITTED.finditer(output):
        submitted.setdefault(match["job"], []).append(match["slurm"])
    return submitted


def slurm_jobs_of(cluster: SlurmCluster, output: str) -> dict[str, dict[str, str]]:
    """The SLURM jobs of one run (named by its run ID): id -> state, comment, time limit,
    memory, CPUs per task."""
    run_id = RUN_ID.search(output)[1]
    jobs = cluster.jobs("%i", "%j", "%T", "%k", "%l", "%m", "%c")
    return {job["%i"]: job for job in jobs if job["%j"] == run_id}


def minutes(time_limit: str) -> int:
    """Minutes of a SLURM time limit as squeue prints it: [days-][hours:]minutes:seconds."""
    days, _, clock = time_limit.rpartition("-")
    parts = [int(part) for part in clock.split(":")]
    hours, mins, seconds = [0] * (3 - len(parts)) + parts
    return (int(days or 0) * 24 + hours) * 60 + mins + (seconds > 0)


# --- the tiny config on the cluster ---


@dataclass(frozen=True)
class TinyRuns:
    """Two runs of the tiny config's SLURM_TARGETS in one folder through the profile.

    The first (--retries 0: the profile would submit a failed job once more) has a running
    job cancelled with scancel. The second, the rerun, finishes the work; in it the first
    job step on the cluster fails once (srun exits 1, as a step lost to a node problem),
    which the profile's retry must absorb.
    """

    directory: Path
    cancelled: dict[str, str]
    first: str
    first_code: int
    first_outputs: set[Path]
    rerun: str
    failed_step: str


# What the tiny runs on the cluster build: two families (shards, verification, summaries,
# figures, notebooks: 22 cluster jobs), enough for every mechanism tested here at a third of
# the whole workflow's cost. No test runs the whole tiny workflow through a cluster
# executor: the generic profile's test (tests/test_cluster.py) builds a notebook and its
# inputs.
SLURM_TARGETS = ("winners", "appendix")
# Result folders those targets build completely (they also fetch some data and build one
# LETOR matrix, which are compared too).
SLURM_RESULT_FOLDERS = ("winners", "examples", "appendix")


@pytest.fixture(scope="module")
def tiny_runs(slurm, data_mirror, tmp_path_factory) -> TinyRuns:
    folder = tmp_path_factory.mktemp("tiny-slurm")
    directory = folder / "run"
    log = folder / "first.log"
    process = start_snakemake(
        log,
        *tiny_run_on(slurm, directory, data_mirror, *SQUEUE_STATUS, "--retries", "0"),
        *SLURM_TARGETS,
        environment=slurm.environment,
    )
    try:
        cancelled = cancel_a_running_job(slurm, process, log)
        first = finish(process, log)
    finally:
        end(process)
    first_outputs = reproducible_outputs(directory)
    marker = folder / "injected-failure"
    rerun = run_snakemake(
        folder / "rerun.log",
        *tiny_run_on(slurm, directory, data_mirror, *SQUEUE_STATUS),
        *SLURM_TARGETS,
        environment=slurm.fail_first_job_step(marker),
    )
    failed_step = (marker / "command").read_text() if marker.exists() else ""
    return TinyRuns(
        directory, cancelled, first, process.returncode, first_outputs, rerun, failed_step
    )


@pytest.mark.workflow
def test_a_job_cancelled_by_slurm_fails_the_run_with_a_clear_message(tiny_runs, tiny_run):
    assert tiny_runs.first_code != 0
    cancelled = tiny_runs.cancelled["%i"]
    message = f"SLURM-job '{cancelled}' failed, SLURM status is: 'CANCELLED'."
    errors = [match for match in ERROR_BLOCK.finditer(tiny_runs.first)]
    [error] = [match for match in errors if match["message"].startswith(message)]
    assert tiny_runs.cancelled["%k"].startswith(f"rule_{error['rule']}")
    assert "Exiting because a job execution failed" in tiny_runs.first
    assert tiny_runs.first_outputs < reproducible_outputs(tiny_runs.directory), "no work left"


@pytest.mark.workflow
def test_the_rerun_completes_with_the_outputs_of_a_local_run(tiny_runs, tiny_run):
    assert "steps (100%) done" in tiny_runs.rerun, tiny_runs.rerun[-5000:]
    errors = {match["rule"] for match in ERROR_BLOCK.finditer(tiny_runs.first)}
    assert errors <= {job["rule"] for job in dry_run_jobs(tiny_runs.rerun)}
    outputs = reproducible_outputs(tiny_runs.directory)
    local = reproducible_outputs(tiny_run)
    assert outputs <= local
    for folder in SLURM_RESULT_FOLDERS:
        expected = {path for path in local if path.parts[1] == folder}
        assert expected and expected <= outputs, f"results/{folder} incomplete"
    directory = tiny_runs.directory
    for relative in sorted(outputs):
        assert (directory / relative).read_bytes() == (tiny_run / relative).read_bytes(), relative


@pytest.mark.workflow
def test_the_profile_retries_a_job_that_failed_on_the_cluster(slurm, tiny_runs):
    """The injected failure: one job, submitted twice, failed once, completed the second
    time; every other job of the rerun completed at once."""
    jobs = {job["jobid"]: job for job in dry_run_jobs(tiny_runs.rerun)}
    submitted = submissions(tiny_runs.rerun)
    slurm_jobs = slurm_jobs_of(slurm, tiny_runs.rerun)
    retried = {jobid: ids for jobid, ids in submitted.items() if len(ids) > 1}
    assert len(retried) == 1, retried
    [(jobid, [first, second])] = retried.items()
    assert f" {jobs[jobid]['rule']}:" in tiny_runs.failed_step
    assert f"Trying to restart job {jobid}." in tiny_runs.rerun
    assert (slurm_jobs[first]["%T"], slurm_jobs[second]["%T"]) == ("FAILED", "COMPLETED")
    others = {job["%T"] for slurm_id, job in slurm_jobs.items() if slurm_id != first}
    assert others == {"COMPLETED"}


@pytest.mark.workflow
@pytest.mark.parametrize("run", ["first", "rerun"])
def test_every_rule_but_the_local_ones_runs_as_a_slurm_job_with_its_resources(
    slurm, tiny_runs, run
):
    """Threads, mem_mb and runtime of each job reach SLURM as cpus-per-task, memory and
    time limit; local rules (downloads, the final target) do not go to SLURM."""
    output = getattr(tiny_runs, run)
    jobs = {job["jobid"]: job for job in dry_run_jobs(output)}
    submitted = submissions(output)
    assert submitted, output[-5000:]
    assert set(submitted) == {jobid for jobid, job in jobs.items() if job["kind"] == "rule"}
    slurm_jobs = slurm_jobs_of(slurm, output)
    assert sorted(slurm_jobs) == sorted(i for ids in submitted.values() for i in ids)
    for jobid, slurm_ids in submitted.items():
        job = jobs[jobid]
        resources = dict(re.findall(r"(\w+)=(\d+)", job["resources"]))
        for slurm_id in slurm_ids:
            slurm_job = slurm_jobs[slurm_id]
            assert slurm_job["%k"].startswith(f"rule_{job['rule']}"), (job, slurm_job)
            assert minutes(slurm_job["%l"]) == int(resources["runtime"]), (job, slurm_job)
            assert slurm_job["%m"] == f"{resources['mem_mb']}M", (job, slurm_job)
            assert int(slurm_job["%c"]) == int(job.get("threads", 1)), (job, slurm_job)


def cancel_a_running_job(cluster, process, log, seconds_running=3, timeout=1200):
    """scancel a job of the run in `log` once it has been running `seconds_running`; if it
    completes before the cancellation lands, try the next one."""
    deadline = time.monotonic() + timeout
    first_seen: dict[str, float] = {}
    while time.monotonic() < deadline and process.poll() is None:
        run_id = RUN_ID.search(log.read_text())
        jobs = cluster.jobs("%i", "%j", "%T", "%k") if run_id else []
        for job in jobs:
            if job["%j"] != run_id[1] or job["%T"] != "RUNNING":
                continue
            started = first_seen.setdefault(job["%i"], time.monotonic())
            if time.monotonic() - started >= seconds_running:
                cluster.run("scancel", job["%i"])
                if final_state(cluster, job["%i"]) == "CANCELLED":
                    return job
        time.sleep(0.5)
    pytest.fail(f"no job of the run could be cancelled running:\n{log.read_text()[-5000:]}")


def final_state(cluster, slurm_id: str, timeout: float = 120) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        [state] = [job["%T"] for job in cluster.jobs("%i", "%T") if job["%i"] == slurm_id]
        if state not in slurm_cluster.ACTIVE_STATES:
            return state
        time.sleep(0.5)
    pytest.fail(f"SLURM job {slurm_id} still {state} {timeout} s after scancel")


# --- settings that would hang are refused ---


@pytest.mark.workflow
@pytest.mark.parametrize(
    ("settings", "refusal"),
    [
        ((), "job status would be read with sacct, which fails here"),
        ((*SQUEUE_STATUS, "--slurm-array-jobs", "all"), "upstream issue #447"),
    ],
    ids=["sacct-without-accounting", "array-jobs"],
)
def test_a_run_with_unsafe_settings_is_refused_before_any_job(
    slurm, data_mirror, tmp_path, settings, refusal
):
    if "--slurm-array-jobs" in settings and not arrays_refused():
        pytest.skip(f"{preflight.PLUGIN} {plugin_version()} is taken to have working arrays")
    output = run_snakemake(
        tmp_path / "snakemake.log",
        *tiny_run_on(slurm, tmp_path / "run", data_mirror, *settings),
        environment=slurm.environment,
        timeout=300,
    )
    assert refusal in output
    assert "Refusing to start" in output
    assert not SUBMITTED.search(output)
    assert not (tmp_path / "run" / "results" / "provenance.json").exists()


ONE_JOB_WORKFLOW = """\
rule all:
    input: "done.txt"

rule work:
    output: "done.txt"
    resources: mem_mb=100, runtime=5
    shell: "echo done > {output}"
"""


@pytest.mark.workflow
def test_without_the_check_sacct_without_accounting_hangs(slurm, tmp_path):
    """Why the preflight check exists: a workflow without it (one job, plugin defaults,
    sacct on PATH, no slurmdbd) never ends although its job has long completed."""
    (tmp_path / "Snakefile").write_text(ONE_JOB_WORKFLOW)
    log = tmp_path / "snakemake.log"
    process = start_snakemake(
        log,
        *standalone_workflow(tmp_path, slurm),
        "--slurm-init-seconds-before-status-checks",
        "1",
        environment=slurm.environment,
    )
    try:
        deadline = time.monotonic() + 300
        while not completed_jobs(slurm, log) and time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            time.sleep(0.5)
        assert completed_jobs(slurm, log), log.read_text()
        time.sleep(20)
        assert process.poll() is None, "the plugin now notices finished jobs without sacct"
    finally:
        end(process)
    assert (tmp_path / "done.txt").read_text() == "done\n"


def completed_jobs(cluster, log) -> list[str]:
    run_id = RUN_ID.search(log.read_text())
    jobs = cluster.jobs("%i", "%j", "%T") if run_id else []
    return [job["%i"] for job in jobs if job["%j"] == run_id[1] and job["%T"] == "COMPLETED"]


SWEEP_WORKFLOW = """\
rule all:
    input: "shards/0.txt", "shards/1.txt"

rule shard:
    output: "shards/{shard}.txt"
    resources: mem_mb=100, runtime=5
    shell: "if [ $SLURM_ARRAY_TASK_ID = 1 ]; then sleep 30; fi; echo {wildcards.shard} > {output}"
"""


@pytest.mark.workflow
def test_array_jobs_are_refused_exactly_when_the_plugin_breaks_them(slurm, tmp_path):
    """Two shards as one job array, the first task much slower than the second. With the plugin
    in the lock, the second task then waits for the first task's output instead of its own
    and fails (upstream issue #447). The preflight check refuses array jobs for exactly the
    plugin versions with that behaviour: when this test fails, update
    LAST_PLUGIN_WITH_BROKEN_ARRAYS in cdbandits.workflow.slurm_preflight (and consider arrays
    in the profile)."""
    (tmp_path / "Snakefile").write_text(SWEEP_WORKFLOW)
    output = run_snakemake(
        tmp_path / "snakemake.log",
        *standalone_workflow(tmp_path, slurm),
        "--latency-wait",
        "5",
        "--retries",
        "0",
        "--slurm-array-jobs",
        "shard",
        *SQUEUE_STATUS,
        "--slurm-init-seconds-before-status-checks",
        "1",
        environment=slurm.environment,
        timeout=300,
    )
    assert "Submitted array job" in output, output
    broken = "steps (100%) done" not in output
    if broken:  # the second task ran its own job, then waited for the first task's output
        [second_task] = (tmp_path / ".snakemake" / "slurm_logs").rglob("*_2.log")
        text = second_task.read_text()
        assert "MissingOutputException" in text, text
    assert broken == arrays_refused(), output


def standalone_workflow(directory: Path, cluster: SlurmCluster) -> tuple[str, ...]:
    """Arguments for a test-only workflow in `directory`, without the preflight check."""
    return (
        "--snakefile",
        str(directory / "Snakefile"),
        "--directory",
        str(directory),
        "--executor",
        "slurm",
        "--jobs",
        "2",
        "--default-resources",
        f"slurm_partition={cluster.partition}",
    )


def plugin_version() -> Version:
    return Version(version(preflight.PLUGIN))


def arrays_refused() -> bool:
    try:
        preflight.check_array_jobs("shard", plugin_version())
    except preflight.SlurmPreflightError:
        return True
    return False


@pytest.mark.workflow
def test_a_cluster_that_fails_to_start_stops_what_it_started(slurm, monkeypatch):
    """A second cluster beside the session's, with a slurm.conf slurmd rejects: the
    failure names the daemon and shows its log; the munged it had started is gone, and so
    is its folder."""
    monkeypatch.setattr(
        slurm_cluster, "SLURM_CONF", slurm_cluster.SLURM_CONF + "ProctrackType=proctrack/none\n"
    )
    directory = Path(tempfile.mkdtemp(prefix="cdbandits-slurm-"))
    with pytest.raises(SlurmUnavailable, match=r"\(slurmd exited\)[\s\S]*proctrack/none"):
        start_cluster(directory)
    assert not directory.exists()
    assert not slurm_cluster.marked_processes(str(directory))
    assert slurm.node_state() == "idle", "the session's cluster is untouched"


# --- the preflight checks, against a simulated cluster ---


def simulated_site(
    *,
    min_job_age: int | None = 300,
    sacct: str | None = "works",
    squeue: str | None = "works",
    controller: bool = True,
):
    """`run` and `which` for check_settings: sacct and squeue are "works", "fails" or None
    (not installed); the controller answers scontrol with MinJobAge (None: not shown)."""
    programs = {"sinfo": "works", "sbatch": "works", "sacct": sacct, "squeue": squeue}

    def which(name: str) -> str | None:
        return f"/usr/bin/{name}" if programs.get(name) else None

    def run(command):
        if command[0] == "scontrol":
            shown = "" if min_job_age is None else f"MinJobAge               = {min_job_age} sec\n"
            answer = (0, f"MaxArraySize            = 1001\n{shown}") if controller else (1, "")
        else:
            answer = (0, "") if programs[command[0]] == "works" else (1, "")
        return subprocess.CompletedProcess(command, answer[0], answer[1], "error: unreachable")

    return run, which


def check(status_command=None, init_seconds=40, **site) -> str:
    run, which = simulated_site(**site)
    return preflight.check_settings(status_command, init_seconds, None, run=run, which=which)


@pytest.mark.parametrize(
    ("status_command", "init_seconds", "site", "expected"),
    [
        (None, 40, {}, "sacct"),
        ("squeue", 40, {}, "squeue"),
        ("squeue", 40, {"sacct": None, "min_job_age": 900}, "squeue"),
        (None, 40, {"sacct": None}, "squeue"),
        ("sacct", 40, {"sacct": None}, "squeue"),
    ],
)
def test_preflight_passes_status_queries_that_see_every_job_end(
    status_command, init_seconds, site, expected
):
    assert check(status_command, init_seconds, **site) == expected


@pytest.mark.parametrize(
    ("status_command", "init_seconds", "site", "refusal"),
    [
        (None, 40, {"sacct": "fails"}, "add --slurm-status-command squeue"),
        (None, 40, {"sacct": "fails", "min_job_age": 200}, "set up job accounting (slurmdbd)"),
        ("squeue", 120, {"sacct": "fails"}, "three times --slurm-init-seconds"),
        ("squeue", 1, {"sacct": "fails", "min_job_age": None}, "sacct, which fails"),
        ("squeue", 40, {"sacct": None, "min_job_age": 200}, "forgets finished jobs"),
        ("squeue", 40, {"sacct": None, "min_job_age": None}, "MinJobAge (unknown)"),
        ("squeue", 40, {"squeue": "fails"}, "squeue, which fails here"),
        (None, 40, {"controller": False}, "the SLURM controller does not answer"),
        (None, 40, {"sacct": None, "squeue": None}, "squeue, which fails here"),
    ],
)
def test_preflight_refuses_status_queries_that_would_hang(
    status_command, init_seconds, site, refusal
):
    with pytest.raises(preflight.SlurmPreflightError, match=re.escape(refusal)):
        check(status_command, init_seconds, **site)


def test_the_profile_passes_the_preflight_array_check():
    profile = yaml.safe_load((PROFILE / "config.yaml").read_text())
    preflight.check_array_jobs(profile.get("slurm-array-jobs"), plugin_version())


def test_preflight_refuses_a_machine_without_slurm_commands():
    run, _ = simulated_site()
    with pytest.raises(preflight.SlurmPreflightError, match="not on PATH"):
        preflight.check_settings(None, 40, run=run, which=lambda name: None)


@pytest.mark.parametrize(
    ("array_jobs", "plugin", "refused"),
    [
        ("shard", "2.8.0", True),
        ("all", "2.6.0", True),
        (None, "2.8.0", False),
        ("  ", "2.8.0", False),
        ("shard", "2.8.1", False),
    ],
)
def test_preflight_refuses_array_jobs_of_plugins_that_break_them(array_jobs, plugin, refused):
    if refused:
        with pytest.raises(preflight.SlurmPreflightError, match="#447"):
            preflight.check_array_jobs(array_jobs, Version(plugin))
    else:
        preflight.check_array_jobs(array_jobs, Version(plugin))


@pytest.mark.parametrize("sacct_on_path", [True, False])
@pytest.mark.parametrize("min_job_age", [None, 60, 119, 120, 300])
@pytest.mark.parametrize("requested", [None, "sacct", "squeue"])
def test_preflight_predicts_the_status_command_the_plugin_uses(
    monkeypatch, requested, min_job_age, sacct_on_path
):
    """Cross-check with the plugin itself: its check_active_jobs, run on a stand-in
    executor with the cluster simulated, queries with the command preflight predicts."""
    import snakemake_executor_plugin_slurm as plugin

    init_seconds = 40
    site = preflight.SlurmSite(sacct_on_path, True, min_job_age)
    used = []

    async def query(command, logger):
        used.append(command.split()[0])
        return {}, 0.0

    monkeypatch.setattr(plugin, "get_min_job_age", lambda: min_job_age)
    monkeypatch.setattr(plugin, "is_query_tool_available", lambda name: sacct_on_path)
    monkeypatch.setattr(plugin, "query_job_status", query)
    executor = stand_in_executor(requested or ("sacct" if sacct_on_path else "squeue"))
    executor.workflow.executor_settings.init_seconds_before_status_checks = init_seconds

    async def poll():
        job = types.SimpleNamespace(external_jobid="1", aux={})
        return [j async for j in plugin.Executor.check_active_jobs(executor, [job])]

    assert len(asyncio.run(poll())) == 1  # no status for the job: still running
    assert used == [preflight.plugin_status_command(requested, init_seconds, site)]


def stand_in_executor(status_command: str):
    """What the plugin's check_active_jobs reads of its executor."""
    settings = types.SimpleNamespace(status_attempts=1, keep_successful_logs=False)
    return types.SimpleNamespace(
        workflow=types.SimpleNamespace(executor_settings=settings),
        logger=logging.getLogger("stand-in executor"),
        get_status_command=lambda: status_command,
        status_rate_limiter=contextlib.nullcontext(),
        run_uuid="stand-in",
        next_seconds_between_status_checks=40,
        _status_query_calls=0,
        _status_query_failures=0,
        _status_query_total_seconds=0.0,
        _status_query_min_seconds=None,
        _status_query_max_seconds=0.0,
        _status_query_cycle_rows=[],
    )
