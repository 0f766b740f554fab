"""The statistics every experiment family reports: intervals, log-log slopes, bootstraps.

One place for each estimator, so that the appendix, the online experiments, the oracle
methods and the families that follow compute an interval or a rate the same way.

* :func:`binomial_interval`: Clopper–Pearson (exact) or Wilson intervals for proportions;
  :func:`clopper_pearson` is its scalar form; :func:`binomial_upper_bound` the one-sided
  upper bound (what an interval should report when nothing was observed).
* :func:`mean_with_interval`: a mean over seeds with its normal-approximation interval.
* :func:`log_log_slope`: the least-squares rate of ``y`` against ``x`` on log-log axes.
* :func:`bootstrap_slope_over_seeds` and :func:`bootstrap_slope_per_value`: percentile
  bootstrap intervals of that slope, resampling whole seeds (paired across ``x``) or each
  ``x``'s measurements on their own (independent runs per ``x``);
  :func:`last_decade_slope_over_seeds` is the former restricted to the last decade of ``x``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "INTERVAL_METHODS",
    "Z95",
    "IntervalMethod",
    "binomial_interval",
    "binomial_upper_bound",
    "bootstrap_slope_over_seeds",
    "bootstrap_slope_per_value",
    "clopper_pearson",
    "last_decade_slope_over_seeds",
    "log_log_slope",
    "mean_with_interval",
]

IntervalMethod = Literal["clopper-pearson", "wilson"]

#: The binomial interval methods of :func:`binomial_interval`.
INTERVAL_METHODS: tuple[IntervalMethod, ...] = ("clopper-pearson", "wilson")

#: The standard normal's 97.5% quantile (two-sided 95% normal intervals).
Z95 = 1.959963984540054


def binomial_interval(
    successes: ArrayLike,
    trials: ArrayLike,
    confidence: float = 0.95,
    method: IntervalMethod = "clopper-pearson",
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Two-sided confidence interval for a binomial proportion.

    Parameters
    ----------
    successes, trials : array_like of int
        Counts (broadcast together); ``0 <= successes <= trials``.
    confidence : float, optional
        Coverage, in (0, 1).
    method : {"clopper-pearson", "wilson"}, optional
        ``"clopper-pearson"``: the exact (conservative) interval from beta quantiles, with
        the one-sided bounds 0 and 1 at ``successes == 0`` and ``== trials``.
        ``"wilson"``: the Wilson score interval.

    Returns
    -------
    (low, high) : tuple of ndarray of float64
        NaN where ``trials == 0``.

    Raises
    ------
    ValueError
        If ``confidence`` is not in (0, 1), a count is out of range, or ``method`` is unknown.
    """
    s, n = np.broadcast_arrays(
        np.asarray(successes, dtype=np.float64), np.asarray(trials, dtype=np.float64)
    )
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    if np.any(s < 0) or np.any(s > n):
        raise ValueError("successes must lie in [0, trials]")
    # Imported here: scipy.stats takes about a second to import, and the workflow imports this
    # module (for Z95) every time it reads the Snakefile, in every job a cluster runs.
    from scipy import stats as scipy_stats

    alpha = 1.0 - confidence
    empty = n == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        if method == "clopper-pearson":
            low = np.where(s == 0, 0.0, scipy_stats.beta.ppf(alpha / 2, s, n - s + 1))
            high = np.where(s == n, 1.0, scipy_stats.beta.ppf(1 - alpha / 2, s + 1, n - s))
        elif method == "wilson":
            z = scipy_stats.norm.ppf(1 - alpha / 2)
            p = s / n
            denominator = 1 + z**2 / n
            centre = (p + z**2 / (2 * n)) / denominator
            half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denominator
            low, high = np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)
        else:
            raise ValueError(f"method must be one of {INTERVAL_METHODS}, got {method!r}")
    return np.where(empty, np.nan, low), np.where(empty, np.nan, high)


def binomial_upper_bound(
    successes: ArrayLike,
    trials: ArrayLike,
    confidence: float = 0.95,
    method: IntervalMethod = "clopper-pearson",
) -> NDArray[np.float64]:
    """One-sided upper confidence bound of a binomial proportion.

    The upper end of the two-sided interval of coverage ``2 * confidence - 1`` of the same
    method, which leaves ``1 - confidence`` above it. For Clopper–Pearson and no successes
    it is ``1 - (1 - confidence) ** (1 / trials)`` (about ``3 / trials`` at 95%).

    Parameters
    ----------
    successes, trials : array_like of int
        Counts, as for :func:`binomial_interval`.
    confidence : float, optional
        Coverage of the bound, in (1/2, 1).
    method : {"clopper-pearson", "wilson"}, optional

    Returns
    -------
    ndarray of float64
        NaN where ``trials == 0``.
    """
    if not 0.5 < confidence < 1:
        raise ValueError(f"a one-sided bound needs confidence in (1/2, 1), got {confidence}")
    return binomial_interval(successes, trials, 2 * confidence - 1, method)[1]


