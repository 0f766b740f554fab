import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from cdbandits.comparisons import identified
from cdbandits.comparisons.counts import count_pairs
from cdbandits.comparisons.identified import (
    IdentifiedIntervals,
    identified_intervals,
    odd_subsets,
    smoothed_skew,
)
from cdbandits.comparisons.records import log_from_counts
from cdbandits.limits import SUPPORT_ENUMERATION_MAX_ITEMS
from cdbandits.paper_examples import clone_example_matrix
from cdbandits.winners import CertificationError, von_neumann_winner


def probability_matrix(upper: dict[tuple[int, int], float], k: int) -> np.ndarray:
    """``Q`` with ``Q[i, j] = upper[i, j]``, ``Q[j, i] = 1 - Q[i, j]``, 1/2 elsewhere."""
    q = np.full((k, k), 0.5)
    for (i, j), value in upper.items():
        q[i, j], q[j, i] = value, 1.0 - value
    return q


def expected_wins(q: np.ndarray, per_pair: int) -> np.ndarray:
    """Wins exactly ``per_pair * Q`` (whole numbers for the matrices below)."""
    wins = np.round(q * per_pair)
    np.fill_diagonal(wins, 0.0)
    return wins


def sampled_wins(q: np.ndarray, per_pair: int, rng: np.random.Generator) -> np.ndarray:
    k = q.shape[0]
    rows, cols = np.triu_indices(k, 1)
    drawn = rng.binomial(per_pair, q[rows, cols])
    wins = np.zeros((k, k))
    wins[rows, cols], wins[cols, rows] = drawn, per_pair - drawn
    return wins


# Item 0 beats every other item with probability 0.9; the rest form a mild cycle.
CONDORCET = probability_matrix(
    {(0, 1): 0.9, (0, 2): 0.9, (0, 3): 0.9, (1, 2): 0.6, (2, 3): 0.6, (1, 3): 0.4}, 4
)
# An exact rock-paper-scissors core (weights 1/3 each) beating two dominated items.
RPS_CORE = probability_matrix(
    {(0, 1): 0.75, (1, 2): 0.75, (2, 0): 0.75}
    | {(core, other): 0.8 for core in range(3) for other in (3, 4)},
    5,
)
# Coverage truths: a cycle with unequal weights (0.4, 0.267, 0.333) and a dominated item;
# a Condorcet winner within the noise of its closest pair (0.52 at 100 comparisons).
CYCLE_COVERAGE = probability_matrix(
    {(0, 1): 0.75, (1, 2): 0.8, (2, 0): 0.7, (0, 3): 0.7, (1, 3): 0.7, (2, 3): 0.7}, 4
)
CLOSE_CONDORCET = probability_matrix(
    {(0, 1): 0.52, (0, 2): 0.6, (0, 3): 0.7, (1, 2): 0.6, (2, 3): 0.6, (1, 3): 0.4}, 4
)


def test_odd_subsets_are_every_subset_of_odd_size():
    for k in range(1, 9):
        groups = odd_subsets(k)
        found = {tuple(row) for subsets in groups.values() for row in subsets.tolist()}
        assert len(found) == sum(len(subsets) for subsets in groups.values()) == 2 ** (k - 1)
        assert all(len(subset) % 2 == 1 and list(subset) == sorted(set(subset)) for subset in found)


def test_smoothed_skew_adds_one_virtual_win_each_way():
    wins = np.array([[0.0, 3.0], [1.0, 0.0]])
    np.testing.assert_allclose(smoothed_skew(wins, wins + wins.T), [[0, 1 / 3], [-1 / 3, 0]])


def test_condorcet_winner_by_a_wide_margin_is_in_alone():
    result = identified_intervals(expected_wins(CONDORCET, 500), np.random.default_rng(1))
    assert result.supports == ((0,),)
    assert result.identified
    assert result.labels == ("in", "out", "out", "out")
    np.testing.assert_allclose(result.low, [1, 0, 0, 0], atol=1e-9)
    np.testing.assert_allclose(result.high, [1, 0, 0, 0], atol=1e-9)


def test_rock_paper_scissors_core_is_in_and_its_intervals_shrink_with_the_data():
    widths = []
    for per_pair in (400, 16 * 400):
        result = identified_intervals(expected_wins(RPS_CORE, per_pair), np.random.default_rng(2))
        assert result.labels == ("in", "in", "in", "out", "out")
        assert result.supports == ((0, 1, 2),)
        assert (result.low[:3] < 1 / 3).all() and (result.high[:3] > 1 / 3).all()
        np.testing.assert_array_equal(result.high[3:], 0.0)
        widths.append(result.high[:3] - result.low[:3])
    # Widths shrink like n^(-1/2): 16 times the comparisons, a quarter of the width.
    ratio = widths[1] / widths[0]
    assert ((0.15 < ratio) & (ratio < 0.35)).all(), ratio


