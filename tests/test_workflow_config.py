"""The workflow's whole config and its winners and letor sections (cdbandits.workflow.config)."""

from typing import get_args

import pytest

from cdbandits.experiments.config_model import ConfigError
from cdbandits.letor.click_models import CLICK_MODELS
from cdbandits.letor.interleave import CREDIT_TIES, METHODS
from cdbandits.workflow.config import LetorSection, StandardClickModel, WorkflowConfig


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"rankers": [0, 500]}, r"rankers: feature columns \[500\] are outside 0..135"),
        ({"per_query": {"rankers": [3, 136]}}, r"per_query.rankers: feature columns \[136\]"),
        ({"click_models": ["web"]}, "click_models: 'web' is neither a standard model"),
        ({"per_query": {"click_models": ["web"]}}, "per_query.click_models: 'web' is neither"),
        (
            {"validation": {"click_models": ["perfect"]}},
            "validation.click_models: 'perfect' has no",
        ),
    ],
)
def test_each_letor_rule_names_its_key(section, message):
    with pytest.raises(ConfigError, match=f"^letor.{message}"):
        LetorSection.from_config(section, "letor")


def test_a_custom_click_model_may_be_named():
    custom = {"custom_click_models": {"web": {"click": [0.1, 0.9], "stop": [0.0, 0.5]}}}
    letor = LetorSection.from_config(
        {**custom, "click_models": ["web", "perfect"], "validation": {"click_models": []}}
    )
    assert letor.custom_click_models["web"].click == (0.1, 0.9)


def test_the_letor_names_are_the_librarys():
    assert set(get_args(StandardClickModel)) == set(CLICK_MODELS)
    fields = LetorSection.model_fields
    assert set(get_args(fields["method"].annotation)) == set(METHODS)
    assert set(get_args(fields["credit_ties"].annotation)) == set(CREDIT_TIES)


def test_a_missing_solver_is_named_and_every_section_is_checked():
    with pytest.raises(ConfigError, match="^winners.solver: 'NO_SUCH' is not an installed"):
        WorkflowConfig.from_config({"winners": {"solver": "NO_SUCH"}})
    with pytest.raises(ConfigError, match=r"^duels.environments\[0\].players: required"):
        atp = {"name": "a", "kind": "atp", "data": ["pref_arxiv"]}
        WorkflowConfig.from_config({"duels": {"environments": [atp]}})
