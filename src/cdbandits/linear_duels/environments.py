"""Contextual dueling environments with linear stochastic transitivity preferences.

A :class:`LinearDuelingEnvironment` holds a finite population of contexts. Context ``x`` shows
``K`` arms with feature vectors ``x_1 .. x_K`` in ``R^d`` and hidden utilities ``u_1 .. u_K``;
arm ``i`` beats arm ``j`` with probability ``F(u_i - u_j)`` for the link ``F``
(:mod:`cdbandits.linear_duels.links`). In the *linear* (realisable) case ``u_i = theta . x_i``
for a parameter ``theta`` the environment records; an environment may also carry utilities
that are not linear in the features (then ``theta`` is None), to see how the linear
algorithms fare when their model is wrong.

Every round (see :mod:`cdbandits.linear_duels.simulation`) Nature draws a context with one
uniform ``u`` of the environment's stream (the first ``x`` with ``u < p_0 + ... + p_x``) and
the duel ``(a, b)`` with another: ``a`` wins iff ``u' < F(u_a - u_b)``.

Because ``F`` is increasing, every context's preference matrix ``P_x(i, j) = 2 F(u_i - u_j) - 1``
is transitive: an arm of highest utility beats or ties every other arm, so it is the
Condorcet winner when it is unique, and the von Neumann winner of ``P_x`` is the point mass
on it (any mixture of the tied best arms when it is not).

Constructors: :func:`linear_environment` (given features and ``theta``),
:func:`synthetic_linear_environment` (Gaussian features, random ``theta``) and
:func:`letor_linear_environment` (documents of the queries of a LETOR file).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..dueling.counter_play import CounterPlayRounds
from ..letor import LetorData
from .estimation import fit_mle
from .links import Link, link_cdf, link_cdf_compiled, link_code

__all__ = [
    "EnvironmentArrays",
    "LetorUtility",
    "LinearDuelingEnvironment",
    "ScheduleArrays",
    "draw_context",
    "draw_context_compiled",
    "duel_outcome_compiled",
    "letor_linear_environment",
    "linear_environment",
    "principal_components",
    "synthetic_linear_environment",
]

LetorUtility = Literal["fitted", "labels"]


class EnvironmentArrays(NamedTuple):
    """What the kernels read of an environment (:meth:`LinearDuelingEnvironment.arrays`)."""

    features: NDArray[np.float64]
    utilities: NDArray[np.float64]
    cumulative: NDArray[np.float64]
    link: int


class ScheduleArrays(NamedTuple):
    """An environment whose rounds are drawn in advance, as the kernels read it.

    Round ``step`` of a kernel call (0-based) shows context ``context_ids[step]``, and the duel
    ``(a, b)`` is won by ``a`` iff ``duel_uniforms[step] < win[context, a, b]``: a
    :class:`~cdbandits.contextual.environments.ContextPopulation` with its schedule
    (:meth:`~cdbandits.contextual.environments.StochasticEnvironment.draw_schedule`) and
    ``win = (1 + P) / 2``, played by the same kernels as :class:`EnvironmentArrays` (no
    linear model, no utilities: a run records no weak regret).

    ``win`` may instead be the adaptive adversary's rounds
    (:class:`~cdbandits.dueling.counter_play.CounterPlayRounds`, whose ``context_ids`` are the
    schedule's): ``a`` then wins iff ``duel_uniforms[step]`` is below the probability the
    adversary's rule sets from the plays so far, and the duel is counted
    (:func:`~cdbandits.dueling.counter_play.scheduled_win_probability`).
    """

    features: NDArray[np.float64]
    win: NDArray[np.float64] | CounterPlayRounds
    context_ids: NDArray[np.int64]
    duel_uniforms: NDArray[np.float64]


@dataclass(frozen=True)
class LinearDuelingEnvironment:
    """Contexts of ``K`` arms with features and hidden utilities; see the module docstring.

    Attributes
    ----------
    features : ndarray of float64, shape (n_contexts, K, d)
    utilities : ndarray of float64, shape (n_contexts, K)
    probabilities : ndarray of float64, shape (n_contexts,)
        Non-negative, summing to 1.
    link : {"logistic", "probit"}
    theta : ndarray of float64, shape (d,), or None
        The parameter with ``utilities = features @ theta`` (linear case), else None.
    name : str
        Used in result tables.
    """

    features: NDArray[np.float64]
    utilities: NDArray[np.float64]
    probabilities: NDArray[np.float64]
    link: Link
    theta: NDArray[np.float64] | None = None
    name: str = "linear"

    def __post_init__(self) -> None:
        features, utilities, probabilities = self.features, self.utilities, self.probabilities
        link_code(self.link)
        if features.ndim != 3 or features.shape[1] < 2 or features.shape[2] < 1:
            raise ValueError(
                f"features must have shape (n_contexts, K >= 2, d >= 1); got {features.shape}"
            )
        n, k, d = features.shape
        if utilities.shape != (n, k) or probabilities.shape != (n,):
            raise ValueError(
                f"utilities must have shape {(n, k)} and probabilities {(n,)}; got "
                f"{utilities.shape} and {probabilities.shape}"
            )
        for label, values in (("features", features), ("utilities", utilities)):
            if not np.isfinite(values).all():
                context = int(np.argwhere(~np.isfinite(values))[0][0])
                raise ValueError(f"{label} of context {context} are not all finite")
        if (probabilities < 0).any() or abs(probabilities.sum() - 1.0) > 1e-12:
            raise ValueError(
                f"probabilities must be non-negative and sum to 1; sum is {probabilities.sum()!r}"
            )
        if self.theta is not None:
            if self.theta.shape != (d,):
                raise ValueError(f"theta must have shape ({d},); got {self.theta.shape}")
            if not np.allclose(features @ self.theta, utilities, rtol=1e-12, atol=1e-12):
                raise ValueError("utilities differ from features @ theta")

    @property
    def n_contexts(self) -> int:
        """Number of contexts."""
        return int(self.features.shape[0])

    @property
    def n_arms(self) -> int:
        """Arms per context ``K``."""
        return int(self.features.shape[1])

    @property
    def n_features(self) -> int:
        """Feature dimension ``d``."""
        return int(self.features.shape[2])

    def win_probabilities(self) -> NDArray[np.float64]:
        """``Q[x, i, j] = F(u_i - u_j)``, shape (n_contexts, K, K) (diagonal 1/2)."""
        u = self.utilities
        return link_cdf(self.link, u[:, :, None] - u[:, None, :])

    def skew_matrices(self) -> NDArray[np.float64]:
        """``P[x] = Q[x] - Q[x]^T``, exactly skew-symmetric (equal to ``2 Q - 1``)."""
        q = self.win_probabilities()
        return q - q.transpose(0, 2, 1)

    def best_utilities(self) -> NDArray[np.float64]:
        """``max_i u_i`` per context."""
        return self.utilities.max(axis=1)

    def arrays(self) -> EnvironmentArrays:
        """The arrays the compiled kernels read, contiguous."""
        return EnvironmentArrays(
            np.ascontiguousarray(self.features),
            np.ascontiguousarray(self.utilities),
            np.cumsum(self.probabilities),
            link_code(self.link),
        )


def draw_context(cumulative: NDArray[np.float64], uniform: float) -> int:
    """The first context ``x`` with ``uniform < p_0 + ... + p_x`` (else the last)."""
    index = int(np.searchsorted(cumulative, uniform, side="right"))
    return min(index, cumulative.size - 1)


@numba.njit(cache=True)
def draw_context_compiled(cumulative: NDArray[np.float64], uniform: float) -> int:
    """:func:`draw_context` in numba (binary search, same comparisons)."""
    low, high = 0, cumulative.size
    while low < high:
        middle = (low + high) // 2
        if uniform < cumulative[middle]:
            high = middle
        else:
            low = middle + 1
    return min(low, cumulative.size - 1)


@numba.njit(cache=True)
def duel_outcome_compiled(
    code: int, utilities: NDArray[np.float64], a: int, b: int, uniform: float
) -> int:
    """1 iff ``uniform < F(u_a - u_b)`` (both engines call this one function)."""
    return 1 if uniform < link_cdf_compiled(code, utilities[a] - utilities[b]) else 0


def _probabilities(n_contexts: int, probabilities: ArrayLike | None) -> NDArray[np.float64]:
    if probabilities is None:
        return np.full(n_contexts, 1.0 / n_contexts)
    weights = np.array(probabilities, dtype=np.float64)
    if weights.shape != (n_contexts,) or (weights < 0).any() or weights.sum() <= 0:
        raise ValueError(
            f"probabilities must be {n_contexts} non-negative numbers with a positive sum"
        )
    return weights / weights.sum()


def linear_environment(
    features: ArrayLike,
    theta: ArrayLike,
    link: Link = "logistic",
    probabilities: ArrayLike | None = None,
    name: str = "linear",
) -> LinearDuelingEnvironment:
    """The realisable environment with utilities ``features @ theta``.

    Parameters
    ----------
    features : array_like, shape (n_contexts, K, d)
    theta : array_like, shape (d,)
    link : {"logistic", "probit"}, optional
    probabilities : array_like, shape (n_contexts,), optional
        Uniform when omitted; normalised to sum 1.
    name : str, optional
    """
    x = np.array(features, dtype=np.float64)
    parameter = np.array(theta, dtype=np.float64)
    if x.ndim != 3 or parameter.shape != (x.shape[-1],):
        raise ValueError(
            f"need features (n_contexts, K, d) and theta (d,); got {x.shape} and {parameter.shape}"
        )
    return LinearDuelingEnvironment(
        x, x @ parameter, _probabilities(x.shape[0], probabilities), link, parameter, name
    )


def synthetic_linear_environment(
    n_contexts: int,
    n_arms: int,
    n_features: int,
    rng: np.random.Generator,
    *,
    utility_scale: float = 1.0,
    link: Link = "logistic",
) -> LinearDuelingEnvironment:
    """Gaussian arm features and a random parameter.

    Features are i.i.d. ``N(0, I_d / d)`` (so ``E |x|^2 = 1``) and ``theta`` is a uniformly
    random direction of norm ``utility_scale * sqrt(d)``, so that the utilities of the arms
    are i.i.d. ``N(0, utility_scale^2)`` given ``theta``. Contexts are uniform.

    Parameters
    ----------
    n_contexts, n_arms, n_features : int
    rng : numpy.random.Generator
    utility_scale : float, optional
        Standard deviation of the utilities.
    link : {"logistic", "probit"}, optional
    """
    if n_contexts < 1 or n_arms < 2 or n_features < 1:
        raise ValueError(
            "need n_contexts >= 1, n_arms >= 2 and n_features >= 1; got "
            f"{n_contexts}, {n_arms}, {n_features}"
        )
    if not utility_scale > 0:
        raise ValueError(f"utility_scale must be positive; got {utility_scale!r}")
    features = rng.standard_normal((n_contexts, n_arms, n_features)) / np.sqrt(n_features)
    direction = rng.standard_normal(n_features)
    theta = utility_scale * np.sqrt(n_features) * direction / np.linalg.norm(direction)
    name = f"synthetic-{link}-K{n_arms}-d{n_features}"
    return linear_environment(features, theta, link, name=name)


def principal_components(features: NDArray[np.float64], n_components: int) -> NDArray[np.float64]:
    """Standardise the columns (constant ones dropped), project on the leading principal
    components, and scale so that the projected rows have mean squared norm 1."""
    spread = features.std(axis=0)
    kept = spread > 0
    if kept.sum() < n_components:
        raise ValueError(
            f"the data have {int(kept.sum())} non-constant features; cannot keep {n_components}"
        )
    standard = (features[:, kept] - features[:, kept].mean(axis=0)) / spread[kept]
    _, _, components = np.linalg.svd(standard, full_matrices=False)
    leading = components[:n_components]
    signs = np.sign(leading[np.arange(n_components), np.argmax(np.abs(leading), axis=1)])
    projected = standard @ (leading.T * signs)
    return projected / np.sqrt((projected**2).sum(axis=1).mean())


def _labelled_pairs(
    projected: NDArray[np.float64], labels: NDArray[np.int8], offsets: NDArray[np.int64]
) -> NDArray[np.float64]:
    """``x_i - x_j`` for every pair of documents of a query with ``label_i > label_j``."""
    pairs = []
    for query in range(offsets.size - 1):
        rows = slice(int(offsets[query]), int(offsets[query + 1]))
        grades = labels[rows].astype(np.int64)
        better, worse = np.nonzero(grades[:, None] > grades[None, :])
        pairs.append(projected[rows][better] - projected[rows][worse])
    differences = np.concatenate(pairs)
    if differences.shape[0] == 0:
        raise ValueError("no query has documents of different relevance grades")
    return differences


def letor_linear_environment(
    data: LetorData,
    n_arms: int,
    n_features: int,
    rng: np.random.Generator,
    *,
    utility: LetorUtility = "fitted",
    link: Link = "logistic",
    label_scale: float = 1.0,
    contexts_per_query: int = 1,
    l2: float = 1.0,
) -> LinearDuelingEnvironment:
    """Contexts made of the documents of LETOR queries.

    Features: the LETOR feature columns are standardised (constant columns dropped) and
    projected on their ``n_features`` leading principal components (signs fixed so that each
    component's largest loading is positive), scaled to mean squared norm 1 per document.
    Each context is ``n_arms`` documents of one query drawn without replacement; a query
    gives ``contexts_per_query`` contexts (queries with fewer than ``n_arms`` documents are
    skipped). Contexts are uniform.

    Utilities:

    * ``"fitted"`` (realisable): ``theta`` is the regularised MLE (link ``link``, penalty
      ``l2``) of the pairwise model on every pair of documents of a query whose relevance
      grades differ, the better one winning: a linear RankNet on the labels. Utilities are
      ``features @ theta``.
    * ``"labels"`` (misspecified): ``u = label_scale * grade``; ``theta`` is None.

    Parameters
    ----------
    data : cdbandits.letor.LetorData
    n_arms, n_features : int
    rng : numpy.random.Generator
        Draws the documents of each context.
    utility : {"fitted", "labels"}, optional
    link : {"logistic", "probit"}, optional
    label_scale : float, optional
    contexts_per_query : int, optional
    l2 : float, optional
    """
    if utility not in ("fitted", "labels"):
        raise ValueError(f"utility must be 'fitted' or 'labels'; got {utility!r}")
    if n_arms < 2 or n_features < 1 or contexts_per_query < 1:
        raise ValueError(
            "need n_arms >= 2, n_features >= 1 and contexts_per_query >= 1; got "
            f"{n_arms}, {n_features}, {contexts_per_query}"
        )
    projected = principal_components(np.asarray(data.features, dtype=np.float64), n_features)
    offsets = data.query_offsets
    documents = []
    for query in range(data.n_queries):
        first, stop = int(offsets[query]), int(offsets[query + 1])
        if stop - first < n_arms:
            continue
        for _ in range(contexts_per_query):
            documents.append(first + np.sort(rng.choice(stop - first, n_arms, replace=False)))
    if not documents:
        raise ValueError(f"no query of {data.sources} has {n_arms} documents or more")
    chosen = np.array(documents)
    features = projected[chosen]
    name = f"letor-{utility}-{link}-K{n_arms}-d{n_features}"
    if utility == "labels":
        utilities = label_scale * data.labels[chosen].astype(np.float64)
        return LinearDuelingEnvironment(
            features, utilities, _probabilities(len(chosen), None), link, None, name
        )
    differences = _labelled_pairs(projected, data.labels, offsets)
    theta = fit_mle(link, differences, np.ones(differences.shape[0]), l2, np.zeros(n_features))
    return linear_environment(features, theta, link, name=name)
