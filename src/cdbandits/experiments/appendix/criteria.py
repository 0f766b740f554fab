"""How a claim about the sampled matrices is decided: statistics, their per-K shares, criteria.

A :class:`Statistic` counts, per K, the sampled matrices with a property; its
:class:`Shares` carry those counts with binomial intervals (:mod:`cdbandits.stats`). A
criterion (:class:`PooledShare`, :class:`NoneAmong`, :class:`DecreasingInK`,
:class:`FallsBelowEarly`, :class:`SlightlyBelowAndVarying`) turns the shares into a verdict:
the value, its interval, a value text, whether the claim holds for the point estimate and
whether the whole interval agrees. The claims themselves are declared in :mod:`.claims`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from ...stats import IntervalMethod, binomial_interval
from .counts import AppendixCounts, KCounts

__all__ = [
    "Criterion",
    "DecreasingInK",
    "FallsBelowEarly",
    "NoneAmong",
    "PooledShare",
    "Shares",
    "SlightlyBelowAndVarying",
    "Statistic",
    "Verdict",
]


@dataclass(frozen=True)
class Statistic:
    """A property of a sampled matrix, counted per K.

    Attributes
    ----------
    name : str
        Identifier.
    label : str
        Short name in value texts (e.g. ``"P(Condorcet winner)"``, ``"all"``).
    phrase : str
        What the counted matrices do, after "N of M matrices" (e.g. ``"have support > 5"``).
    count : callable
        The number of matrices of one :class:`~.counts.KCounts` with the property.
    """

    name: str
    label: str
    phrase: str
    count: Callable[[KCounts], int]

    def shares(self, counts: AppendixCounts, confidence: float, method: IntervalMethod) -> Shares:
        """This statistic's counts per K of ``counts``, with intervals."""
        rows = [counts.per_k[k] for k in sorted(counts.per_k)]
        return Shares(
            statistic=self,
            ks=np.array([row.k for row in rows]),
            successes=np.array([self.count(row) for row in rows]),
            trials=np.array([row.matrices for row in rows]),
            confidence=confidence,
            method=method,
        )


