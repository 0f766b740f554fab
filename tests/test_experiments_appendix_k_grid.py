"""The K-grid sensitivity of the claims: on which grids K = 2...K_max each claim holds."""

import io

import pandas as pd
from appendix_helpers import appendix_counts, k_counts

from cdbandits.experiments.appendix.claims import CLAIMS
from cdbandits.experiments.appendix.k_grid import (
    K_GRID_COLUMNS,
    TOGETHER,
    _ranges,
    claim_holds,
    k_grid_markdown,
    k_grid_table,
)


def growing_support_5(ks=range(2, 11), n=1000, five_from=6, five=10):
    """Support size 5 never below K = five_from, then ``five`` of ``n`` matrices per K."""
    per_k = {}
    for k in ks:
        fives = five if k >= five_from else 0
        per_k[k] = k_counts(
            k, n, condorcet=n // 2, support_size={1: n // 2, 3: n // 2 - fives, 5: fives}
        )
    return appendix_counts("m", per_k)


def test_a_claim_that_breaks_with_larger_k_holds_up_to_the_last_good_grid():
    table = k_grid_table({"m": growing_support_5()}, paper_model="m").set_index("claim")
    assert list(table.reset_index().columns) == [
        "claim",
        *[c for c in K_GRID_COLUMNS if c != "claim"],
    ]
    rare = table.loc["support_5_rare"]
    # pooled share of size 5 on K = 2..K_max: 0 up to 5, then 10/5000 = 0.2% > 0.03%
    assert rare["largest_k_max"] == 5 and rare["k_max_where_holds"] == "2-5"
    assert not rare["holds_on_full_grid"]
    together = table.loc[TOGETHER]
    assert together["largest_k_max"] == 5 and together["k_max_where_holds"] == "2-5"


def test_the_sample_size_part_of_a_reading_is_left_out_of_the_grid():
    counts = growing_support_5()
    claim = next(c for c in CLAIMS if c.name == "no_support_larger_than_5")
    assert claim_holds(claim, counts, 0.95, "wilson")  # by its grid criterion
    # the claims table's criterion also asks for over a million matrices
    shares = claim.statistic.shares(counts, 0.95, "wilson")
    assert not claim.criterion.evaluate(shares, counts, "")["holds"]
    table = k_grid_table({"m": counts}, paper_model="m").set_index("claim")
    assert table.loc["no_support_larger_than_5", "k_max_where_holds"] == "2-10"


def test_a_claim_that_never_holds_has_no_k_max_and_models_come_paper_first():
    n = 1000
    flat = appendix_counts("m", {k: k_counts(k, n, condorcet=n) for k in (2, 3, 4)})
    table = k_grid_table({"z": flat, "a": flat, "m": flat}, paper_model="m")
    assert table["click_model"].drop_duplicates().tolist() == ["m", "a", "z"]
    rapid = table[(table["click_model"] == "m") & (table["claim"] == "condorcet_drops_rapidly")]
    assert rapid["largest_k_max"].isna().all() and (rapid["k_max_where_holds"] == "").all()
    markdown = k_grid_markdown(table)
    assert "<NA>" not in markdown and "nan" not in markdown
    roundtrip = k_grid_markdown(pd.read_csv(io.StringIO(table.to_csv(index=False))))
    assert roundtrip == markdown


def test_ranges_follow_the_grid_not_the_integers():
    assert _ranges([2, 3, 4, 8], [2, 3, 4, 6, 8]) == "2-4, 8"
    assert _ranges([2, 4, 6], [2, 4, 6, 8]) == "2-6"
    assert _ranges([], [2, 3]) == ""
