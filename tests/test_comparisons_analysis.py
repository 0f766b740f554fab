import json
import warnings

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
    settings = AnalysisSettings(resamples=200, rankings=True)
    result = analyze_log(log, settings, np.random.default_rng(0))
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
    with pytest.raises(ValueError, match="intervals must be one of"):
        AnalysisSettings(intervals="bootstrap")
    with pytest.raises(ValueError, match="applies to the rates matrix, not to the margins"):
        AnalysisSettings(policy=CountPolicy(matrix="margins"), intervals="identified")


def test_identified_intervals_leave_the_resampling_stream_alone():
    log = log_from_counts(["r", "p", "s", "x"], WINS)
    results = {
        intervals: analyze_log(
            log, AnalysisSettings(resamples=400, intervals=intervals), np.random.default_rng(7)
        )
        for intervals in ("identified", "conservative")
    }
    assert results["identified"].interval_construction == "identified"
    assert results["conservative"].identified is None
    assert results["conservative"].interval_construction == "conservative"
    for method in ("bootstrap", "posterior"):
        np.testing.assert_array_equal(
            results["identified"].distributions[method].weights,
            results["conservative"].distributions[method].weights,
        )
    summary = results["identified"].to_dict()["weight_interval"]
    assert summary["labels"]["x"] == "out"  # x loses to everyone by a wide margin
    assert results["conservative"].to_dict()["weight_interval"] == {
        "construction": "conservative",
        "identified_not_applicable": None,
    }


@pytest.mark.parametrize(
    ("matrix", "methods"),
    [("rates", ("bootstrap",)), ("margins", ("bootstrap", "posterior"))],
)
def test_a_log_of_many_items_is_analysed_pair_by_pair(monkeypatch, matrix, methods):
    """Above DENSE_MAX_K: the sparse solver's point (the dense one's), winners from the
    pairs, resamples pair by pair (the same draws and winners for either estimand), no
    rankings (with a warning saying so). The posterior of the rates refuses the pairs never
    compared (:mod:`.pair_draws`); the margins' keeps them at 0."""
    from test_comparisons_sparse_resampling import sparse_log

    from cdbandits.comparisons import analysis

    log = sparse_log(70, 2)
    settings = AnalysisSettings(
        policy=CountPolicy(matrix=matrix), methods=methods, resamples=15, rankings=True
    )
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
    for method in methods:
        np.testing.assert_allclose(
            large.distributions[method].weights, dense.distributions[method].weights, atol=1e-8
        )
        np.testing.assert_allclose(
            large.distributions[method].exploitability,
            dense.distributions[method].exploitability,
            atol=1e-12,
        )
    assert large.weight_range is None and large.unique is None
    assert large.rankings.empty and large.to_dict()["rankings"] == []
    assert large.pair_table().equals(dense.pair_table())


def _f1_files(data_mirror):
    folder = data_mirror / "preflib-sports" / "00052-f1seasons"
    files = sorted(folder.glob("*.soc")) + sorted(folder.glob("*.soi"))
    assert len(files) > 100, f"expected the F1 seasons of PrefLib 00052 in {folder}"
    return files


def _independent_margins(path):
    """Majority margins of a .soc/.soi file, counted here from its order lines.

    Unranked alternatives are ignored (the command's default); items are the alternatives
    some order ranks, by number.
    """
    orders = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        count, ranking = line.split(":", 1)
        orders.append((int(count), [int(a) for a in ranking.split(",")]))
    ranked = sorted({a for _, order in orders for a in order})
    index = {a: i for i, a in enumerate(ranked)}
    above = np.zeros((len(ranked), len(ranked)))
    for count, order in orders:
        for position, winner in enumerate(order):
            for loser in order[position + 1 :]:
                above[index[winner], index[loser]] += count
    return above - above.T


