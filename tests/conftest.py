"""Shared fixtures: the repository root, the local data mirror and one tiny workflow run."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run (reproducible CI); set
# HYPOTHESIS_PROFILE=explore to draw new ones.
settings.register_profile("reproducible", derandomize=True, deadline=None, database=None)
settings.register_profile("explore", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "reproducible"))

REPO_ROOT = Path(__file__).resolve().parents[1]
TINY_CONFIG = REPO_ROOT / "config" / "test.yaml"
SNAKEMAKE = [sys.executable, "-m", "snakemake", "--snakefile", str(REPO_ROOT / "Snakefile")]


def find_data_mirror() -> Path | None:
    """The local copy of the public data: $CDBANDITS_DATA_MIRROR, else <repo>/../shared/data."""
    configured = os.environ.get("CDBANDITS_DATA_MIRROR")
    candidate = Path(configured) if configured else REPO_ROOT.parent / "shared" / "data"
    return candidate.resolve() if candidate.is_dir() else None


#: The fixtures that run the workflow: a test that uses one must carry the ``workflow`` mark
#: and :data:`TINY_RUN_GROUP` (the tiny run, and the SLURM cluster, once per session).
WORKFLOW_FIXTURES = frozenset({"tiny_run", "slurm"})

#: The test being set up or run (Snakemake may run only in a test marked ``workflow``).
_running: list[pytest.Item] = []


def pytest_collection_modifyitems(config, items):
    for item in items:
        if not WORKFLOW_FIXTURES & set(item.fixturenames):
            continue
        if not item.get_closest_marker("workflow"):
            raise pytest.UsageError(f"{item.nodeid} runs the workflow but is not marked workflow")
        groups = {mark.args[0] for mark in item.iter_markers("xdist_group")}
        if groups != set(TINY_RUN_GROUP.args):
            raise pytest.UsageError(f"{item.nodeid} runs the workflow outside TINY_RUN_GROUP")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _running[:] = [item]


def snakemake(*arguments: str, cwd: Path = REPO_ROOT, check: bool = True):
    """Run Snakemake on the repository's Snakefile; fail the test with its output on error.

    Only a test marked ``workflow`` may call it (``-m "not workflow"`` leaves out every test
    that runs Snakemake)."""
    if _running and not _running[0].get_closest_marker("workflow"):
        pytest.fail(f"{_running[0].nodeid} runs snakemake but is not marked workflow")
    completed = subprocess.run(
        [*SNAKEMAKE, *arguments], cwd=cwd, capture_output=True, text=True, timeout=1800
    )
    if check and completed.returncode != 0:
        pytest.fail(
            f"snakemake {' '.join(arguments)} failed:\n{completed.stdout}\n{completed.stderr}"
        )
    return completed


def reproducible_outputs(directory: Path) -> set[Path]:
    """The files under results/ that a run with the same config must reproduce byte for byte.

    Left out: the logs, the rules' benchmark records (run times), provenance.json and
    run_time.md (they record times and the command line: the outputs meant to differ) and
    the report (built by a separate command).
    """
    results = directory / "results"
    return {
        path.relative_to(directory)
        for path in results.rglob("*")
        if path.is_file()
        and path.relative_to(results).parts[0] not in {"logs", "benchmarks"}
        and path.relative_to(results)
        not in {Path("provenance.json"), Path("run_time.md"), Path("report.html")}
    }


#: The mark of the tests that read the shared tiny workflow run (or use the SLURM cluster):
#: under pytest-xdist (``--dist loadgroup``) they all go to one worker, so the run is made
#: once per session; the other workflow tests spread over the workers.
TINY_RUN_GROUP = pytest.mark.xdist_group("tiny-workflow-run")


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def data_mirror() -> Path:
    """Folder laid out like ``../shared/data``; tests that need real data fail without it."""
    mirror = find_data_mirror()
    if mirror is None:
        pytest.fail(
            "no data mirror: set CDBANDITS_DATA_MIRROR to a folder laid out like ../shared/data "
            "(the tests use the real MSLR files and never download them)"
        )
    return mirror


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory, data_mirror) -> Path:
    """The working directory of one local run of the whole workflow on config/test.yaml.

    Built once per test session, whichever xdist worker asks first; the others wait on a
    file lock and reuse it (a run is complete when it wrote results/provenance.json). Tests
    must not modify it. The cluster tests compare their own runs with this one, byte for
    byte.
    """
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    directory = shared / "tiny-local"
    with open(shared / "tiny-local.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (directory / "results" / "provenance.json").is_file():
            shutil.rmtree(directory, ignore_errors=True)
            directory.mkdir()
            snakemake(
                "--directory",
                str(directory),
                "--configfile",
                str(TINY_CONFIG),
                "--config",
                f"data_mirror={data_mirror}",
                "--cores",
                "2",
            )
    return directory
