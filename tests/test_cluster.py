"""Cluster execution: the tiny config through the generic profile, a SLURM dry run.

The tiny config on a real SLURM cluster: tests/test_slurm.py."""

import json
import re
from pathlib import Path

import pytest
from conftest import REPO_ROOT, TINY_CONFIG, TINY_RUN_GROUP, reproducible_outputs, snakemake

from cdbandits.workflow.provenance import config_sha256

pytestmark = pytest.mark.workflow

PROFILES = REPO_ROOT / "workflow" / "profiles"

# One job of a dry run: "rule NAME:" (sent to the cluster) or "localrule NAME:", then
# indented "key: value" lines.
JOB_BLOCK = re.compile(r"^(?P<kind>rule|localrule) (?P<rule>\w+):\n(?P<body>(?:    .*\n)+)", re.M)

# What the report must show of each result family: its figures and main tables, by category.
REPORT_ENTRIES = {
    "Worked examples (Appendix B)": ["results/examples/examples.json"],
    "Published MSLR matrices": ["results/winners/full_matrices.csv"],
    "Appendices A and B": [
        "results/appendix/figures/fig1_condorcet.png",
        "results/appendix/figures/fig4_support_size.png",
        "results/appendix/informational/per_k.csv",
        "results/appendix/navigational/verification.json",
        "results/appendix/claims.csv",
    ],
    "Matrices from learning-to-rank data": [
        "results/letor/validation/sample_informational.png",
        "results/letor/matrices/sample_informational.npz",
        "results/letor/per_query/sample_informational.json",
    ],
    "Online regret (SparringEXP4.P)": [
        "results/online/figures/regret_vs_horizon.png",
        "results/online/coverage.csv",
        "results/online/exact_winners.csv",
    ],
    "Oracle methods and bounds": [
        "results/oracle/figures/convergence.png",
        "results/oracle/bound_table.csv",
        "results/oracle/scaling.csv",
    ],
    "Notebooks": ["results/notebooks/examples_and_full_matrices.html"],
}


def dry_run_jobs(stdout: str) -> list[dict[str, str]]:
    """Each job of a dry run's output: kind, rule, and its indented fields."""
    jobs = []
    for match in JOB_BLOCK.finditer(stdout):
        fields = dict(
            line.strip().split(": ", 1) for line in match["body"].splitlines() if ": " in line
        )
        jobs.append({"kind": match["kind"], "rule": match["rule"], **fields})
    return jobs


def report_data(report: str) -> tuple[dict, dict]:
    """The files of a Snakemake report page and their categories.

    The page defines them as JSON: `var results = {path: {"caption": ..., ...}}` and
    `var categories = {category: {subcategory: [path, ...]}}`.
    """
    decoder = json.JSONDecoder()
    data = []
    for name in ("results", "categories"):
        start = report.rindex(f"var {name} = ") + len(f"var {name} = ")
        data.append(decoder.raw_decode(report, start)[0])
    return data[0], data[1]


#: What the generic profile builds: a notebook and what it reads (cluster jobs), after the
#: downloads (local rules). Two families through SLURM, compared byte for byte with the
#: local run: tests/test_slurm.py.
GENERIC_TARGETS = (
    "results/examples/examples.json",
    "results/winners/full_matrices.csv",
    "results/notebooks/examples_and_full_matrices.html",
)


@TINY_RUN_GROUP
def test_the_generic_profile_submits_jobs_with_their_resources(tmp_path, data_mirror, tiny_run):
    """The jobs go through the cluster executor with their resources, and give the files of
    the local run, byte for byte."""
    arguments = (
        "--profile",
        str(PROFILES / "generic"),
        "--directory",
        str(tmp_path),
        "--configfile",
        str(TINY_CONFIG),
        "--config",
        f"data_mirror={data_mirror}",
        "--jobs",
        "2",
        "--seconds-between-status-checks",
        "1",
    )
    snakemake(*arguments, *GENERIC_TARGETS)

    job_logs = sorted((tmp_path / ".snakemake" / "cluster-generic-logs").glob("snakejob.*.log"))
    submitted = {path.name.split(".")[1] for path in job_logs}
    assert {"compute_full_matrix_winners", "execute_examples_notebook"} <= submitted
    assert "fetch_data_file" not in submitted, "downloads are local rules"
    for path in job_logs:
        header = path.read_text().splitlines()[0]
        assert re.search(r"threads=\d+ mem_mb=\d+ runtime=\d+ min$", header), header

    outputs = reproducible_outputs(tmp_path)
    assert {Path(target) for target in GENERIC_TARGETS} <= outputs
    for relative in sorted(outputs):
        assert (tmp_path / relative).read_bytes() == (tiny_run / relative).read_bytes(), relative

    results = tmp_path / "results"
    assert json.loads((results / "examples" / "examples.json").read_text())["all_match_paper"]
    provenance = json.loads((results / "provenance.json").read_text())
    assert provenance["config"]["seed"] == 7
    assert provenance["config_sha256"] == config_sha256(provenance["config"])
    assert "--profile" in provenance["command"]
    assert provenance["started_at"] <= provenance["finished_at"]

    # A run with nothing to do leaves the record of the run that built the results. (The
    # target is a data file: it has no library sources, whose edits would rerun jobs.)
    before = (results / "provenance.json").read_bytes()
    rerun = snakemake(*arguments, "results/data/mslr_informational/MSLR_Informational_PMat.npz")
    assert "Nothing to be done" in rerun.stdout + rerun.stderr
    assert (results / "provenance.json").read_bytes() == before


@TINY_RUN_GROUP
def test_the_report_of_the_tiny_run_captions_every_result(tmp_path, data_mirror, tiny_run):
    report_path = tmp_path / "report.html"
    snakemake(
        "--directory",
        str(tiny_run),
        "--configfile",
        str(TINY_CONFIG),
        "--config",
        f"data_mirror={data_mirror}",
        "--report",
        str(report_path),
    )
    report = report_path.read_text()
    assert "Contextual Dueling Bandits: reproduction report" in report
    assert "examples_and_full_matrices.html" in report
    entries, categories = report_data(report)
    for path, entry in entries.items():
        assert entry["caption"].strip(), f"{path} has no caption"
    for category, paths in REPORT_ENTRIES.items():
        shown = {path for files in categories.get(category, {}).values() for path in files}
        assert set(paths) <= shown, category


def test_slurm_dry_run_of_the_default_config_with_the_profile(tmp_path):
    completed = snakemake(
        "--profile",
        str(PROFILES / "slurm"),
        "--directory",
        str(tmp_path),
        "--configfile",
        str(REPO_ROOT / "config/config.yaml"),
        "--dry-run",
    )
    jobs = dry_run_jobs(completed.stdout)
    cluster_jobs = [job for job in jobs if job["kind"] == "rule" and job["rule"] != "all"]
    assert cluster_jobs, completed.stdout
    for job in cluster_jobs:
        resources = job.get("resources", "")
        assert re.search(r"\bruntime=\d+", resources), f"{job['rule']} sets no runtime"
        assert re.search(r"\bmem_mb=\d+", resources), f"{job['rule']} sets no mem_mb"
