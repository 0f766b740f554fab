"""Comparing a built preference matrix with a published one.

Both matrices are taken in probability form ``Q`` (validated by
:func:`cdbandits.preference.as_skew`). The comparison uses the ``K (K - 1) / 2`` entries
above the diagonal:

* ``pearson``, ``spearman``: correlation of the built and published entries;
* ``mean_absolute_difference`` of the entries;
* for a *separation* ``s``, the pairs the published matrix separates by more than ``s``,
  ``|Q_pub(i, j) - 0.5| > s``, and the fraction of them on which the built matrix picks the
  same winner, ``sign(Q_built - 0.5) == sign(Q_pub - 0.5)`` (a built tie counts as
  disagreement). The headline uses ``s = 0.1``.

A matrix built from a small sample of queries (the 86-query MSLR excerpt) cannot be expected
to reproduce one estimated on a full data set entry by entry: per-query preferences vary, so
a different set of queries gives a different matrix whatever the number of simulated
comparisons. How close the two come measures how much of the published matrix is due to
behaviour of the rankers common to all queries. For the published MSLR matrices that part
is large once the credit of Probabilistic Interleave re-breaks ties as Lerot does
(``credit_ties="redrawn"``, :mod:`cdbandits.letor.interleave`): rankers with many tied values
then lose to the others on almost every query.

:func:`validate_against_published` gathers all of it for a built matrix and the published
matrix of every feature column (the table, the JSON summary with the winners named by
feature column and the :func:`sample_caveat`, the paragraph), and :func:`plot_validation`
draws it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray
from scipy import stats

from ..preference import as_skew
from ..winners import condorcet_winner, copeland_winners
from .matrices import PreferenceEstimate

__all__ = [
    "DEFAULT_SEPARATIONS",
    "METHOD_NAMES",
    "MatrixComparison",
    "PublishedValidation",
    "compare_matrices",
    "comparison_summary_markdown",
    "comparison_table",
    "plot_comparison",
    "plot_validation",
    "sample_caveat",
    "validate_against_published",
]

#: Separations reported by :func:`comparison_table`; 0.1 is the headline.
DEFAULT_SEPARATIONS = (0.0, 0.05, 0.1, 0.2)


@dataclass(frozen=True)
class MatrixComparison:
    """Agreement of a built matrix with a published one (see the module docstring)."""

    n_rankers: int
    pearson: float
    spearman: float
    mean_absolute_difference: float
    separation: float
    n_separated_pairs: int
    sign_agreement: float
    built_condorcet_winner: int | None
    published_condorcet_winner: int | None
    built_copeland_winners: tuple[int, ...]
    published_copeland_winners: tuple[int, ...]

    def as_dict(self) -> dict[str, Any]:
        """Plain values, for JSON."""
        return asdict(self)


def _upper_entries(
    built: ArrayLike, published: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    built_skew = as_skew(built, "probability")
    published_skew = as_skew(published, "probability")
    if built_skew.shape != published_skew.shape:
        raise ValueError(
            f"the built matrix is {built_skew.shape[0]}x{built_skew.shape[0]} but the published "
            f"one is {published_skew.shape[0]}x{published_skew.shape[0]}; compare the same rankers"
        )
    upper = np.triu_indices(built_skew.shape[0], k=1)
    return (
        (built_skew[upper] + 1.0) / 2.0,
        (published_skew[upper] + 1.0) / 2.0,
        built_skew,
        published_skew,
    )


def compare_matrices(
    built: ArrayLike, published: ArrayLike, separation: float = 0.1
) -> MatrixComparison:
    """Compare two probability-form matrices over the same rankers.

    Parameters
    ----------
    built, published : array_like, shape (K, K)
        Probability-form preference matrices, rows in the same ranker order.
    separation : float, optional
        Pairs with ``|Q_pub - 0.5| > separation`` enter the sign agreement.

    Returns
    -------
    MatrixComparison

    Raises
    ------
    ValueError
        If the shapes differ, a matrix is invalid, or no pair is separated that much.
    """
    built_entries, published_entries, built_skew, published_skew = _upper_entries(built, published)
    separated = np.abs(published_entries - 0.5) > separation
    if not np.any(separated):
        raise ValueError(f"no pair of the published matrix is separated by more than {separation}")
    agree = np.sign(built_entries[separated] - 0.5) == np.sign(published_entries[separated] - 0.5)
    return MatrixComparison(
        n_rankers=int(built_skew.shape[0]),
        pearson=float(stats.pearsonr(built_entries, published_entries).statistic),
        spearman=float(stats.spearmanr(built_entries, published_entries).statistic),
        mean_absolute_difference=float(np.mean(np.abs(built_entries - published_entries))),
        separation=float(separation),
        n_separated_pairs=int(np.sum(separated)),
        sign_agreement=float(np.mean(agree)),
        built_condorcet_winner=condorcet_winner(built_skew),
        published_condorcet_winner=condorcet_winner(published_skew),
        built_copeland_winners=tuple(int(arm) for arm in copeland_winners(built_skew)),
        published_copeland_winners=tuple(int(arm) for arm in copeland_winners(published_skew)),
    )


def comparison_table(
    built: ArrayLike,
    published: ArrayLike,
    separations: tuple[float, ...] = DEFAULT_SEPARATIONS,
) -> pd.DataFrame:
    """One row per separation: pairs separated, sign agreement, and the correlations."""
    rows = []
    for separation in separations:
        comparison = compare_matrices(built, published, separation)
        rows.append(
            {
                "separation": separation,
                "separated_pairs": comparison.n_separated_pairs,
                "sign_agreement": comparison.sign_agreement,
                "pearson": comparison.pearson,
                "spearman": comparison.spearman,
                "mean_absolute_difference": comparison.mean_absolute_difference,
            }
        )
    return pd.DataFrame(rows)


def plot_comparison(
    built: ArrayLike,
    published: ArrayLike,
    *,
    title: str,
    separation: float = 0.1,
) -> Any:
    """Figure: scatter of built against published entries, and both matrices as heatmaps.

    Parameters
    ----------
    built, published : array_like, shape (K, K)
        Probability-form matrices.
    title : str
        Figure title (say which data and click model).
    separation : float, optional
        Separation whose band is shaded in the scatter plot.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    comparison = compare_matrices(built, published, separation)
    built_entries, published_entries, built_skew, published_skew = _upper_entries(built, published)
    figure, axes = plt.subplots(1, 3, figsize=(15, 4.8), layout="constrained")
    scatter = axes[0]
    scatter.axvspan(0.5 - separation, 0.5 + separation, color="0.9", zorder=0)
    scatter.scatter(published_entries, built_entries, s=3, alpha=0.4, color="C0", rasterized=True)
    scatter.plot([0, 1], [0, 1], color="0.4", linewidth=0.8)
    scatter.axhline(0.5, color="0.6", linewidth=0.6)
    scatter.axvline(0.5, color="0.6", linewidth=0.6)
    scatter.set_xlabel("published Q(i, j)")
    scatter.set_ylabel("built Q(i, j)")
    scatter.set_title(
        f"r = {comparison.pearson:.3f}; same winner on {100 * comparison.sign_agreement:.1f}% "
        f"of {comparison.n_separated_pairs}\npairs with |Q_pub - 0.5| > {separation:g}",
        fontsize=10,
    )
    scatter.set_xlim(0, 1)
    scatter.set_ylim(0, 1)
    for axis, matrix, name in (
        (axes[1], published_skew, "published"),
        (axes[2], built_skew, "built"),
    ):
        image = axis.imshow((matrix + 1.0) / 2.0, vmin=0.0, vmax=1.0, cmap="RdBu_r")
        axis.set_title(f"{name} Q (row beats column)", fontsize=10)
        axis.set_xlabel("ranker (feature column)")
        axis.set_ylabel("ranker (feature column)")
    figure.colorbar(image, ax=axes[1:], shrink=0.8, label="Q(i, j)")
    figure.suptitle(title)
    return figure