def test_a_clone_leaves_both_of_its_supports_and_the_face_s_weights_open():
    # The paper's clone example: a0 is an exact copy of a1 in the cycle a1 > a2 > a3 > a1,
    # two dominated items. Every (w0, 1/3 - w0, 1/3, 1/3, 0, 0), 0 <= w0 <= 1/3, is a vNW.
    q = (1.0 + clone_example_matrix(2)) / 2.0
    result = identified_intervals(expected_wins(q, 400), np.random.default_rng(0))
    assert result.supports == ((0, 2, 3), (1, 2, 3))
    assert result.labels == ("undecided", "undecided", "in", "in", "out", "out")
    assert (result.low[:2] == 0.0).all() and (result.high[:2] >= 1 / 3).all()
    assert (result.low[2:4] < 1 / 3).all() and (result.high[2:4] > 1 / 3).all()
    np.testing.assert_array_equal(result.high[4:], 0.0)


def test_pair_counts_and_a_win_matrix_give_the_same_answer():
    wins = expected_wins(CONDORCET, 40)
    names = ("a", "b", "c", "d")
    counts = count_pairs(log_from_counts(names, wins))
    from_counts = identified_intervals(counts, np.random.default_rng(5))
    from_matrix = identified_intervals(wins, np.random.default_rng(5))
    assert from_counts.items == names and from_matrix.items == ("0", "1", "2", "3")
    np.testing.assert_array_equal(from_counts.low, from_matrix.low)
    np.testing.assert_array_equal(from_counts.high, from_matrix.high)
    assert from_counts.supports == from_matrix.supports


def test_the_same_seed_gives_the_same_result():
    wins = sampled_wins(CYCLE_COVERAGE, 30, np.random.default_rng(0))
    first, second = (identified_intervals(wins, np.random.default_rng(7)) for _ in range(2))
    assert first.low.tobytes() == second.low.tobytes()
    assert first.high.tobytes() == second.high.tobytes()
    assert first.labels == second.labels and first.supports == second.supports
    assert first.critical_values.tobytes() == second.critical_values.tobytes()


def test_a_single_item_is_in_with_weight_one():
    result = identified_intervals(np.zeros((1, 1)), np.random.default_rng(0))
    assert result.labels == ("in",) and result.supports == ((0,),)
    np.testing.assert_allclose([result.low[0], result.high[0]], 1.0)


