"""What the online sweep draws: regret against ``T``, regret curves, ``eps`` against ``m``.

Every figure has a title, one panel per setting in reading order
(:func:`setting_order`), titled with what the setting
is (:func:`setting_title`), and under the panels a
caption and the legend they share, so that no legend covers data. The fitted log-log
slopes, which differ from panel to panel, are listed in a band at the bottom of each panel
that is kept free of data. Colours, markers and names of the algorithms come from
:data:`cdbandits.plotting.ALGORITHM_STYLES`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...plotting import (
    CAPTION_SIZE,
    LEGEND_SIZE,
    REFERENCE_STYLE,
    TITLE_SIZE,
    algorithm_style,
    panel_grid,
    pyplot,
)
from ...stats import Z95
from .settings import ALGORITHMS

__all__ = [
    "FIGURE_NAMES",
    "is_long_run",
    "online_figures",
    "plot_online_to_batch",
    "plot_regret_curves",
    "plot_regret_vs_horizon",
    "setting_kind",
    "setting_order",
    "setting_title",
    "setting_titles",
]


#: How each environment is named for a reader.
_ENVIRONMENT_NAMES = {
    "synthetic": "synthetic",
    "supervised": "supervised",
    "adversarial": "adaptive adversary",
    "mslr": "MSLR per query",
}

#: The reading order of the settings' name prefixes.
_PREFIX_ORDER = ("synthetic", "long", "supervised", "adversarial", "mslr")


def setting_order(names: Iterable[str]) -> list[str]:
    """Settings in reading order: synthetic, long, supervised, adversarial, mslr; then K, N."""

    def key(name: str) -> tuple[int, int, int, str]:
        parts = name.split("_")
        numbers = [int(part[1:]) for part in parts[1:] if part[:1] in "KN" and part[1:].isdigit()]
        k, n = (numbers + [0, 0])[:2]
        rank = _PREFIX_ORDER.index(parts[0]) if parts[0] in _PREFIX_ORDER else len(_PREFIX_ORDER)
        return rank, k, n, name

    return sorted(set(names), key=key)


def is_long_run(setting: str) -> bool:
    """Whether ``setting`` is the long run of a synthetic instance (``long_*``)."""
    return setting.startswith("long_")


def setting_kind(setting: str, environment: str) -> str:
    """What kind of setting ``setting`` is, for a reader: e.g. ``supervised (wine data)``.

    The long run of a synthetic instance (``long_*``) and the dataset of a supervised
    setting (``supervised_<dataset>``) are named.
    """
    if is_long_run(setting):
        return "synthetic, long run"
    if environment == "supervised":
        return f"supervised ({setting.removeprefix('supervised_')} data)"
    return _ENVIRONMENT_NAMES.get(environment, environment)


def setting_title(
    setting: str, environment: str, n_actions: int, n_policies: int, separator: str = ": "
) -> str:
    """A setting described for a reader: ``synthetic: K = 3 actions, |Π| = 100 policies``.

    ``separator`` comes between the kind (:func:`setting_kind`) and the numbers.
    """
    kind = setting_kind(setting, environment)
    return f"{kind}{separator}K = {n_actions} actions, |Π| = {n_policies:,} policies"


#: The figures of :func:`online_figures`.
FIGURE_NAMES = ("regret_vs_horizon", "regret_curves", "online_to_batch")

#: Font size of the panel titles (points).
_PANEL_TITLE_SIZE = 10

#: The share of a panel's height, at its bottom, kept free of data for its legend.
_FREE_BAND = 0.24

#: Characters of a caption line per inch of figure width (at the caption's font size).
_CAPTION_CHARACTERS_PER_INCH = 13

#: The bound of Theorem sparring-exp4 and the theory's rate, drawn as the paper's values.
_REFERENCE_LINE = {"color": REFERENCE_STYLE.colour, "linestyle": REFERENCE_STYLE.linestyle}


def setting_titles(table: pd.DataFrame) -> dict[str, str]:
    """Panel title of every setting of ``table`` (a table with the settings' descriptions).

    Two lines: what the setting is, then its numbers of actions and policies.
    """
    described = table.drop_duplicates("setting")
    return {
        row.setting: setting_title(
            row.setting, row.environment, int(row.n_actions), int(row.n_policies), "\n"
        )
        for row in described.itertuples(index=False)
    }


def _by_algorithm(table: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """``table`` split by algorithm, in the order of :data:`ALGORITHMS`."""
    return [
        (algorithm, table[table["algorithm"] == algorithm])
        for algorithm in ALGORITHMS
        if (table["algorithm"] == algorithm).any()
    ]


def _panels(settings: Iterable[str], titles: Mapping[str, str]) -> tuple[Any, dict[str, Any]]:
    """A figure with one titled panel per setting, keyed by setting, in constrained layout."""
    names = setting_order(settings)
    figure, axes = panel_grid(len(names))
    figure.set_layout_engine("constrained")
    panels = dict(zip(names, axes, strict=True))
    for name, axis in panels.items():
        axis.set_title(titles.get(name, name), fontsize=_PANEL_TITLE_SIZE)
    return figure, panels


def _mean_with_band(
    axis: Any, x: Any, mean: Any, low: Any, high: Any, colour: str, marker: str | None
) -> None:
    """A mean line (with markers at the measured points, if any) and its 95% band."""
    axis.plot(x, mean, color=colour, marker=marker)
    axis.fill_between(x, low, high, color=colour, alpha=0.2)


def _algorithm_handle(algorithm: str, label: str | None = None, marker: bool = True) -> Any:
    """A legend entry in the algorithm's style (with its marker, as the lines that have one)."""
    style = algorithm_style(algorithm)
    return pyplot().Line2D(
        [],
        [],
        color=style.colour,
        marker=style.marker if marker else None,
        label=label or style.label,
    )


def _header(figure: Any, title: str, caption: str, handles: Sequence[Any]) -> None:
    """The figure's title, and under the panels its caption and the legend they share."""
    figure.suptitle(title, fontsize=TITLE_SIZE, fontweight="bold")
    width_inches = figure.get_size_inches()[0]
    figure.legend(
        handles=list(handles),
        loc="outside lower center",
        ncols=len(handles),
        fontsize=LEGEND_SIZE,
        title=textwrap.fill(caption, int(width_inches * _CAPTION_CHARACTERS_PER_INCH)),
        title_fontsize=CAPTION_SIZE,
        frameon=False,
    )


def _slopes_in_free_band(axis: Any, slopes: Sequence[tuple[str, float]], what: str) -> None:
    """The fitted slope of each algorithm, in its colour, in a band kept free of data.

    The y axis (logarithmic) is extended downwards so that its lowest
    :data:`_FREE_BAND` holds no data, and the legend is drawn there.
    """
    low, high = np.log10(axis.get_ylim())
    axis.set_ylim(10 ** (low - _FREE_BAND / (1 - _FREE_BAND) * (high - low)), 10**high)
    handles = [
        _algorithm_handle(algorithm, "n/a" if np.isnan(slope) else f"{slope:.2f}".replace("-", "−"))
        for algorithm, slope in slopes
    ]
    axis.legend(
        handles=handles,
        loc="lower center",
        ncols=len(handles),
        fontsize=LEGEND_SIZE,
        title=what,
        title_fontsize=LEGEND_SIZE,
        frameon=False,
        handlelength=1.5,
        columnspacing=1.2,
        borderaxespad=0.2,
    )


def _seeds(table: pd.DataFrame) -> int:
    return int(table["n_seeds"].max())


def online_figures(tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """Every figure of :data:`FIGURE_NAMES` from the tables of the sweep."""
    titles = setting_titles(tables["regret"])
    return {
        "regret_vs_horizon": plot_regret_vs_horizon(
            tables["regret"], tables["coverage"], tables["slopes"]
        ),
        "regret_curves": plot_regret_curves(tables["curves"], titles),
        "online_to_batch": plot_online_to_batch(tables["online_to_batch"]),
    }


def plot_regret_vs_horizon(regret: pd.DataFrame, coverage: pd.DataFrame, slopes: pd.DataFrame):
    """Final regret against ``T`` (log-log), mean and 95% band per algorithm, with the bound.

    Returns
    -------
    matplotlib.figure.Figure
    """
    figure, axes = _panels(regret["setting"], setting_titles(regret))
    algorithms = [algorithm for algorithm, _ in _by_algorithm(regret)]
    for name, axis in axes.items():
        fitted = []
        for algorithm, rows in _by_algorithm(regret[regret["setting"] == name]):
            style = algorithm_style(algorithm)
            slope = slopes[(slopes["setting"] == name) & (slopes["algorithm"] == algorithm)]
            fitted.append((algorithm, float(slope["slope"].iloc[0])))
            _mean_with_band(
                axis,
                rows["horizon"],
                rows["mean"],
                rows["ci_low"].clip(lower=1e-3),
                rows["ci_high"],
                style.colour,
                style.marker,
            )
        bound = coverage[coverage["setting"] == name]
        if not bound.empty:
            axis.plot(bound["horizon"], bound["bound"], **_REFERENCE_LINE)
        axis.set(xscale="log", yscale="log", xlabel="horizon T", ylabel="regret (rd1) after T")
        _slopes_in_free_band(axis, fitted, "log-log slope of regret in T")
    handles = [_algorithm_handle(algorithm) for algorithm in algorithms]
    delta = f" (δ = {coverage['delta'].iloc[0]:g})" if not coverage.empty else ""
    handles.append(
        pyplot().Line2D([], [], **_REFERENCE_LINE, label=f"bound of Theorem sparring-exp4{delta}")
    )
    _header(
        figure,
        "Regret against the horizon T",
        f"Mean regret over {_seeds(regret)} seeds at the end of runs of T rounds, with 95% "
        "confidence bands; the bound holds for SparringEXP4.P with probability at least "
        "1 − δ. Theory: slope 1/2 for SparringEXP4.P.",
        handles,
    )
    return figure


def plot_regret_curves(curves: pd.DataFrame, titles: Mapping[str, str]):
    """Regret against rounds within the longest episodes, mean and 95% band per algorithm.

    Parameters
    ----------
    curves : pandas.DataFrame
        The combined ``curves`` table.
    titles : mapping of str to str
        Panel title of each setting (:func:`setting_titles`).

    Returns
    -------
    matplotlib.figure.Figure
    """
    figure, axes = _panels(curves["setting"], titles)
    algorithms = [algorithm for algorithm, _ in _by_algorithm(curves)]
    seeds = 0
    for name, axis in axes.items():
        rows = curves[curves["setting"] == name]
        horizon = int(rows["horizon"].max())
        longest = rows[rows["horizon"] == horizon]
        for algorithm, by_algorithm in _by_algorithm(longest):
            style = algorithm_style(algorithm)
            stats = by_algorithm.groupby("rounds")["regret"].agg(["mean", "std", "count"])
            seeds = max(seeds, int(stats["count"].max()))
            half = Z95 * stats["std"] / np.sqrt(stats["count"])
            _mean_with_band(
                axis,
                stats.index,
                stats["mean"],
                stats["mean"] - half,
                stats["mean"] + half,
                style.colour,
                None,
            )
        axis.set(
            xscale="log",
            yscale="log",
            xlabel=f"round t of runs of T = {horizon:,} rounds",
            ylabel="regret after t rounds",
        )
    _header(
        figure,
        "Regret within the longest runs",
        f"Mean regret after t rounds over {seeds} seeds, with 95% confidence bands, in the "
        "runs of each setting's largest horizon T.",
        [_algorithm_handle(algorithm, marker=False) for algorithm in algorithms],
    )
    return figure


def plot_online_to_batch(online_to_batch: pd.DataFrame):
    """``eps`` of the online-to-batch ``Wbar`` against ``m`` (log-log), mean and 95% band.

    Returns
    -------
    matplotlib.figure.Figure
    """
    style = algorithm_style("sparring_exp4p")
    figure, axes = _panels(online_to_batch["setting"], setting_titles(online_to_batch))
    for name, axis in axes.items():
        rows = online_to_batch[online_to_batch["setting"] == name]
        _mean_with_band(
            axis,
            rows["m"],
            rows["mean"],
            rows["ci_low"].clip(lower=1e-6),
            rows["ci_high"],
            style.colour,
            style.marker,
        )
        reference = rows["mean"].iloc[0] * np.sqrt(rows["m"].iloc[0] / rows["m"])
        axis.plot(rows["m"], reference, **_REFERENCE_LINE)
        axis.set(
            xscale="log",
            yscale="log",
            xlabel="rounds m averaged",
            ylabel="ε of W̄ (exploitability in M)",
        )
        _slopes_in_free_band(
            axis, [("sparring_exp4p", float(rows["slope"].iloc[0]))], "log-log slope of ε in m"
        )
    _header(
        figure,
        "Online to batch: exploitability of SparringEXP4.P's average policy mixture",
        f"ε = how much the best policy beats the mixture W̄ of the policy distributions of "
        f"the first m rounds, computed exactly; mean over {_seeds(online_to_batch)} seeds "
        "with 95% confidence bands. Theory: slope −1/2.",
        [
            _algorithm_handle("sparring_exp4p", "ε of W̄ (SparringEXP4.P)"),
            pyplot().Line2D([], [], **_REFERENCE_LINE, label="slope −1/2 through the first point"),
        ],
    )
    return figure
