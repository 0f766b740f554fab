import numpy as np
import pytest
from test_comparisons_records import make_log

from cdbandits.comparisons.counts import apply_policy, count_pairs
from cdbandits.comparisons.records import (
    FIRST_WINS,
    SECOND_WINS,
    TIE,
    ComparisonDataWarning,
    ComparisonLogError,
)
from cdbandits.comparisons.settings import CountPolicy
from cdbandits.preference import as_skew
from cdbandits.stats import binomial_interval
from cdbandits.winners import copeland_scores


def three_items():
    return make_log(
        ["a", "b", "c"],
        [
            ("a", "b", FIRST_WINS),
            ("b", "a", FIRST_WINS),
            ("a", "b", FIRST_WINS),
            ("b", "c", TIE),
            ("c", "b", SECOND_WINS),
        ],
        weights=[1, 1, 2, 1, 1],
    )


def test_counts_matrix_and_intervals_of_a_small_log():
    counts = count_pairs(three_items())
    assert counts.wins.tolist() == [[0, 3, 0], [1, 0, 1.5], [0, 0.5, 0]]
    assert counts.ties[1, 2] == counts.ties[2, 1] == 1
    q = counts.probability_matrix()
    assert q.tolist() == [[0.5, 0.75, 0.5], [0.25, 0.5, 0.75], [0.5, 0.25, 0.5]]
    np.testing.assert_array_equal(as_skew(q, "probability"), counts.skew_matrix())
    low, high = counts.intervals(0.9, "wilson")
    expected = binomial_interval(3, 4, 0.9, "wilson")
    assert (low[0, 1], high[0, 1]) == pytest.approx([float(v) for v in expected])
    assert low[1, 0] == pytest.approx(1 - high[0, 1])
    assert np.isnan(low[0, 2]) and np.isnan(high[2, 0]) and np.isnan(low[1, 1])


def test_ties_policies():
    with pytest.warns(ComparisonDataWarning, match=r"1 of 6 comparisons are ties: each counts"):
        kept = apply_policy(three_items())
    assert kept.n_records == 5
    with pytest.warns(ComparisonDataWarning, match=r"ties: dropped \(ties='drop'\)"):
        dropped = apply_policy(three_items(), CountPolicy(ties="drop"))
    assert count_pairs(dropped).wins[1, 2] == 1 and count_pairs(dropped).ties.sum() == 0
    with pytest.raises(ComparisonLogError, match=r"the first at test.csv:5\); choose how"):
        apply_policy(three_items(), CountPolicy(ties="error"))


def test_rare_items_are_kept_dropped_repeatedly_or_refused():
    # d is in one comparison; dropping it leaves e in one comparison, which goes next.
    log = make_log(
        ["a", "b", "c", "d", "e"],
        [
            ("a", "b", FIRST_WINS),
            ("b", "c", FIRST_WINS),
            ("c", "a", FIRST_WINS),
            ("d", "e", FIRST_WINS),
            ("e", "a", SECOND_WINS),
        ],
    )
    policy = CountPolicy(unobserved="half", min_comparisons=2)
    with pytest.warns(
        ComparisonDataWarning, match=r"1 of 5 items are in fewer than 2 .*\(d\): kept"
    ):
        assert apply_policy(log, policy).items == log.items
    with pytest.warns(ComparisonDataWarning, match=r"2 items removed \(d, e\), 3 left"):
        assert apply_policy(log, CountPolicy(rare_items="drop")).items == ("a", "b", "c")
    with pytest.raises(ComparisonLogError, match="1 of 5 items are in fewer than 2 comparisons"):
        apply_policy(log, CountPolicy(rare_items="error"))


def test_pairs_never_compared_are_half_dropped_greedily_or_refused():
    # e was compared with a only; d with a and b; the rest all pairwise.
    log = make_log(
        ["a", "b", "c", "d", "e"],
        [
            ("a", "b", FIRST_WINS),
            ("b", "c", FIRST_WINS),
            ("c", "a", FIRST_WINS),
            ("d", "a", FIRST_WINS),
            ("d", "b", SECOND_WINS),
            ("e", "a", FIRST_WINS),
            ("e", "a", FIRST_WINS),
        ],
    )
    with pytest.warns(ComparisonDataWarning, match=r"4 of 10 pairs of items were never compared"):
        half = apply_policy(log)
    assert count_pairs(half).probability_matrix()[2, 4] == 0.5
    with pytest.warns(ComparisonDataWarning, match=r"2 items removed .*order: e, d; 3 items left"):
        complete = apply_policy(log, CountPolicy(unobserved="drop-items"))
    assert complete.items == ("a", "b", "c")
    with pytest.raises(ComparisonLogError, match="choose unobserved 'half'"):
        apply_policy(log, CountPolicy(unobserved="error"))


