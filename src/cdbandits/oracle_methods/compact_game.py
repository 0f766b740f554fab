"""The compact game ``B`` of eq. (f4): ``B = blockdiag(Phat_1, ..., Phat_m)``, stored sparsely.

Vectors of the game live in ``R^{m K}``, stored as ``(m, K)`` arrays indexed by ``(i, a)``.
A policy vector is ``v_pi(i, a) = 1[pi(x_i) = a] / sqrt(m)`` (norm 1), so for policies
``pi, rho``

    ``v_pi^T B v_rho = (1/m) sum_i Phat_i(pi(x_i), rho(x_i)) = Mhat(pi, rho)``  (eq. f3).

``B`` is ``m`` blocks of ``K x K`` with one non-zero each for the importance-weighted
estimator (two for the skew-symmetrised one), so it is kept as its list of non-zeros and is
never materialised: ``B u``, ``B^T w`` and ``w^T B u`` cost ``O(nnz + m K)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .exploration import ExplorationSample, FixedExploration

__all__ = ["CompactGame", "policy_vectors"]


def policy_vectors(
    actions: ArrayLike, n_actions: int, weights: ArrayLike | None = None
) -> NDArray[np.float64]:
    """``sum_k weights[k] v_{pi_k}`` from the policies' actions on ``x_1 .. x_m``.

    Parameters
    ----------
    actions : array_like of int, shape (m, n)
        Column ``k`` holds ``pi_k(x_i)``.
    n_actions : int
    weights : array_like, shape (n,), optional
        Ones when omitted (the sum of the policy vectors).

    Returns
    -------
    ndarray of float64, shape (m, K)
        ``v(i, a) = sum_k weights[k] 1[pi_k(x_i) = a] / sqrt(m)``.
    """
    actions = np.asarray(actions)
    if actions.ndim != 2:
        raise ValueError(f"actions must have shape (m, n); got {actions.shape}")
    m, n = actions.shape
    weights = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
    if weights.shape != (n,):
        raise ValueError(f"weights must have shape ({n},); got {weights.shape}")
    flat = np.arange(m)[:, None] * n_actions + actions.astype(np.int64)
    mass = np.bincount(
        flat.reshape(-1),
        weights=np.broadcast_to(weights, (m, n)).reshape(-1),
        minlength=m * n_actions,
    )
    return mass.reshape(m, n_actions) / math.sqrt(m)


@dataclass(frozen=True)
class CompactGame:
    """``B = blockdiag(Phat_1, ..., Phat_m)`` as a list of non-zero entries.

    ``B[(i, a), (i, b)] = Phat_i(a, b)`` is stored as ``values[k]`` at
    ``(rounds[k], rows[k], columns[k])``; every ``(round, row, column)`` appears at most once.

    Attributes
    ----------
    n_rounds : int
        ``m``.
    n_actions : int
        ``K``.
    rounds, rows, columns : ndarray of int64, shape (nnz,)
    values : ndarray of float64, shape (nnz,)
    bound : float
        ``L``: every ``|Phat_i(a, b)| <= L``; also ``||B u|| <= L`` for ``u`` in the policy
        hull, since every row and column of a block has at most one non-zero.
    variance_bound : float
        ``V`` of the estimator.
    skew_symmetric : bool
        Whether every block is skew-symmetric (then the game value is 0).
    """

    n_rounds: int
    n_actions: int
    rounds: NDArray[np.int64]
    rows: NDArray[np.int64]
    columns: NDArray[np.int64]
    values: NDArray[np.float64]
    bound: float
    variance_bound: float
    skew_symmetric: bool

    def __post_init__(self) -> None:
        nnz = self.values.shape
        if not (self.rounds.shape == self.rows.shape == self.columns.shape == nnz) or len(nnz) != 1:
            raise ValueError("rounds, rows, columns and values must be 1-D arrays of one length")
        if self.n_rounds < 1 or self.n_actions < 2:
            raise ValueError(
                f"need m >= 1 and K >= 2; got m = {self.n_rounds}, K = {self.n_actions}"
            )
        if self.values.size:
            if self.rounds.min() < 0 or self.rounds.max() >= self.n_rounds:
                raise ValueError(f"rounds must lie in 0..{self.n_rounds - 1}")
            low = min(self.rows.min(), self.columns.min())
            high = max(self.rows.max(), self.columns.max())
            if low < 0 or high >= self.n_actions:
                raise ValueError(f"rows and columns must lie in 0..{self.n_actions - 1}")
        if np.abs(self.values).max(initial=0.0) > self.bound * (1 + 1e-12):
            raise ValueError(f"an entry exceeds the bound L = {self.bound}")
        keys = (self.rounds * self.n_actions + self.rows) * self.n_actions + self.columns
        if np.unique(keys).size != keys.size:
            raise ValueError("an entry of B is listed twice")

    @classmethod
    def from_sample(cls, sample: ExplorationSample, scheme: FixedExploration) -> CompactGame:
        """The game of an exploration sample under the scheme's estimator."""
        rounds, rows, columns, values = scheme.estimate_entries(
            sample.first_actions, sample.second_actions, sample.outcomes
        )
        return cls(
            n_rounds=sample.n_rounds,
            n_actions=scheme.n_actions,
            rounds=rounds,
            rows=rows,
            columns=columns,
            values=values,
            bound=scheme.bound,
            variance_bound=scheme.variance_bound,
            skew_symmetric=scheme.skew_symmetric,
        )

    @property
    def shape(self) -> tuple[int, int]:
        """``(m, K)``, the shape of a vector of the game."""
        return (self.n_rounds, self.n_actions)

    def _checked(self, vector: ArrayLike) -> NDArray[np.float64]:
        array = np.asarray(vector, dtype=np.float64)
        if array.shape != self.shape:
            raise ValueError(
                f"a game vector must have shape (m, K) = {self.shape}; got {array.shape}"
            )
        return array

    def _scatter(
        self, indices: NDArray[np.int64], weights: NDArray[np.float64]
    ) -> NDArray[np.float64]:
        size = self.n_rounds * self.n_actions
        return np.bincount(indices, weights=weights, minlength=size).reshape(self.shape)

    def times(self, u: ArrayLike) -> NDArray[np.float64]:
        """``B u``: ``(B u)(i, a) = sum_b Phat_i(a, b) u(i, b)``, shape ``(m, K)``."""
        u = self._checked(u)
        products = self.values * u[self.rounds, self.columns]
        return self._scatter(self.rounds * self.n_actions + self.rows, products)

    def transpose_times(self, w: ArrayLike) -> NDArray[np.float64]:
        """``B^T w``: ``(B^T w)(i, b) = sum_a w(i, a) Phat_i(a, b)``, shape ``(m, K)``."""
        w = self._checked(w)
        products = self.values * w[self.rounds, self.rows]
        return self._scatter(self.rounds * self.n_actions + self.columns, products)

    def payoff(self, w: ArrayLike, u: ArrayLike) -> float:
        """``w^T B u``."""
        w, u = self._checked(w), self._checked(u)
        return float(np.dot(self.values, w[self.rounds, self.rows] * u[self.rounds, self.columns]))

    def context_blocks(self, context_ids: ArrayLike, n_contexts: int) -> NDArray[np.float64]:
        """``(1/m) sum_{i: x_i = x} Phat_i`` for every context ``x``: shape ``(n_contexts, K, K)``.

        With these blocks, ``Mhat(pi, rho) = sum_x block_x(pi(x), rho(x))``
        (see :func:`cdbandits.oracle_methods.ground_truth.policy_game_matrix`).

        Parameters
        ----------
        context_ids : array_like of int, shape (m,)
            The context of every round.
        n_contexts : int
        """
        ids = np.asarray(context_ids, dtype=np.int64)
        if ids.shape != (self.n_rounds,):
            raise ValueError(f"context_ids must have shape ({self.n_rounds},); got {ids.shape}")
        if ids.min() < 0 or ids.max() >= n_contexts:
            raise ValueError(f"context ids must lie in 0..{n_contexts - 1}")
        k = self.n_actions
        flat = (ids[self.rounds] * k + self.rows) * k + self.columns
        blocks = np.bincount(flat, weights=self.values, minlength=n_contexts * k * k)
        return blocks.reshape(n_contexts, k, k) / self.n_rounds
