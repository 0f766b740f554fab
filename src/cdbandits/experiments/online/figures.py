"""What the online sweep draws: regret against ``T``, regret curves, ``eps`` against ``m``.

One panel per setting, in reading order (:func:`setting_order`); colours and labels of the
algorithms from :data:`cdbandits.plotting.ALGORITHM_STYLES`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ...plotting import algorithm_style, panel_grid
from ...stats import Z95
from .settings import ALGORITHMS

__all__ = [
    "FIGURE_NAMES",
    "online_figures",
    "plot_online_to_batch",
    "plot_regret_curves",
    "plot_regret_vs_horizon",
    "setting_order",
]

#: The figures of :func:`online_figures`.
FIGURE_NAMES = ("regret_vs_horizon", "regret_curves", "online_to_batch")

_PANEL_SIZE = (4.0, 3.2)


def setting_order(names: Iterable[str]) -> list[str]:
    """Settings in reading order: synthetic, long, supervised, adversarial, mslr; then K, N."""
    ranks = {"synthetic": 0, "long": 1, "supervised": 2, "adversarial": 3, "mslr": 4}

    def key(name: str) -> tuple[int, int, int, str]:
        parts = name.split("_")
        numbers = [int(part[1:]) for part in parts[1:] if part[:1] in "KN" and part[1:].isdigit()]
        k, n = (numbers + [0, 0])[:2]
        return ranks.get(parts[0], len(ranks)), k, n, name

    return sorted(set(names), key=key)


def _by_algorithm(table: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """``table`` split by algorithm, in the order of :data:`ALGORITHMS`."""
    return [
        (algorithm, table[table["algorithm"] == algorithm])
        for algorithm in ALGORITHMS
        if (table["algorithm"] == algorithm).any()
    ]


def _panels(table: pd.DataFrame) -> tuple[Any, dict[str, Any]]:
    """A figure with one panel per setting of ``table``, keyed by setting."""
    names = setting_order(table["setting"])
    figure, axes = panel_grid(len(names), panel_size=_PANEL_SIZE)
    return figure, dict(zip(names, axes, strict=True))


def online_figures(tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """Every figure of :data:`FIGURE_NAMES` from the tables of the sweep."""
    return {
        "regret_vs_horizon": plot_regret_vs_horizon(
            tables["regret"], tables["coverage"], tables["slopes"]
        ),
        "regret_curves": plot_regret_curves(tables["curves"]),
        "online_to_batch": plot_online_to_batch(tables["online_to_batch"]),
    }


def plot_regret_vs_horizon(regret: pd.DataFrame, coverage: pd.DataFrame, slopes: pd.DataFrame):
    """Final regret against ``T`` (log-log), mean and 95% band per algorithm, with the bound.

    Returns
    -------
    matplotlib.figure.Figure
    """
    figure, axes = _panels(regret)
    for name, axis in axes.items():
        for algorithm, rows in _by_algorithm(regret[regret["setting"] == name]):
            style = algorithm_style(algorithm)
            slope = slopes[(slopes["setting"] == name) & (slopes["algorithm"] == algorithm)]
            label = f"{style.label} (slope {slope['slope'].iloc[0]:.2f})"
            axis.plot(rows["horizon"], rows["mean"], "o-", color=style.colour, label=label)
            axis.fill_between(
                rows["horizon"],
                rows["ci_low"].clip(lower=1e-3),
                rows["ci_high"],
                color=style.colour,
                alpha=0.2,
            )
        bound = coverage[coverage["setting"] == name]
        if not bound.empty:
            axis.plot(bound["horizon"], bound["bound"], "k--", label="bound (Thm sparring-exp4)")
        axis.set(xscale="log", yscale="log", title=name, xlabel="horizon T", ylabel="regret (rd1)")
        axis.legend(fontsize=7)
    figure.tight_layout()
    return figure


def plot_regret_curves(curves: pd.DataFrame):
    """Regret against rounds within the longest episodes, mean and 95% band per algorithm.

    Returns
    -------
    matplotlib.figure.Figure
    """
    figure, axes = _panels(curves)
    for name, axis in axes.items():
        rows = curves[curves["setting"] == name]
        longest = rows[rows["horizon"] == rows["horizon"].max()]
        for algorithm, by_algorithm in _by_algorithm(longest):
            style = algorithm_style(algorithm)
            stats = by_algorithm.groupby("rounds")["regret"].agg(["mean", "std", "count"])
            half = Z95 * stats["std"] / np.sqrt(stats["count"])
            axis.plot(stats.index, stats["mean"], color=style.colour, label=style.label)
            axis.fill_between(
                stats.index,
                stats["mean"] - half,
                stats["mean"] + half,
                color=style.colour,
                alpha=0.2,
            )
        axis.set(
            xscale="log",
            yscale="log",
            title=f"{name} (T = {int(longest['horizon'].max())})",
            xlabel="round t",
            ylabel="regret after t rounds",
        )
        axis.legend(fontsize=7)
    figure.tight_layout()
    return figure


def plot_online_to_batch(online_to_batch: pd.DataFrame):
    """``eps`` of the online-to-batch ``Wbar`` against ``m`` (log-log), mean and 95% band.

    Returns
    -------
    matplotlib.figure.Figure
    """
    colour = algorithm_style("sparring_exp4p").colour
    figure, axes = _panels(online_to_batch)
    for name, axis in axes.items():
        rows = online_to_batch[online_to_batch["setting"] == name]
        axis.plot(
            rows["m"], rows["mean"], "o-", color=colour, label=f"slope {rows['slope'].iloc[0]:.2f}"
        )
        axis.fill_between(
            rows["m"], rows["ci_low"].clip(lower=1e-6), rows["ci_high"], color=colour, alpha=0.2
        )
        reference = rows["mean"].iloc[0] * np.sqrt(rows["m"].iloc[0] / rows["m"])
        axis.plot(rows["m"], reference, "k:", label="m^(-1/2)")
        axis.set(
            xscale="log",
            yscale="log",
            title=name,
            xlabel="exploration rounds m",
            ylabel="eps of Wbar (exploitability in M)",
        )
        axis.legend(fontsize=7)
    figure.tight_layout()
    return figure
