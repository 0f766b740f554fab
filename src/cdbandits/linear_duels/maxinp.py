"""MaxInP: the maximum-informative pair among the arms that may still be best.

Saha, "Optimal Algorithms for Stochastic Contextual Preference Bandits", NeurIPS 2021,
Algorithm 1 (Maximum-Informative-Pair, MaxInP).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba.extending import overload
from numpy.typing import NDArray

from ..dueling.checks import check_positive
from .base import MaximumLikelihoodDueler, exploration_pair, select_pair
from .estimation import weighted_gram, weighted_gram_compiled
from .links import Link

__all__ = ["MaxInP", "MaxInPSelection", "maxinp_width"]


def maxinp_width(t: int, n_features: int, delta: float, scale: float) -> float:
    """``beta_t = scale * sqrt((d / 2) log(1 + 2 t / d) + log(1 / delta))``."""
    return scale * math.sqrt(0.5 * n_features * math.log1p(2.0 * t / n_features) - math.log(delta))


class MaxInP(MaximumLikelihoodDueler):
    """MaxInP (Saha, NeurIPS 2021, Algorithm 1).

    Round ``t``:

    1. ``t <= tau``: a uniformly random pair of distinct arms (exploration,
       :class:`~cdbandits.linear_duels.base.MaximumLikelihoodDueler`).
    2. Otherwise the candidates are the arms that may still be the best,
       ``C_t = {i : theta_hat . (x_i - x_j) + beta_t |x_i - x_j|_{W^{-1}} >= 0 for all j}``
       (never empty: it holds the arms of highest estimated utility), and the duel is the
       most informative pair of candidates, ``(a, b) = argmax_{i, j in C_t} |x_i - x_j|_{W^{-1}}``
       with ``a < b``; a single candidate duels itself (and teaches nothing).
    3. Learn from the outcome (shared learning: stored differences, ``W^{-1}``, MLE).

    The width is the GLM-UCB width of the paper's analysis (after Li, Lu and Zhou, ICML 2017),
    ``beta_t = (1 / kappa) sqrt((d / 2) log(1 + 2 t / d) + log(1 / delta))``, with ``kappa``
    the smallest slope of the link over the parameter set; ``width_scale`` plays ``1 / kappa``.
    Choices this implementation makes where the paper leaves them open or where we could not
    read it (the search tools gave the abstract, not the algorithm box or the experiments):
    ``width_scale = 1`` and ``delta = 0.05`` by default (``1 / kappa`` is at least 4 for the
    logistic link and makes the algorithm explore far longer; pass it to follow the analysis),
    ``tau = d K`` exploration rounds (the same budget as :class:`~cdbandits.linear_duels.
    colstim.CoLSTIM`), the ridge ``lambda = 1`` in the MLE and in ``W``, the refit schedule of
    :mod:`cdbandits.linear_duels.base`, Newton's method for the MLE, ``>= 0`` (not ``> 0``) in
    the candidate test, and ties of the pair ``argmax`` (probability 0 with continuous
    features) going to the first pair in increasing ``(a, b)`` order.

    Parameters
    ----------
    delta : float, optional
        Confidence level ``delta`` in ``(0, 1)``.
    width_scale : float, optional
        ``1 / kappa``.
    exploration_rounds : int, optional
        ``tau >= 0``; ``None`` means ``d K``.
    l2 : float, optional
        Ridge ``lambda``.
    refit_growth : float, optional
        MLE refit schedule (``1`` = every round).
    link : {"logistic", "probit"}, optional
        The link assumed by the MLE.

    Attributes
    ----------
    candidates_ : ndarray of bool, shape (K,)
        ``C_t`` of the last exploiting round.
    """

    name = "maxinp"

    def __init__(
        self,
        delta: float = 0.05,
        width_scale: float = 1.0,
        exploration_rounds: int | None = None,
        l2: float = 1.0,
        refit_growth: float = 1.1,
        link: Link = "logistic",
    ) -> None:
        super().__init__(exploration_rounds, l2, refit_growth, link)
        self.delta = check_positive("delta", delta)
        if self.delta >= 1.0:
            raise ValueError(f"delta must be in (0, 1); got {delta!r}")
        self.width_scale = check_positive("width_scale", width_scale)

    def _start(self) -> None:
        super()._start()
        self.candidates_ = np.ones(self.n_arms_, dtype=np.bool_)

    def _select(self, t: int, features: NDArray[np.float64]) -> tuple[int, int]:
        if t <= self.tau_:
            return exploration_pair(self.rng_, self.n_arms_)
        beta = maxinp_width(t, self.n_features_, self.delta, self.width_scale)
        gram = weighted_gram(features, self.gram_inverse_)
        diagonal = np.diag(gram)
        spread = np.sqrt(np.maximum(diagonal[:, None] + diagonal[None, :] - 2.0 * gram, 0.0))
        utilities = features @ self.theta_
        optimistic = utilities[:, None] - utilities[None, :] + beta * spread
        self.candidates_ = (optimistic >= 0.0).all(axis=1)
        members = np.flatnonzero(self.candidates_)
        within = spread[np.ix_(members, members)]
        first, second = np.unravel_index(int(np.argmax(np.triu(within, 1))), within.shape)
        if members.size == 1 or within[first, second] <= 0.0:
            return int(members[0]), int(members[0])
        return int(members[first]), int(members[second])

    def _selection(self) -> MaxInPSelection:
        return MaxInPSelection(self.delta, self.width_scale, self.candidates_)


class MaxInPSelection(NamedTuple):
    """MaxInP's part of the kernel state: ``delta``, ``1 / kappa`` and ``C_t`` (K,), in place."""

    delta: float
    width_scale: float
    candidates: NDArray[np.bool_]


def _maxinp_pair(selection, t, rng, features, learning, projected, gram, utilities):
    """The exploiting round of :class:`MaxInP` in numba (the rule :func:`select_pair` compiles)."""
    k, d = features.shape
    delta, candidates = selection.delta, selection.candidates
    beta = selection.width_scale * math.sqrt(0.5 * d * math.log1p(2.0 * t / d) - math.log(delta))
    weighted_gram_compiled(features, learning.gram_inverse, projected, gram)
    for i in range(k):
        total = 0.0
        for j in range(d):
            total += features[i, j] * learning.theta[j]
        utilities[i] = total
    for i in range(k):  # gram's diagonal is kept; its off-diagonal becomes the spread
        for j in range(i + 1, k):
            spread = math.sqrt(max(gram[i, i] + gram[j, j] - 2.0 * gram[i, j], 0.0))
            gram[i, j] = spread
            gram[j, i] = spread
    for i in range(k):
        candidates[i] = True
        for j in range(k):
            if j != i and utilities[i] - utilities[j] + beta * gram[i, j] < 0.0:
                candidates[i] = False
                break
    first = -1
    a, b = -1, -1
    best = 0.0
    for i in range(k):
        if not candidates[i]:
            continue
        if first < 0:
            first = i
        for j in range(i + 1, k):
            if candidates[j] and gram[i, j] > best:
                a, b, best = i, j, gram[i, j]
    if a < 0:
        return first, first
    return a, b


@overload(select_pair)
def _select_pair_overload(selection, t, rng, features, learning, projected, gram, utilities):
    if getattr(selection, "instance_class", None) is MaxInPSelection:
        return _maxinp_pair
    return None
