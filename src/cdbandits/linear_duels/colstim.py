"""CoLSTIM: contextual linear stochastic transitivity model, imitated by perturbed utilities.

Bengs, Saha and Hüllermeier, "Stochastic Contextual Dueling Bandits under Linear Stochastic
Transitivity Models", ICML 2022, Algorithm 1 (CoLSTIM).
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
from .links import Link, perturbation_compiled, perturbations

__all__ = ["CoLSTIM", "CoLSTIMSelection"]


class CoLSTIM(MaximumLikelihoodDueler):
    """CoLSTIM (Bengs, Saha and Hüllermeier, ICML 2022, Algorithm 1).

    The first arm imitates the random-utility process behind the LST model with the current
    estimate, the second is the most optimistic challenger of the first. Round ``t``:

    1. ``t <= tau``: a uniformly random pair of distinct arms (exploration,
       :class:`~cdbandits.linear_duels.base.MaximumLikelihoodDueler`).
    2. Otherwise, draw one random-utility noise ``eps_i`` per arm from the link's noise
       distribution (standard Gumbel for the logistic link, ``N(0, 1/2)`` for the probit
       link; :func:`~cdbandits.linear_duels.links.perturbations`), trim it to ``[-C, C]``,
       and play

       ``a = argmax_i theta_hat . x_i + eps_i |x_i|_{W^{-1}}``,

       ``b = argmax_j theta_hat . x_j + c_1 |x_j - x_a|_{W^{-1}}``

       (``b = a`` is allowed: it happens once no challenger's optimistic utility exceeds
       ``a``'s estimated utility, and the self-duel then teaches nothing).
    3. Learn from the outcome (shared learning: stored differences, ``W^{-1}``, MLE).

    Defaults are those of the paper's analysis: ``C = c_1 = sqrt(d log T)``. Choices this
    implementation makes where the paper leaves them open or where we could not read it (the
    search tools gave the abstract, not the algorithm box; the algorithm was written from the
    paper's description and checked against the structure of the authors' group's public code
    for the multi-dueling extension, none of which is copied): ``tau = d K`` exploration rounds
    by default (that code's default), the ridge ``lambda = 1`` in the MLE and in ``W``, the
    refit schedule of :mod:`cdbandits.linear_duels.base`, Newton's method for the MLE, and
    ties in both ``argmax`` (probability 0 once the noise is continuous) going to the lowest
    index.

    Parameters
    ----------
    threshold : float, optional
        ``C > 0``; ``None`` means ``sqrt(d log T)``.
    confidence_width : float, optional
        ``c_1 > 0``; ``None`` means ``sqrt(d log T)``.
    exploration_rounds : int, optional
        ``tau >= 0``; ``None`` means ``d K``.
    l2 : float, optional
        Ridge ``lambda``.
    refit_growth : float, optional
        MLE refit schedule (``1`` = every round).
    link : {"logistic", "probit"}, optional
        The link assumed (MLE and noise).

    Attributes
    ----------
    threshold_, confidence_width_ : float
        ``C`` and ``c_1`` of this run.
    perturbations_ : ndarray, shape (K,)
        The trimmed noise of the last exploiting round.
    """

    name = "colstim"

    def __init__(
        self,
        threshold: float | None = None,
        confidence_width: float | None = None,
        exploration_rounds: int | None = None,
        l2: float = 1.0,
        refit_growth: float = 1.1,
        link: Link = "logistic",
    ) -> None:
        super().__init__(exploration_rounds, l2, refit_growth, link)
        self.threshold = None if threshold is None else check_positive("threshold", threshold)
        self.confidence_width = (
            None
            if confidence_width is None
            else check_positive("confidence_width", confidence_width)
        )

    def _start(self) -> None:
        super()._start()
        default = math.sqrt(self.n_features_ * math.log(max(self.horizon_, 2)))
        self.threshold_ = default if self.threshold is None else self.threshold
        self.confidence_width_ = default if self.confidence_width is None else self.confidence_width
        self.perturbations_ = np.zeros(self.n_arms_)

    def _select(self, t: int, features: NDArray[np.float64]) -> tuple[int, int]:
        if t <= self.tau_:
            return exploration_pair(self.rng_, self.n_arms_)
        noise = perturbations(self.link, self.rng_, self.n_arms_)
        self.perturbations_ = np.clip(noise, -self.threshold_, self.threshold_)
        gram = weighted_gram(features, self.gram_inverse_)
        diagonal = np.diag(gram)
        utilities = features @ self.theta_
        a = int(np.argmax(utilities + self.perturbations_ * np.sqrt(np.maximum(diagonal, 0.0))))
        spread = np.maximum(diagonal + diagonal[a] - 2.0 * gram[:, a], 0.0)
        b = int(np.argmax(utilities + self.confidence_width_ * np.sqrt(spread)))
        return a, b

    def _selection(self) -> CoLSTIMSelection:
        return CoLSTIMSelection(self.threshold_, self.confidence_width_, self.perturbations_)


class CoLSTIMSelection(NamedTuple):
    """CoLSTIM's part of the kernel state: ``C``, ``c_1`` and the noise (K,), filled in place."""

    threshold: float
    width: float
    noise: NDArray[np.float64]


def _colstim_pair(selection, t, rng, features, learning, projected, gram, utilities):
    """Step 2 of :class:`CoLSTIM` in numba (the rule :func:`select_pair` compiles)."""
    k = features.shape[0]
    threshold, noise = selection.threshold, selection.noise
    for i in range(k):
        noise[i] = min(threshold, max(-threshold, perturbation_compiled(learning.code, rng)))
    weighted_gram_compiled(features, learning.gram_inverse, projected, gram)
    a = 0
    best = -np.inf
    for i in range(k):
        total = 0.0
        for j in range(features.shape[1]):
            total += features[i, j] * learning.theta[j]
        utilities[i] = total
        score = total + noise[i] * math.sqrt(max(gram[i, i], 0.0))
        if score > best:
            a, best = i, score
    b = 0
    best = -np.inf
    for j in range(k):
        spread = max(gram[j, j] + gram[a, a] - 2.0 * gram[j, a], 0.0)
        score = utilities[j] + selection.width * math.sqrt(spread)
        if score > best:
            b, best = j, score
    return a, b


@overload(select_pair)
def _select_pair_overload(selection, t, rng, features, learning, projected, gram, utilities):
    if getattr(selection, "instance_class", None) is CoLSTIMSelection:
        return _colstim_pair
    return None
