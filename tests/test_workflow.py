"""The Snakemake workflow: lint, dry run, schema validation, a tiny end-to-end run."""

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO_ROOT

pytestmark = pytest.mark.workflow

SNAKEMAKE = [sys.executable, "-m", "snakemake", "--snakefile", str(REPO_ROOT / "Snakefile")]
DEFAULT_CONFIG = str(REPO_ROOT / "config/config.yaml")


def snakemake(*arguments, cwd=REPO_ROOT, check=True):
    completed = subprocess.run(
        [*SNAKEMAKE, *arguments], cwd=cwd, capture_output=True, text=True, timeout=1800
    )
    if check and completed.returncode != 0:
        pytest.fail(f"snakemake {' '.join(arguments)} failed:\n{completed.stdout}\n{completed.stderr}")
    return completed


def test_lint_is_clean():
    completed = snakemake("--lint")
    output = completed.stdout + completed.stderr
    assert "Congratulations, your workflow is in a good condition!" in output


def test_dry_run_of_the_default_config(tmp_path):
    completed = snakemake(
        "--dry-run", "--directory", str(tmp_path), "--configfile", DEFAULT_CONFIG, "--cores", "2"
    )
    assert "compute_full_matrix_winners" in completed.stdout


def test_bad_config_is_rejected_by_the_schema(tmp_path):
    completed = snakemake(
        "--dry-run", "--directory", str(tmp_path), "--configfile", DEFAULT_CONFIG,
        "--config", "seed=-1",
        check=False,
    )
    assert completed.returncode != 0
    output = completed.stdout + completed.stderr
    assert "Error validating config file" in output
    assert "-1 is less than the minimum of 0" in output


def run_tiny_workflow(directory: Path, mirror: Path) -> None:
    snakemake(
        "--directory", str(directory),
        "--configfile", str(REPO_ROOT / "config/test.yaml"),
        "--config", f"data_mirror={mirror}",
        "--cores", "2",
    )


def test_tiny_end_to_end_run_is_reproducible(tmp_path, data_mirror):
    first, second = tmp_path / "first", tmp_path / "second"
    run_tiny_workflow(first, data_mirror)
    run_tiny_workflow(second, data_mirror)
    outputs = sorted(
        path.relative_to(first)
        for path in (first / "results").rglob("*")
        if path.is_file() and "logs" not in path.parts
    )
    assert Path("results/winners/full_matrices.csv") in outputs
    assert Path("results/examples/examples.json") in outputs
    for relative in outputs:
        assert (first / relative).read_bytes() == (second / relative).read_bytes(), relative
    summary = (first / "results/examples/examples.json").read_text()
    assert '"all_match_paper": true' in summary


def test_missing_data_fails_with_a_clear_message(tmp_path):
    completed = snakemake(
        "--directory", str(tmp_path),
        "--configfile", str(REPO_ROOT / "config/test.yaml"),
        "--config", f"data_mirror={tmp_path / 'empty'}",
        "--cores", "1",
        "results/data/mslr_informational/MSLR_Informational_PMat.npz",
        check=False,
    )
    assert completed.returncode != 0
    log = (tmp_path / "results/logs/fetch_data_file/mslr_informational/MSLR_Informational_PMat.npz.log")
    assert "cannot obtain MSLR_Informational_PMat.npz" in log.read_text()
    assert not (tmp_path / "results/data/mslr_informational/MSLR_Informational_PMat.npz").exists()
