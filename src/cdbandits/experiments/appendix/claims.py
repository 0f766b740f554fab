"""The claims of Appendices A and B, declared as data and checked on the sampled matrices.

Every quantitative statement the paper makes about its sampled MSLR sub-matrices is one
:class:`Claim` in :data:`CLAIMS`: the paper's words, our reading of them (the criterion),
the :class:`~.criteria.Statistic` it is about (a count of matrices per K) and the
criterion (:mod:`.criteria`) that decides it. :func:`evaluate_claim` is the one generic
evaluation; :func:`appendix_claims` applies every claim to every click model and adds the
worked examples (:mod:`.worked_examples`); :func:`claims_markdown` renders the table.

Pooled fractions are over all sampled matrices of a click model, so they depend on the K
grid (the paper's grid is not stated). ``holds`` applies the criterion to the point
estimate; ``ci_agrees`` says whether the whole confidence interval satisfies it too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ...stats import IntervalMethod
from .counts import AppendixCounts, add_histograms
from .criteria import (
    Criterion,
    DecreasingInK,
    FallsBelowEarly,
    NoneAmong,
    PooledShare,
    SlightlyBelowAndVarying,
    Statistic,
)
from .readings import (
    LOSS_SHARE_OF_K,
    MAJORITY,
    PAPER_LARGEST_SUPPORT,
    PAPER_MATRICES,
    PAPER_SOME_COPELAND,
    PAPER_SUPPORT_5,
    RAPID_HALF,
    SLIGHTLY,
)
from .tables import markdown_table
from .worked_examples import example_claims

__all__ = [
    "CLAIMS",
    "CLAIM_COLUMNS",
    "Claim",
    "appendix_claims",
    "claims_markdown",
    "evaluate_claim",
    "model_claims",
]

#: Columns of the claims table.
CLAIM_COLUMNS = (
    "claim",
    "source",
    "paper_statement",
    "click_model",
    "paper_setting",
    "criterion",
    "reading_note",
    "value",
    "ci_low",
    "ci_high",
    "value_text",
    "holds",
    "ci_agrees",
)


@dataclass(frozen=True)
class Claim:
    """One statement of the paper about its sampled matrices, as checked here.

    Attributes
    ----------
    name : str
        Identifier (the ``claim`` column).
    source : str
        Where the paper says it.
    paper_statement : str
        The paper's words.
    reading : str
        The criterion in words (formatted with the criterion's template values).
    statistic : Statistic
        What is counted.
    criterion : Criterion
        What decides the claim.
    detail : callable, optional
        A claim-specific addition to the value text, from the counts.
    note : str, optional
        Why this reading, where the paper's words allow several (the ``reading_note``
        column).
    quantitative : bool, optional
        The paper gives a number (99.9%, 0.03%, 5 arms); the K-grid table asks where these
        hold together.
    on_grid : Criterion, optional
        The criterion of the K-grid table, if not ``criterion`` (a part of the reading that
        is about the sample size, not the grid, is left out).
    """

    name: str
    source: str
    paper_statement: str
    reading: str
    statistic: Statistic
    criterion: Criterion
    detail: Callable[[AppendixCounts], str] | None = None
    note: str = ""
    quantitative: bool = False
    on_grid: Criterion | None = None


def _pooled_histogram(counts: AppendixCounts, attribute: str) -> dict[int, int]:
    total: dict[int, int] = {}
    for row in counts.per_k.values():
        total = add_histograms(total, getattr(row, attribute))
    return total


def _loss_shares(counts: AppendixCounts) -> str:
    loss = _pooled_histogram(counts, "max_copeland_loss")
    total = sum(loss.values())
    shares = (
        loss.get(0, 0),
        loss.get(1, 0),
        loss.get(2, 0),
        sum(c for v, c in loss.items() if v >= 3),
    )
    return "max loss 0, 1, 2, 3+: " + ", ".join(f"{100 * share / total:.2f}%" for share in shares)


def _largest_support(counts: AppendixCounts) -> str:
    return f"largest support {max(_pooled_histogram(counts, 'support_size'))}"


CONDORCET = Statistic(
    "condorcet", "P(Condorcet winner)", "have a Condorcet winner", lambda c: c.condorcet
)
SOME_COPELAND = Statistic(
    "some_copeland_in_support",
    "at least one",
    "have at least one Copeland winner in the support",
    lambda c: c.some_copeland_in_support,
)
ALL_COPELAND = Statistic(
    "all_copeland_in_support",
    "all",
    "have every Copeland winner in the support",
    lambda c: c.all_copeland_in_support,
)
LOSS_AT_MOST_2 = Statistic(
    "max_copeland_loss_at_most_2",
    "max loss <= 2",
    "have a largest Copeland loss in the support of at most 2",
    lambda c: sum(n for loss, n in c.max_copeland_loss.items() if loss <= 2),
)
LOSS_WITHIN_SHARE_OF_K = Statistic(
    "max_copeland_loss_within_share_of_k",
    f"max loss <= {float(LOSS_SHARE_OF_K):.0%} of K-1",
    f"have a largest Copeland loss in the support of at most {float(LOSS_SHARE_OF_K):.0%} of K - 1",
    lambda c: sum(
        n for loss, n in c.max_copeland_loss.items() if loss <= LOSS_SHARE_OF_K * (c.k - 1)
    ),
)
SUPPORT_ABOVE_5 = Statistic(
    "support_larger_than_5",
    "support > 5",
    "have support > 5",
    lambda c: sum(n for size, n in c.support_size.items() if size > PAPER_LARGEST_SUPPORT),
)
SUPPORT_5 = Statistic(
    "support_5", "support 5", "have support size 5", lambda c: c.support_size.get(5, 0)
)
SUPPORT_1_OR_3 = Statistic(
    "support_1_or_3",
    "support 1 or 3",
    "have support size 1 or 3",
    lambda c: c.support_size.get(1, 0) + c.support_size.get(3, 0),
)

#: Every claim about the sampled matrices, in the order of the claims table.
CLAIMS: tuple[Claim, ...] = (
    Claim(
        "condorcet_decreasing_in_k",
        "Appendix A, Fig. 1",
        "the occurrence of the Condorcet winner drops ... as the number of rankers grows",
        "P(Condorcet winner) at the largest K is significantly below that at the smallest K "
        "(disjoint confidence intervals) and never significantly increases: no K1 < K2 with "
        "the interval of K2 entirely above that of K1",
        CONDORCET,
        DecreasingInK(),
    ),
    Claim(
        "condorcet_drops_rapidly",
        "Appendix A, Fig. 1",
        "the occurrence of the Condorcet winner drops rapidly as the number of rankers grows",
        "our reading of 'rapidly': P(Condorcet winner) falls below {level:.0%} at some "
        "K <= {half_of_largest:g} (half the largest K sampled); value = the first such K",
        CONDORCET,
        FallsBelowEarly(RAPID_HALF),
    ),
    Claim(
        "some_copeland_winner_in_support",
        "Appendix B",
        "in over 99.9% of the examples, the von Neumann winner contained at least one "
        "Copeland winner",
        f"fraction of all sampled matrices > {PAPER_SOME_COPELAND:.1%}",
        SOME_COPELAND,
        PooledShare(PAPER_SOME_COPELAND),
        quantitative=True,
    ),
    Claim(
        "all_copeland_winners_in_support",
        "Appendix B, Fig. 2",
        "in the overwhelming majority of the cases, all Copeland winners were assigned "
        "non-zero probability by the von Neumann winner",
        f"our reading of 'overwhelming majority': fraction of all sampled matrices > "
        f"{MAJORITY:.0%}",
        ALL_COPELAND,
        PooledShare(MAJORITY),
    ),
    Claim(
        "all_copeland_slightly_lower_and_k_dependent",
        "Appendix B, Fig. 2",
        "the percentage [with all Copeland winners in the support] is slightly lower than "
        "[99.9%] and dependent on the number of arms",
        "pooled fraction with all Copeland winners < pooled fraction with at least one and, "
        "our reading of 'slightly', at most {within_points:g} percentage point below "
        "{reference:.1%}; and the per-K fractions differ (for ci_agrees: the pooled interval "
        "within that range, lowest and highest K with disjoint intervals)",
        ALL_COPELAND,
        SlightlyBelowAndVarying(SOME_COPELAND, PAPER_SOME_COPELAND, SLIGHTLY),
        note="'lower' alone (than the share with at least one Copeland winner) is passed by "
        "any share; 'slightly' bounds the gap, read as at most one percentage point below "
        "99.9%",
    ),
    Claim(
        "support_has_low_copeland_loss",
        "Appendix B, Fig. 3",
        "the arms in the support of the von Neumann winner tend to have high Copeland scores "
        "(or equivalently, low Copeland losses)",
        f"our reading: the largest Copeland loss in the support is at most 2 in > "
        f"{MAJORITY:.0%} of all sampled matrices",
        LOSS_AT_MOST_2,
        PooledShare(MAJORITY),
        _loss_shares,
        note="a fixed bound, the same at every K; the next row reads the claim relative to "
        "the possible loss, K - 1, which grows with K",
    ),
    Claim(
        "support_has_low_copeland_loss_relative_to_k",
        "Appendix B, Fig. 3",
        "the arms in the support of the von Neumann winner tend to have high Copeland scores "
        "(or equivalently, low Copeland losses)",
        f"our relative reading: the largest Copeland loss in the support is at most "
        f"{float(LOSS_SHARE_OF_K):.0%} of the K - 1 possible in > {MAJORITY:.0%} of all sampled "
        f"matrices",
        LOSS_WITHIN_SHARE_OF_K,
        PooledShare(MAJORITY),
        note="the possible loss, K - 1, grows with K, which the fixed bound of the previous "
        "row ignores",
    ),
    Claim(
        "no_support_larger_than_5",
        "Appendix B, Fig. 4",
        "among the over a million preference matrices sampled ..., not a single one had a "
        "von Neumann winner that assigned non-zero probability to more than 5 arms",
        f"no sampled matrix has a support larger than {PAPER_LARGEST_SUPPORT}, among over "
        f"{PAPER_MATRICES:,}",
        SUPPORT_ABOVE_5,
        NoneAmong(PAPER_MATRICES),
        _largest_support,
        quantitative=True,
        on_grid=NoneAmong(0),
    ),
    Claim(
        "support_5_rare",
        "Appendix B, Fig. 4",
        "fewer than 0.03% of preference matrices had von Neumann winners whose support "
        "contains 5 arms",
        f"fraction of all sampled matrices with support size 5 < {PAPER_SUPPORT_5:.2%}",
        SUPPORT_5,
        PooledShare(PAPER_SUPPORT_5, above=False),
        quantitative=True,
    ),
    Claim(
        "support_mostly_1_or_3",
        "Appendix B, Fig. 4",
        "in the vast majority of the cases, the von Neumann winners had supports of size 1 or 3",
        f"our reading of 'vast majority': fraction of all sampled matrices with support size "
        f"1 or 3 > {MAJORITY:.0%}",
        SUPPORT_1_OR_3,
        PooledShare(MAJORITY),
    ),
)


def evaluate_claim(
    claim: Claim, counts: AppendixCounts, confidence: float, method: IntervalMethod
) -> dict[str, Any]:
    """One row of the claims table (without ``click_model`` and ``paper_setting``)."""
    shares = claim.statistic.shares(counts, confidence, method)
    detail = claim.detail(counts) if claim.detail is not None else ""
    return {
        "claim": claim.name,
        "source": claim.source,
        "paper_statement": claim.paper_statement,
        "criterion": claim.reading.format(**claim.criterion.template_values(shares)),
        "reading_note": claim.note,
        **claim.criterion.evaluate(shares, counts, detail),
    }


def model_claims(
    model: str,
    counts: AppendixCounts,
    confidence: float = 0.95,
    method: IntervalMethod = "clopper-pearson",
) -> list[dict[str, Any]]:
    """Every claim of :data:`CLAIMS` evaluated on the counts of one click model."""
    return [
        {"click_model": model, **evaluate_claim(claim, counts, confidence, method)}
        for claim in CLAIMS
    ]


def appendix_claims(
    counts_by_model: Mapping[str, AppendixCounts],
    clone_ks: Sequence[int],
    *,
    paper_model: str = "informational",
    confidence: float = 0.95,
    method: IntervalMethod = "clopper-pearson",
    solver: str | None = None,
) -> pd.DataFrame:
    """The claims table: every quantitative claim of Appendices A and B, checked.

    The sampled-matrix claims are evaluated for every click model; the paper's own setting
    (``paper_model``) comes first and is marked ``paper_setting``; the other click models
    test whether the claims carry over. The worked examples follow
    (:func:`.worked_examples.example_claims`).

    Parameters
    ----------
    counts_by_model : mapping of str to AppendixCounts
        Merged counts per click model.
    clone_ks : sequence of int
        Clone-example sizes to check.
    paper_model : str, optional
        The click model of the paper's experiments.
    confidence : float, optional
        Coverage of the intervals.
    method : {"clopper-pearson", "wilson"}, optional
        Interval method.
    solver : str, optional
        cvxpy solver of the reference LPs of the examples.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`CLAIM_COLUMNS`.
    """
    if paper_model not in counts_by_model:
        raise ValueError(
            f"the paper's click model {paper_model!r} is not among the computed "
            f"ones: {sorted(counts_by_model)}"
        )
    order = [paper_model] + sorted(m for m in counts_by_model if m != paper_model)
    rows = []
    for model in order:
        rows.extend(
            {**row, "paper_setting": model == paper_model}
            for row in model_claims(model, counts_by_model[model], confidence, method)
        )
    rows.extend({**row, "paper_setting": True} for row in example_claims(clone_ks, solver))
    table = pd.DataFrame(rows)
    return table[list(CLAIM_COLUMNS)]


def claims_markdown(claims: pd.DataFrame) -> str:
    """Render the claims table as a Markdown table (one line per claim; failures in bold)."""
    columns = [
        "claim",
        "source",
        "click_model",
        "paper_setting",
        "paper_statement",
        "criterion",
        "reading_note",
        "value_text",
        "holds",
        "ci_agrees",
    ]
    return markdown_table(
        claims,
        {column: column for column in columns},
        {"paper_setting": ("paper", "other click model")},
    )
