"""The Snakemake workflow: lint, dry run, schema validation, a tiny end-to-end run.

The tiny run is the session fixture `tiny_run` (conftest.py); tests/test_cluster.py runs
the same config through the cluster profile and checks that it reproduces this run byte
for byte.
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import REPO_ROOT, TINY_CONFIG, TINY_RUN_GROUP, reproducible_outputs, snakemake
from test_experiments_oracle_detection import check_detections

pytestmark = pytest.mark.workflow

DEFAULT_CONFIG = str(REPO_ROOT / "config/config.yaml")
NOTEBOOKS = sorted(path.stem for path in (REPO_ROOT / "notebooks").glob("*.ipynb"))


def test_lint_is_clean():
    completed = snakemake("--lint")
    output = completed.stdout + completed.stderr
    assert "Congratulations, your workflow is in a good condition!" in output


#: The tests that read the default config's dry run (one worker runs it once).
DEFAULT_DRY_RUN_GROUP = pytest.mark.xdist_group("default-dry-run")


@pytest.fixture(scope="module")
def default_dry_run(tmp_path_factory) -> str:
    """The jobs a run of the default config would run (its dry run's output)."""
    directory = tmp_path_factory.mktemp("default-dry-run")
    completed = snakemake(
        "--dry-run", "--directory", str(directory), "--configfile", DEFAULT_CONFIG, "--cores", "2"
    )
    return completed.stdout


@DEFAULT_DRY_RUN_GROUP
def test_dry_run_of_the_default_config(default_dry_run):
    assert "compute_full_matrix_winners" in default_dry_run
    # figures/ tracks exactly what the default run publishes there (no timing figures).
    published = {
        Path(path).name
        for line in default_dry_run.splitlines()
        if line.strip().startswith("output:") and "figures/" in line
        for path in line.split(":", 1)[1].split(",")
        if path.strip().startswith("figures/")
    }
    tracked = {path.name for path in (REPO_ROOT / "figures").iterdir()}
    assert published and published == tracked
    assert not any("scaling" in name for name in tracked)


@DEFAULT_DRY_RUN_GROUP
def test_the_default_run_executes_every_notebook(default_dry_run):
    assert NOTEBOOKS
    for name in NOTEBOOKS:
        for suffix in (".ipynb", ".html"):
            assert f"results/notebooks/{name}{suffix}" in default_dry_run, name


def test_only_the_default_config_publishes_figures(tmp_path):
    # Another config (here one changed key) must leave the tracked figures/ alone.
    completed = snakemake(
        "--dry-run",
        "--directory",
        str(tmp_path),
        "--configfile",
        DEFAULT_CONFIG,
        "--config",
        "seed=1",
        "--cores",
        "2",
    )
    assert "compute_full_matrix_winners" in completed.stdout
    assert "publish_figures" not in completed.stdout


def test_bad_config_is_rejected_by_the_schema(tmp_path):
    completed = snakemake(
        "--dry-run",
        "--directory",
        str(tmp_path),
        "--configfile",
        DEFAULT_CONFIG,
        "--config",
        "seed=-1",
        check=False,
    )
    assert completed.returncode != 0
    output = completed.stdout + completed.stderr
    assert "config key seed: -1 is less than the minimum of 0" in output
    assert len(output.splitlines()) < 10, "the message must be short, not a schema dump"


def test_misspelled_key_is_named_in_a_short_message(tmp_path):
    completed = snakemake(
        "--dry-run",
        "--directory",
        str(tmp_path),
        "--configfile",
        DEFAULT_CONFIG,
        "--config",
        "apendix={}",
        check=False,
    )
    assert completed.returncode != 0
    output = completed.stdout + completed.stderr
    assert "'apendix' was unexpected" in output and "allowed keys: appendix," in output
    assert len(output.splitlines()) < 10


@TINY_RUN_GROUP
def test_tiny_end_to_end_run_builds_every_result(tiny_run):
    # Reproducibility: tests/test_cluster.py compares a second run with this one.
    outputs = reproducible_outputs(tiny_run)
    assert not (tiny_run / "figures").exists(), "a non-default config published figures"
    assert Path("results/winners/full_matrices.csv") in outputs
    assert Path("results/examples/examples.json") in outputs
    assert Path("results/appendix/claims.csv") in outputs
    for name in NOTEBOOKS:
        for suffix in (".ipynb", ".html"):
            notebook = Path(f"results/notebooks/{name}{suffix}")
            assert notebook in outputs and (tiny_run / notebook).stat().st_size > 0, notebook
    summary = (tiny_run / "results/examples/examples.json").read_text()
    assert '"all_match_paper": true' in summary


@TINY_RUN_GROUP
def test_the_appendix_runs_on_a_matrix_built_from_letor_data(tiny_run):
    built = np.load(tiny_run / "results/letor/matrices/sample_informational.npz")["PMat"]
    per_k = pd.read_csv(tiny_run / "results/appendix/built_informational/per_k.csv")
    assert per_k["K"].tolist() == list(range(2, built.shape[0] + 1))
    assert (per_k["matrices"] > 0).all()
    verification = json.loads(
        (tiny_run / "results/appendix/built_informational/verification.json").read_text()
    )
    assert verification["agrees"] is True
    provenance = json.loads((tiny_run / "results/provenance.json").read_text())
    assert provenance["config"]["seed"] == 7
    assert "--profile" not in provenance["command"]


@TINY_RUN_GROUP
def test_the_detection_at_the_configs_seed_finds_what_it_finds_at_seed_0(tiny_run):
    # The same detection settings as tests/test_experiments_oracle_detection.py's, at
    # another master seed.
    oracle = tiny_run / "results/oracle"
    tables = [
        pd.read_csv(oracle / f"{name}.csv", keep_default_na=False)
        for name in ("detection", "detection_checks", "detection_variants")
    ]
    check_detections(*tables)


def test_missing_data_fails_with_a_clear_message(tmp_path):
    completed = snakemake(
        "--directory",
        str(tmp_path),
        "--configfile",
        str(TINY_CONFIG),
        "--config",
        f"data_mirror={tmp_path / 'empty'}",
        "--cores",
        "1",
        "results/data/mslr_informational/MSLR_Informational_PMat.npz",
        check=False,
    )
    assert completed.returncode != 0
    log = (
        tmp_path / "results/logs/fetch_data_file/mslr_informational/MSLR_Informational_PMat.npz.log"
    )
    assert "cannot obtain MSLR_Informational_PMat.npz" in log.read_text()
    assert not (tmp_path / "results/data/mslr_informational/MSLR_Informational_PMat.npz").exists()


def test_corrupt_mirror_file_is_reported_on_the_console(tmp_path, data_mirror):
    mirror = tmp_path / "mirror" / "mslr-preference-matrices" / "nightingal3-duelling-bandits"
    mirror.mkdir(parents=True)
    source = data_mirror / "mslr-preference-matrices/nightingal3-duelling-bandits"
    (mirror / "MSLR_Informational_PMat.npz").write_bytes(
        (source / "MSLR_Informational_PMat.npz").read_bytes() + b"junk"
    )
    completed = snakemake(
        "--directory",
        str(tmp_path / "run"),
        "--configfile",
        str(TINY_CONFIG),
        "--config",
        f"data_mirror={tmp_path / 'mirror'}",
        "--cores",
        "1",
        "results/data/mslr_informational/MSLR_Informational_PMat.npz",
        check=False,
    )
    output = completed.stdout + completed.stderr
    assert completed.returncode != 0
    assert "fetch_data_file: MSLR_Informational_PMat.npz from the mirror" in output
    assert "the file is corrupt or not the pinned version" in output
    assert "Traceback" not in output


@pytest.mark.parametrize(
    "override, message",
    [
        (
            {"letor": {"rankers": [0, 500]}},
            "config key letor.rankers: feature columns [500] are outside 0..135",
        ),
        (
            {"letor": {"validation": {"click_models": ["perfect"]}}},
            "config key letor.validation.click_models: 'perfect' has no built matrix",
        ),
        (
            {"winners": {"solver": "NO_SUCH_SOLVER"}},
            "config key winners.solver: 'NO_SUCH_SOLVER' is not an installed cvxpy solver",
        ),
        (
            {"online": {"synthetic": {"horizons": [400, 100]}}},
            "config key online.synthetic.horizons: must be increasing; got [400, 100]",
        ),
        (
            {"oracle": {"scaling": {"class_sizes": [150]}}},
            "config key oracle.scaling.class_sizes: a stump class has d (n_bins - 1) K^2",
        ),
        (
            {"real_data": {"examples": {"atp_period": "1970s"}}},
            "config key real_data.examples.atp_period: '1970s' is not among",
        ),
        (
            {"duels": {"leaderboard_horizons": [1000, 10000]}},
            "config key duels.leaderboard_horizons: the last must be duels.horizon = 100000",
        ),
    ],
)
def test_values_the_code_rejects_fail_when_the_workflow_starts(tmp_path, override, message):
    overrides = tmp_path / "override.yaml"
    overrides.write_text(json.dumps(override))
    completed = snakemake(
        "--dry-run",
        "--directory",
        str(tmp_path),
        "--configfile",
        DEFAULT_CONFIG,
        str(overrides),
        check=False,
    )
    output = completed.stdout + completed.stderr
    assert completed.returncode != 0
    assert message in output
    assert len(output.strip().splitlines()) == 1, output
