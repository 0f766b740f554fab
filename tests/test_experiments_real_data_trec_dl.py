import pytest
from real_data_helpers import make_log

from cdbandits.experiments.real_data.settings import TrecComparisonSettings
from cdbandits.experiments.real_data.trec_dl import (
    comparison_summary,
    run_trec_dl_comparison,
    topic_comparison,
    trec_dl_comparison,
)

SETTINGS = TrecComparisonSettings(qrels=("Set-I", "Set-II"), resamples=30, confidence=0.95, seed=3)

# p0 beats p1 and p2 (finalists, all pairs compared); p3 lost once to p1 and was pruned
RECORDS = [(0, 1, 1), (0, 1, 1), (0, 2, 1), (0, 2, 1), (1, 2, 1), (2, 1, 1), (1, 3, 1)]


def test_the_condorcet_finalist_meets_the_set_that_lists_it():
    log = make_log(["p0", "p1", "p2", "p3"], RECORDS)
    published = {"Set-I": ("p0",), "Set-II": ("p2",)}
    with pytest.warns(UserWarning, match="never compared"):
        row = topic_comparison(log, "7", published, "finalists", SETTINGS)
    assert row["passages"] == 3 and row["condorcet_winner"] == "p0"
    assert row["Set-I_condorcet"] and row["Set-I_has_top"] and row["Set-I_copeland"]
    assert not row["Set-II_condorcet"] and not row["Set-II_has_top"]
    assert row["Set-I_support_probability"] > row["Set-II_support_probability"]


def test_pairs_never_compared_at_one_half_keep_the_pruned_passage():
    log = make_log(["p0", "p1", "p2", "p3"], RECORDS)
    with pytest.warns(UserWarning, match="never compared"):
        row = topic_comparison(log, "7", {"Set-I": ("p3",)}, "all", SETTINGS)
    assert row["passages"] == 4 and row["pairs_compared"] == 4
    # p3 lost only to p1 and is even with p0 and p2: no Condorcet winner any more
    assert row["condorcet_winner"] == ""
    assert "Set-I_support_probability" not in row


def test_summary_shares_and_agreement_between_published_sets():
    log = make_log(["p0", "p1", "p2", "p3"], RECORDS, ["7"] * len(RECORDS))
    qrels = {"Set-I": {"7": ("p0",)}, "Set-II": {"7": ("p0", "p2")}}
    with pytest.warns(UserWarning):
        table = trec_dl_comparison(log, qrels, SETTINGS)
    assert list(table["view"]) == ["all", "finalists"]
    summary = comparison_summary(table, qrels).set_index(["view", "published"])
    assert summary.loc[("finalists", "Set-I"), "condorcet"] == 1.0
    assert summary.loc[("finalists", "Set-II"), "in_support"] == 0.0  # p2 is not in it
    assert summary.loc[("finalists", "Set-I"), "agrees_with_Set-II"] == 1.0


def test_on_the_real_judgments(data_mirror):
    folder = data_mirror / "trec-dl-human-preferences-yan2022"
    qrels = {name: folder / f"{name}.qrels" for name in SETTINGS.qrels}
    with pytest.warns(UserWarning):
        table, summary = run_trec_dl_comparison(
            folder / "judgments.txt", qrels, SETTINGS, ["952262"]
        )
    assert set(table["topic"]) == {"952262"} and len(summary) == 4
    finalists = table[table["view"] == "finalists"].iloc[0]
    assert finalists["pairs_compared"] == finalists["pairs"]


def test_has_top_names_the_heaviest_passage_of_a_cycle():
    # a beats b 3-1, b beats c 3-1, c beats a 4-0: the vNW is (1/4, 1/2, 1/4), b heaviest
    records = [(0, 1, 1)] * 3 + [(1, 0, 1)] + [(1, 2, 1)] * 3 + [(2, 1, 1)] + [(2, 0, 1)] * 4
    log = make_log("abc", records)
    published = {"Set-I": ("b",), "Set-II": ("a",)}
    row = topic_comparison(log, "1", published, "finalists", SETTINGS)
    assert row["support"] == "b a c" and row["top_weight"] == pytest.approx(0.5)
    assert row["Set-I_has_top"] and not row["Set-II_has_top"]
    assert row["Set-II_in_support"] == 1 and row["Set-II_weight"] == pytest.approx(0.25)
