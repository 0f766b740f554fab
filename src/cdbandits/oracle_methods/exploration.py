"""Non-adaptive exploration and unbiased estimates of the hidden preference matrices.

In each of ``m`` exploration rounds the learner sees ``x_i``, duels a pair ``(a_i, b_i)``
drawn from a *fixed* distribution ``q`` over ordered pairs and observes ``r_i in {+1, -1}``.
An estimator turns the outcome into a sparse matrix ``Phat_i`` with
``E[Phat_i | x_i, P_i] = P_i`` (Section 6 and Appendix D of the paper):

* **importance weighted** (the paper's): ``Phat_i(a_i, b_i) = r_i / q(a_i, b_i)``, every other
  entry 0. For ``q`` uniform over the ``K^2`` ordered pairs this is the paper's
  ``Phat_i(a_i, b_i) = K^2 r_i``;
* **skew-symmetrised**: ``Phat_i(a_i, b_i) = -Phat_i(b_i, a_i) = r_i / s(a_i, b_i)`` with
  ``s(a, b) = q(a, b) + q(b, a)``; ``Phat_i`` is skew-symmetric, so is ``Mhat``, and the game
  value of ``Mhat`` is exactly 0. For ``q`` uniform over the ``K(K-1)`` ordered pairs with
  ``a != b`` this is ``Phat(a, b) = (K(K-1)/2) r``.

Diagonal entries are known (``P(a, a) = 0``): a duel of an action with itself, if ``q`` allows
one, still enters the importance-weighted estimate (as in the paper, whose uniform scheme
draws ``a_i = b_i`` with probability ``1/K``), but pairs with ``q = 0`` must be diagonal.

Each scheme exposes the two constants of the analysis: ``bound`` ``L >= |Phat_i(a, b)|`` and
``variance_bound`` ``V >= Var(Phat_i(a, b))``. Both equal ``max 1/q`` (importance weighted)
or ``max 1/s`` (skew-symmetrised) over the estimated off-diagonal pairs, because
``E[Phat(a, b)^2] = 1/q(a, b)`` (resp. ``1/s(a, b)``): ``L = V = K^2`` for uniform
exploration, ``L = V = K(K-1)/2`` for the skew-symmetrised variant.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..contextual.environments import DuelingEnvironment, StochasticEnvironment

__all__ = [
    "ESTIMATORS",
    "ExplorationSample",
    "FixedExploration",
    "explore",
    "skew_symmetric_exploration",
    "uniform_exploration",
]

#: Names of the two estimators, see the module docstring.
ESTIMATORS = ("importance_weighted", "skew_symmetrised")


class FixedExploration:
    """A fixed distribution over ordered pairs of actions and an unbiased estimator.

    Parameters
    ----------
    pair_probabilities : array_like, shape (K, K)
        ``q(a, b)``: probability of dueling ``a`` (first) against ``b``; non-negative, summing
        to 1, positive on every off-diagonal pair (importance weighted) or on at least one
        of ``(a, b)``, ``(b, a)`` for every ``a != b`` (skew-symmetrised).
    estimator : {"importance_weighted", "skew_symmetrised"}, optional
        See the module docstring.

    Attributes
    ----------
    n_actions : int
        ``K``.
    bound : float
        ``L``, the largest ``|Phat_i(a, b)|``.
    variance_bound : float
        ``V``, the largest ``Var(Phat_i(a, b))`` (its bound ``E[Phat^2]``).
    entry_scale : ndarray of float64, shape (K, K)
        ``Phat_i(a_i, b_i) = r_i * entry_scale[a_i, b_i]`` (``1/q`` or ``1/s``; 0 on the
        diagonal for the skew-symmetrised estimator).
    """

    def __init__(
        self, pair_probabilities: ArrayLike, estimator: str = "importance_weighted"
    ) -> None:
        q = np.array(pair_probabilities, dtype=np.float64)
        if q.ndim != 2 or q.shape[0] != q.shape[1] or q.shape[0] < 2:
            raise ValueError(f"pair_probabilities must be a K x K array with K >= 2; got {q.shape}")
        if not np.isfinite(q).all() or (q < 0).any() or abs(q.sum() - 1.0) > 1e-12:
            raise ValueError("pair_probabilities must be finite, non-negative and sum to 1")
        if estimator not in ESTIMATORS:
            raise ValueError(f"estimator must be one of {ESTIMATORS}; got {estimator!r}")
        k = q.shape[0]
        off_diagonal = ~np.eye(k, dtype=bool)
        if estimator == "importance_weighted":
            weight = q
        else:
            weight = q + q.T
        missing = np.argwhere(off_diagonal & (weight <= 0))
        if missing.size:
            a, b = missing[0]
            raise ValueError(
                f"the pair ({a}, {b}) is never explored, so P({a}, {b}) cannot be estimated "
                f"without bias by the {estimator} estimator"
            )
        scale = np.zeros((k, k))
        scale[weight > 0] = 1.0 / weight[weight > 0]
        if estimator == "skew_symmetrised":
            scale[~off_diagonal] = 0.0
        self.pair_probabilities = q
        self.estimator = estimator
        self.n_actions = k
        self.entry_scale = scale
        self.bound = float(scale.max())
        self.variance_bound = self.bound
        cumulative = np.cumsum(q.reshape(-1))
        # Ending exactly at 1 makes every uniform in [0, 1) land on a pair with q > 0.
        cumulative /= cumulative[-1]
        self._cumulative = cumulative

    @property
    def skew_symmetric(self) -> bool:
        """Whether every ``Phat_i``, hence ``Mhat``, is skew-symmetric (game value 0)."""
        return self.estimator == "skew_symmetrised"

    def draw_pairs(
        self, n_rounds: int, rng: np.random.Generator
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Draw ``n_rounds`` ordered pairs ``(a_i, b_i)`` i.i.d. from ``q``.

        Returns
        -------
        first, second : ndarray of int64, shape (n_rounds,)
        """
        flat = np.searchsorted(self._cumulative, rng.random(n_rounds), side="right")
        first, second = np.divmod(flat, self.n_actions)
        return first.astype(np.int64), second.astype(np.int64)

    def estimate_entries(
        self, first: ArrayLike, second: ArrayLike, outcomes: ArrayLike
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
        """The non-zero entries of ``Phat_1 .. Phat_m``.

        Parameters
        ----------
        first, second : array_like of int, shape (m,)
            The dueled pairs.
        outcomes : array_like, shape (m,)
            ``r_i`` in ``{+1, -1}``.

        Returns
        -------
        rounds, rows, columns : ndarray of int64, shape (nnz,)
        values : ndarray of float64, shape (nnz,)
            ``Phat_{rounds[k]}(rows[k], columns[k]) = values[k]``; one entry per round
            (importance weighted) or two (skew-symmetrised, none for ``a_i = b_i``). Entries
            that are zero are omitted.
        """
        a = np.asarray(first, dtype=np.int64)
        b = np.asarray(second, dtype=np.int64)
        r = np.asarray(outcomes, dtype=np.float64)
        if a.shape != b.shape or a.shape != r.shape or a.ndim != 1:
            raise ValueError("first, second and outcomes must be 1-D arrays of one length")
        if a.size and (min(a.min(), b.min()) < 0 or max(a.max(), b.max()) >= self.n_actions):
            raise ValueError(f"actions must lie in 0..{self.n_actions - 1}")
        if not np.isin(r, (-1.0, 1.0)).all():
            raise ValueError("outcomes must be +1 or -1")
        rounds = np.arange(a.size, dtype=np.int64)
        values = r * self.entry_scale[a, b]
        if self.skew_symmetric:
            keep = a != b
            rounds, a, b, values = rounds[keep], a[keep], b[keep], values[keep]
            return (
                np.concatenate([rounds, rounds]),
                np.concatenate([a, b]),
                np.concatenate([b, a]),
                np.concatenate([values, -values]),
            )
        return rounds, a, b, values


def uniform_exploration(n_actions: int) -> FixedExploration:
    """The paper's scheme: pairs uniform over all ``K^2`` ordered pairs, ``Phat = K^2 r``.

    ``L = V = K^2``.
    """
    return FixedExploration(np.full((n_actions, n_actions), 1.0 / n_actions**2))


def skew_symmetric_exploration(n_actions: int) -> FixedExploration:
    """Pairs uniform over the ``K(K-1)`` ordered pairs with ``a != b``, skew-symmetrised.

    ``Phat(a, b) = -Phat(b, a) = (K(K-1)/2) r``; ``L = V = K(K-1)/2``; ``Mhat`` is
    skew-symmetric, so its game value is 0.
    """
    q = np.full((n_actions, n_actions), 1.0 / (n_actions * (n_actions - 1)))
    np.fill_diagonal(q, 0.0)
    return FixedExploration(q, estimator="skew_symmetrised")


@dataclass(frozen=True)
class ExplorationSample:
    """The data of ``m`` exploration rounds.

    Attributes
    ----------
    context_ids : ndarray of int64, shape (m,)
        Index of ``x_i`` among the environment's contexts.
    first_actions, second_actions : ndarray of int64, shape (m,)
        ``(a_i, b_i)``.
    outcomes : ndarray of int8, shape (m,)
        ``r_i``.
    """

    context_ids: NDArray[np.int64]
    first_actions: NDArray[np.int64]
    second_actions: NDArray[np.int64]
    outcomes: NDArray[np.int8]

    @property
    def n_rounds(self) -> int:
        """``m``."""
        return int(self.context_ids.size)


def explore(
    environment: DuelingEnvironment,
    scheme: FixedExploration,
    n_rounds: int,
    rng: np.random.Generator,
) -> ExplorationSample:
    """Run ``n_rounds`` rounds of non-adaptive exploration.

    ``rng`` is split into an environment stream and a pair stream. On a
    :class:`~cdbandits.contextual.environments.StochasticEnvironment` the whole schedule
    is drawn at once (:meth:`~StochasticEnvironment.draw_schedule`); on any other
    environment the rounds are played one by one with the same pairs.

    Parameters
    ----------
    environment : DuelingEnvironment
    scheme : FixedExploration
    n_rounds : int
        ``m >= 1``.
    rng : numpy.random.Generator

    Returns
    -------
    ExplorationSample
    """
    if n_rounds < 1:
        raise ValueError(f"n_rounds must be at least 1; got {n_rounds}")
    if scheme.n_actions != environment.n_actions:
        raise ValueError(
            f"the scheme has {scheme.n_actions} actions, the environment {environment.n_actions}"
        )
    environment_rng, pair_rng = rng.spawn(2)
    first, second = scheme.draw_pairs(n_rounds, pair_rng)
    if isinstance(environment, StochasticEnvironment):
        context_ids, uniforms = environment.draw_schedule(n_rounds, environment_rng)
        matrices = environment.population.matrices
        wins = uniforms < (1.0 + matrices[context_ids, first, second]) / 2.0
        outcomes = np.where(wins, 1, -1).astype(np.int8)
        return ExplorationSample(context_ids, first, second, outcomes)
    environment.reset(environment_rng)
    context_ids = np.empty(n_rounds, dtype=np.int64)
    outcomes = np.empty(n_rounds, dtype=np.int8)
    for i in range(n_rounds):
        context_ids[i] = environment.next_context()
        outcomes[i] = environment.duel(int(first[i]), int(second[i]))
    return ExplorationSample(context_ids, first, second, outcomes)
