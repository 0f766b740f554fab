import numpy as np
import pytest

from cdbandits.paper_examples import (
    PAPER_FIVE_ARM,
    clone_example_matrix,
    clone_table,
    examples_summary,
    five_arm_matrix,
    five_arm_table,
    paper_clone_copeland_scores,
)
from cdbandits.preference import detect_convention


def test_five_arm_matrix_is_the_papers():
    P = five_arm_matrix()
    assert detect_convention(P) == "skew"
    assert P[0].tolist() == [0, 0.5, -0.5, 0.5, -0.95]
    assert P[4].tolist() == [0.95, -0.5, -0.5, -0.5, 0]


def test_clone_example_structure():
    P = clone_example_matrix(5)
    assert detect_convention(P) == "skew"
    np.testing.assert_array_equal(P[0, 2:], P[1, 2:])  # a0 is a clone of a1
    assert P[0, 1] == 0
    assert P[1, 2] == P[2, 3] == P[3, 1] == 1  # the cycle a1 > a2 > a3 > a1
    assert np.all(P[:4, 4:] == 1)
    with pytest.raises(ValueError, match="positive number"):
        clone_example_matrix(0)


def test_tables_reproduce_the_paper():
    five = five_arm_table()
    clone = clone_table([5, 8, 13])
    summary = examples_summary(five, clone)
    assert summary["all_match_paper"] is True
    assert [row["k"] for row in summary["clone"]] == [5, 8, 13]
    assert five["copeland_wins"].tolist() == PAPER_FIVE_ARM["copeland_scores"]
    rows = clone[clone["k"] == 8].set_index("arm")
    assert rows["copeland_wins_or_ties"].tolist() == paper_clone_copeland_scores(8)["wins_or_ties"]


def test_summary_reports_a_mismatch():
    five = five_arm_table()
    five.loc[0, "borda"] += 0.01
    clone = clone_table([5])
    clone.loc[0, "copeland_wins"] += 1
    summary = examples_summary(five, clone)
    assert summary["five_arm"]["borda_scores_to_printed_digits"] is False
    assert summary["clone"][0]["copeland_table_matches_paper"] is False
    assert summary["all_match_paper"] is False
