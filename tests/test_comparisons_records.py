import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cdbandits.comparisons.counts import count_pairs
from cdbandits.comparisons.records import (
    FIRST_WINS,
    SECOND_WINS,
    TIE,
    ComparisonLog,
    ComparisonLogError,
    RecordOrigins,
    concatenate_logs,
    log_from_counts,
    merge_similar_items,
    name_key,
    require_whole_weights,
    similar_item_names,
)


def make_log(items, records, weights=None, context=None, group=None, source="test.csv"):
    first = np.array([items.index(a) for a, _, _ in records], dtype=np.int64)
    second = np.array([items.index(b) for _, b, _ in records], dtype=np.int64)
    outcome = np.array([o for _, _, o in records], dtype=np.int8)
    n = len(records)
    return ComparisonLog(
        items=tuple(items),
        first=first,
        second=second,
        outcome=outcome,
        weight=np.ones(n) if weights is None else np.asarray(weights, dtype=float),
        context=None if context is None else np.array(context, dtype=object),
        group=None if group is None else np.asarray(group, dtype=np.int64),
        origin=RecordOrigins.of_source(source, "line", np.arange(2, n + 2)),
    )


def test_a_self_comparison_is_refused_naming_its_line():
    with pytest.raises(ComparisonLogError, match=r"test.csv:3: item 'b' is compared with itself"):
        make_log(["a", "b"], [("a", "b", FIRST_WINS), ("b", "b", TIE)])


def test_weights_must_be_positive_numbers():
    with pytest.raises(ComparisonLogError, match=r"test.csv:2: weight 0.0 is not a positive"):
        make_log(["a", "b"], [("a", "b", FIRST_WINS)], weights=[0.0])
    with pytest.raises(ComparisonLogError, match="weight nan"):
        make_log(["a", "b"], [("a", "b", FIRST_WINS)], weights=[np.nan])


def test_the_records_of_a_group_share_its_weight():
    records = [("a", "b", FIRST_WINS), ("b", "c", FIRST_WINS), ("a", "c", TIE)]
    make_log(["a", "b", "c"], records, weights=[2, 2, 5], group=[0, 0, 1])
    with pytest.raises(ComparisonLogError, match=r"test.csv:3: weight 3 differs from 2 at test"):
        make_log(["a", "b", "c"], records, weights=[2, 3, 5], group=[0, 0, 1])


def test_outcome_codes_and_shapes_are_checked():
    with pytest.raises(ValueError, match="outcome codes"):
        make_log(["a", "b"], [("a", "b", 2)])
    log = make_log(["a", "b"], [("a", "b", FIRST_WINS)])
    with pytest.raises(ValueError, match="weight has shape"):
        ComparisonLog(
            log.items, log.first, log.second, log.outcome, np.ones(2), None, None, log.origin
        )
    with pytest.raises(ComparisonLogError, match="distinct"):
        make_log(["a", "a"], [])


def test_restrict_renumbers_items_and_keeps_only_their_comparisons():
    log = make_log(
        ["a", "b", "c"],
        [("a", "b", FIRST_WINS), ("c", "a", SECOND_WINS), ("b", "c", TIE), ("c", "b", FIRST_WINS)],
    )
    sub = log.restrict(["c", "b"])
    assert sub.items == ("c", "b")
    assert sub.n_records == 2
    assert [sub.origin[row] for row in range(2)] == ["test.csv:4", "test.csv:5"]
    assert count_pairs(sub).wins.tolist() == [[0, 1.5], [0.5, 0]]
    with pytest.raises(ComparisonLogError, match="unknown items: 'z'"):
        log.restrict(["a", "z"])


def test_for_context_keeps_the_items_present_in_that_context():
    log = make_log(
        ["a", "b", "c", "d"],
        [("a", "b", FIRST_WINS), ("c", "d", FIRST_WINS), ("d", "b", SECOND_WINS)],
        context=["x", "y", "y"],
    )
    assert log.contexts == ("x", "y")
    assert log.for_context("y").items == ("b", "c", "d")
    with pytest.raises(ComparisonLogError, match="no records with context 'z'; contexts: x, y"):
        log.for_context("z")


def test_top_items_by_total_weight_ties_to_the_earlier_item():
    log = make_log(
        ["a", "b", "c", "d"],
        [("a", "b", FIRST_WINS), ("c", "d", FIRST_WINS), ("b", "c", TIE)],
        weights=[1, 1, 3],
    )
    assert log.comparisons_per_item().tolist() == [1, 4, 4, 1]
    assert log.top_items(3) == ("b", "c", "a")


