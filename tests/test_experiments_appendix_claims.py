"""The claims of Appendices A and B: declared as data, evaluated generically, failing loudly."""

import numpy as np
import pytest
from appendix_helpers import appendix_counts, k_counts, synthetic_counts

from cdbandits.experiments.appendix.claims import (
    CLAIM_COLUMNS,
    CLAIMS,
    CONDORCET,
    Claim,
    appendix_claims,
    claims_markdown,
    evaluate_claim,
)
from cdbandits.experiments.appendix.criteria import (
    DecreasingInK,
    FallsBelowEarly,
    NoneAmong,
    PooledShare,
)
from cdbandits.stats import binomial_interval


def test_claims_report_failures_as_failing():
    n = 400_000
    good = synthetic_counts("informational", 0, {2: n, 50: n // 4, 100: n // 5, 136: 0})
    bad = synthetic_counts("navigational", 2000, {2: n, 50: 6 * n // 10, 100: 7 * n // 10, 136: n})
    claims = appendix_claims({"navigational": bad, "informational": good}, clone_ks=[5])
    assert list(claims.columns) == list(CLAIM_COLUMNS)
    holds = claims.set_index(["click_model", "claim"])["holds"]
    assert claims["click_model"].iloc[0] == "informational"  # the paper's setting first
    assert holds["informational", "condorcet_decreasing_in_k"]
    assert not holds["navigational", "condorcet_decreasing_in_k"]  # rises from K=50 on
    assert holds["informational", "support_5_rare"]
    assert not holds["navigational", "support_5_rare"]  # 2000 / 1.6M = 0.125% > 0.03%
    assert holds["informational", "no_support_larger_than_5"]  # 1.6M matrices, none above 5
    assert holds["informational", "some_copeland_winner_in_support"]
    assert holds["informational", "condorcet_drops_rapidly"]  # 25% at K=50 <= 136 / 2
    assert not holds["navigational", "condorcet_drops_rapidly"]  # never below 50%
    markdown = claims_markdown(claims)
    assert markdown.count("\n") == len(claims) + 2
    assert "**no**" in markdown
    with pytest.raises(ValueError, match="'perfect' is not among the computed"):
        appendix_claims({"informational": good}, clone_ks=[5], paper_model="perfect")


def test_the_readings_of_vague_words_give_their_reasons():
    notes = {claim.name: claim.note for claim in CLAIMS}
    assert "'slightly' bounds the gap" in notes["all_copeland_slightly_lower_and_k_dependent"]
    assert "relative to the possible loss" in notes["support_has_low_copeland_loss"]
    assert "grows with K" in notes["support_has_low_copeland_loss_relative_to_k"]
    n = 400_000
    counts = synthetic_counts("informational", 0, {2: n, 50: n // 4, 100: n // 5, 136: 0})
    rows = appendix_claims({"informational": counts}, clone_ks=[5]).set_index("claim")
    assert (
        rows.loc["support_has_low_copeland_loss", "reading_note"]
        == notes["support_has_low_copeland_loss"]
    )
    assert "reading_note" in claims_markdown(rows.reset_index()).splitlines()[0]


def slightly_counts(every_by_k: dict[int, int], n: int = 100_000):
    per_k = {k: k_counts(k, n, condorcet=n, all_copeland=every) for k, every in every_by_k.items()}
    return appendix_counts("m", per_k)


@pytest.mark.parametrize(
    ("every_by_k", "holds", "why"),
    [
        ({2: 99_990, 50: 98_000}, True, "pooled 98.995%: 0.9 points below 99.9%"),
        ({2: 99_990, 50: 90_000}, False, "pooled 94.995%: lower, but not slightly"),
        ({2: 99_950, 50: 99_950}, False, "slightly lower, but the same for every K"),
        ({2: 100_000, 50: 99_960}, False, "99.98% is not lower than 99.9%"),
    ],
)
def test_slightly_lower_is_checked_as_within_one_point(every_by_k, holds, why):
    claim = next(c for c in CLAIMS if c.name == "all_copeland_slightly_lower_and_k_dependent")
    row = evaluate_claim(claim, slightly_counts(every_by_k), 0.95, "clopper-pearson")
    assert row["holds"] is holds, why
    assert "points below 99.9% ('slightly': at most 1)" in row["value_text"]


def test_the_relative_loss_reading_grows_with_k():
    absolute = next(c for c in CLAIMS if c.name == "support_has_low_copeland_loss")
    relative = next(c for c in CLAIMS if c.name == "support_has_low_copeland_loss_relative_to_k")
    # K = 136: a largest loss of 3 is within 10% of 135 (13.5), not within the absolute 2.
    large = appendix_counts(
        "m", {136: k_counts(136, 1000, condorcet=0, max_copeland_loss={0: 50, 3: 900, 14: 50})}
    )
    assert not evaluate_claim(absolute, large, 0.95, "wilson")["holds"]
    row = evaluate_claim(relative, large, 0.95, "wilson")
    assert row["holds"] and row["value"] == 0.95  # 14 > 13.5 does not count
    # K = 11: 10% of K - 1 is exactly 1 (exact arithmetic: a loss of 1 counts, 2 does not).
    small = appendix_counts(
        "m", {11: k_counts(11, 1000, condorcet=0, max_copeland_loss={1: 950, 2: 50})}
    )
    assert evaluate_claim(relative, small, 0.95, "wilson")["value"] == 0.95


def test_every_claim_is_declared_once_with_the_papers_words():
    names = [claim.name for claim in CLAIMS]
    assert len(names) == len(set(names))
    for claim in CLAIMS:
        assert claim.paper_statement and claim.reading and claim.source.startswith("Appendix")


def pooled_counts(successes_by_k: dict[int, int], n: int = 1000):
    return appendix_counts("m", {k: k_counts(k, n, condorcet=s) for k, s in successes_by_k.items()})


def test_pooled_share_uses_the_pooled_interval():
    counts = pooled_counts({2: 990, 3: 1000})
    claim = Claim("c", "Appendix", "words", "reading", CONDORCET, PooledShare(0.993))
    row = evaluate_claim(claim, counts, 0.95, "clopper-pearson")
    low, high = binomial_interval(1990, 2000)
    assert row["value"] == 0.995 and (row["ci_low"], row["ci_high"]) == (low, high)
    assert row["holds"] and not row["ci_agrees"]  # 0.995 > 0.993, but the interval reaches below
    below = evaluate_claim(
        Claim("c", "A", "w", "r", CONDORCET, PooledShare(0.993, above=False)),
        counts,
        0.95,
        "clopper-pearson",
    )
    assert not below["holds"]


def test_decreasing_in_k_finds_significant_rises():
    falling = pooled_counts({2: 1000, 10: 600, 20: 300, 30: 10})
    rising = pooled_counts({2: 1000, 10: 300, 20: 600, 30: 10})
    claim = CLAIMS[0]
    assert isinstance(claim.criterion, DecreasingInK)
    assert evaluate_claim(claim, falling, 0.95, "clopper-pearson")["holds"]
    row = evaluate_claim(claim, rising, 0.95, "clopper-pearson")
    assert not row["holds"]
    assert "1 significantly increasing pairs, e.g. K=10 -> 20" in row["value_text"]


def test_falls_below_early_compares_with_half_the_largest_k():
    claim = CLAIMS[1]
    assert isinstance(claim.criterion, FallsBelowEarly)
    early = evaluate_claim(claim, pooled_counts({2: 1000, 10: 400, 20: 100}), 0.95, "wilson")
    late = evaluate_claim(claim, pooled_counts({2: 1000, 10: 800, 20: 100}), 0.95, "wilson")
    assert early["holds"] and early["value"] == 10 and "K <= 10" in early["criterion"]
    assert not late["holds"] and late["value"] == 20
    never = evaluate_claim(claim, pooled_counts({2: 1000, 10: 800}), 0.95, "wilson")
    assert not never["holds"] and np.isnan(never["value"])
    assert "stays at or above 50%" in never["value_text"]


def test_none_among_needs_zero_and_enough_matrices():
    criterion = NoneAmong(1500)
    claim = Claim("c", "A", "w", "r", CONDORCET, criterion)
    assert not evaluate_claim(claim, pooled_counts({2: 0}), 0.95, "wilson")["holds"]  # 1000
    assert evaluate_claim(claim, pooled_counts({2: 0, 3: 0}), 0.95, "wilson")["holds"]
    assert not evaluate_claim(claim, pooled_counts({2: 1, 3: 0}), 0.95, "wilson")["holds"]
