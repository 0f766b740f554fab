"""The real_data section and the settings of its jobs (cdbandits.experiments.real_data.settings)."""

import copy

import pytest
import yaml
from conftest import REPO_ROOT

from cdbandits.experiments.config_model import ConfigError
from cdbandits.experiments.real_data.settings import (
    ATP_SEASONS,
    CoverageSettings,
    RealDataSection,
    SubsetSettings,
)

DEFAULT = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())["real_data"]


def test_each_job_gets_its_sections_keys_with_the_shared_ones():
    settings = RealDataSection.from_config(DEFAULT).job_settings(seed=3)
    assert settings["sources"].atp_periods["2010s"] == (2010, 2019)
    assert settings["subsets"].seed == settings["contexts"].seed == settings["examples"].seed == 3
    assert settings["subsets"].interval == "clopper-pearson"
    assert settings["coverage"].confidence == settings["trec_dl"].confidence == 0.95
    # a job rebuilds its settings from the keys the workflow passes it
    passed = {**DEFAULT["subsets"], "confidence": 0.95, "interval": "clopper-pearson", "seed": 3}
    assert SubsetSettings.from_config(passed) == settings["subsets"]
    assert set(RealDataSection.from_config(DEFAULT).atp_seasons()) <= set(ATP_SEASONS)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s["atp_periods"].update(old=[1980, 1989]), r"atp_periods.old: \[1980, 1989\]"),
        (lambda s: s["atp_periods"].update(back=[2019, 2010]), r"atp_periods.back: \[2019, 2010\]"),
        (lambda s: s["contexts"].update(surface_seasons=[1980, 2019]), "contexts.surface_se"),
        (lambda s: s["examples"].update(atp_period="1970s"), "examples.atp_period: '1970s'"),
        (lambda s: s["contexts"].update(periods=["2010s", "nope"]), r"contexts.periods: \['nope"),
        (lambda s: s.update(trec_dl_topics=["1"]), "examples.trec_dl_topic: '952262' is"),
        (lambda s: s["subsets"].update(ks=[5, 3]), "subsets.ks: must be increasing"),
        (lambda s: s["subsets"].update(resamples=1), r"subsets.resamples: 0 \(no data"),
        (lambda s: s["coverage"].update(replications=1, shards=2), "coverage.replications: 1 can"),
        (lambda s: s["coverage"].update(tolerance=0.95), "coverage.tolerance: must lie"),
    ],
)  # fmt: skip
def test_each_rule_names_its_key(change, message):
    section = copy.deepcopy(DEFAULT)
    change(section)
    with pytest.raises(ConfigError, match=f"^real_data.{message}"):
        RealDataSection.from_config(section, "real_data")


def test_sizes_keep_those_a_matrix_reaches():
    settings = SubsetSettings(confidence=0.95, interval="wilson", seed=1)
    assert settings.sizes(7) == (2, 3, 4, 5, 6)
    assert settings.model_copy(update={"ks": None}).sizes(7) is None


def test_shard_replications_add_up():
    settings = CoverageSettings(replications=11, shards=3, confidence=0.95, seed=1)
    assert [settings.shard_replications(s) for s in range(3)] == [4, 4, 3]
    with pytest.raises(ValueError, match="shard 3"):
        settings.shard_replications(3)
