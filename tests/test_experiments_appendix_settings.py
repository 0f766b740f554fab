"""The appendix settings: parsed once, checked across keys, and failing when the workflow starts."""

import dataclasses

import pytest
import yaml
from conftest import REPO_ROOT, snakemake

from cdbandits.datasets import DATA_FILES
from cdbandits.experiments.appendix.settings import (
    PUBLISHED_MATRIX_ARMS,
    AppendixSettings,
    CountingSettings,
    IntervalSettings,
    SamplingSettings,
    SettingsError,
    SolverSettings,
    VerificationSettings,
)
from cdbandits.matrix_io import load_matrix

DEFAULT_CONFIG = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())


def default_settings(**changes) -> AppendixSettings:
    section = {**DEFAULT_CONFIG["appendix"], **changes}
    arms = {
        model: PUBLISHED_MATRIX_ARMS.get(source) for model, source in section["matrices"].items()
    }
    return AppendixSettings.from_config(section, DEFAULT_CONFIG["seed"], matrix_arms=arms)


def test_default_config_samples_over_a_million_per_click_model():
    settings = default_settings()
    plan = settings.sampling.plan("any", 136)
    assert plan.total >= 1_000_000
    assert settings.click_models == ("informational", "navigational", "perfect")
    assert settings.paper_click_model == "informational"


@pytest.mark.parametrize(
    "part",
    [SamplingSettings, CountingSettings, SolverSettings, IntervalSettings, VerificationSettings],
)
def test_each_part_gives_back_exactly_its_config_keys(part):
    settings = default_settings()
    value = next(v for v in vars(settings).values() if isinstance(v, part))
    config = value.to_config()
    assert part.from_config(config) == value
    section = {**DEFAULT_CONFIG["appendix"], "seed": DEFAULT_CONFIG["seed"]}
    assert {key: section[key] for key in config} == config


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"ks": [2, 500]}, r"^appendix.ks: K = 500 exceeds the 136 arms of the matrix of click "),
        ({"ks": [2, 2]}, r"^appendix.ks: sizes must be distinct"),
        ({"paper_click_model": "perfekt"}, r"^appendix.paper_click_model: 'perfekt' is not"),
        ({"click_models": ["informational", "web"]}, r"^appendix.matrices: no matrix for .*'web'"),
        (
            {"matrices": {**DEFAULT_CONFIG["appendix"]["matrices"], "perfect": "mslr_perfekt"}},
            r"^appendix.matrices.perfect: 'mslr_perfekt' is neither a data key",
        ),
        ({"verify_uniform": 0}, r"^appendix.verify_uniform: must be at least 1"),
        ({"solver": "BOGUS"}, r"^appendix.solver: 'BOGUS' is not an installed cvxpy solver"),
        ({"shards": 0}, r"^appendix.shards: must be at least 1"),
        ({"copeland_variant": "borda"}, r"^appendix.copeland_variant: must be one of"),
        ({"confidence": 1.5}, r"^appendix.confidence: must lie in \(0, 1\)"),
        ({"samples_per_k": 0}, r"^appendix.samples_per_k: must be at least 1"),
        ({"verify_no_condorcet": -1}, r"^appendix.verify_no_condorcet: must be at least 0"),
    ],
)
def test_bad_values_fail_with_one_line_naming_the_key(changes, message):
    with pytest.raises(SettingsError, match=message) as raised:
        default_settings(**changes)
    assert "\n" not in str(raised.value)


def test_unknown_matrix_sizes_are_checked_later():
    section = {**DEFAULT_CONFIG["appendix"], "ks": [2, 500]}
    settings = AppendixSettings.from_config(section, 1, matrix_arms={"informational": None})
    assert settings.matrix_arms == {}
    with pytest.raises(SettingsError, match="K = 500 exceeds the 136 arms"):
        settings.sampling.plan("informational", 136)
    assert dataclasses.replace(settings.sampling, ks=(2, 136)).plan("x", 136).ks == (2, 136)


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
            "Config error: appendix.ks: K = 500 exceeds the 136 arms of the matrix of click "
            "model 'informational' (mslr_informational)",
        ),
        (
            "config/test.yaml",
            {"ks": [2, 10]},
            "Config error: appendix.ks: K = 10 exceeds the 6 arms of the matrix of click model "
            "'built_informational' (results/letor/matrices/sample_informational.npz)",
        ),
    ],
)
def test_the_workflow_rejects_a_bad_value_when_it_starts(tmp_path, config, changes, message):
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