def _linprog_maximal_lottery(margins):
    """A maximal lottery of a skew matrix by scipy's HiGHS: max v, p^T M >= v, p in simplex."""
    from scipy.optimize import linprog

    k = margins.shape[0]
    cost = np.r_[np.zeros(k), -1.0]
    upper = np.hstack([-margins.T, np.ones((k, 1))])  # v - (p^T M)_j <= 0
    equal = np.r_[np.ones(k), 0.0][None]
    bounds = [(0, None)] * k + [(None, None)]
    answer = linprog(cost, upper, np.zeros(k), equal, [1.0], bounds=bounds, method="highs")
    assert answer.status == 0, answer.message
    assert abs(answer.x[-1]) <= 1e-9 * max(1.0, np.abs(margins).max())  # value of a skew game
    return answer.x[:k]


def test_f1_seasons_maximal_lotteries_are_those_of_the_majority_margins(data_mirror):
    """Every F1 season (.soc and .soi, default options): the matrix is the margins, a unique
    maximal lottery equals an independent LP's, and a non-unique one's ranges contain it."""
    from cdbandits.comparisons.preflib import election_log, read_preflib

    settings = AnalysisSettings(policy=CountPolicy(matrix="margins"), methods=())
    unique = {".soc": 0, ".soi": 0}
    several = {".soc": 0, ".soi": 0}
    for path in _f1_files(data_mirror):
        margins = _independent_margins(path)
        with warnings.catch_warnings():  # unranked alternatives, pairs never compared
            warnings.simplefilter("ignore", ComparisonDataWarning)
            result = analyze_log(
                election_log(read_preflib(path)), settings, np.random.default_rng(0)
            )
        c = result.counts.margin_scale
        np.testing.assert_array_equal(result.counts.skew_matrix() * c, margins, err_msg=path.name)
        reference = _linprog_maximal_lottery(margins)
        low, high = result.weight_range
        assert (low <= reference + 1e-6).all() and (reference <= high + 1e-6).all(), path.name
        assert (low <= result.weights + 1e-9).all() and (result.weights <= high + 1e-9).all()
        if result.unique:
            np.testing.assert_allclose(result.weights, reference, atol=1e-6, err_msg=path.name)
            unique[path.suffix] += 1
        else:
            several[path.suffix] += 1
    assert min(unique.values()) > 0 and min(several.values()) > 0, (unique, several)


def test_f1_1950_is_any_mix_of_farina_and_fangio(data_mirror):
    from cdbandits.comparisons.preflib import election_log, read_preflib

    path = data_mirror / "preflib-sports" / "00052-f1seasons" / "00052-00000001.soc"
    settings = AnalysisSettings(policy=CountPolicy(matrix="margins"), methods=())
    result = analyze_log(election_log(read_preflib(path)), settings, np.random.default_rng(0))
    assert result.unique is False
    low, high = result.weight_range
    ranges = {result.items[i]: (low[i], high[i]) for i in range(len(result.items))}
    assert ranges.pop("farina") == pytest.approx((0.0, 1.0), abs=1e-7)
    assert ranges.pop("fangio") == pytest.approx((0.0, 1.0), abs=1e-7)
    assert all(bounds == (0.0, 0.0) for bounds in ranges.values()), ranges
    summary = result.to_dict()["von_neumann"]
    assert summary["unique"] is False and summary["matrix"] == "margins"
    assert summary["weight_range"] == {"farina": [0.0, 1.0], "fangio": [0.0, 1.0]}


def test_rankings_are_computed_only_when_asked(monkeypatch):
    import cdbandits.comparisons.analysis as analysis

    log = log_from_counts(["r", "p", "s", "x"], WINS)
    calls = []
    monkeypatch.setattr(
        analysis, "ranking_columns", lambda counts, **options: calls.append(1) or {"item": []}
    )
    result = analyze_log(log, AnalysisSettings(methods=()), np.random.default_rng(0))
    assert calls == [] and result.ranking_columns == {} and result.to_dict()["rankings"] == []
    analyze_log(log, AnalysisSettings(methods=(), rankings=True), np.random.default_rng(0))
    assert calls == [1]
