"""What is drawn: the appendix statistics per data set, the context gains, TREC-DL winners.

Every function takes the workflow's tables and returns a matplotlib figure with a title, a
caption saying what is shown and how it was computed, labelled axes and legends, in the
style of :mod:`cdbandits.plotting` (series keep one colour, marker and line style within a
figure). Save figures with :func:`cdbandits.files.save_figure`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ...plotting import LEGEND_SIZE, REFERENCE_STYLE, panel_grid, series_styles
from ...plotting import title_and_caption as _title_and_caption

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "DATASET_TITLES",
    "plot_context_gains",
    "plot_dataset_statistics",
    "plot_trec_dl_agreement",
]

#: What each data set is, for titles.
DATASET_TITLES: dict[str, str] = {
    "atp": "ATP tennis head-to-head, top players per period",
    "skate": "PrefLib figure skating 1998 (judges' rankings)",
    "f1seasons": "PrefLib Formula 1 seasons 1950-2020 (races' rankings)",
    "trec_dl": "TREC-DL human passage preferences (one matrix per topic)",
    "arxiv": "arXiv.org: six rankers compared by interleaving",
}

#: The panels of a data set's figure: (title, y label, [(column stem, line label)]).
_PANELS: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Condorcet winner exists",
        "share of K-item sub-matrices",
        (("condorcet", ""),),
    ),
    (
        "Copeland winners in the vNW support",
        "share of K-item sub-matrices",
        (("all_copeland_in_support", "all"), ("some_copeland_in_support", "at least one")),
    ),
    ("Support size of the vNW", "mean support size", (("mean_support_size", ""),)),
)


def _percent() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0)


def plot_dataset_statistics(
    dataset: str, per_k: pd.DataFrame, confidence: float, interval: str
) -> Figure:
    """The appendix statistics of one data set against K, one line per series.

    Parameters
    ----------
    dataset : str
    per_k : pandas.DataFrame
        The data set's per-K table (:func:`.tables.series_tables`).
    confidence : float
    interval : str
        The binomial interval of the table (for the caption).
    """
    figure, axes = panel_grid(len(_PANELS), columns=3)
    series = list(dict.fromkeys(per_k["series"]))
    styles = series_styles(series)
    has_band = bool(per_k["draws"].max() > 0)
    for axis, (title, ylabel, lines) in zip(axes, _PANELS, strict=True):
        for name in series:
            table = per_k[per_k["series"] == name]
            style = styles[name]
            for index, (stem, label) in enumerate(lines):
                linestyle = style.linestyle if index == 0 else ":"
                text = f"{name}, {label}" if label else name
                if stem == "mean_support_size":
                    value, low, high = table[stem], None, None
                    band = table[f"band_{stem}_low"], table[f"band_{stem}_high"]
                else:
                    value = table[f"fraction_{stem}"]
                    low, high = table[f"fraction_{stem}_low"], table[f"fraction_{stem}_high"]
                    band = table[f"band_fraction_{stem}_low"], table[f"band_fraction_{stem}_high"]
                axis.plot(
                    table["K"],
                    value,
                    color=style.colour,
                    ls=linestyle,
                    marker=style.marker,
                    ms=3,
                    lw=1.4,
                    label=text,
                )
                if low is not None:
                    axis.fill_between(table["K"], low, high, color=style.colour, alpha=0.2, lw=0)
                if has_band:
                    axis.fill_between(
                        table["K"],
                        band[0],
                        band[1],
                        color=style.colour,
                        alpha=0.12,
                        lw=0,
                        hatch="//",
                        edgecolor=style.colour,
                    )
        axis.set_title(title)
        axis.set_xlabel("K, items in the sub-matrix")
        axis.set_ylabel(ylabel)
        if ylabel.startswith("share"):
            axis.yaxis.set_major_formatter(_percent())
            axis.set_ylim(-0.02, 1.02)
        axis.grid(alpha=0.3)
    handles, labels = axes[1].get_legend_handles_labels()
    figure.legend(
        handles,
        labels,
        loc="lower center",
        ncol=min(4, len(labels)),
        fontsize=LEGEND_SIZE,
        bbox_to_anchor=(0.5, -0.02),
    )
    samples = sorted({int(n) for n in per_k["matrices"]})
    per_k_text = f"{samples[0]:,}" if len(samples) == 1 else f"{samples[0]:,}-{samples[-1]:,}"
    caption = [
        f"Random K-item sub-matrices ({per_k_text} per K and series); "
        f"shaded: {100 * confidence:g}% {interval} intervals over the sampled sub-matrices.",
        f"Hatched: {100 * confidence:g}% band of the same statistics on matrices resampled from "
        "the data (its own noise)."
        if has_band
        else "No data band: the published matrix comes without counts.",
    ]
    _title_and_caption(
        figure, f"Appendix statistics on real data: {DATASET_TITLES[dataset]}", caption
    )
    figure.subplots_adjust(top=0.76, bottom=0.30 if len(labels) > 4 else 0.24, wspace=0.3)
    return figure


def plot_context_gains(gains: pd.DataFrame, draws: pd.DataFrame) -> Figure:
    """Per analysis: the gain of a per-context lottery, its bootstrap and its null.

    Parameters
    ----------
    gains : pandas.DataFrame
        One row per analysis (:meth:`.contexts.ContextGain.summary`).
    draws : pandas.DataFrame
        ``analysis``, ``kind`` (``"bootstrap"`` or ``"permutation"``), ``gain``.
    """
    figure, axes = panel_grid(len(gains), columns=2)
    kinds = {
        "bootstrap": ("#1b6ca8", "bootstrap (comparisons resampled per context)"),
        "permutation": ("#999999", "null: context labels shuffled"),
    }
    for axis, row in zip(axes, gains.itertuples(index=False), strict=True):
        values = draws[draws["analysis"] == row.analysis]
        bins = np.linspace(0, max(values["gain"].max(), row.gain) * 1.05 + 1e-9, 30)
        for kind, (colour, label) in kinds.items():
            axis.hist(
                values.loc[values["kind"] == kind, "gain"],
                bins=bins,
                color=colour,
                alpha=0.55,
                label=label,
            )
        axis.axvline(row.gain, color=REFERENCE_STYLE.colour, lw=1.5, label="observed gain")
        axis.set_title(
            f"by {row.analysis}: {row.contexts}\n{row.items} players, observed gain "
            f"{row.gain:.3f}, p = {row.p_value:.3f}"
        )
        axis.set_xlabel("gain: average exploitability of the best single lottery")
        axis.set_ylabel("resamples")
        axis.grid(alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=3, fontsize=LEGEND_SIZE)
    _title_and_caption(
        figure,
        "Does context matter? ATP players by court surface and by period",
        "Gain = how much an opponent who knows the context beats the best context-blind lottery "
        "(0 when one lottery is a von Neumann winner everywhere);\n"
        "the per-context von Neumann winners are never beaten. p: share of shuffles whose gain "
        "reaches the observed one.",
    )
    figure.subplots_adjust(top=0.72, bottom=0.25, wspace=0.3)
    return figure


#: The TREC-DL agreement measures drawn (column of the agreement table, label).
_AGREEMENT = (
    ("in_support", "all published\npassages in\nvNW support"),
    ("has_top", "vNW's heaviest\npassage is\npublished"),
    ("copeland", "a published\npassage is a\nCopeland winner"),
    ("condorcet", "a published\npassage is the\nCondorcet winner"),
    ("condorcet_exists", "a Condorcet\nwinner\nexists"),
)


def plot_trec_dl_agreement(agreement: pd.DataFrame) -> Figure:
    """Share of topics where our winners meet the published best passages, per view and set.

    Parameters
    ----------
    agreement : pandas.DataFrame
        :func:`.trec_dl.comparison_summary`.
    """
    views = list(dict.fromkeys(agreement["view"]))
    figure, axes = panel_grid(len(views), columns=2, panel_size=(7.2, 4.2))
    published = list(dict.fromkeys(agreement["published"]))
    styles = series_styles(published)
    width = 0.8 / len(published)
    positions = np.arange(len(_AGREEMENT))
    for axis, view in zip(axes, views, strict=True):
        part = agreement[agreement["view"] == view].set_index("published")
        for index, name in enumerate(published):
            axis.bar(
                positions + (index - (len(published) - 1) / 2) * width,
                [part.loc[name, column] for column, _ in _AGREEMENT],
                width,
                color=styles[name].colour,
                label=f"{name} ({int(part.loc[name, 'topics'])} topics)",
            )
        axis.set_xticks(positions, [label for _, label in _AGREEMENT], fontsize=7)
        axis.yaxis.set_major_formatter(_percent())
        axis.set_ylim(0, 1.05)
        axis.set_ylabel("share of topics")
        axis.set_title(
            "all passages (pairs never compared at 1/2)"
            if view == "all"
            else "finalists (round robin of fully compared passages)"
        )
        axis.grid(alpha=0.3, axis="y")
        axis.legend(fontsize=LEGEND_SIZE, title="published best passages")
    _title_and_caption(
        figure,
        "TREC-DL: our winners per topic against the authors' best passages",
        "Winners from the pooled human judgments of each topic; published sets: the best "
        "passages of each finalisation phase (Set-*.qrels, Yan et al. 2022).",
    )
    figure.subplots_adjust(top=0.80, wspace=0.25)
    return figure
