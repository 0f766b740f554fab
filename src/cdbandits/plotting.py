"""One plotting style for every figure: colours and labels per algorithm, sizes, titles.

Every figure module of the experiment families draws through these helpers, so that an
algorithm has the same colour and name in every figure, panels have the same size, and
titles and captions look alike. Matplotlib is imported lazily (with the ``Agg`` backend),
so importing a figure module costs nothing until a figure is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ALGORITHM_STYLES",
    "CAPTION_SIZE",
    "CLICK_MODEL_STYLES",
    "LEGEND_SIZE",
    "PANEL_SIZE",
    "REFERENCE_STYLE",
    "SERIES_STYLES",
    "SUPPORT_SIZE_COLOURS",
    "TITLE_SIZE",
    "AlgorithmStyle",
    "SeriesStyle",
    "algorithm_style",
    "click_model_styles",
    "series_styles",
    "panel_grid",
    "pyplot",
    "title_and_caption",
]

#: Width and height of one panel, inches.
PANEL_SIZE = (4.4, 3.4)
#: Font sizes of figure titles, captions and legends (points).
TITLE_SIZE = 13
CAPTION_SIZE = 9
LEGEND_SIZE = 9


@dataclass(frozen=True)
class AlgorithmStyle:
    """How an algorithm is drawn: its name in legends, its colour and marker."""

    label: str
    colour: str
    marker: str = "o"


#: Every algorithm of the library, by the identifier the result tables use.
ALGORITHM_STYLES: dict[str, AlgorithmStyle] = {
    # Section 5 (online) and its baselines
    "sparring_exp4p": AlgorithmStyle("SparringEXP4.P", "#1f77b4", "o"),
    "sparring_exp3": AlgorithmStyle("sparring EXP3 (no context)", "#ff7f0e", "s"),
    "uniform": AlgorithmStyle("uniform duels", "#2ca02c", "^"),
    # Sections 6-8 (oracle methods)
    "fpl": AlgorithmStyle("SparringFPL", "#9467bd", "o"),
    "pgd": AlgorithmStyle("ProjectedGD", "#8c564b", "s"),
    "lp": AlgorithmStyle("exact LP maxmin of M-hat", "#7f7f7f", "D"),
    "fpl_learned": AlgorithmStyle("SparringFPL, scikit-learn stump oracle", "#e377c2", "v"),
    "explore_exploit_fpl": AlgorithmStyle("explore-exploit, SparringFPL", "#9467bd", "o"),
    "explore_exploit_lp": AlgorithmStyle("explore-exploit, exact LP", "#7f7f7f", "D"),
    "importance_weighted": AlgorithmStyle("paper's K^2 estimator", "#17becf", "o"),
    "skew_symmetrised": AlgorithmStyle("skew-symmetrised estimator", "#bcbd22", "s"),
    # K-armed dueling bandits (cdbandits.karmed)
    "rucb": AlgorithmStyle("RUCB", "#d62728", "o"),
    "merge_rucb": AlgorithmStyle("MergeRUCB", "#ff9896", "s"),
    "ccb": AlgorithmStyle("CCB", "#393b79", "D"),
    "rmed1": AlgorithmStyle("RMED1", "#637939", "^"),
    "dts": AlgorithmStyle("D-TS", "#7b4173", "v"),
    "merge_dts": AlgorithmStyle("MergeDTS", "#ce6dbd", "P"),
    "self_sparring": AlgorithmStyle("Self-Sparring", "#8c6d31", "X"),
    "sparring_exp3_karmed": AlgorithmStyle("Sparring EXP3 (K-armed)", "#e6550d", "<"),
    "versatile_db": AlgorithmStyle("Versatile-DB", "#31a354", ">"),
    # Linear contextual dueling bandits (cdbandits.linear_duels)
    # colours apart from the K-armed and Section 5 ones: the duels figures draw them together
    "colstim": AlgorithmStyle("CoLSTIM", "#17becf", "h"),
    "maxinp": AlgorithmStyle("MaxInP", "#e7ba52", "p"),
    "dbgd": AlgorithmStyle("DBGD (linear ranker)", "#525252", "*"),
}


def algorithm_style(algorithm: str) -> AlgorithmStyle:
    """The style of ``algorithm``; raises ``KeyError`` naming the known ones otherwise."""
    try:
        return ALGORITHM_STYLES[algorithm]
    except KeyError:
        raise KeyError(
            f"no plotting style for algorithm {algorithm!r}; known: {sorted(ALGORITHM_STYLES)}"
        ) from None


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the non-interactive ``Agg`` backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def panel_grid(
    count: int, columns: int = 3, panel_size: tuple[float, float] = PANEL_SIZE
) -> tuple[Any, list[Any]]:
    """A figure with ``count`` panels in rows of at most ``columns``; unused panels hidden.

    Returns
    -------
    (figure, axes) : the figure and its ``count`` visible axes, in reading order.
    """
    if count < 1:
        raise ValueError(f"a figure needs at least one panel, got {count}")
    columns = min(columns, count)
    rows = math.ceil(count / columns)
    width, height = panel_size
    figure, axes = pyplot().subplots(
        rows, columns, figsize=(width * columns, height * rows), squeeze=False
    )
    flat = list(axes.flat)
    for axis in flat[count:]:
        axis.set_visible(False)
    return figure, flat[:count]


def title_and_caption(figure: Any, title: str, caption: str | Sequence[str] = "") -> None:
    """A bold title over the figure and, under it, a one- or few-line caption."""
    figure.suptitle(title, fontsize=TITLE_SIZE, fontweight="bold", y=1.0)
    text = caption if isinstance(caption, str) else "\n".join(caption)
    if text:
        figure.text(0.5, 0.955, text, ha="center", va="top", fontsize=CAPTION_SIZE, color="#333333")


@dataclass(frozen=True)
class SeriesStyle:
    """How one series (e.g. a click model) is drawn: colour, marker and line style, so that
    series stay apart where their lines overlap and in black and white."""

    colour: str
    marker: str
    linestyle: str


#: The click models of the MSLR preference matrices (the appendix figures), by name.
CLICK_MODEL_STYLES: dict[str, SeriesStyle] = {
    "informational": SeriesStyle("#1b6ca8", "o", "-"),
    "navigational": SeriesStyle("#d1495b", "s", "--"),
    "perfect": SeriesStyle("#3a9b5c", "^", ":"),
}
#: Styles of further click models (e.g. a matrix built from LETOR data), in turn.
_EXTRA_SERIES_STYLES = (
    SeriesStyle("#8d6cab", "D", "-."),
    SeriesStyle("#e0a030", "v", (0, (5, 1, 1, 1))),
    SeriesStyle("#555555", "P", (0, (1, 2))),
)

#: Lines that mark a value stated by the paper or a reading of its words.
REFERENCE_STYLE = SeriesStyle("#222222", "", (0, (4, 2)))

#: Sizes of a von Neumann winner's support (the appendix's Fig. 4); even sizes in grey.
SUPPORT_SIZE_COLOURS: dict[int, str] = {
    1: "#1b6ca8",
    2: "#999999",
    3: "#d1495b",
    4: "#666666",
    5: "#3a9b5c",
}


#: Distinct styles for series without a style of their own (e.g. the periods and
#: collections of real data), in turn.
SERIES_STYLES: tuple[SeriesStyle, ...] = (
    *CLICK_MODEL_STYLES.values(),
    *_EXTRA_SERIES_STYLES,
    SeriesStyle("#17becf", "X", (0, (3, 1, 1, 1, 1, 1))),
    SeriesStyle("#8c564b", "<", (0, (2, 2))),
)


def series_styles(names: Sequence[str]) -> dict[str, SeriesStyle]:
    """A distinct style for each of up to ``len(SERIES_STYLES)`` names, in order.

    Raises
    ------
    ValueError
        For more names than styles (they could not be told apart).
    """
    if len(names) > len(SERIES_STYLES):
        raise ValueError(f"{len(names)} series but only {len(SERIES_STYLES)} distinct styles")
    return dict(zip(names, SERIES_STYLES, strict=False))


def click_model_styles(models: Sequence[str]) -> dict[str, SeriesStyle]:
    """A style for each click model: its own if it has one, else the next unused extra one."""
    extras = iter(_EXTRA_SERIES_STYLES * (1 + len(models) // len(_EXTRA_SERIES_STYLES)))
    return {model: CLICK_MODEL_STYLES.get(model) or next(extras) for model in models}
