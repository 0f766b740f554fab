"""What the appendix draws: Figures 1-4 of Appendices A and B, from the workflow's tables.

Every function takes per-click-model tables (as written by the workflow) and returns a
matplotlib figure with a title, a caption-like subtitle saying what is shown and how it was
computed, labelled axes and a legend, so that it reads without the paper. Save figures with
:func:`cdbandits.files.save_figure`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from ...plotting import pyplot, title_and_caption

if TYPE_CHECKING:
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

_COLOURS = ("#1b6ca8", "#d1495b", "#3a9b5c", "#8d6cab", "#e0a030")
#: Fig. 3 rings the bubbles of shares below this, which would otherwise be invisible.
_RARE_SHARE = 0.001
#: Fig. 3 draws at most this many values of K (evenly thinned) so that bubbles stay apart.
_MAX_BUBBLE_COLUMNS = 28
_SUPPORT_COLOURS = {1: "#1b6ca8", 2: "#999999", 3: "#d1495b", 4: "#666666", 5: "#3a9b5c"}


def _colour(index: int) -> str:
    return _COLOURS[index % len(_COLOURS)]


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
    figure, axes = pyplot().subplots(figsize=(8, 5.2))
    for index, (model, table) in enumerate(per_k.items()):
        axes.plot(
            table["K"],
            table["fraction_condorcet"],
            color=_colour(index),
            lw=1.6,
            label=_model_label(model, paper_model),
        )
        axes.fill_between(
            table["K"],
            table["fraction_condorcet_low"],
            table["fraction_condorcet_high"],
            color=_colour(index),
            alpha=0.25,
            lw=0,
        )
    axes.set_xlabel("K, number of rankers in the sub-matrix")
    axes.set_ylabel("sub-matrices with a Condorcet winner")
    axes.yaxis.set_major_formatter(_percent())
    axes.set_ylim(-0.02, 1.02)
    axes.grid(alpha=0.3)
    axes.legend(title="click model", loc="lower left")
    title_and_caption(
        figure,
        "Fig. 1: how often a K-ranker sub-matrix has a Condorcet winner",
        "Share of K-ranker sub-matrices of the 136-ranker MSLR preference matrices in which one "
        "ranker beats every other\n"
        f"ranker; {_samples_text(per_k)}; {_interval_text(confidence, interval)}.",
    )
    figure.subplots_adjust(top=0.83)
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
    figure, axes = pyplot().subplots(figsize=(8, 5.2))
    lowest = 1.0
    for index, (model, table) in enumerate(per_k.items()):
        colour = _colour(index)
        label = _model_label(model, paper_model)
        axes.plot(
            table["K"],
            table["fraction_all_copeland_in_support"],
            color=colour,
            lw=1.6,
            label=f"{label}: all Copeland winners",
        )
        axes.fill_between(
            table["K"],
            table["fraction_all_copeland_in_support_low"],
            table["fraction_all_copeland_in_support_high"],
            color=colour,
            alpha=0.25,
            lw=0,
        )
        axes.plot(
            table["K"],
            table["fraction_some_copeland_in_support"],
            color=colour,
            lw=1.2,
            ls="--",
            label=f"{label}: at least one",
        )
        lowest = min(lowest, float(table["fraction_all_copeland_in_support_low"].min()))
    axes.set_xlabel("K, number of rankers in the sub-matrix")
    axes.set_ylabel("sub-matrices whose von Neumann support\ncontains the Copeland winners")
    axes.yaxis.set_major_formatter(_percent())
    axes.set_ylim(max(0.0, lowest - 0.02), 1.005)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower left", fontsize=8)
    title_and_caption(
        figure,
        "Fig. 2: how often the von Neumann support contains the Copeland winners",
        "Solid: all Copeland winners have positive von Neumann weight; dashed: at least one "
        f"does. Copeland score: {variant!r}.\n"
        f"{_samples_text(per_k)}; {_interval_text(confidence, interval)}.",
    )
    figure.subplots_adjust(top=0.83)
    return figure


def plot_copeland_loss_bubbles(
    loss_tables: Mapping[str, pd.DataFrame],
    *,
    paper_model: str = "informational",
    variant: str = "wins",
) -> Figure:
    """Fig. 3: bubble plot of (K, max Copeland loss in the vNW support), area ∝ frequency.

    Parameters
    ----------
    loss_tables : mapping of str to pandas.DataFrame
        Per click model, :func:`.tables.distribution_table` of
        ``"max_copeland_loss"``.
    paper_model : str, optional
        The click model the paper used (shown first).
    variant : str, optional
        The Copeland variant of the tables (for the caption).

    Returns
    -------
    matplotlib.figure.Figure
    """
    models = list(loss_tables)
    figure, axes = pyplot().subplots(
        1, len(models), figsize=(5.2 * len(models), 5.4), sharey=True, squeeze=False
    )
    full_area = 150.0
    ks = sorted({int(k) for table in loss_tables.values() for k in table["K"]})
    step = -(-len(ks) // _MAX_BUBBLE_COLUMNS)
    drawn_ks = set(ks[::step])
    largest = max(
        int(t.loc[t["count"] > 0, "max_copeland_loss"].max()) for t in loss_tables.values()
    )
    for index, (model, axis) in enumerate(zip(models, axes[0], strict=True)):
        table = loss_tables[model]
        shown = table[(table["count"] > 0) & table["K"].isin(drawn_ks)]
        axis.scatter(
            shown["K"],
            shown["max_copeland_loss"],
            s=full_area * shown["fraction"],
            color=_colour(index),
            alpha=0.6,
            edgecolors="none",
        )
        rare = shown[shown["fraction"] < _RARE_SHARE]
        axis.scatter(
            rare["K"],
            rare["max_copeland_loss"],
            s=6,
            facecolors="none",
            edgecolors=_colour(index),
            linewidths=0.5,
        )
        axis.set_title(_model_label(model, paper_model), fontsize=11)
        axis.set_xlabel("K, number of rankers in the sub-matrix")
        axis.grid(alpha=0.3)
        axis.set_ylim(-0.8, largest + 0.8)
    axes[0, 0].set_ylabel("largest Copeland loss of an arm in the von Neumann support")
    axes[0, -1].scatter(
        [],
        [],
        s=6,
        facecolors="none",
        edgecolors="#777777",
        linewidths=0.5,
        label=f"below {_RARE_SHARE:.1%} (ring not to scale)",
    )
    for share in (0.01, 0.1, 0.5, 1.0):
        axes[0, -1].scatter(
            [],
            [],
            s=full_area * share,
            color="#777777",
            alpha=0.6,
            edgecolors="none",
            label=f"{share:.0%} of the K-ranker sub-matrices",
        )
    axes[0, -1].legend(loc="upper left", fontsize=8, labelspacing=1.2, borderpad=0.9)
    title_and_caption(
        figure,
        "Fig. 3: largest Copeland loss among the arms in the von Neumann support",
        "Bubble at (K, M): the share of K-ranker sub-matrices in which the largest Copeland loss "
        "(best score minus own score) among the arms with positive von Neumann weight is M;\n"
        f"bubble area proportional to that share (0 = every support arm is a Copeland winner). "
        f"Copeland score: {variant!r}; "
        + (
            "every K sampled is drawn."
            if step == 1
            else f"every {step}th sampled K is drawn, to keep bubbles apart."
        ),
    )
    figure.subplots_adjust(top=0.82, wspace=0.08)
    return figure


def plot_support_sizes(
    support_tables: Mapping[str, pd.DataFrame],
    *,
    paper_model: str = "informational",
    rare_from: int = 5,
    confidence: float = 0.95,
    interval: str = "clopper-pearson",
) -> Figure:
    """Fig. 4: distribution of the vNW support size per K, with a zoom on the rare sizes.

    Parameters
    ----------
    support_tables : mapping of str to pandas.DataFrame
        Per click model, :func:`.tables.distribution_table` of
        ``"support_size"``.
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
        figsize=(5.2 * len(models), 7.8),
        sharex=True,
        sharey="row",
        squeeze=False,
        gridspec_kw={"height_ratios": [1.4, 1]},
    )
    sizes = sorted(
        {int(s) for t in support_tables.values() for s in t.loc[t["count"] > 0, "support_size"]}
    )
    rare_top = 0.0
    for column, model in enumerate(models):
        table = support_tables[model]
        top, bottom = axes[0, column], axes[1, column]
        for size in sizes:
            rows = table[table["support_size"] == size]
            colour = _SUPPORT_COLOURS.get(size, "#000000")
            top.plot(
                rows["K"], rows["fraction"], color=colour, lw=1.5, label=f"support size {size}"
            )
            if size >= rare_from:
                bottom.plot(
                    rows["K"], rows["fraction"], color=colour, lw=1.2, label=f"support size {size}"
                )
                bottom.fill_between(
                    rows["K"],
                    rows["fraction_low"],
                    rows["fraction_high"],
                    color=colour,
                    alpha=0.2,
                    lw=0,
                )
                rare_top = max(rare_top, float(rows["fraction_high"].max()))
        top.set_title(_model_label(model, paper_model), fontsize=11)
        top.yaxis.set_major_formatter(_percent())
        top.set_ylim(-0.02, 1.02)
        top.grid(alpha=0.3)
        bottom.yaxis.set_major_formatter(_percent(decimals=2))
        bottom.set_xlabel("K, number of rankers in the sub-matrix")
        bottom.grid(alpha=0.3)
    axes[1, 0].set_ylim(0, max(rare_top * 1.1, 1e-4))
    axes[0, 0].set_ylabel("share of sub-matrices")
    axes[1, 0].set_ylabel(f"zoom: support size ≥ {rare_from}")
    axes[0, 0].legend(loc="center left", fontsize=8)
    if any(size >= rare_from for size in sizes):
        axes[1, 0].legend(loc="upper left", fontsize=8)
    title_and_caption(
        figure,
        "Fig. 4: size of the von Neumann winner's support",
        "Share of K-ranker sub-matrices whose von Neumann winner puts positive probability on "
        f"exactly that many rankers (sizes observed: {', '.join(map(str, sizes))}).\n"
        f"Bottom row: the same for sizes ≥ {rare_from}, zoomed; "
        f"{_interval_text(confidence, interval)}.",
    )
    figure.subplots_adjust(top=0.86, wspace=0.12, hspace=0.08)
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
