"""The rules of the appendix section (cdbandits.experiments.appendix.settings)."""

import pytest
import yaml
from conftest import REPO_ROOT, snakemake

from cdbandits.datasets import DATA_FILES
from cdbandits.experiments.appendix.sampling import SamplingPlan
from cdbandits.experiments.appendix.settings import (
    PUBLISHED_MATRIX_ARMS,
    AppendixSection,
    SamplingSettings,
)
from cdbandits.experiments.config_model import ConfigError
from cdbandits.matrix_io import load_matrix

DEFAULT = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())["appendix"]


def test_the_default_samples_over_a_million_matrices_per_click_model():
    appendix = AppendixSection()
    plan = SamplingPlan.build("any", 136, appendix.ks, appendix.samples_per_k, seed=1)
    assert plan.total >= 1_000_000
    assert appendix.paper_click_model == appendix.click_models[0] == "informational"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"paper_click_model": "perfekt"}, "appendix.paper_click_model: 'perfekt' is not among"),
        ({"click_models": ["informational", "web"]}, "appendix.matrices: no matrix for .*'web'"),
        (
            {"matrices": {**DEFAULT["matrices"], "perfect": "mslr_perfekt"}},
            "appendix.matrices.perfect: 'mslr_perfekt' is neither a data key",
        ),
        ({"ks": [2, 2]}, r"appendix.ks: values repeat; got \[2, 2\]"),
        ({"solver": "BOGUS"}, "appendix.solver: 'BOGUS' is not an installed cvxpy solver"),
    ],
)
def test_each_rule_names_its_key(changes, message):
    with pytest.raises(ConfigError, match=f"^{message}"):
        AppendixSection.from_config({**DEFAULT, **changes}, "appendix")


def test_no_size_exceeds_the_arms_of_a_matrix_known_at_the_start():
    appendix = AppendixSection.from_config({**DEFAULT, "ks": [2, 500]}, "appendix")
    appendix.check_matrix_arms({"informational": None})  # unknown: checked when read
    with pytest.raises(ConfigError, match=r"^appendix.ks: K = 500 exceeds the 136 arms of the "):
        appendix.check_matrix_arms({"informational": 136})
    SamplingSettings(ks=(2, 136)).check_fits(136, "the matrix 'x'")


def test_published_matrix_sizes_are_those_of_the_files(data_mirror):
    for key, arms in PUBLISHED_MATRIX_ARMS.items():
        assert load_matrix(data_mirror / DATA_FILES[key].mirror_path).shape == (arms, arms)


@pytest.mark.workflow
@pytest.mark.parametrize(
    ("config", "changes", "message"),
    [
        (
            "config/config.yaml",
            {"ks": [2, 500]},
            "config key appendix.ks: K = 500 exceeds the 136 arms of the matrix of click "
            "model 'informational' (mslr_informational)",
        ),
        (
            "config/test.yaml",
            {"ks": [2, 10]},
            "config key appendix.ks: K = 10 exceeds the 6 arms of the matrix of click model "
            "'built_informational' (results/letor/matrices/sample_informational.npz)",
        ),
    ],
)
def test_the_workflow_stops_at_once_on_a_size_too_large(tmp_path, config, changes, message):
    values = yaml.safe_load((REPO_ROOT / config).read_text())
    values["appendix"].update(changes)
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(values))
    completed = snakemake(
        "--dry-run",
        "--directory",
        str(tmp_path),
        "--configfile",
        str(tmp_path / "bad.yaml"),
        check=False,
    )
    assert completed.returncode != 0
    assert completed.stderr.strip().splitlines() == [message]
    assert "solve_appendix_shard" not in completed.stdout  # no job was even planned
