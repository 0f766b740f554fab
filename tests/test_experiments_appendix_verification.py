"""The batched solver re-checked against the cvxpy reference on real MSLR sub-matrices."""

import dataclasses

import numpy as np
import pytest
from appendix_helpers import informational

from cdbandits.experiments.appendix import verification
from cdbandits.experiments.appendix.sampling import SamplingPlan
from cdbandits.experiments.appendix.verification import (
    verification_picks,
    verification_rng,
    verification_summary,
    verify_against_reference,
)
from cdbandits.files import write_json
from cdbandits.randomness import stable_id
from cdbandits.winners import reference_von_neumann_winner


def test_verification_on_real_subsets(data_mirror, tmp_path):
    P = informational(data_mirror)
    plan = SamplingPlan("informational", 136, (5, 60), 1200, 3)
    picks = verification_picks(P, plan, 15, 15, np.random.default_rng(0))
    assert picks["stratum"].value_counts().to_dict() == {"uniform": 15, "no_condorcet": 15}
    table = verify_against_reference(P, plan, picks, weight_tol=1e-8)
    assert (table[table["stratum"] == "no_condorcet"]["method"] != "condorcet").all()
    summary = verification_summary(table, weight_tol=1e-8)
    assert summary["agrees"] and summary["agrees_or_resolved"], summary
    assert summary["matrices"] == 30
    write_json(tmp_path / "summary.json", summary)  # JSON-ready
    # the picked rows really are the plan's matrices
    first = table.iloc[0]
    arms = plan.block_subsets(first["K"], first["block"], 1000)[first["row"]]
    assert first["arms"] == " ".join(map(str, arms))


def test_verification_arbitrates_an_inexact_reference(data_mirror, monkeypatch):
    """A reference answer with a spurious arm of tiny weight is caught and resolved."""

    def inexact_reference(matrix, solver=None):
        exact = reference_von_neumann_winner(matrix, solver=solver)
        if solver is not None:  # the simplex arbiter stays exact
            return exact
        weights = exact.weights.copy()
        weights[np.argmin(weights)] += 1e-6
        weights /= weights.sum()
        return dataclasses.replace(
            exact,
            weights=weights,
            support=np.flatnonzero(weights > 0),
            exploitability=float((weights @ matrix).min()),
        )

    monkeypatch.setattr(verification, "reference_von_neumann_winner", inexact_reference)
    P = informational(data_mirror)
    plan = SamplingPlan("informational", 136, (40,), 300, 3)
    picks = verification_picks(P, plan, 0, 4, np.random.default_rng(1))
    table = verify_against_reference(P, plan, picks, weight_tol=1e-8)
    summary = verification_summary(table, weight_tol=1e-8)
    assert not summary["agrees"]
    assert summary["resolved"] == 4 and summary["agrees_or_resolved"]
    assert table["simplex_agrees"].all()


def test_verification_stream_is_the_original_one():
    by_hand = np.random.default_rng(
        np.random.SeedSequence(
            11, spawn_key=(stable_id("appendix-verification"), stable_id("perfect"))
        )
    )
    np.testing.assert_array_equal(verification_rng(11, "perfect").random(4), by_hand.random(4))


def test_an_empty_verification_is_an_error():
    import pandas as pd

    with pytest.raises(ValueError, match="no verification results"):
        verification_summary(pd.DataFrame(), 1e-8)
