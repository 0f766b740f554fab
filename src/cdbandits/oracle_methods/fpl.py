"""SparringFPL (Section 7, Appendix D.2): two Follow-the-Perturbed-Leader copies, sparring.

For ``t = 1 .. N``, with ``p_t, q_t`` uniform on ``[0, 1/alpha]^{mK}``:

* ``w_t = argmin_{w in C} w . (-B (u_1 + ... + u_{t-1}) + p_t)``;
* ``u_t = argmin_{u in C} u . (B^T (w_1 + ... + w_{t-1}) + q_t)``;

output ``wbar = (1/N) sum_t w_t``, the uniform mixture of the ``N`` row policies. Each argmin
is one oracle call with the bracket as costs. The cumulative losses are sums of *policy
vectors*, whose entries are ``1/sqrt(m)``, and are added to perturbations of scale
``1/alpha = L sqrt(N / 2)``: this is the scaling of Theorem fpl (``D = sqrt(m)``,
``A = L sqrt(m)``, ``R = L``), and the one implemented here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from .compact_game import CompactGame
from .hull import Checkpoint, PolicyMixture
from .oracles import PolicyOracle
from .theory import fpl_alpha, fpl_rounds

__all__ = ["SparringFPL"]


class SparringFPL:
    """SparringFPL with the theory's ``alpha`` and ``N`` as defaults.

    Parameters
    ----------
    n_rounds : int, optional
        ``N``. When omitted it is Theorem fpl's ``N`` for accuracy ``epsilon``
        (:func:`~cdbandits.oracle_methods.theory.fpl_rounds`), usually astronomically
        large.
    alpha : float, optional
        Perturbation parameter; default ``sqrt(2 / (L^2 N))``.
    epsilon : float, optional
        Target gap ``2 eps`` of Theorem fpl, used only when ``n_rounds`` is omitted.
    delta : float, optional
        Failure probability for that ``N``.
    checkpoints : sequence of int, optional
        Rounds ``t`` after which the running averages are recorded in ``trace_``.

    Attributes
    ----------
    n_rounds_ : int
    alpha_ : float
    row_policies_, column_policies_ : ndarray of int64, shape (N,)
        ``w_t`` and ``u_t`` as policy ids.
    row_mixture_, column_mixture_ : PolicyMixture
        ``wbar`` and ``ubar``.
    row_vector_, column_vector_ : ndarray of float64, shape (m, K)
        Their dense points of ``C``.
    mean_payoff_ : float
        ``(1/N) sum_t w_t^T B u_t``.
    n_oracle_calls_ : int
        ``2 N``.
    trace_ : list of Checkpoint
    """

    def __init__(
        self,
        n_rounds: int | None = None,
        alpha: float | None = None,
        epsilon: float | None = None,
        delta: float = 0.05,
        checkpoints: Sequence[int] = (),
    ) -> None:
        self.n_rounds = n_rounds
        self.alpha = alpha
        self.epsilon = epsilon
        self.delta = delta
        self.checkpoints = checkpoints

    def _budget(self, game: CompactGame) -> tuple[int, float]:
        if self.n_rounds is None:
            if self.epsilon is None:
                raise ValueError("give n_rounds, or epsilon to use Theorem fpl's N")
            n = fpl_rounds(game.bound, game.n_rounds, self.epsilon, self.delta)
        else:
            n = int(self.n_rounds)
        if n < 1:
            raise ValueError(f"n_rounds must be at least 1; got {n}")
        alpha = fpl_alpha(game.bound, n) if self.alpha is None else float(self.alpha)
        if not alpha > 0:
            raise ValueError(f"alpha must be positive; got {alpha}")
        return n, alpha

    def fit(self, game: CompactGame, oracle: PolicyOracle, rng: np.random.Generator) -> SparringFPL:
        """Run ``N`` rounds on ``game`` with ``oracle``; perturbations from ``rng``.

        Returns
        -------
        self
        """
        if oracle.n_rounds != game.n_rounds or oracle.n_actions != game.n_actions:
            raise ValueError(
                f"the oracle covers (m, K) = ({oracle.n_rounds}, {oracle.n_actions}), the game "
                f"{game.shape}"
            )
        n, alpha = self._budget(game)
        checkpoints = sorted({int(t) for t in self.checkpoints if 1 <= t <= n})
        row_sum = np.zeros(game.shape)  # w_1 + ... + w_t
        column_sum = np.zeros(game.shape)
        row_loss = np.zeros(game.shape)  # -B (u_1 + ... + u_t)
        column_loss = np.zeros(game.shape)  # B^T (w_1 + ... + w_t)
        row_ids = np.empty(n, dtype=np.int64)
        column_ids = np.empty(n, dtype=np.int64)
        payoff_sum = 0.0
        self.trace_: list[Checkpoint] = []
        for t in range(1, n + 1):
            perturbations = rng.random((2, *game.shape)) / alpha
            row = oracle.argmin(row_loss + perturbations[0]).policy
            column = oracle.argmin(column_loss + perturbations[1]).policy
            row_vector, column_vector = oracle.vector(row), oracle.vector(column)
            payoff_sum += game.payoff(row_vector, column_vector)
            row_sum += row_vector
            column_sum += column_vector
            row_loss -= game.times(column_vector)
            column_loss += game.transpose_times(row_vector)
            row_ids[t - 1], column_ids[t - 1] = row, column
            if checkpoints and t == checkpoints[0]:
                checkpoints.pop(0)
                self.trace_.append(
                    Checkpoint(
                        iteration=t,
                        oracle_calls=2 * t,
                        row_mixture=PolicyMixture.uniform(row_ids[:t]),
                        column_mixture=PolicyMixture.uniform(column_ids[:t]),
                        row_vector=row_sum / t,
                        column_vector=column_sum / t,
                    )
                )
        self.n_rounds_ = n
        self.alpha_ = alpha
        self.row_policies_, self.column_policies_ = row_ids, column_ids
        self.row_mixture_ = PolicyMixture.uniform(row_ids)
        self.column_mixture_ = PolicyMixture.uniform(column_ids)
        self.row_vector_: NDArray[np.float64] = row_sum / n
        self.column_vector_: NDArray[np.float64] = column_sum / n
        self.mean_payoff_ = payoff_sum / n
        self.n_oracle_calls_ = 2 * n
        return self
