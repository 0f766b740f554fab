"""What the appendix draws: Figures 1-4 of Appendices A and B, from the workflow's tables.

Every function takes per-click-model tables (as written by the workflow) and returns a
matplotlib figure with a title, a caption-like subtitle saying what is shown and how it was
computed, labelled axes and legends outside the data (or in a corner the data leave empty),
so that it reads without the paper. Click models keep one colour, marker and line style in
every figure (:data:`cdbandits.plotting.CLICK_MODEL_STYLES`); values the paper states, and
our readings of its words, are drawn as labelled reference lines. Save figures with
:func:`cdbandits.files.save_figure`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from ...plotting import (
    LEGEND_SIZE,
    REFERENCE_STYLE,
    SUPPORT_SIZE_COLOURS,
    SeriesStyle,
    click_model_styles,
    pyplot,
    title_and_caption,
)
from .readings import MAJORITY, PAPER_SOME_COPELAND, PAPER_SUPPORT_5, RAPID_HALF, SLIGHTLY

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "FIGURE_NAMES",
    "appendix_figures",
    "plot_condorcet_probability",
    "plot_copeland_in_support",
    "plot_copeland_loss_bubbles",
    "plot_support_sizes",
]

#: Names of the four figures, in the paper's order (file stems of the workflow's outputs).
FIGURE_NAMES = (
    "fig1_condorcet",
    "fig2_copeland_in_support",
    "fig3_copeland_loss",
    "fig4_support_size",
)

#: Fig. 3: bubble area (points^2) of a share of 100%; every bubble's area is proportional.
_FULL_AREA = 300.0
#: Fig. 3: shares below this get a fixed small marker, smaller than a bubble of this share.
_RARE_SHARE = 0.01
_RARE_AREA = 0.6 * _FULL_AREA * _RARE_SHARE
#: Fig. 3 draws at most this many values of K (evenly thinned) so that bubbles stay apart.
_MAX_BUBBLE_COLUMNS = 20
#: Lines carry this many markers at most (so that overlapping lines stay apart).
_MARKERS_PER_LINE = 12


def _samples_text(tables: Mapping[str, pd.DataFrame]) -> str:
    """'N random sub-matrices per K' (or a range if the models differ)."""
    counts = sorted({int(n) for table in tables.values() for n in table["matrices"]})
    per_k = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,}-{counts[-1]:,}"
    total = sum(int(table["matrices"].sum()) for table in tables.values())
    return f"{per_k} random sub-matrices per K ({total:,} in all)"


def _interval_text(confidence: float, interval: str) -> str:
    return f"shaded: {100 * confidence:g}% {interval.replace('-', '–').title()} intervals"


def _percent(decimals: int | None = None) -> Any:
    """A y-axis formatter writing shares (0-1) as percentages."""
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0, decimals=decimals)


def _model_label(model: str, paper_model: str) -> str:
    return f"{model} (the paper's)" if model == paper_model else model


def _line_with_band(
    axis: Axes,
    ks: pd.Series,
    columns: tuple[pd.Series, pd.Series, pd.Series],
    style: SeriesStyle,
    label: str,
    offset: int = 0,
) -> None:
    """A share against K with markers every few points, and its interval shaded."""
    value, low, high = columns
    step = max(1, len(ks) // _MARKERS_PER_LINE)
    axis.plot(
        ks,
        value,
        color=style.colour,
        ls=style.linestyle,
        marker=style.marker,
        markevery=(offset % step, step),
        ms=4,
        lw=1.5,
        label=label,
    )
    axis.fill_between(ks, low, high, color=style.colour, alpha=0.2, lw=0)


def _share_columns(table: pd.DataFrame, name: str) -> tuple[pd.Series, pd.Series, pd.Series]:
    prefix = f"fraction_{name}"
    return table[prefix], table[f"{prefix}_low"], table[f"{prefix}_high"]


def _reference(
    axis: Axes, value: float, label: str, linestyle: Any = REFERENCE_STYLE.linestyle
) -> None:
    """A horizontal line at a value the paper states (or at our reading of its words)."""
    axis.axhline(value, color=REFERENCE_STYLE.colour, ls=linestyle, lw=1.0, label=label)


def plot_condorcet_probability(
    per_k: Mapping[str, pd.DataFrame],
    *,
    paper_model: str = "informational",
    confidence: float = 0.95,
    interval: str = "clopper-pearson",
) -> Figure:
    """Fig. 1: probability that a K-ranker sub-matrix has a Condorcet winner, per click model.

    Parameters
    ----------
    per_k : mapping of str to pandas.DataFrame
        Per click model, the table of :func:`.tables.per_k_table`.
    paper_model : str, optional
        The click model the paper used (marked in the legend).
    confidence, interval : float, str, optional
        How the intervals in the tables were computed (for the caption).

    Returns
    -------
    matplotlib.figure.Figure
    """
    figure, axes = pyplot().subplots(figsize=(8, 6.2))
    styles = click_model_styles(list(per_k))
    for index, (model, table) in enumerate(per_k.items()):
        columns = _share_columns(table, "condorcet")
        label = _model_label(model, paper_model)
        _line_with_band(axes, table["K"], columns, styles[model], label, index)
    half_of_largest = max(int(table["K"].max()) for table in per_k.values()) / 2
    axes.plot(
        [min(int(table["K"].min()) for table in per_k.values()), half_of_largest, half_of_largest],
        [RAPID_HALF, RAPID_HALF, 0],
        color=REFERENCE_STYLE.colour,
        ls=REFERENCE_STYLE.linestyle,
        lw=1.0,
        label=f"our reading of 'drops rapidly': below {RAPID_HALF:.0%}\n"
        f"by K = {half_of_largest:g} (half the largest K)",
    )
    axes.set_xlabel("K, number of rankers in the sub-matrix")
    axes.set_ylabel("sub-matrices with a Condorcet winner")
    axes.yaxis.set_major_formatter(_percent())
    axes.set_ylim(-0.02, 1.02)
    axes.grid(alpha=0.3)
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, fontsize=LEGEND_SIZE)
    title_and_caption(
        figure,
        "Fig. 1: how often a K-ranker sub-matrix has a Condorcet winner",
        "Share of K-ranker sub-matrices of the 136-ranker MSLR preference matrices in which one "
        "ranker beats every other\n"
        f"ranker; {_samples_text(per_k)}; {_interval_text(confidence, interval)}.",
    )
    figure.subplots_adjust(top=0.86, bottom=0.27)
    return figure


def plot_copeland_in_support(
    per_k: Mapping[str, pd.DataFrame],
    *,
    paper_model: str = "informational",
    variant: str = "wins",
    confidence: float = 0.95,
    interval: str = "clopper-pearson",
) -> Figure:
    """Fig. 2: share of sub-matrices whose vNW support contains all / some Copeland winners.

    Two panels, so that the "at least one" curves, all close to 100%, get a zoomed axis of
    their own; click models differ in colour, marker and line style.

    Parameters
    ----------
    per_k : mapping of str to pandas.DataFrame
        Per click model, the table of :func:`.tables.per_k_table`.
    paper_model : str, optional
        The click model the paper used (marked in the legend).
    variant : str, optional
        The Copeland variant of the tables (for the caption).
    confidence, interval : float, str, optional
        How the intervals were computed (for the caption).

    Returns
    -------
    matplotlib.figure.Figure
    """
    models = list(per_k)
    styles = click_model_styles(models)
    figure = pyplot().figure(figsize=(12.5, 6.6))
    grid = figure.add_gridspec(len(models), 2, width_ratios=[1.25, 1], wspace=0.2, hspace=0.45)
    every = figure.add_subplot(grid[:, 0])
    some = [figure.add_subplot(grid[row, 1]) for row in range(len(models))]
    for index, (model, axis) in enumerate(zip(models, some, strict=True)):
        table, label = per_k[model], _model_label(model, paper_model)
        ks = table["K"]
        _line_with_band(
            every, ks, _share_columns(table, "all_copeland_in_support"), styles[model], label, index
        )
        columns = _share_columns(table, "some_copeland_in_support")
        _line_with_band(axis, ks, columns, styles[model], label, index)
        _reference(
            axis,
            PAPER_SOME_COPELAND,
            f"{PAPER_SOME_COPELAND:.1%}: the paper's share, pooled over K",
        )
        axis.set_title(f"at least one Copeland winner in it: {label}", fontsize=9, loc="left")
        axis.yaxis.set_major_formatter(_percent(decimals=2))
        axis.grid(alpha=0.3)
    lowest_some = min(
        float(t["fraction_some_copeland_in_support_low"].min()) for t in per_k.values()
    )
    for axis in some:
        axis.set_ylim(min(lowest_some, PAPER_SOME_COPELAND) - 0.0002, 1.0001)
        axis.sharex(every)
    some[-1].set_xlabel("K, number of rankers in the sub-matrix")
    handles, labels = some[-1].get_legend_handles_labels()
    some[-1].legend(
        handles[-1:],
        labels[-1:],
        loc="upper center",
        bbox_to_anchor=(0.5, -0.45),
        fontsize=LEGEND_SIZE,
    )
    _reference(
        every,
        PAPER_SOME_COPELAND - SLIGHTLY,
        f"{PAPER_SOME_COPELAND:.1%} less {100 * SLIGHTLY:g} point "
        "(our reading of 'slightly lower')",
    )
    _reference(
        every,
        MAJORITY,
        f"{MAJORITY:.0%} (our reading of 'overwhelming majority')",
        linestyle=(0, (1, 1.5)),
    )
    lowest_every = min(
        float(t["fraction_all_copeland_in_support_low"].min()) for t in per_k.values()
    )
    every.set_ylim(min(lowest_every, MAJORITY) - 0.02, 1.005)
    every.set_title("all Copeland winners in the von Neumann support", fontsize=11)
    every.set_ylabel("share of the K-ranker sub-matrices")
    every.set_xlabel("K, number of rankers in the sub-matrix")
    every.yaxis.set_major_formatter(_percent())
    every.grid(alpha=0.3)
    every.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), fontsize=LEGEND_SIZE)
    title_and_caption(
        figure,
        "Fig. 2: how often the von Neumann support contains the Copeland winners",
        "Share of K-ranker sub-matrices whose von Neumann winner gives positive probability to "
        f"all Copeland winners (left) and to at least one (right, one zoomed panel per click "
        f"model).\nCopeland score: {variant!r}; {_samples_text(per_k)}; "
        f"{_interval_text(confidence, interval)}; black lines: the paper's value and our "
        "readings of its words.",
    )
    figure.subplots_adjust(top=0.84)
    return figure


def plot_copeland_loss_bubbles(
    loss_tables: Mapping[str, pd.DataFrame],
    *,
    paper_model: str = "informational",
    variant: str = "wins",
) -> Figure:
    """Fig. 3: bubble plot of (K, max Copeland loss in the vNW support), area ∝ frequency.

    Every bubble's area is proportional to its share. Shares below 1%, whose bubbles would
    be too small to see, are drawn as a small black cross whose area is below that of a 1%
    bubble, so that a rare value never looks more frequent than a common one.

    Parameters
    ----------
    loss_tables : mapping of str to pandas.DataFrame
        Per click model, :func:`.tables.distribution_table` of ``"max_copeland_loss"``.
    paper_model : str, optional
        The click model the paper used (shown first).
    variant : str, optional
        The Copeland variant of the tables (for the caption).

    Returns
    -------
    matplotlib.figure.Figure
    """
    models = list(loss_tables)
    styles = click_model_styles(models)
    figure, axes = pyplot().subplots(
        1, len(models), figsize=(5.2 * len(models) + 2.2, 5.4), sharey=True, squeeze=False
    )
    steps = {}
    largest = max(
        int(t.loc[t["count"] > 0, "max_copeland_loss"].max()) for t in loss_tables.values()
    )
    for model, axis in zip(models, axes[0], strict=True):
        table = loss_tables[model]
        ks = sorted(set(table["K"]))
        steps[model] = -(-len(ks) // _MAX_BUBBLE_COLUMNS)
        shown = table[(table["count"] > 0) & table["K"].isin(ks[:: steps[model]])]
        common = shown[shown["fraction"] >= _RARE_SHARE]
        rare = shown[shown["fraction"] < _RARE_SHARE]
        axis.scatter(
            common["K"],
            common["max_copeland_loss"],
            s=_FULL_AREA * common["fraction"],
            color=styles[model].colour,
            alpha=0.6,
            edgecolors="none",
        )
        axis.scatter(
            rare["K"], rare["max_copeland_loss"], s=_RARE_AREA, marker="x", c="black", lw=0.6
        )
        axis.set_title(_model_label(model, paper_model), fontsize=11)
        axis.set_xlabel("K, number of rankers in the sub-matrix")
        axis.grid(alpha=0.3)
        axis.set_ylim(-0.8, largest + 0.8)
    axes[0, 0].set_ylabel("largest Copeland loss of an arm in the von Neumann support")
    legend_axis = axes[0, -1]
    for share in (1.0, 0.5, 0.1, _RARE_SHARE):
        legend_axis.scatter(
            [],
            [],
            s=_FULL_AREA * share,
            color="#777777",
            alpha=0.6,
            edgecolors="none",
            label=f"{share:.0%} of the K-ranker sub-matrices",
        )
    legend_axis.scatter(
        [],
        [],
        s=_RARE_AREA,
        marker="x",
        c="black",
        lw=0.6,
        label=f"more than 0 but under {_RARE_SHARE:.0%}\n(fixed marker, smaller than a "
        f"{_RARE_SHARE:.0%} bubble)",
    )
    legend_axis.legend(
        title="bubble area = share",
        loc="upper left",
        bbox_to_anchor=(1.03, 1.0),
        fontsize=LEGEND_SIZE,
        labelspacing=1.4,
        borderpad=1.0,
    )
    title_and_caption(
        figure,
        "Fig. 3: largest Copeland loss among the arms in the von Neumann support",
        "Bubble at (K, M): the share of K-ranker sub-matrices in which the largest Copeland loss "
        "(best score minus own score) among the arms with positive von Neumann weight is M;\n"
        f"bubble area proportional to that share (0 = every support arm is a Copeland winner); "
        f"shares under {_RARE_SHARE:.0%}: a black cross. Copeland score: {variant!r}; "
        + (
            "every K sampled is drawn."
            if max(steps.values()) == 1
            else f"at most {_MAX_BUBBLE_COLUMNS} evenly spaced values of K per panel, to keep "
            "bubbles apart."
        ),
    )
    figure.subplots_adjust(top=0.82, wspace=0.08, right=0.83)
    return figure


def _zoom_panel(
    axis: Axes,
    table: pd.DataFrame,
    sizes: list[int],
    confidence: float,
) -> float:
    """The bottom row of Fig. 4: rare sizes with intervals, upper bounds where none was seen.

    Returns the largest value drawn (for the shared y range).
    """
    top = PAPER_SUPPORT_5
    for size in sizes:
        rows = table[table["support_size"] == size]
        if rows.empty:  # a size seen only in another click model's table
            continue
        colour = SUPPORT_SIZE_COLOURS.get(size, "#000000")
        seen = rows["count"] > 0
        shown = rows["fraction"].where(seen)
        axis.plot(rows["K"], shown, color=colour, lw=1.3, marker=".", ms=3, label=f"size {size}")
        axis.fill_between(
            rows["K"],
            rows["fraction_low"],
            rows["fraction_high"],
            where=seen.to_numpy(),
            color=colour,
            alpha=0.25,
            lw=0,
            label=f"size {size}: {100 * confidence:g}% interval where seen",
        )
        none = rows[~seen]
        axis.scatter(
            none["K"],
            none["fraction_upper_bound"],
            marker="v",
            s=9,
            facecolors="none",
            edgecolors=colour,
            lw=0.6,
            label=f"size {size} never seen at K: one-sided {100 * confidence:g}% upper bound",
        )
        pooled = rows["count"].sum() / table["count"].sum()
        axis.axhline(
            pooled,
            color=colour,
            ls=(0, (6, 2, 1, 2)),
            lw=1.0,
            label=f"size {size} pooled over K: {100 * pooled:.3f}%",
        )
        top = max(top, float(rows.loc[seen, "fraction_high"].max() if seen.any() else 0.0))
        top = max(top, float(rows["fraction_upper_bound"].max()))
    paper = f"paper: size 5 in under {PAPER_SUPPORT_5:.2%}, pooled over K"
    _reference(axis, PAPER_SUPPORT_5, paper)
    return top


def plot_support_sizes(
    support_tables: Mapping[str, pd.DataFrame],
    *,
    paper_model: str = "informational",
    rare_from: int = 5,
    confidence: float = 0.95,
    interval: str = "clopper-pearson",
) -> Figure:
    """Fig. 4: distribution of the vNW support size per K, with a zoom on the rare sizes.

    The zoom (bottom row) draws the share of each size from ``rare_from`` up where it was
    seen, with its interval; where it was never seen, the one-sided upper bound
    (``fraction_upper_bound``); the share pooled over K; and the paper's 0.03% line.

    Parameters
    ----------
    support_tables : mapping of str to pandas.DataFrame
        Per click model, :func:`.tables.distribution_table` of ``"support_size"``.
    paper_model : str, optional
        The click model the paper used (shown first).
    rare_from : int, optional
        Sizes from this one up are drawn again in the zoomed bottom row.
    confidence, interval : float, str, optional
        How the intervals were computed (for the caption).

    Returns
    -------
    matplotlib.figure.Figure
    """
    models = list(support_tables)
    figure, axes = pyplot().subplots(
        2,
        len(models),
        figsize=(5.2 * len(models), 9.6),
        sharex=True,
        sharey="row",
        squeeze=False,
        gridspec_kw={"height_ratios": [1.3, 1]},
    )
    sizes = sorted(
        {int(s) for t in support_tables.values() for s in t.loc[t["count"] > 0, "support_size"]}
    )
    rare = sorted({size for size in sizes if size >= rare_from} | {rare_from})
    rare_top = PAPER_SUPPORT_5
    for column, model in enumerate(models):
        table = support_tables[model]
        top, bottom = axes[0, column], axes[1, column]
        for size in sizes:
            rows = table[table["support_size"] == size]
            colour = SUPPORT_SIZE_COLOURS.get(size, "#000000")
            label = f"support size {size}"
            top.plot(rows["K"], rows["fraction"], color=colour, lw=1.5, label=label)
        rare_top = max(rare_top, _zoom_panel(bottom, table, rare, confidence))
        top.set_title(_model_label(model, paper_model), fontsize=11)
        top.yaxis.set_major_formatter(_percent())
        top.set_ylim(-0.02, 1.02)
        top.grid(alpha=0.3)
        bottom.yaxis.set_major_formatter(_percent(decimals=3))
        bottom.set_xlabel("K, number of rankers in the sub-matrix")
        bottom.grid(alpha=0.3)
        bottom.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), fontsize=LEGEND_SIZE - 1)
    axes[1, 0].set_ylim(0, rare_top * 1.1)
    axes[0, 0].set_ylabel("share of sub-matrices")
    axes[1, 0].set_ylabel(f"zoom: support size ≥ {rare_from}")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    axes[0, -1].legend(
        handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=LEGEND_SIZE
    )
    title_and_caption(
        figure,
        "Fig. 4: size of the von Neumann winner's support",
        "Share of K-ranker sub-matrices whose von Neumann winner puts positive probability on "
        f"exactly that many rankers (sizes observed: {', '.join(map(str, sizes))}).\n"
        f"Bottom row: sizes ≥ {rare_from}, zoomed, with the paper's 0.03% line; "
        f"{_interval_text(confidence, interval)} where the size was seen, triangles: "
        "one-sided upper bounds where it was not.",
    )
    figure.subplots_adjust(top=0.89, wspace=0.12, hspace=0.1, bottom=0.2)
    return figure


def appendix_figures(
    table_folders: Mapping[str, str | os.PathLike[str]],
    *,
    paper_model: str = "informational",
    variant: str = "wins",
    confidence: float = 0.95,
    interval: str = "clopper-pearson",
) -> dict[str, Figure]:
    """Draw Figs. 1-4 from the workflow's tables of every click model.

    Parameters
    ----------
    table_folders : mapping of str to path-like
        Per click model, the folder holding ``per_k.csv``, ``support_size.csv`` and
        ``max_copeland_loss.csv``. The paper's model is drawn first, the others in order.
    paper_model : str, optional
        The click model the paper used.
    variant : str, optional
        Copeland variant of the tables.
    confidence, interval : float, str, optional
        How the tables' intervals were computed.

    Returns
    -------
    dict of str to matplotlib.figure.Figure
        Keyed by :data:`FIGURE_NAMES`.
    """
    models = sorted(table_folders, key=lambda model: (model != paper_model, model))
    folders = {model: Path(table_folders[model]) for model in models}

    def tables(name: str) -> dict[str, pd.DataFrame]:
        return {model: pd.read_csv(folder / f"{name}.csv") for model, folder in folders.items()}

    per_k = tables("per_k")
    options = {"paper_model": paper_model}
    intervals = {"confidence": confidence, "interval": interval}
    return {
        "fig1_condorcet": plot_condorcet_probability(per_k, **options, **intervals),
        "fig2_copeland_in_support": plot_copeland_in_support(
            per_k, **options, variant=variant, **intervals
        ),
        "fig3_copeland_loss": plot_copeland_loss_bubbles(
            tables("max_copeland_loss"), **options, variant=variant
        ),
        "fig4_support_size": plot_support_sizes(tables("support_size"), **options, **intervals),
    }