def test_a_clean_log_passes_without_warnings(recwarn):
    log = make_log(["a", "b"], [("a", "b", FIRST_WINS), ("b", "a", FIRST_WINS)])
    assert apply_policy(log) is log
    assert not recwarn.list


def test_policy_values_are_checked():
    with pytest.raises(ValueError, match="ties must be one of"):
        CountPolicy(ties="ignore")
    with pytest.raises(ValueError, match="min_comparisons"):
        CountPolicy(min_comparisons=-1)


def test_no_items_left_is_an_error():
    log = make_log(["a", "b"], [("a", "b", FIRST_WINS)])
    with pytest.warns(ComparisonDataWarning), pytest.raises(ComparisonLogError, match="no items"):
        apply_policy(log, CountPolicy(rare_items="drop", min_comparisons=5))


@pytest.mark.parametrize(
    ("records", "policy", "message"),
    [
        (
            [("a", "b", TIE), ("b", "c", TIE)],
            CountPolicy(ties="drop"),
            "ties='drop': none of the 2",
        ),
        (
            [("a", "b", FIRST_WINS), ("a", "b", FIRST_WINS), ("a", "c", FIRST_WINS)],
            CountPolicy(rare_items="drop", min_comparisons=3),
            "rare_items='drop': no items are left of 3 items, and a winner needs at least two",
        ),
    ],
)
def test_a_choice_that_leaves_nothing_to_compare_is_named(records, policy, message):
    log = make_log(["a", "b", "c"], records)
    with pytest.warns(ComparisonDataWarning), pytest.raises(ComparisonLogError, match=message):
        apply_policy(log, policy)


def random_log(k, records, seed, ties=0.2):
    rng = np.random.default_rng(seed)
    first, second = rng.integers(0, k, records), rng.integers(0, k, records)
    keep = first != second
    outcome = rng.choice([FIRST_WINS, SECOND_WINS, TIE], records, p=[0.5 - ties / 2] * 2 + [ties])
    names = [f"i{n}" for n in range(k)]
    rows = [
        (names[a], names[b], o)
        for a, b, o in zip(first[keep], second[keep], outcome[keep], strict=True)
    ]
    return make_log(names, rows, weights=rng.integers(1, 4, len(rows)))


def dense_wins(log):
    """The K x K win counts built record by record (ties half a win each way)."""
    k = len(log.items)
    wins = np.zeros((k, k))
    for a, b, outcome, weight in zip(log.first, log.second, log.outcome, log.weight, strict=True):
        if outcome == TIE:
            wins[a, b] += weight / 2
            wins[b, a] += weight / 2
        else:
            winner, loser = (a, b) if outcome == FIRST_WINS else (b, a)
            wins[winner, loser] += weight
    return wins


@pytest.mark.parametrize("seed", range(5))
def test_pair_counts_hold_the_compared_pairs_and_rebuild_the_matrices(seed):
    log = random_log(30, 120, seed)
    counts = count_pairs(log)
    expected = dense_wins(log)
    np.testing.assert_allclose(counts.wins, expected)
    compared = np.argwhere(np.triu(expected + expected.T > 0, 1))
    np.testing.assert_array_equal(counts.pairs, compared)
    skew = counts.skew_matrix()
    np.testing.assert_array_equal(counts.skew_sparse().toarray(), skew)
    np.testing.assert_array_equal(counts.item_wins(), copeland_scores(skew, "wins"))
    low, high = counts.intervals()
    pair_low, pair_high = counts.pair_intervals()
    np.testing.assert_array_equal(pair_low, low[compared[:, 0], compared[:, 1]])
    np.testing.assert_array_equal(pair_high, high[compared[:, 0], compared[:, 1]])


def dense_drop_items(log):
    """The greedy order of the never-compared rule, on the K x K matrix of compared pairs."""
    k = len(log.items)
    observed = dense_wins(log) > 0
    unobserved = ~(observed | observed.T) & ~np.eye(k, dtype=bool)
    alive, per_item = np.ones(k, dtype=bool), log.comparisons_per_item()
    while True:
        partners = (unobserved & alive[None, :]).sum(axis=1) * alive
        if partners.max() == 0:
            return tuple(name for name, keep in zip(log.items, alive, strict=True) if keep)
        alive[int(np.lexsort((-np.arange(k), per_item, -partners))[0])] = False


@pytest.mark.parametrize("seed", range(6))
def test_dropping_items_follows_the_greedy_rule(seed):
    log = random_log(25, 90, seed)
    with pytest.warns(ComparisonDataWarning, match="removed until every remaining pair"):
        kept = apply_policy(log, CountPolicy(unobserved="drop-items", ties="half")).items
    assert kept == dense_drop_items(log)
