"""Do the intervals cover? Checks on synthetic logs drawn from a known preference matrix.

:func:`coverage_check` repeats, ``replications`` times: draw a log with
``comparisons_per_pair`` comparisons of every pair, each won by ``i`` with probability
``Q[i, j]`` (:func:`synthetic_log`); run the same code as the command line on it (counts,
the reported vNW, :func:`.uncertainty.resampled_distribution`); and record whether each
interval contains the truth:

* ``"weight"``: per item, the interval of its vNW weight
  (:meth:`.uncertainty.WinnerDistribution.weight_interval`, the projection of a confidence
  set of lotteries, :mod:`.near_optimal`) against the weight in
  the true matrix's vNW (which must be unique: :func:`coverage_check` refuses a matrix
  whose vNW is not proven unique by the batched solver's Condorcet shortcut or simplex
  method, whose vertex is accepted only when strictly complementary, hence unique);
* ``"exploitability"``: the one-sided upper bound of the reported lottery's exploitability
  (:meth:`.uncertainty.WinnerDistribution.exploitability_bound`) against its
  exploitability under the true matrix, ``-min_j (w_hat^T P)_j``;
* ``"pair"``: per pair ``i < j``, the binomial interval of :meth:`.counts.PairCounts.intervals`
  against ``Q[i, j]``.

The result has one row per (method, target, item or pair) with the coverage, its
Clopper–Pearson interval, the mean width of the weight and pair intervals and
``passes = coverage >= confidence - tolerance`` (the issue's criterion: at least nominal
minus 0.02 over at least 500 replications). ``resample`` can be
replaced to check that a broken method *fails* the check. Runs sharded over independent
random streams add up with :func:`merge_coverage`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray
from tqdm.auto import tqdm

from ..batched import METHODS, von_neumann_winners
from ..preference import as_skew, to_probability
from ..stats import binomial_interval
from .counts import count_pairs
from .records import ComparisonLog, log_from_counts
from .settings import RESAMPLING_METHODS, ResamplingMethod
from .uncertainty import WinnerDistribution, pair_index, resampled_distribution

__all__ = ["Resample", "coverage_check", "merge_coverage", "synthetic_log"]

#: ``resample(log, method, reported, resamples, rng, confidence)``: the resampling under test.
Resample = Callable[..., WinnerDistribution]

#: Slack for "the truth lies in the interval" (interval ends and truths are computed in
#: floating point; a weight of exactly 0 must count as inside [0, 0]).
_INSIDE_TOL = 1e-9

#: Paths of the batched solver that prove the vNW unique (the interior point path, taken for
#: ties and clones, and for dense supports beyond the simplex's pivot budget, does not).
_UNIQUE_METHODS = ("condorcet", "simplex")


def synthetic_log(
    matrix: ArrayLike,
    comparisons_per_pair: int,
    rng: np.random.Generator,
    items: Sequence[str] | None = None,
) -> ComparisonLog:
    """A log with ``comparisons_per_pair`` comparisons of every pair, drawn from ``matrix``.

    Parameters
    ----------
    matrix : array_like, shape (K, K)
        Preference matrix in either convention (see :func:`cdbandits.preference.as_skew`).
    comparisons_per_pair : int
    rng : numpy.random.Generator
    items : sequence of str, optional
        Names; default ``"0"``, ``"1"``, ...

    Returns
    -------
    ComparisonLog
        Aggregated records (:func:`.records.log_from_counts`): resampling them by weight is
        resampling the single comparisons.
    """
    q = to_probability(as_skew(matrix, "auto"))
    k = q.shape[0]
    rows, cols = pair_index(k)
    won = rng.binomial(comparisons_per_pair, q[rows, cols])
    wins = np.zeros((k, k))
    wins[rows, cols] = won
    wins[cols, rows] = comparisons_per_pair - won
    names = list(items) if items is not None else [str(i) for i in range(k)]
    return log_from_counts(names, wins, source="synthetic")


def _unique_winner(P: NDArray[np.float64]) -> NDArray[np.float64]:
    solved = von_neumann_winners(P[None])
    if METHODS[solved.method[0]] not in _UNIQUE_METHODS:
        raise ValueError(
            "the true matrix's von Neumann winner is not certified unique (ties or clones); "
            "weight coverage needs a unique truth"
        )
    return solved.weights[0]


def _inside(low: Any, high: Any, truth: Any) -> NDArray[np.bool_]:
    return (np.asarray(low) - _INSIDE_TOL <= truth) & (truth <= np.asarray(high) + _INSIDE_TOL)


def coverage_check(
    matrix: ArrayLike,
    comparisons_per_pair: int,
    rng: np.random.Generator,
    *,
    replications: int = 500,
    resamples: int = 1000,
    confidence: float = 0.95,
    tolerance: float = 0.02,
    methods: Sequence[ResamplingMethod] = RESAMPLING_METHODS,
    resample: Resample = resampled_distribution,
    progress: bool = False,
) -> pd.DataFrame:
    """Coverage of the weight, exploitability and pair intervals (module docstring).

    Parameters
    ----------
    matrix : array_like, shape (K, K)
        The true preference matrix (either convention) with a unique vNW.
    comparisons_per_pair : int
    rng : numpy.random.Generator
        The only source of randomness (logs and resamples).
    replications : int, optional
        Synthetic logs (the issue asks for at least 500).
    resamples : int, optional
        Resamples per log and method.
    confidence : float, optional
        Nominal level of the intervals.
    tolerance : float, optional
        ``passes`` when the coverage is at least ``confidence - tolerance``.
    methods : sequence of {"bootstrap", "posterior"}, optional
    resample : callable, optional
        The resampling under test, with the signature of
        :func:`.uncertainty.resampled_distribution`.
    progress : bool, optional

    Returns
    -------
    pandas.DataFrame
        Columns ``method`` ("bootstrap", "posterior" or "binomial" for pairs), ``target``,
        ``label`` (item or "i>j"), ``truth``, ``covered``, ``replications``, ``coverage``,
        ``coverage_low``, ``coverage_high`` (95% Clopper–Pearson), ``nominal``,
        ``passes``, ``total_width`` and ``mean_width`` (of the intervals over the
        replications; NaN for the one-sided exploitability bound).
    """
    P = as_skew(matrix, "auto")
    q = to_probability(P)
    k = P.shape[0]
    items = tuple(str(i) for i in range(k))
    truth = _unique_winner(P)
    rows, cols = pair_index(k)
    weight_hits = {method: np.zeros(k, dtype=np.int64) for method in methods}
    weight_widths = {method: np.zeros(k) for method in methods}
    pair_widths = np.zeros(rows.size)
    exploit_hits = dict.fromkeys(methods, 0)
    pair_hits = np.zeros(rows.size, dtype=np.int64)
    for _ in tqdm(range(replications), desc="coverage", disable=not progress, leave=False):
        log = synthetic_log(P, comparisons_per_pair, rng, items)
        counts = count_pairs(log)
        low, high = counts.intervals(confidence)
        pair_hits += _inside(low[rows, cols], high[rows, cols], q[rows, cols])
        pair_widths += high[rows, cols] - low[rows, cols]
        reported = von_neumann_winners(counts.skew_matrix()[None]).weights[0]
        true_exploitability = -float((reported @ P).min())
        for method in methods:
            dist = resample(log, method, reported, resamples, rng, confidence=confidence)
            weight_low, weight_high = dist.weight_interval()
            weight_hits[method] += _inside(weight_low, weight_high, truth)
            weight_widths[method] += weight_high - weight_low
            exploit_hits[method] += int(
                true_exploitability <= dist.exploitability_bound() + _INSIDE_TOL
            )
    records = []
    for method in methods:
        records += [
            (method, "weight", items[i], truth[i], weight_hits[method][i], weight_widths[method][i])
            for i in range(k)
        ]
        records.append(
            (method, "exploitability", "reported lottery", np.nan, exploit_hits[method], np.nan)
        )
    records += [
        ("binomial", "pair", f"{i}>{j}", q[i, j], pair_hits[p], pair_widths[p])
        for p, (i, j) in enumerate(zip(rows, cols, strict=True))
    ]
    columns = ["method", "target", "label", "truth", "covered", "total_width"]
    table = pd.DataFrame(records, columns=columns)
    table["replications"] = replications
    table["nominal"] = confidence
    return _summarise(table, tolerance)


def _summarise(table: pd.DataFrame, tolerance: float) -> pd.DataFrame:
    table = table.copy()
    table["coverage"] = table["covered"] / table["replications"]
    table["mean_width"] = table["total_width"] / table["replications"]
    low, high = binomial_interval(table["covered"], table["replications"])
    table["coverage_low"], table["coverage_high"] = low, high
    table["passes"] = table["coverage"] >= table["nominal"] - tolerance
    return table


def merge_coverage(tables: Sequence[pd.DataFrame], tolerance: float = 0.02) -> pd.DataFrame:
    """Add up the coverage tables of shards run with independent random streams.

    Parameters
    ----------
    tables : sequence of pandas.DataFrame
        Results of :func:`coverage_check` on the same matrix and settings.
    tolerance : float, optional
        As for :func:`coverage_check`.

    Returns
    -------
    pandas.DataFrame
        The same rows with ``covered``, ``replications`` and ``total_width`` summed and the
        rest recomputed.
    """
    keys = ["method", "target", "label", "truth", "nominal"]
    summed = ["covered", "total_width", "replications"]
    combined = pd.concat(tables).groupby(keys, sort=False, dropna=False)[summed].sum(min_count=1)
    return _summarise(combined.reset_index()[[*keys[:4], *summed, "nominal"]], tolerance)