def test_log_from_counts_round_trips_through_count_pairs():
    wins = np.array([[0, 3, 0], [1, 0, 2], [5, 0, 0]])
    ties = np.array([[0, 2, 0], [2, 0, 0], [0, 0, 0]])
    counts = count_pairs(log_from_counts(["a", "b", "c"], wins, ties))
    assert np.array_equal(counts.wins, wins + ties / 2)
    assert np.array_equal(counts.ties, ties)


def test_concatenation_merges_items_by_name_and_keeps_groups_apart():
    one = make_log(["a", "b"], [("a", "b", FIRST_WINS)] * 2, group=[0, 0], source="one")
    two = make_log(["c", "a"], [("a", "c", SECOND_WINS)], group=[0], source="two")
    both = concatenate_logs([one, two])
    assert both.items == ("a", "b", "c")
    assert both.group.tolist() == [0, 0, 1]
    assert both.sources == ("one", "two")
    assert both.origin[2] == "two:2"
    with pytest.raises(ComparisonLogError, match="some logs have a context"):
        concatenate_logs([one, make_log(["a", "b"], [("a", "b", TIE)], context=["x"])])


@given(
    st.lists(
        st.tuples(
            st.integers(0, 4), st.integers(0, 4), st.sampled_from([1, -1, 0]), st.integers(1, 3)
        ),
        min_size=1,
        max_size=30,
    ),
    st.integers(1, 29),
)
def test_counts_of_a_concatenation_are_the_sum_of_the_parts(rows, cut):
    rows = [(a, b, o, w) for a, b, o, w in rows if a != b]
    if not rows:
        return
    names = ["p", "q", "r", "s", "t"]
    records = [(names[a], names[b], o) for a, b, o, _ in rows]
    weights = [w for *_, w in rows]
    cut = min(cut, len(rows))
    whole = make_log(names, records, weights)
    # The second part lists its items in another order; concatenation must map them back.
    first = make_log(names, records[:cut], weights[:cut])
    second = make_log(names[::-1], records[cut:], weights[cut:])
    merged = count_pairs(concatenate_logs([first, second]))
    assert merged.items == tuple(names)
    np.testing.assert_array_equal(merged.wins, count_pairs(whole).wins)
    np.testing.assert_array_equal(merged.ties, count_pairs(whole).ties)


def test_weights_and_their_total_stay_exact_counts():
    with pytest.raises(
        ComparisonLogError, match=r"test.csv:2: weight 1e\+19 is larger than 2\*\*53"
    ):
        make_log(["a", "b"], [("a", "b", FIRST_WINS)], weights=[1e19])
    with pytest.raises(ComparisonLogError, match="the weights add up to 1.8e\\+16 comparisons"):
        make_log(["a", "b"], [("a", "b", FIRST_WINS)] * 2, weights=[9e15, 9e15])
    # A group counts once: two records of one group of weight 6e15 are 6e15 groups.
    grouped = make_log(["a", "b"], [("a", "b", FIRST_WINS)] * 2, weights=[6e15] * 2, group=[0, 0])
    assert grouped.unit_weights().tolist() == [6e15]
    with pytest.raises(ComparisonLogError, match="add up to 1.2e\\+16 groups"):
        make_log(["a", "b"], [("a", "b", FIRST_WINS)] * 2, weights=[6e15] * 2, group=[0, 1])


def test_whole_weights_for_the_bootstrap_name_the_first_other_record():
    log = make_log(["a", "b"], [("a", "b", FIRST_WINS)] * 3, weights=[2, 1e-300, 0.5])
    with pytest.raises(ComparisonLogError, match=r"test.csv:3: weight 1e-300 is not a whole num"):
        require_whole_weights(log, "why")
    require_whole_weights(make_log(["a", "b"], [("a", "b", TIE)], weights=[7]), "why")


def test_names_that_print_alike_are_found_and_merged():
    names = ["Ann", "ann", "Ann\u200b", " Bob", "Bob  Lee", "bob lee", "Cy", "ﬁ", "fi"]
    assert name_key("Ann\u200b") == name_key("ANN") == "ann"
    assert similar_item_names(names) == [
        ("Ann", "ann", "Ann\u200b"),
        ("Bob  Lee", "bob lee"),
        ("ﬁ", "fi"),
    ]
    log = make_log(
        ["Ann", "Bob", "ann", "Cy"],
        [("Ann", "Bob", FIRST_WINS), ("ann", "Cy", SECOND_WINS), ("Bob", "ann", TIE)],
    )
    merged = merge_similar_items(log)
    assert merged.items == ("Ann", "Bob", "Cy")
    assert count_pairs(merged).wins.tolist() == [[0, 1.5, 0], [0.5, 0, 0], [1, 0, 0]]
    with pytest.raises(ComparisonLogError, match="test.csv:2: item 'Ann' is compared with itself"):
        merge_similar_items(make_log(["Ann", "ann"], [("Ann", "ann", FIRST_WINS)]))