win_matrices = st.integers(2, 5).flatmap(
    lambda k: st.tuples(
        st.lists(st.integers(1, 40), min_size=k * (k - 1) // 2, max_size=k * (k - 1) // 2),
        st.lists(st.floats(0.0, 1.0), min_size=k * (k - 1) // 2, max_size=k * (k - 1) // 2),
        st.just(k),
    )
)


def wins_from_draw(draw: tuple[list[int], list[float], int]) -> np.ndarray:
    totals, shares, k = draw
    rows, cols = np.triu_indices(k, 1)
    won = np.round(np.array(shares) * np.array(totals))
    wins = np.zeros((k, k))
    wins[rows, cols], wins[cols, rows] = won, np.array(totals) - won
    return wins


@settings(max_examples=40)
@given(win_matrices, st.integers(0, 2**32 - 1))
def test_the_estimate_s_winner_is_kept_and_inside_the_intervals(draw, seed):
    # A vNW w of P~ with support S satisfies every condition of the test with t = 0, so
    # D_S = 0 <= k_S whatever the resamples: S is kept and w lies in F_S.
    wins = wins_from_draw(draw)
    estimate = smoothed_skew(wins, wins + wins.T)
    winner = von_neumann_winner(estimate).weights
    support = tuple(int(i) for i in np.flatnonzero(winner > 1e-12))
    assume(len(support) % 2 == 1)
    result = identified_intervals(wins, np.random.default_rng(seed))
    assert support in result.supports
    assert (result.low <= winner + 1e-7).all() and (winner <= result.high + 1e-7).all()
    # Labels agree with the kept supports and the intervals.
    for item, label in enumerate(result.labels):
        holding = [item in kept for kept in result.supports]
        assert label == ("in" if all(holding) else "undecided" if any(holding) else "out")
        assert (label == "out") == (result.high[item] == 0.0)
    assert (0.0 <= result.low).all() and (result.low <= result.high).all()
    assert (result.high <= 1.0).all()
    assert result.low.sum() <= 1.0 + 1e-7 <= result.high.sum() + 2e-7


@settings(max_examples=25)
@given(win_matrices, st.integers(0, 2**32 - 1))
def test_a_higher_confidence_keeps_more_supports_and_wider_intervals(draw, seed):
    # Same resamples (same seed): every k_S grows with the level, so the kept set and
    # every F_S can only grow.
    wins = wins_from_draw(draw)
    lower, higher = (
        identified_intervals(wins, np.random.default_rng(seed), confidence=level, resamples=800)
        for level in (0.8, 0.975)
    )
    assert set(lower.supports) <= set(higher.supports)
    if lower.supports:
        assert (higher.low <= lower.low + 1e-7).all() and (lower.high <= higher.high + 1e-7).all()


def coverage(truth: np.ndarray, per_pair: int, logs: int) -> tuple[np.ndarray, int, int]:
    """Per item the logs covering its weight; logs with every item covered and every label
    right; logs with the support identified."""
    weights = von_neumann_winner(2.0 * truth - 1.0).weights
    support = tuple(int(i) for i in np.flatnonzero(weights > 1e-9))
    covered = np.zeros(truth.shape[0], dtype=np.int64)
    all_right = identified_logs = 0
    for log in range(logs):
        rng = np.random.default_rng([31, per_pair, log])
        result = identified_intervals(sampled_wins(truth, per_pair, rng), rng)
        inside = (result.low - 1e-9 <= weights) & (weights <= result.high + 1e-9)
        labels = np.array(result.labels)
        wrong = ((labels == "in") & (weights == 0)) | ((labels == "out") & (weights > 0))
        covered += inside
        all_right += bool(inside.all() and not wrong.any())
        identified_logs += result.supports == (support,)
    return covered, all_right, identified_logs


@pytest.mark.parametrize(("truth", "per_pair"), [(CYCLE_COVERAGE, 100), (CLOSE_CONDORCET, 100)])
def test_intervals_and_labels_hold_at_the_stated_confidence(truth, per_pair):
    # 300 logs per truth at confidence 0.95. The intervals and the labels are all right on
    # one event of probability about 0.95; a construction with exactly that probability
    # falls below these thresholds with probability at most 1e-3 (binomial quantiles; per
    # item 1e-3 / K).
    logs, k = 300, truth.shape[0]
    covered, all_right, identified_logs = coverage(truth, per_pair, logs)
    assert (covered >= binom.ppf(1e-3 / k, logs, 0.95)).all(), covered
    assert all_right >= binom.ppf(1e-3, logs, 0.95), all_right
    if truth is CYCLE_COVERAGE:  # its support is identified in most logs at this size
        assert identified_logs >= 0.8 * logs, identified_logs


def test_the_support_is_identified_at_every_large_log():
    covered, all_right, identified_logs = coverage(CYCLE_COVERAGE, 2000, 20)
    assert identified_logs == all_right == 20


def _perturbed_solver(monkeypatch, stage: str, part: int, delta: float) -> None:
    solve = identified._solve_blocks

    def perturbed(*arguments):
        x, duals = solve(*arguments)
        if arguments[-1] == stage:
            (x, duals)[part][...] += delta
        return x, duals

    monkeypatch.setattr(identified, "_solve_blocks", perturbed)


@pytest.mark.parametrize(
    ("stage", "part", "message"),
    [
        ("distance", 0, "equalizer distance"),
        ("distance", 1, "equalizer distance"),
        ("weight range", 1, "weight range"),
    ],
)
def test_an_lp_answer_off_its_certificate_is_refused(monkeypatch, stage, part, message):
    wins = expected_wins(RPS_CORE, 400)
    _perturbed_solver(monkeypatch, stage, part, 1e-3)
    with pytest.raises(CertificationError, match=message):
        identified_intervals(wins, np.random.default_rng(0))


def test_a_solver_failure_raises(monkeypatch):
    monkeypatch.setattr(identified.highspy.HighsModelStatus, "kOptimal", object())
    with pytest.raises(identified.SolverError, match="HiGHS found no optimum"):
        identified_intervals(expected_wins(RPS_CORE, 40), np.random.default_rng(0))


@pytest.mark.parametrize(
    ("counts", "keywords", "message"),
    [
        (np.zeros((2, 3)), {}, "counts must be a square"),
        (np.array([[0, -1], [2, 0]]), {}, "finite non-negative"),
        (np.array([[0, 1.5], [2, 0]]), {}, r"pair \(0, 1\) has 1.5 wins.*ties='drop'"),
        (np.array([[0, 1, 0], [1, 0, 2], [0, 2, 0]]), {}, r"\(0, 2\) was never compared"),
        (np.ones((2, 2)), {"confidence": 1.0}, "confidence must lie in"),
        (np.ones((2, 2)), {"resamples": 100}, "resamples must be an integer from 400"),
        (np.ones((2, 2)), {"resamples": 400.0}, "resamples must be an integer"),
    ],
)
def test_bad_input_is_refused_by_name(counts, keywords, message):
    with pytest.raises(ValueError, match=message):
        identified_intervals(counts, np.random.default_rng(0), **keywords)


def test_too_many_items_are_refused_with_what_to_do():
    k = SUPPORT_ENUMERATION_MAX_ITEMS + 1
    with pytest.raises(ValueError, match=rf"{k} items.*--top.*conservative"):
        identified_intervals(np.ones((k, k)), np.random.default_rng(0))


def test_randomness_only_from_a_generator():
    with pytest.raises(ValueError, match="rng must be a numpy.random.Generator"):
        identified_intervals(np.ones((2, 2)), 0)


def test_the_result_states_its_assumptions_and_level():
    result = identified_intervals(expected_wins(CONDORCET, 40), np.random.default_rng(0))
    assert isinstance(result, IdentifiedIntervals)
    assert result.confidence == 0.95 and result.resamples == 400 and result.candidates == 8
    assert any("unique" in assumption for assumption in result.assumptions)
    assert len(result.distances) == len(result.critical_values) == len(result.supports)
    with pytest.raises(AttributeError):
        result.confidence = 0.5  # frozen