@dataclass(frozen=True)
class Shares:
    """Per-K counts of a statistic and their binomial intervals (arrays of one length).

    Attributes
    ----------
    statistic : Statistic
        What is counted.
    ks, successes, trials : ndarray of int
        Matrix size, matrices with the property, matrices sampled.
    confidence : float
        Coverage of the intervals.
    method : {"clopper-pearson", "wilson"}
        Interval method.
    """

    statistic: Statistic
    ks: NDArray[np.int64]
    successes: NDArray[np.int64]
    trials: NDArray[np.int64]
    confidence: float
    method: IntervalMethod

    @property
    def fraction(self) -> NDArray[np.float64]:
        """Share per K."""
        return self.successes / self.trials

    @cached_property
    def interval(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Interval of the share per K."""
        return binomial_interval(self.successes, self.trials, self.confidence, self.method)

    @property
    def pooled(self) -> tuple[int, int]:
        """``(successes, trials)`` over every K."""
        return int(self.successes.sum()), int(self.trials.sum())

    def pooled_interval(self) -> tuple[float, float]:
        """Interval of the pooled share."""
        low, high = binomial_interval(*self.pooled, self.confidence, self.method)
        return float(low), float(high)

    def confidence_text(self) -> str:
        """``"95%"`` for the coverage."""
        return f"{100 * self.confidence:g}%"


#: What a criterion gives for the table: ``value``, ``ci_low``, ``ci_high``,
#: ``value_text``, ``holds``, ``ci_agrees``.
Verdict = dict[str, Any]


class Criterion(Protocol):
    """How a claim is decided on the :class:`Shares` of its statistic."""

    def template_values(self, shares: Shares) -> dict[str, Any]:
        """Values the claim's reading is formatted with."""
        ...

    def evaluate(self, shares: Shares, counts: AppendixCounts, detail: str) -> Verdict:
        """The verdict; ``detail`` is a claim-specific addition to the value text."""
        ...


@dataclass(frozen=True)
class PooledShare:
    """The pooled share is above (or below) ``threshold``."""

    threshold: float
    above: bool = True

    def template_values(self, shares: Shares) -> dict[str, Any]:
        return {}

    def evaluate(self, shares: Shares, counts: AppendixCounts, detail: str) -> Verdict:
        successes, trials = shares.pooled
        low, high = shares.pooled_interval()
        value = successes / trials
        holds = value > self.threshold if self.above else value < self.threshold
        ci_agrees = low > self.threshold if self.above else high < self.threshold
        text = (
            f"{100 * value:.4f}% ({successes} of {trials}; "
            f"{shares.confidence_text()} CI {100 * low:.4f}%-{100 * high:.4f}%)"
        )
        return {
            "value": value,
            "ci_low": low,
            "ci_high": high,
            "value_text": text + (f"; {detail}" if detail else ""),
            "holds": bool(holds),
            "ci_agrees": bool(ci_agrees),
        }


@dataclass(frozen=True)
class NoneAmong:
    """Not one matrix has the property, among more than ``min_matrices`` sampled."""

    min_matrices: int

    def template_values(self, shares: Shares) -> dict[str, Any]:
        return {}

    def evaluate(self, shares: Shares, counts: AppendixCounts, detail: str) -> Verdict:
        found, total = shares.pooled
        low, high = shares.pooled_interval()
        holds = found == 0 and total > self.min_matrices
        return {
            "value": found / total,
            "ci_low": low,
            "ci_high": high,
            "value_text": f"{found} of {total} matrices {shares.statistic.phrase}"
            + (f" ({detail})" if detail else "")
            + f"; {shares.confidence_text()} CI of the rate {low:.2e}-{high:.2e}",
            "holds": holds,
            "ci_agrees": holds,
        }


@dataclass(frozen=True)
class DecreasingInK:
    """The share at the largest K is significantly below that at the smallest (disjoint
    intervals), and no larger K has its interval entirely above that of a smaller K."""

    def template_values(self, shares: Shares) -> dict[str, Any]:
        return {}

    def evaluate(self, shares: Shares, counts: AppendixCounts, detail: str) -> Verdict:
        fraction, ks = shares.fraction, shares.ks
        low, high = shares.interval
        above = np.triu(low[None, :] > high[:, None], k=1)
        rises = [(int(ks[i]), int(ks[j])) for i, j in np.argwhere(above)]
        holds = bool(high[-1] < low[0]) and not rises
        return {
            "value": float(fraction[-1]),
            "ci_low": float(low[-1]),
            "ci_high": float(high[-1]),
            "value_text": (
                f"P from {100 * fraction[0]:.2f}% (K={ks[0]}) to "
                f"{100 * fraction[-1]:.2f}% (K={ks[-1]}); {len(rises)} significantly "
                f"increasing pairs" + (f", e.g. K={rises[0][0]} -> {rises[0][1]}" if rises else "")
            ),
            "holds": holds,
            "ci_agrees": holds,
        }


@dataclass(frozen=True)
class FallsBelowEarly:
    """The share falls below ``level`` at some K up to half the largest K sampled."""

    level: float

    def template_values(self, shares: Shares) -> dict[str, Any]:
        return {"level": self.level, "half_of_largest": int(shares.ks[-1]) / 2}

    def evaluate(self, shares: Shares, counts: AppendixCounts, detail: str) -> Verdict:
        fraction, ks = shares.fraction, shares.ks
        high = shares.interval[1]
        half_of_largest = self.template_values(shares)["half_of_largest"]
        below, surely_below = fraction < self.level, high < self.level
        first = int(ks[below][0]) if below.any() else None
        first_surely = int(ks[surely_below][0]) if surely_below.any() else None
        return {
            "value": float(first) if first is not None else np.nan,
            "ci_low": np.nan,
            "ci_high": np.nan,
            "value_text": (
                f"first K with P < {self.level:.0%}: {first}; with the whole CI below "
                f"{self.level:.0%}: {first_surely}"
                if first is not None
                else f"{shares.statistic.label} stays at or above {self.level:.0%} for every "
                "sampled K"
            ),
            "holds": first is not None and first <= half_of_largest,
            "ci_agrees": first_surely is not None and first_surely <= half_of_largest,
        }


@dataclass(frozen=True)
class SlightlyBelowAndVarying:
    """The pooled share is below that of ``other``, below ``reference`` by at most ``within``
    (our reading of "slightly lower than"), and the per-K shares differ.

    ``ci_agrees`` asks the same of the intervals: the pooled interval lies in
    ``[reference - within, reference)`` and the lowest and highest K have disjoint intervals.
    """

    other: Statistic
    reference: float
    within: float

    def template_values(self, shares: Shares) -> dict[str, Any]:
        return {"reference": self.reference, "within_points": 100 * self.within}

    def evaluate(self, shares: Shares, counts: AppendixCounts, detail: str) -> Verdict:
        every, total = shares.pooled
        some = self.other.shares(counts, shares.confidence, shares.method).pooled[0]
        pooled_low, pooled_high = shares.pooled_interval()
        fraction, ks = shares.fraction, shares.ks
        low, high = shares.interval
        lowest, highest = int(np.argmin(fraction)), int(np.argmax(fraction))
        value, floor = every / total, self.reference - self.within
        varies, surely_varies = fraction[lowest] < fraction[highest], high[lowest] < low[highest]
        return {
            "value": value,
            "ci_low": pooled_low,
            "ci_high": pooled_high,
            "value_text": (
                f"{shares.statistic.label}: {100 * value:.3f}%, "
                f"{self.other.label}: {100 * some / total:.3f}%; "
                f"{100 * (self.reference - value):.2f} points below {self.reference:.1%} "
                f"('slightly': at most {100 * self.within:g}); per K from "
                f"{100 * fraction[lowest]:.2f}% (K={ks[lowest]}) to "
                f"{100 * fraction[highest]:.2f}% (K={ks[highest]})"
            ),
            "holds": bool(every < some and floor <= value < self.reference and varies),
            "ci_agrees": bool(
                every < some
                and floor <= pooled_low
                and pooled_high < self.reference
                and surely_varies
            ),
        }
