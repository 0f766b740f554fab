"""The text report of ``cdbandits winners --pairs``: one analysis in aligned columns.

:func:`conventions_line` states every convention the numbers rest on (the matrix, ties,
unranked PrefLib alternatives, pairs never compared, rare items); :func:`format_analysis`
reports one :class:`~.analysis.LogAnalysis`: the von Neumann winner of the chosen matrix,
whether it is unique (and, when not, each item's least and largest weight over all of
them), its uncertainty under each resampling method, the Condorcet and Copeland winners and,
when asked, the rankings. Nothing here loads pandas or the solvers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ..limits import DENSE_MAX_K
from .settings import CountPolicy

if TYPE_CHECKING:
    from .analysis import LogAnalysis

__all__ = [
    "MATRIX_TEXT",
    "SHOW_SUPPORT_PROBABILITY",
    "conventions_line",
    "format_analysis",
    "text_table",
]

#: Items listed besides the reported support: in the support of at least this fraction of
#: the resamples of some method.
SHOW_SUPPORT_PROBABILITY = 0.05

#: What each matrix estimand is, for the report's header.
MATRIX_TEXT = {
    "margins": "majority margins, wins minus losses of each pair over c, the most "
    "comparisons of one pair: the maximal lottery of social choice",
    "rates": "each pair's rate, 2 wins/(wins + losses) - 1: the paper's preference matrix",
}


def conventions_line(policy: CountPolicy, unranked: str | None = None) -> str:
    """Every convention the numbers rest on, in one line of the text report.

    ``unranked`` is the PrefLib rule for unranked alternatives (``None``: no PrefLib file).
    """
    parts = [
        f"matrix: {policy.matrix} ({MATRIX_TEXT[policy.matrix]})",
        f"ties: {policy.ties}",
        *([f"unranked (PrefLib): {unranked}"] if unranked is not None else []),
        f"unobserved pairs: {policy.unobserved}",
        f"rare items (< {policy.min_comparisons:g} comparisons): {policy.rare_items}",
    ]
    return "conventions: " + "; ".join(parts)


def _percent(value: float) -> str:
    """A fraction as a percentage; ``<1%`` and ``>99%`` rather than a misleading 0 or 100."""
    if 0 < value < 0.005:
        return "<1%"
    if 0.995 <= value < 1:
        return ">99%"
    return f"{100 * value:.0f}%"


def _names(analysis: LogAnalysis, indices: Sequence[int]) -> str:
    return ", ".join(analysis.items[i] for i in indices) or "none"


def _cell(value: Any) -> str:
    if value is None:
        return "NA"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def text_table(columns: dict[str, list[Any]], indent: str = "") -> str:
    """Columns right-aligned under their names, one row per line (floats to 4 decimals)."""
    cells = {name: [_cell(value) for value in values] for name, values in columns.items()}
    widths = {name: max([len(name), *map(len, values)]) for name, values in cells.items()}
    rows = [[name.rjust(widths[name]) for name in cells]]
    rows += [
        [cells[name][row].rjust(widths[name]) for name in cells]
        for row in range(len(next(iter(cells.values()), [])))
    ]
    return "\n".join(indent + " ".join(row) for row in rows)


def _support_table(analysis: LogAnalysis) -> str:
    """The reported support, then items often in the resamples' supports, with intervals.

    With the identified intervals every item is listed, with its interval and label.
    """
    dists = list(analysis.distributions.values())
    shown = [int(i) for i in analysis.support]
    found = analysis.identified
    for dist in dists:
        likely = np.flatnonzero(dist.support_probability >= SHOW_SUPPORT_PROBABILITY)
        shown += [int(i) for i in likely if i not in shown]
    if found is not None:
        shown += [i for i in range(len(analysis.items)) if i not in shown]
    level = _percent(analysis.settings.confidence)
    table: dict[str, list[Any]] = {
        "item": [analysis.items[i] for i in shown],
        "weight": [f"{analysis.weights[i]:.3f}" for i in shown],
    }
    if analysis.unique is False:
        low, high = analysis.weight_range
        table["over all winners"] = [f"[{low[i]:.3f}, {high[i]:.3f}]" for i in shown]
    for dist in dists:
        table[f"{dist.method}: in support"] = [_percent(dist.support_probability[i]) for i in shown]
        if found is None:
            low, high = dist.weight_interval()
            table[f"{dist.method}: {level} interval"] = [
                f"[{low[i]:.3f}, {high[i]:.3f}]" for i in shown
            ]
    if found is not None:
        table[f"identified: {level} interval"] = [
            f"[{found.low[i]:.3f}, {found.high[i]:.3f}]" for i in shown
        ]
        table["label"] = [found.labels[i] for i in shown]
    return text_table(table, indent="  ")


def _interval_note(analysis: LogAnalysis) -> str | None:
    """The footnote naming the construction of the weight intervals (``None``: none)."""
    construction = analysis.interval_construction
    if construction is None:
        return None
    level = _percent(analysis.settings.confidence)
    if construction == "identified":
        found = analysis.identified
        kept = (
            "no support passed the test, so every item is undecided on [0, 1]"
            if found.no_support_kept
            else f"{len(found.supports)} of {found.candidates} supports kept"
        )
        return (
            f"  (weight intervals: identified construction at {level} confidence, all items "
            "at once: the supports the data do not reject, each item 'in' every one, 'out' "
            f"of every one or 'undecided', and its weight over them; {kept}; "
            "cdbandits.comparisons.identified)"
        )
    why = (
        f"; identified intervals not applicable: {analysis.interval_note}"
        if (analysis.interval_note)
        else ""
    )
    return (
        "  (weight intervals: conservative construction, the least and largest weight of the "
        "item in any lottery that could be the von Neumann winner, all items at once; "
        f"cdbandits.comparisons.near_optimal{why})"
    )


def _most_likely(items: Sequence[str], probability: NDArray[np.float64], count: int = 3) -> str:
    """The ``count`` most probable items with their probabilities (zero ones left out)."""
    likely = np.argsort(-probability, kind="stable")[:count]
    return ", ".join(f"{items[i]} {_percent(probability[i])}" for i in likely if probability[i] > 0)


def _uniqueness(analysis: LogAnalysis) -> str:
    """Whether the weights shown are the only von Neumann winner, for the report."""
    if analysis.unique is None:
        return f"uniqueness not checked above {DENSE_MAX_K} items"
    return "unique" if analysis.unique else "NOT unique, see below"


def format_analysis(analysis: LogAnalysis, show_rankings: bool = False) -> str:
    """Text report of one analysis (see the module docstring of :mod:`.cli`)."""
    k = len(analysis.items)
    observed = int(np.triu(analysis.counts.observed, 1).sum())
    title = f"context {analysis.context}: " if analysis.context is not None else ""
    matrix = analysis.counts.matrix
    scale = f", c = {analysis.counts.margin_scale:g}" if matrix == "margins" else ""
    lines = [
        f"== {title}{k} items, {analysis.log.n_comparisons:g} comparisons, {observed} of "
        f"{k * (k - 1) // 2} pairs compared ==",
        f"von Neumann winner of the {matrix}{scale} (certified, min_j (w^T P)_j = "
        f"{analysis.certificate:.1e}, {analysis.solver_path}; {_uniqueness(analysis)}):",
        _support_table(analysis),
    ]
    if analysis.unique is False:
        lines.append(
            "  (the von Neumann winner is not unique: the weights shown are the analytic "
            "centre of all of them, and 'over all winners' is each item's least and largest "
            "weight among them; cdbandits.comparisons.near_optimal.optimal_face_bounds)"
        )
    dists = list(analysis.distributions.values())
    note = _interval_note(analysis)
    if note is not None:
        lines.append(note)
    for dist in dists:
        bound = dist.exploitability_bound()
        beaten = (
            f"by a margin above {bound:.3f} (net wins per {analysis.counts.margin_scale:g} "
            "comparisons"
            if matrix == "margins"
            else f"with probability above {(1 + bound) / 2:.3f} (exploitability <= {bound:.3f}"
        )
        lines.append(
            f"{dist.method}: with {_percent(dist.confidence)} confidence no single item beats "
            f"this lottery {beaten}, median {np.median(dist.exploitability):.3f})"
        )
    condorcet = "none" if analysis.condorcet is None else analysis.items[analysis.condorcet]
    lines.append(f"Condorcet winner: {condorcet}")
    for dist in dists:
        named = _most_likely(analysis.items, dist.condorcet_probability)
        lines.append(
            f"  {dist.method}: a Condorcet winner exists in {_percent(dist.condorcet_exists)} "
            f"of resamples" + (f" ({named})" if named else "")
        )
    lines.append(f"Copeland winners: {_names(analysis, analysis.copeland)}")
    for dist in dists:
        named = _most_likely(analysis.items, dist.copeland_probability)
        lines.append(f"  {dist.method}: probability of being a Copeland winner: {named}")
    if show_rankings and analysis.ranking_columns:
        lines.append("Rankings (iterated maximal lotteries; items of one lottery share a rank):")
        lines.append(text_table(analysis.ranking_columns))
    return "\n".join(lines)
