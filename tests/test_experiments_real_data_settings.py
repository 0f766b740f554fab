"""The real_data section and the settings of its jobs (cdbandits.experiments.real_data.settings)."""

import copy

import pytest
import yaml
from conftest import REPO_ROOT

from cdbandits.experiments.config_model import ConfigError
from cdbandits.experiments.real_data.settings import (
    ATP_SEASONS,
    ContextSettings,
    CoverageSettings,
    ExampleSettings,
    RealDataSection,
    SourceSettings,
    SubsetSettings,
    TrecComparisonSettings,
)

DEFAULT = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())["real_data"]


def test_each_job_rebuilds_its_sections_keys_with_the_shared_ones():
    # the keys the workflow passes each job (workflow/rules/real_data_common.smk)
    section = RealDataSection.from_config(DEFAULT)
    shared = {"confidence": 0.95, "seed": 3}
    jobs = {
        "subsets": (SubsetSettings, {**shared, "interval": "clopper-pearson"}),
        "contexts": (ContextSettings, shared),
        "trec_dl": (TrecComparisonSettings, shared),
        "coverage": (CoverageSettings, shared),
        "examples": (ExampleSettings, {"seed": 3}),
    }
    for name, (settings, added) in jobs.items():
        parsed = settings.from_config({**DEFAULT[name], **added})
        assert parsed.model_dump(exclude=set(added)) == getattr(section, name).model_dump()
        assert {key: getattr(parsed, key) for key in added} == added
    assert (
        SourceSettings.from_config(
            {key: DEFAULT[key] for key in SourceSettings.model_fields}
        ).atp_periods
        == section.atp_periods
    )
    seasons = {s for name in section.atp_periods for s in section.period_seasons(name)}
    assert seasons <= set(ATP_SEASONS)


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