#: How :func:`comparison_summary_markdown` names the interleaving methods.
METHOD_NAMES = {"probabilistic": "Probabilistic Interleave", "team_draft": "Team-Draft Interleave"}


def _winner_text(winner: int | None) -> str:
    return "none" if winner is None else f"feature column {winner}"


def comparison_summary_markdown(
    comparison: MatrixComparison,
    *,
    click_model: str,
    dataset: str,
    queries: int,
    method: str,
    comparisons_per_pair: int,
    rankers: ArrayLike,
) -> str:
    """A README paragraph on a built matrix against the published one, from the comparison.

    Winners are reported as feature columns (``rankers[arm]``), the arms of both matrices;
    ``method`` is the built matrix's interleaving method (a key of :data:`METHOD_NAMES`).
    """
    columns = np.asarray(rankers)
    built_winner, published_winner = (
        None if winner is None else int(columns[winner])
        for winner in (comparison.built_condorcet_winner, comparison.published_condorcet_winner)
    )
    if built_winner == published_winner:
        condorcet = (
            f"Both matrices have the same Condorcet winner: {_winner_text(built_winner)}."
            if built_winner is not None
            else "Neither matrix has a Condorcet winner."
        )
    else:
        condorcet = (
            f"Condorcet winner of the built matrix: {_winner_text(built_winner)}; of the "
            f"published one: {_winner_text(published_winner)}. A winner decided by near-even "
            "pairs of a few queries is not the published matrix's: the built matrix is an "
            "estimate from a sample, the published one from the full data set."
        )
    return (
        f"From the {queries}-query MSLR {dataset}, the {click_model} "
        f"{comparison.n_rankers}×{comparison.n_rankers} matrix built with {METHOD_NAMES[method]} "
        f"({comparisons_per_pair:,} comparisons per pair and query) correlates "
        f"{comparison.pearson:.3f} with the published one (Spearman {comparison.spearman:.3f}, "
        f"mean absolute difference {comparison.mean_absolute_difference:.3f}) and picks the "
        f"same winner on {100 * comparison.sign_agreement:.1f}% of the "
        f"{comparison.n_separated_pairs:,} pairs the published matrix separates by more than "
        f"{comparison.separation:g}. {condorcet}\n"
    )


