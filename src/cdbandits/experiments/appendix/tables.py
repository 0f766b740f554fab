"""What the appendix summarises: per-K proportions and distributions with confidence intervals.

:func:`per_k_table` gives, per K, the Appendix A/B proportions (Condorcet winner; all / some
Copeland winners in the von Neumann support) with binomial intervals of
:func:`cdbandits.stats.binomial_interval`; :func:`distribution_table` the distribution of
the support size or of the largest Copeland loss in the support, zero counts included;
:func:`markdown_table` renders any of the family's tables for reading.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ...batched import METHODS
from ...stats import IntervalMethod, binomial_interval, binomial_upper_bound
from .counts import AppendixCounts
from .readings import PAPER_LARGEST_SUPPORT

__all__ = ["distribution_table", "markdown_table", "per_k_table", "summary_tables"]


def _proportion_columns(
    table: pd.DataFrame,
    name: str,
    successes: NDArray[Any],
    trials: NDArray[Any],
    confidence: float,
    method: IntervalMethod,
) -> None:
    low, high = binomial_interval(successes, trials, confidence, method)
    table[name] = successes
    table[f"fraction_{name}"] = successes / trials
    table[f"fraction_{name}_low"] = low
    table[f"fraction_{name}_high"] = high


def per_k_table(
    counts: AppendixCounts, confidence: float = 0.95, method: IntervalMethod = "clopper-pearson"
) -> pd.DataFrame:
    """One row per K: the Appendix A/B proportions with confidence intervals.

    Returns
    -------
    pandas.DataFrame
        ``K``, ``matrices``; for ``condorcet``, ``all_copeland_in_support`` and
        ``some_copeland_in_support`` the count, ``fraction_*`` and its interval
        ``fraction_*_low`` / ``fraction_*_high``; ``mean_support_size``,
        ``max_support_size``, ``mean_max_copeland_loss``; the number of matrices per
        solution path (``method_*``) and ``worst_exploitability``.
    """
    rows = [counts.per_k[k] for k in sorted(counts.per_k)]
    trials = np.array([r.matrices for r in rows])
    table = pd.DataFrame({"K": [r.k for r in rows], "matrices": trials})
    for name in ("condorcet", "all_copeland_in_support", "some_copeland_in_support"):
        successes = np.array([getattr(r, name) for r in rows])
        _proportion_columns(table, name, successes, trials, confidence, method)

    def mean(histogram: Mapping[int, int]) -> float:
        return sum(v * c for v, c in histogram.items()) / sum(histogram.values())

    table["mean_support_size"] = [mean(r.support_size) for r in rows]
    table["max_support_size"] = [max(r.support_size) for r in rows]
    table["mean_max_copeland_loss"] = [mean(r.max_copeland_loss) for r in rows]
    for name in METHODS:
        table[f"method_{name}"] = [r.methods[name] for r in rows]
    table["worst_exploitability"] = [r.worst_exploitability for r in rows]
    return table


def distribution_table(
    counts: AppendixCounts,
    statistic: Literal["support_size", "max_copeland_loss"],
    confidence: float = 0.95,
    method: IntervalMethod = "clopper-pearson",
    *,
    include: Sequence[int] = (),
) -> pd.DataFrame:
    """Distribution of the support size or of the max Copeland loss in the support, per K.

    Every value from the smallest to the largest observed (over all K), or in ``include``,
    gets a row for every K, zero counts included, so rare values (such as a support of the
    paper's 5 arms, even if never seen) have an upper confidence bound everywhere: the
    two-sided interval, and the one-sided upper bound at the same confidence (the bound to
    report where nothing was observed).

    Returns
    -------
    pandas.DataFrame
        ``K``, ``statistic`` (the value), ``count``, ``fraction``, its interval
        ``fraction_low`` / ``fraction_high`` and its one-sided ``fraction_upper_bound``.
    """
    if statistic not in ("support_size", "max_copeland_loss"):
        raise ValueError(
            f"statistic must be 'support_size' or 'max_copeland_loss', got {statistic!r}"
        )
    histograms = {k: getattr(counts.per_k[k], statistic) for k in sorted(counts.per_k)}
    observed = sorted({v for h in histograms.values() for v in h} | set(include))
    values = np.arange(observed[0], observed[-1] + 1) if observed else np.array([], int)
    rows = [
        (k, int(v), histogram.get(int(v), 0), counts.per_k[k].matrices)
        for k, histogram in histograms.items()
        for v in values
    ]
    table = pd.DataFrame(rows, columns=["K", statistic, "count", "matrices"])
    low, high = binomial_interval(table["count"], table["matrices"], confidence, method)
    table["fraction"] = table["count"] / table["matrices"]
    table["fraction_low"] = low
    table["fraction_high"] = high
    table["fraction_upper_bound"] = binomial_upper_bound(
        table["count"], table["matrices"], confidence, method
    )
    return table.drop(columns="matrices")


def summary_tables(
    counts: AppendixCounts, confidence: float = 0.95, method: IntervalMethod = "clopper-pearson"
) -> dict[str, pd.DataFrame]:
    """The tables of one click model: ``per_k``, ``support_size`` (every size up to the
    paper's largest, 5, included) and ``max_copeland_loss``."""
    return {
        "per_k": per_k_table(counts, confidence, method),
        "support_size": distribution_table(
            counts, "support_size", confidence, method, include=(PAPER_LARGEST_SUPPORT,)
        ),
        "max_copeland_loss": distribution_table(counts, "max_copeland_loss", confidence, method),
    }


def markdown_table(
    table: pd.DataFrame, columns: Mapping[str, str], yes_no: Mapping[str, tuple[str, str]]
) -> str:
    """A Markdown table of some ``columns`` of ``table`` (one line per row).

    Parameters
    ----------
    table : pandas.DataFrame
    columns : mapping of str to str
        Column of ``table`` to its header, in the order shown.
    yes_no : mapping of str to (str, str)
        For boolean columns, the words for true and false; booleans of other columns read
        "yes" and "**no**" (a failure in bold). Missing values are left empty.
    """

    def cell(column: str, value: Any) -> str:
        if isinstance(value, bool | np.bool_):
            words = yes_no.get(column, ("yes", "**no**"))
            return words[0] if value else words[1]
        if value is None or (pd.api.types.is_scalar(value) and pd.isna(value)):
            return ""
        return str(value).replace("|", "\\|")

    lines = ["| " + " | ".join(columns.values()) + " |", "|" + "---|" * len(columns)]
    for record in table[list(columns)].itertuples(index=False):
        cells = (cell(column, value) for column, value in zip(columns, record, strict=True))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
