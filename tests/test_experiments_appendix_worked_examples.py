"""The claims about the paper's worked examples hold, and fail when the facts are wrong."""

import dataclasses

import numpy as np
import pandas as pd

from cdbandits.experiments.appendix import worked_examples
from cdbandits.experiments.appendix.worked_examples import CLONE_CLAIMS, example_claims


def test_example_claims_all_hold():
    rows = pd.DataFrame(example_claims([5, 7]))
    assert rows["holds"].all(), rows.loc[~rows["holds"], ["claim", "value_text"]]
    assert len(rows) == 5 + 3 * 2
    assert "clone_k7_von_neumann_support" in set(rows["claim"])


def test_a_wrong_von_neumann_winner_fails_its_claims(monkeypatch):
    real = worked_examples.von_neumann_winners

    def shifted(matrices, **options):
        solution = real(matrices, **options)
        weights = solution.weights.copy()
        weights[:, [0, 1]] = weights[:, [1, 0]] * 0.5 + 0.1
        return dataclasses.replace(solution, weights=weights)

    monkeypatch.setattr(worked_examples, "von_neumann_winners", shifted)
    rows = pd.DataFrame(example_claims([5])).set_index("claim")
    assert not rows.loc["five_arm_von_neumann_uniform_on_1_3", "holds"]
    assert not rows.loc["clone_k5_von_neumann_support", "holds"]
    assert rows.loc["five_arm_borda_scores", "holds"]  # not about the vNW


def test_clone_claims_are_named_by_k():
    assert all("{k}" in claim.name for claim in CLONE_CLAIMS)
    assert np.isnan(example_claims([5])[0]["ci_low"])