def sample_caveat(queries: int, dataset: str) -> str:
    """Why a matrix built from ``queries`` queries of ``dataset`` cannot match the published
    one entry by entry (module docstring), in the words of the validation summary."""
    return (
        f"The built matrix comes from {queries} queries of {dataset}; the published one was "
        "estimated on the full MSLR data set. A small sample of queries cannot reproduce it "
        "entry by entry: per-query preferences vary, so other queries give another matrix "
        "whatever the number of comparisons. The agreement measures how much of the "
        "published matrix comes from behaviour of the rankers common to all queries."
    )


@dataclass(frozen=True)
class PublishedValidation:
    """A built matrix against the published one: the comparison and what is written of it.

    Attributes
    ----------
    comparison : MatrixComparison
        At the headline separation (arms are rows of the built matrix).
    table : pandas.DataFrame
        :func:`comparison_table` at every :data:`DEFAULT_SEPARATIONS`.
    summary : dict
        JSON-ready: the data, click model and simulation of the built matrix, the
        comparison with every winner named by its feature column, the rankers and the
        :func:`sample_caveat`.
    markdown : str
        :func:`comparison_summary_markdown`.
    """

    comparison: MatrixComparison
    table: pd.DataFrame
    summary: dict[str, Any]
    markdown: str


def validate_against_published(
    built: PreferenceEstimate,
    published: ArrayLike,
    *,
    dataset: str,
    click_model: str,
    queries: int,
    separation: float,
    published_name: str,
) -> PublishedValidation:
    """Compare a built matrix with the published matrix of all feature columns.

    Parameters
    ----------
    built : PreferenceEstimate
        The matrix built from ``queries`` queries of ``dataset``.
    published : array_like, shape (n_features, n_features)
        The published probability-form matrix, one row per feature column; the rows of the
        built matrix's rankers are compared.
    dataset, click_model : str
        What the built matrix was simulated on and with.
    queries : int
        Queries of the data it was built from.
    separation : float
        The headline separation of :func:`compare_matrices`.
    published_name : str
        The data key of the published matrix, recorded in the summary.

    Returns
    -------
    PublishedValidation
    """
    rankers = built.rankers
    block = _published_block(published, rankers)
    comparison = compare_matrices(built.probability, block, separation)
    winners = comparison.as_dict()
    for key in ("built_condorcet_winner", "published_condorcet_winner"):
        if winners[key] is not None:
            winners[key] = int(rankers[winners[key]])
    for key in ("built_copeland_winners", "published_copeland_winners"):
        winners[key] = [int(rankers[arm]) for arm in winners[key]]
    summary = {
        "dataset": dataset,
        "click_model": click_model,
        "queries": queries,
        "comparisons_per_pair": built.comparisons_per_pair,
        "credit_ties": built.credit_ties,
        "published": published_name,
        **winners,
        "rankers": rankers,
        "caveat": sample_caveat(queries, dataset),
    }
    markdown = comparison_summary_markdown(
        comparison,
        click_model=click_model,
        dataset=dataset,
        queries=queries,
        method=built.method,
        comparisons_per_pair=built.comparisons_per_pair,
        rankers=rankers,
    )
    table = comparison_table(built.probability, block)
    return PublishedValidation(comparison, table, summary, markdown)


def plot_validation(
    built: PreferenceEstimate,
    published: ArrayLike,
    *,
    dataset: str,
    click_model: str,
    queries: int,
    separation: float,
) -> Any:
    """:func:`plot_comparison` of :func:`validate_against_published`'s matrices, with a title
    that names the data, the simulation and why a sample cannot match entry by entry."""
    return plot_comparison(
        built.probability,
        _published_block(published, built.rankers),
        title=(
            f"{click_model} matrix built from {queries} {dataset} queries "
            f"({built.comparisons_per_pair} comparisons/pair, {built.credit_ties} credit ties) "
            "vs the published one (full MSLR; a sample cannot reproduce it entry by entry)"
        ),
        separation=separation,
    )


def _published_block(published: ArrayLike, rankers: NDArray[np.int64]) -> NDArray[np.float64]:
    """The published matrix's rows and columns of ``rankers``, in their order."""
    return np.asarray(published)[np.ix_(rankers, rankers)]
