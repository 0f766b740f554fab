"""Cascade click models: SPEC parameters, simulated click rates, user-defined models."""

from __future__ import annotations

import numpy as np
import pytest

from cdbandits.letor import CLICK_MODELS, CascadeClickModel, click_model


def test_standard_models_have_the_spec_parameters():
    assert CLICK_MODELS["perfect"].click == (0.0, 0.2, 0.4, 0.8, 1.0)
    assert CLICK_MODELS["perfect"].stop == (0.0, 0.0, 0.0, 0.0, 0.0)
    assert CLICK_MODELS["navigational"].click == (0.05, 0.3, 0.5, 0.7, 0.95)
    assert CLICK_MODELS["navigational"].stop == (0.2, 0.3, 0.5, 0.7, 0.9)
    assert CLICK_MODELS["informational"].click == (0.4, 0.6, 0.7, 0.8, 0.9)
    assert CLICK_MODELS["informational"].stop == (0.1, 0.2, 0.3, 0.4, 0.5)


@pytest.mark.parametrize("name", ["perfect", "navigational", "informational"])
def test_click_frequencies_match_the_parameters(name: str):
    model = CLICK_MODELS[name]
    labels = np.array([4, 0, 2, 1, 3, 0, 4, 2, 1, 3])
    rng = np.random.default_rng(7)
    n = 20_000
    clicks = np.array([model.simulate(labels, rng) for _ in range(n)])
    # Position k is clicked with probability prod_{j<k}(1 - c_j s_j) * c_k. Standard error of
    # a frequency is at most sqrt(0.25 / n) = 0.0035; allow 5 of them.
    expected = model.examination_click_rates(labels)
    np.testing.assert_allclose(clicks.mean(axis=0), expected, atol=5 * np.sqrt(0.25 / n))
    # the perfect user never stops, so every position is examined
    if name == "perfect":
        np.testing.assert_allclose(expected, np.asarray(model.click)[labels])


def test_stopping_happens_only_after_a_click():
    model = CascadeClickModel("stubborn", (0.0, 1.0), (1.0, 1.0))
    rng = np.random.default_rng(0)
    for _ in range(100):
        clicks = model.simulate([0, 0, 1, 1], rng)
        assert clicks.tolist() == [False, False, True, False]


def test_user_defined_model_from_config():
    custom = {"binary": {"click": [0.1, 0.9], "stop": [0.0, 0.5]}}
    model = click_model("binary", custom)
    assert model == CascadeClickModel("binary", (0.1, 0.9), (0.0, 0.5))
    assert click_model("informational", custom) is CLICK_MODELS["informational"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            {"click": [0.1, 1.2], "stop": [0, 0]},
            r"click probability of grade 1 is 1.2, outside \[0, 1\]",
        ),
        ({"click": [0.1, 0.2], "stop": [0]}, r"need one probability per relevance grade"),
        ({"click": [0.1, 0.2]}, r"lacks \['stop'\]"),
    ],
)
def test_malformed_user_models_are_rejected(spec, message):
    with pytest.raises(ValueError, match=message):
        click_model("mine", {"mine": spec})


def test_unknown_model_and_labels_outside_the_grades():
    with pytest.raises(KeyError, match="unknown click model 'lazy'; known: informational"):
        click_model("lazy")
    with pytest.raises(ValueError, match="label 5 .* has grades 0..4"):
        CLICK_MODELS["perfect"].simulate([0, 5], np.random.default_rng(0))
