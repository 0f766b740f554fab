from pathlib import Path

import pytest
import yaml

from cdbandits.experiments.real_data.settings import (
    ATP_SEASONS,
    CoverageSettings,
    RealDataSettings,
    RealDataSettingsError,
    SubsetSettings,
)

CONFIG = Path(__file__).resolve().parents[1] / "config" / "config.yaml"


def default_section():
    return yaml.safe_load(CONFIG.read_text())["real_data"]


def test_the_default_section_parses_and_round_trips():
    settings = RealDataSettings.from_config(default_section(), seed=3)
    assert settings.sources.atp_periods["2010s"] == (2010, 2019)
    assert settings.subsets.seed == settings.contexts.seed == 3
    again = SubsetSettings.from_config(settings.subsets.to_config())
    assert again == settings.subsets
    assert set(settings.atp_seasons()) <= set(ATP_SEASONS)


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda s: s["atp_periods"].update(old=[1980, 1989]), "real_data.atp_periods.old"),
        (lambda s: s["examples"].update(atp_period="1970s"), "real_data.examples.atp_period"),
        (lambda s: s["contexts"].update(periods=["2010s", "nope"]), "real_data.contexts.periods"),
        (lambda s: s["subsets"].update(ks=[5, 3]), "real_data.subsets.ks"),
        (lambda s: s.update(trec_dl_topics=["1"]), "real_data.examples.trec_dl_topic"),
        (lambda s: s["coverage"].update(replications=1, shards=2), "real_data.coverage"),
    ],
)
def test_a_bad_value_names_its_key(change, key):
    section = default_section()
    change(section)
    with pytest.raises(RealDataSettingsError, match=key.replace(".", r"\.")):
        RealDataSettings.from_config(section, seed=1)


def test_sizes_keep_those_a_matrix_reaches():
    settings = SubsetSettings.from_config(
        {**default_section()["subsets"], "confidence": 0.95, "interval": "wilson", "seed": 1}
    )
    assert settings.sizes(7) == (2, 3, 4, 5, 6)
    assert SubsetSettings(**{**settings.__dict__, "ks": None}).sizes(7) is None


def test_shard_replications_add_up():
    settings = CoverageSettings(("atp",), 11, 10, 3, 0.95, 0.02, 1)
    assert [settings.shard_replications(s) for s in range(3)] == [4, 4, 3]
    with pytest.raises(ValueError, match="shard 3"):
        settings.shard_replications(3)