def clopper_pearson(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper–Pearson) interval of one proportion, as floats; NaN for no trials."""
    low, high = binomial_interval(successes, trials, level, "clopper-pearson")
    return float(low), float(high)


def mean_with_interval(values: ArrayLike, z: float = Z95) -> dict[str, float]:
    """Mean of ``values`` with its normal-approximation interval ``mean ± z·sd/√n``.

    Returns
    -------
    dict
        ``mean``, ``ci_low``, ``ci_high`` (NaN for fewer than two values) and ``n_seeds``.
    """
    array = np.asarray(values, dtype=np.float64)
    n = int(array.size)
    mean = float(array.mean())
    half = z * float(array.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return {"mean": mean, "ci_low": mean - half, "ci_high": mean + half, "n_seeds": n}


def log_log_slope(x: Sequence[float] | ArrayLike, y: Sequence[float] | ArrayLike) -> float:
    """Least-squares slope of ``log y`` against ``log x``.

    NaN unless every ``y > 0`` and there are at least two distinct ``x``.
    """
    x_array = np.asarray(x, dtype=np.float64)
    y_array = np.asarray(y, dtype=np.float64)
    if x_array.size < 2 or np.unique(x_array).size < 2 or not (y_array > 0).all():
        return math.nan
    return float(np.polyfit(np.log(x_array), np.log(y_array), 1)[0])


def bootstrap_slope_over_seeds(
    x: ArrayLike, values: ArrayLike, rng: np.random.Generator, draws: int = 1000
) -> tuple[float, float, float]:
    """Log-log slope of the seed means, with a bootstrap interval that resamples seeds.

    For runs where one seed gives a measurement at every ``x`` (a regret curve): each draw
    resamples whole rows, so the measurements of one seed stay together.

    Parameters
    ----------
    x : array_like, shape (n_x,)
    values : array_like, shape (n_seeds, n_x)
        One row per seed.
    rng : numpy.random.Generator
    draws : int, optional
        Bootstrap resamples.

    Returns
    -------
    (slope, low, high) : tuple of float
        The slope of the means and the 2.5% and 97.5% percentiles of the resampled slopes
        (NaN if none is finite).
    """
    xs = np.asarray(x, dtype=np.float64)
    table = np.asarray(values, dtype=np.float64)
    slope = log_log_slope(xs, table.mean(axis=0))
    resampled = rng.integers(0, table.shape[0], (draws, table.shape[0]))
    slopes = np.array([log_log_slope(xs, table[rows].mean(axis=0)) for rows in resampled])
    finite = slopes[np.isfinite(slopes)]
    low, high = np.percentile(finite, [2.5, 97.5]) if finite.size else (math.nan, math.nan)
    return slope, float(low), float(high)


def last_decade_slope_over_seeds(
    x: ArrayLike, values: ArrayLike, rng: np.random.Generator, draws: int = 1000
) -> tuple[float, float, float, int]:
    """:func:`bootstrap_slope_over_seeds` on the points with ``x >= max(x) / 10`` only.

    The rate of a curve over its last decade (a regret curve from ``T / 10`` to ``T``), where
    an asymptotic rate shows first; the points before ``max(x) / 10`` are ignored.

    Parameters
    ----------
    x : array_like, shape (n_x,)
        Positive.
    values : array_like, shape (n_seeds, n_x)
        One row per seed.
    rng : numpy.random.Generator
    draws : int, optional
        Bootstrap resamples.

    Returns
    -------
    (slope, low, high, n_points) : tuple
        The slope and its 95% interval as :func:`bootstrap_slope_over_seeds` gives them
        (NaN when fewer than two points lie in the last decade), and how many points do.
    """
    xs = np.asarray(x, dtype=np.float64)
    table = np.asarray(values, dtype=np.float64)
    if xs.ndim != 1 or table.ndim != 2 or table.shape[1] != xs.size or (xs <= 0).any():
        raise ValueError(
            f"need positive x of shape (n_x,) and values of shape (n_seeds, n_x); got "
            f"{xs.shape} and {table.shape}"
        )
    in_decade = xs >= xs.max() / 10.0
    n_points = int(np.unique(xs[in_decade]).size)
    if n_points < 2:
        return math.nan, math.nan, math.nan, n_points
    slope, low, high = bootstrap_slope_over_seeds(xs[in_decade], table[:, in_decade], rng, draws)
    return slope, low, high, n_points


def bootstrap_slope_per_value(
    samples: Mapping[float, ArrayLike], rng: np.random.Generator, draws: int = 500
) -> tuple[float, float, float]:
    """Log-log slope of the means, with a bootstrap that resamples each ``x`` on its own.

    For independent runs per ``x`` (a sweep whose settings share no seed structure).

    Parameters
    ----------
    samples : mapping of float to array_like
        The measurements at each ``x``.
    rng : numpy.random.Generator
    draws : int, optional
        Bootstrap resamples.

    Returns
    -------
    (slope, low, high) : tuple of float
        The slope of the means and the 2.5% and 97.5% quantiles of the resampled slopes;
        NaN bounds when the slope itself is NaN or no resampled slope is finite.
    """
    values = sorted(samples)
    arrays = {value: np.asarray(samples[value], dtype=np.float64) for value in values}
    slope = log_log_slope(values, [arrays[v].mean() for v in values])
    if math.isnan(slope):
        return slope, math.nan, math.nan
    resampled = []
    for _ in range(draws):
        means = [rng.choice(arrays[v], size=arrays[v].size).mean() for v in values]
        resampled.append(log_log_slope(values, means))
    finite = np.array([s for s in resampled if not math.isnan(s)])
    if finite.size == 0:
        return slope, math.nan, math.nan
    return slope, float(np.quantile(finite, 0.025)), float(np.quantile(finite, 0.975))
