import json

import numpy as np
import pytest

from cdbandits.comparisons.analysis import AnalysisSettings, analyze_contexts, analyze_log
from cdbandits.comparisons.records import (
    ComparisonDataWarning,
    concatenate_logs,
    log_from_counts,
)
from cdbandits.comparisons.settings import CountPolicy
from cdbandits.files import to_jsonable
from cdbandits.winners import von_neumann_winner

WINS = np.array([[0, 30, 12, 40], [10, 0, 28, 35], [27, 11, 0, 39], [5, 6, 4, 0]])


def with_context(log, name):
    from cdbandits.comparisons.logs import with_file_context

    return with_file_context(log, name)


def test_analysis_of_a_cycle_reports_the_certified_winner_and_its_uncertainty():
    log = log_from_counts(["r", "p", "s", "x"], WINS)
    result = analyze_log(log, AnalysisSettings(resamples=200), np.random.default_rng(0))
    reference = von_neumann_winner(result.counts.skew_matrix())
    np.testing.assert_allclose(result.weights, reference.weights, atol=1e-9)
    assert result.certificate >= -1e-9
    assert [result.items[i] for i in result.support] == ["s", "r", "p"]  # by weight
    assert result.condorcet is None
    assert set(result.distributions) == {"bootstrap", "posterior"}
    summary = result.to_dict(include_pairs=True)
    json.dumps(to_jsonable(summary), allow_nan=False)
    assert summary["von_neumann"]["weights"].keys() == {"r", "p", "s"}
    assert summary["pairs_compared"] == summary["pairs_total"] == 6
    assert len(summary["pairs"]) == 6 and summary["pairs"][0]["wins"] == 30
    assert summary["rankings"][-1]["item"] == "x"


def test_warnings_are_kept_with_the_context_and_reissued():
    log = with_context(log_from_counts(["a", "b", "c"], [[0, 3, 2], [1, 0, 0], [0, 0, 0]]), "t1")
    with pytest.warns(ComparisonDataWarning, match="context t1: 1 of 3 pairs of items were"):
        (result,) = analyze_contexts(log, AnalysisSettings(methods=(), resamples=1), seed=0)
    assert any("never compared" in message for message in result.warnings)
    assert all(message.startswith("context t1: ") for message in result.warnings)


def test_a_contexts_numbers_do_not_depend_on_the_other_contexts():
    one = with_context(log_from_counts(["r", "p", "s", "x"], WINS), "one")
    two = with_context(log_from_counts(["r", "p", "s", "x"], WINS.T), "two")
    both = concatenate_logs([one, two])
    settings = AnalysisSettings(resamples=50)
    all_contexts = analyze_contexts(both, settings, seed=7)
    alone = analyze_contexts(both, settings, seed=7, contexts=["two"])
    assert [a.context for a in all_contexts] == ["one", "two"]
    for method in ("bootstrap", "posterior"):
        assert (
            all_contexts[1].distributions[method].weights.tobytes()
            == alone[0].distributions[method].weights.tobytes()
        )


def test_top_items_and_policy_shape_the_analysed_log():
    log = log_from_counts(["r", "p", "s", "x"], WINS)
    result = analyze_log(log, AnalysisSettings(methods=(), top=3), np.random.default_rng(0))
    assert result.items == ("x", "r", "s")  # most comparisons first (x: 129, r: 124, s: 121)
    single = log_from_counts(["a", "b"], [[0, 1], [0, 0]])
    policy = CountPolicy(rare_items="drop", min_comparisons=2)
    with pytest.warns(ComparisonDataWarning), pytest.raises(ValueError, match="no items"):
        analyze_log(single, AnalysisSettings(policy=policy), np.random.default_rng(0))


def test_a_log_without_comparisons_resamples_to_all_ties():
    log = log_from_counts(["a", "b"], [[0, 0], [0, 0]])
    with pytest.warns(ComparisonDataWarning, match="never compared"):
        result = analyze_log(log, AnalysisSettings(resamples=5), np.random.default_rng(0))
    assert result.distributions["bootstrap"].support_probability.tolist() == [1.0, 1.0]


def test_a_single_item_wins_alone():
    log = log_from_counts(["a", "b"], [[0, 4], [0, 0]])
    result = analyze_log(log, AnalysisSettings(resamples=20, top=1), np.random.default_rng(0))
    assert result.items == ("a",)
    assert result.weights.tolist() == [1.0]
    assert result.distributions["bootstrap"].support_probability.tolist() == [1.0]


def test_settings_are_checked():
    with pytest.raises(ValueError, match="methods must be among"):
        AnalysisSettings(methods=("jackknife",))
    with pytest.raises(ValueError, match="confidence"):
        AnalysisSettings(confidence=0)
    with pytest.raises(ValueError, match="top"):
        AnalysisSettings(top=0)


def test_a_log_of_many_items_is_analysed_pair_by_pair(monkeypatch):
    """Above DENSE_MAX_K: the sparse solver's point (the dense one's), winners from the
    pairs, resamples pair by pair, no rankings (with a warning saying so)."""
    from test_comparisons_sparse_resampling import sparse_log

    from cdbandits.comparisons import analysis

    log = sparse_log(70, 2)
    settings = AnalysisSettings(methods=("bootstrap",), resamples=15)
    with pytest.warns(ComparisonDataWarning):
        dense = analyze_log(log, settings, np.random.default_rng(0))
    monkeypatch.setattr(analysis, "DENSE_MAX_K", 20)
    with pytest.warns(ComparisonDataWarning, match="rankings .* are computed for logs of at most"):
        large = analyze_log(log, settings, np.random.default_rng(0))
    np.testing.assert_array_equal(large.weights > 0, dense.weights > 1e-12)
    np.testing.assert_allclose(large.weights, dense.weights, rtol=0, atol=1e-8)
    assert large.solver_path.startswith("sparse_") and large.certificate >= -1e-9
    assert large.condorcet == dense.condorcet
    np.testing.assert_array_equal(large.copeland, dense.copeland)
    np.testing.assert_allclose(
        large.distributions["bootstrap"].weights,
        dense.distributions["bootstrap"].weights,
        atol=1e-8,
    )
    assert large.rankings.empty and large.to_dict()["rankings"] == []
    assert large.pair_table().equals(dense.pair_table())
