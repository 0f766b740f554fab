"""SparringFPL (Section 7, Appendix D.2): two Follow-the-Perturbed-Leader copies, sparring.

For ``t = 1 .. N``, with ``p_t, q_t`` uniform on ``[0, 1/alpha]^{mK}``:

* ``w_t = argmin_{w in C} w . (-B (u_1 + ... + u_{t-1}) + p_t)``;
* ``u_t = argmin_{u in C} u . (B^T (w_1 + ... + w_{t-1}) + q_t)``;

output ``wbar = (1/N) sum_t w_t``, the uniform mixture of the ``N`` row policies. Each argmin
is one oracle call with the bracket as costs. The cumulative losses are sums of *policy
vectors*, whose entries are ``1/sqrt(m)``, and are added to perturbations of scale
``1/alpha = L sqrt(N / 2)``: this is the scaling of Theorem fpl (``D = sqrt(m)``,
``A = L sqrt(m)``, ``R = L``), and the one implemented here.

Two paths give the same rounds. The default is a Python loop that calls the oracle twice a
round (any :class:`~.oracles.PolicyOracle`). With ``compiled=True`` the rounds run in a
numba kernel over the oracle's *policy table* (every policy's actions on the distinct
exploration contexts, :meth:`~.oracles.PolicyOracle.policy_table`; only for a class small
enough to enumerate): the perturbations are drawn from the same ``rng`` in the same order
(in blocks of rounds, which NumPy fills as the same stream), the costs are summed per
distinct context in sample order as :class:`~.oracles.ExactOracle` does, and ties go to the
smallest policy id; the policies chosen are the loop's unless two policies' totals differ
by rounding only. The argmin is :attr:`SparringFPL.table_argmin`, a compiled function a
subclass may replace.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numba
import numpy as np
from numpy.typing import NDArray

from .compact_game import CompactGame
from .hull import Checkpoint, PolicyMixture
from .oracles import PolicyOracle
from .theory import fpl_alpha, fpl_rounds

__all__ = ["SparringFPL", "table_argmin"]

#: Perturbation values drawn per block of rounds on the compiled path (1 MB of float64: the
#: block stays in cache between NumPy filling it and the kernel reading it).
PERTURBATION_BLOCK = 1 << 17


@numba.njit(cache=True)
def table_argmin(costs: NDArray[np.float64], table: NDArray[np.uint8]) -> int:
    """``argmin_pi sum_x costs[x, table[x, pi]]``, ties to the smallest id (contexts in order)."""
    best, best_total = 0, np.inf
    for policy in range(table.shape[1]):
        total = 0.0
        for x in range(table.shape[0]):
            total += costs[x, table[x, policy]]
        if total < best_total:
            best, best_total = policy, total
    return best


@numba.njit(cache=True)
def _table_rounds(
    argmin,
    first_round: int,
    noise: NDArray[np.float64],
    alpha: float,
    table: NDArray[np.uint8],
    context_of: NDArray[np.int64],
    entries: tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]],
    state: tuple[NDArray[np.float64], ...],
) -> float:
    """Rounds ``first_round + 1 ..`` of SparringFPL, one per ``noise[r]`` (uniforms of the
    round's two perturbations); updates the state arrays, returns the rounds' payoff sum.

    ``entries`` are the game's ``(rounds, rows, columns, values)``; ``state`` is
    ``(row_loss, column_loss, row_sum, column_sum, row_ids, column_ids)``.
    """
    rounds, rows, columns, values = entries
    row_loss, column_loss, row_sum, column_sum, row_ids, column_ids = state
    m, k = row_loss.shape
    scale = 1.0 / math.sqrt(m)  # the entry of a policy vector (policy_vectors)
    summed = np.empty((table.shape[0], k))
    chosen = np.empty(2, dtype=np.int64)
    row_action = np.empty(m, dtype=np.uint8)
    column_action = np.empty(m, dtype=np.uint8)
    payoff = 0.0
    for r in range(noise.shape[0]):
        for side in range(2):
            # The loop's costs (loss + perturbation), summed per context in sample order.
            loss = row_loss if side == 0 else column_loss
            summed[:] = 0.0
            for i in range(m):
                for a in range(k):
                    summed[context_of[i], a] += loss[i, a] + noise[r, side, i, a] / alpha
            chosen[side] = argmin(summed, table)
        row, column = chosen[0], chosen[1]
        for i in range(m):
            row_action[i] = table[context_of[i], row]
            column_action[i] = table[context_of[i], column]
            row_sum[i, row_action[i]] += scale
            column_sum[i, column_action[i]] += scale
        # B u and B^T w entry by entry; a product with a zero entry of a policy vector is
        # zero, as in the loop (selects rather than branches: the actions are random).
        for e in range(values.size):
            i = rounds[e]
            w = scale if row_action[i] == rows[e] else 0.0
            u = scale if column_action[i] == columns[e] else 0.0
            payoff += values[e] * (w * u)
            row_loss[i, rows[e]] -= values[e] * u
            column_loss[i, columns[e]] += values[e] * w
        row_ids[first_round + r], column_ids[first_round + r] = row, column
    return payoff


class _Rounds:
    """A run's inputs and what its rounds accumulate (sums, losses, policies)."""

    def __init__(
        self,
        game: CompactGame,
        oracle: PolicyOracle,
        alpha: float,
        n_rounds: int,
        checkpoints: list[int],
    ) -> None:
        self.game, self.oracle, self.alpha, self.checkpoints = game, oracle, alpha, checkpoints
        shape = game.shape
        self.row_sum, self.column_sum = np.zeros(shape), np.zeros(shape)
        self.row_loss = np.zeros(shape)  # -B (u_1 + ... + u_t)
        self.column_loss = np.zeros(shape)  # B^T (w_1 + ... + w_t)
        self.row_ids = np.empty(n_rounds, dtype=np.int64)
        self.column_ids = np.empty(n_rounds, dtype=np.int64)


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
    compiled : bool, optional
        Run the rounds in the compiled kernel over the oracle's policy table (module
        docstring); the oracle must offer one.

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
        compiled: bool = False,
    ) -> None:
        self.n_rounds = n_rounds
        self.alpha = alpha
        self.epsilon = epsilon
        self.delta = delta
        self.checkpoints = checkpoints
        self.compiled = compiled

    #: The compiled path's oracle on the policy table: ``table_argmin(costs, table)``.
    table_argmin = staticmethod(table_argmin)

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
        self.trace_: list[Checkpoint] = []
        state = _Rounds(game, oracle, alpha, n, checkpoints)
        run = self._compiled_rounds if self.compiled else self._python_rounds
        payoff_sum = run(state, rng)
        self.n_rounds_ = n
        self.alpha_ = alpha
        self.row_policies_, self.column_policies_ = state.row_ids, state.column_ids
        self.row_mixture_ = PolicyMixture.uniform(state.row_ids)
        self.column_mixture_ = PolicyMixture.uniform(state.column_ids)
        self.row_vector_: NDArray[np.float64] = state.row_sum / n
        self.column_vector_: NDArray[np.float64] = state.column_sum / n
        self.mean_payoff_ = payoff_sum / n
        self.n_oracle_calls_ = 2 * n
        return self

    def _record(self, t: int, state: _Rounds) -> None:
        self.trace_.append(
            Checkpoint(
                iteration=t,
                oracle_calls=2 * t,
                row_mixture=PolicyMixture.uniform(state.row_ids[:t]),
                column_mixture=PolicyMixture.uniform(state.column_ids[:t]),
                row_vector=state.row_sum / t,
                column_vector=state.column_sum / t,
            )
        )

    def _python_rounds(self, state: _Rounds, rng: np.random.Generator) -> float:
        """The rounds as a loop over the oracle's calls; returns the payoff sum."""
        game, oracle, alpha, checkpoints = state.game, state.oracle, state.alpha, state.checkpoints
        payoff_sum = 0.0
        for t in range(1, state.row_ids.size + 1):
            perturbations = rng.random((2, *game.shape)) / alpha
            row = oracle.argmin(state.row_loss + perturbations[0]).policy
            column = oracle.argmin(state.column_loss + perturbations[1]).policy
            row_vector, column_vector = oracle.vector(row), oracle.vector(column)
            payoff_sum += game.payoff(row_vector, column_vector)
            state.row_sum += row_vector
            state.column_sum += column_vector
            state.row_loss -= game.times(column_vector)
            state.column_loss += game.transpose_times(row_vector)
            state.row_ids[t - 1], state.column_ids[t - 1] = row, column
            if checkpoints and t == checkpoints[0]:
                checkpoints.pop(0)
                self._record(t, state)
        return payoff_sum

    def _compiled_rounds(self, state: _Rounds, rng: np.random.Generator) -> float:
        """The rounds in the compiled kernel over the policy table; returns the payoff sum."""
        game, oracle, alpha, checkpoints = state.game, state.oracle, state.alpha, state.checkpoints
        context_of, table = oracle.policy_table()
        n = state.row_ids.size
        payoff_sum = 0.0
        block = max(1, PERTURBATION_BLOCK // (2 * game.n_rounds * game.n_actions))
        entries = (game.rounds, game.rows, game.columns, game.values)
        arrays = (
            state.row_loss,
            state.column_loss,
            state.row_sum,
            state.column_sum,
            state.row_ids,
            state.column_ids,
        )
        done = 0
        for stop in sorted({*checkpoints, *range(block, n, block), n}):
            # Drawn as one array, the uniforms are the loop's per-round draws in order.
            noise = rng.random((stop - done, 2, *game.shape))
            payoff_sum += _table_rounds(
                self.table_argmin,
                done,
                noise,
                alpha,
                table,
                context_of,
                entries,
                arrays,
            )
            done = stop
            if checkpoints and stop == checkpoints[0]:
                checkpoints.pop(0)
                self._record(stop, state)
        oracle.n_calls_ += 2 * n
        return payoff_sum
