"""ProjectedGD with ApproxProject (Section 8, Appendix D.3-D.4).

**ApproxProject(z, v_1)**: for ``t = 1 .. T_in``: ``s_t = argmin_{s in C} s . (v_t - z)`` (one
oracle call with costs ``v_t - z``), ``v_{t+1} = (1 - nu) v_t + nu s_t``; output
``vbar = (1/T_in) sum_{t=1}^{T_in} v_t``, with ``nu = ||z - v_1|| / sqrt(T_in)`` (must be
``<= 1``). Theorem approx-proj: ``min_{s in C} F(s, vbar) >= -8 ||z - v_1|| / sqrt(T_in)``,
``F(s, v) = ||s - z||^2 - ||s - v||^2 = 2 s . (v - z) + ||z||^2 - ||v||^2``.
As a mixture, ``vbar = c_0 v_1 + sum_{s < T_in} c_s s_s`` with
``c_0 = (1 - (1 - nu)^T_in) / (T_in nu)`` and ``c_s = (1 - (1 - nu)^(T_in - s)) / T_in``
(``s_{T_in}`` only enters ``v_{T_in + 1}``, which is not averaged).

**ProjectedGD**: ``w_1 in C``; for ``t = 1 .. T_out``: ``u_t = argmin_{u in C} w_t^T B u``
(costs ``B^T w_t``), ``z = w_t + eta B u_t``, ``w_{t+1} = ApproxProject(z, w_t)``; output
``wbar = (1/T_out) sum_{t=1}^{T_out} w_t`` with ``eta = 2 / (L sqrt(T_out))``. The step is
taken on policy vectors (entries ``1/sqrt(m)``), so ``||z - w_t|| = eta ||B u_t|| <= eta L``
and ``nu <= 2 / sqrt(T_out T_in) <= 1``.

Deviation from the letter of the paper, same output: ``w_{T_out + 1}`` is not averaged, so
its projection is skipped: ``T_out + (T_out - 1) T_in`` oracle calls (plus one for ``w_1``)
instead of ``T_out + T_out T_in``.

Every iterate is a :class:`~cdbandits.oracle_methods.hull.PolicyMixture`; the dense
``(m, K)`` points are derived from the mixtures' updates.

With ``compiled=True`` ApproxProject's iterations run in a numba kernel over the oracle's
policy table (:meth:`~.oracles.PolicyOracle.policy_table`, a class small enough to
enumerate), with :func:`~.fpl.table_argmin` as the oracle: the costs are summed per
distinct context in sample order as :class:`~.oracles.ExactOracle` does and the points
are updated with the loop's arithmetic, so the iterates are the loop's unless two
policies' totals differ by rounding only (then the kernel may pick another policy, e.g.
another of two policies that act alike on the sample).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from .bounds import approx_project_bound
from .compact_game import CompactGame
from .fpl import table_argmin
from .hull import Checkpoint, PolicyMixture
from .oracles import PolicyOracle
from .theory import approx_project_nu, pgd_eta, pgd_iterations

__all__ = [
    "ProjectedGD",
    "ProjectionRecord",
    "Projection",
    "approx_project",
    "projection_certificate",
]


@dataclass(frozen=True)
class Projection:
    """The result of :func:`approx_project`.

    Attributes
    ----------
    mixture : PolicyMixture
        ``vbar`` as a mixture.
    vector : ndarray of float64, shape (m, K)
        ``vbar`` as a point of ``C``.
    distance : float
        ``||z - v_1||``.
    nu : float
        The step used.
    bound : float
        Theorem approx-proj's ``8 ||z - v_1|| / sqrt(T_in)``.
    oracle_calls : int
        ``T_in``.
    """

    mixture: PolicyMixture
    vector: NDArray[np.float64]
    distance: float
    nu: float
    bound: float
    oracle_calls: int


def _average_coefficients(nu: float, n_inner: int) -> tuple[float, NDArray[np.float64]]:
    """Weights of ``v_1`` and of ``s_1 .. s_T`` in ``vbar`` (``s_T``'s is 0)."""
    if nu == 0.0:
        return 1.0, np.zeros(n_inner)
    remaining = n_inner - np.arange(1, n_inner + 1)  # T - s
    decay = np.power(1.0 - nu, remaining.astype(np.float64))
    steps = (1.0 - decay) / n_inner
    start = -math.expm1(n_inner * math.log1p(-nu)) / (n_inner * nu) if nu < 1.0 else 1.0 / n_inner
    return start, steps


@numba.njit(cache=True)
def _table_iterations(
    v: NDArray[np.float64],
    z: NDArray[np.float64],
    nu: float,
    table: NDArray[np.uint8],
    context_of: NDArray[np.int64],
    total: NDArray[np.float64],
    chosen: NDArray[np.int64],
) -> None:
    """ApproxProject's iterations (one per entry of ``chosen``) over a policy table:
    ``total += v``, ``s = argmin (v - z)``, ``v = (1 - nu) v + nu v_s``, in place."""
    m, k = v.shape
    scale = 1.0 / math.sqrt(m)  # the entry of a policy vector (policy_vectors)
    summed = np.empty((table.shape[0], k))
    for t in range(chosen.size):
        summed[:] = 0.0
        for i in range(m):
            for a in range(k):
                total[i, a] += v[i, a]
                summed[context_of[i], a] += v[i, a] - z[i, a]
        policy = table_argmin(summed, table)
        chosen[t] = policy
        for i in range(m):
            played = table[context_of[i], policy]
            for a in range(k):
                v[i, a] = (1.0 - nu) * v[i, a] + nu * (scale if a == played else 0.0)


def approx_project(
    z: ArrayLike,
    start: PolicyMixture,
    start_vector: ArrayLike,
    oracle: PolicyOracle,
    n_inner: int,
    nu: float | None = None,
    compiled: bool = False,
) -> Projection:
    """ApproxProject(z, v_1) with the theory's ``nu`` unless given.

    Parameters
    ----------
    z : array_like, shape (m, K)
        The point to project.
    start : PolicyMixture
        ``v_1``, a point of ``C``.
    start_vector : array_like, shape (m, K)
        Its dense point (``start.vector(oracle)``).
    oracle : PolicyOracle
    n_inner : int
        ``T_in``.
    nu : float, optional
        Step in ``[0, 1]``; default ``||z - v_1|| / sqrt(T_in)``.
    compiled : bool, optional
        Run the iterations in the compiled kernel over the oracle's policy table (module
        docstring); the oracle must offer one.

    Returns
    -------
    Projection

    Raises
    ------
    ValueError
        If ``nu > 1`` (``||z - v_1|| > sqrt(T_in)``: use more inner iterations).
    """
    z = np.asarray(z, dtype=np.float64)
    v = np.array(start_vector, dtype=np.float64)
    if z.shape != v.shape or z.shape != (oracle.n_rounds, oracle.n_actions):
        raise ValueError(
            f"z and start_vector must have shape (m, K) = ({oracle.n_rounds}, {oracle.n_actions}); "
            f"got {z.shape} and {v.shape}"
        )
    if n_inner < 1:
        raise ValueError(f"n_inner must be at least 1; got {n_inner}")
    difference = z - v
    distance = math.sqrt(float(np.sum(difference * difference)))
    step = approx_project_nu(distance, n_inner) if nu is None else float(nu)
    if not 0.0 <= step <= 1.0:
        raise ValueError(
            f"nu = {step:.6g} is outside [0, 1]; with the theory's nu = ||z - v_1|| / sqrt(T_in) "
            f"this means ||z - v_1|| = {distance:.6g} > sqrt(T_in) = {math.sqrt(n_inner):.6g}"
        )
    total = np.zeros_like(v)
    chosen = np.empty(n_inner, dtype=np.int64)
    if compiled:
        context_of, table = oracle.policy_table()
        _table_iterations(v, z, step, table, context_of, total, chosen)
        oracle.n_calls_ += n_inner
    else:
        for t in range(n_inner):
            total += v
            chosen[t] = oracle.argmin(v - z).policy
            v = (1.0 - step) * v + step * oracle.vector(int(chosen[t]))
    start_weight, step_weights = _average_coefficients(step, n_inner)
    mixture = PolicyMixture.from_weights(
        np.concatenate([start.policies, chosen]),
        np.concatenate([start_weight * start.weights, step_weights]),
    )
    return Projection(
        mixture=mixture,
        vector=total / n_inner,
        distance=distance,
        nu=step,
        bound=approx_project_bound(distance, n_inner),
        oracle_calls=n_inner,
    )


def projection_certificate(z: ArrayLike, vbar: ArrayLike, oracle: PolicyOracle) -> float:
    """``min_{s in C} F(s, vbar)`` (one oracle call), ``F(s, v) = ||s - z||^2 - ||s - v||^2``.

    Theorem approx-proj bounds it below by ``-8 ||z - v_1|| / sqrt(T_in)``.
    """
    z = np.asarray(z, dtype=np.float64)
    vbar = np.asarray(vbar, dtype=np.float64)
    answer = oracle.argmin(vbar - z)
    squared_norms = float(np.sum(z * z) - np.sum(vbar * vbar))
    return 2.0 * answer.cost / math.sqrt(oracle.n_rounds) + squared_norms


@dataclass(frozen=True)
class ProjectionRecord:
    """One audited projection of :class:`ProjectedGD` (``record_projections=True``).

    Attributes
    ----------
    iteration : int
        Outer iteration ``t`` whose step is projected.
    distance, nu, bound : float
        As in :class:`Projection`.
    certificate : float
        ``min_s F(s, vbar)`` (must be ``>= -bound``).
    output_distance : float
        ``||z - vbar||^2``. Since ``max_v min_s F(s, v) = ||z - v*||^2 <= ||z - vbar||^2``
        (``v*`` the exact projection), ``output_distance - certificate`` bounds how far
        ``vbar`` is from maximising ``min_s F(s, .)``, which the proof of Theorem
        approx-proj bounds by ``bound``.
    target : ndarray of float64, shape (m, K)
        ``z``, the point projected (what an audit of the projection needs besides ``vbar``).
    """

    iteration: int
    distance: float
    nu: float
    bound: float
    certificate: float
    output_distance: float
    target: NDArray[np.float64]


class ProjectedGD:
    """ProjectedGD with ApproxProject and the theory's settings as defaults.

    Parameters
    ----------
    n_outer, n_inner : int, optional
        ``T_out`` and ``T_in``; default ``ceil(36 L^2 / epsilon^2)`` each.
    eta : float, optional
        Step size; default ``2 / (L sqrt(T_out))``.
    nu : float, optional
        Fixed ApproxProject step; default the theory's ``||z - v_1|| / sqrt(T_in)`` per call.
    epsilon : float, optional
        Target accuracy for the default ``T_out``, ``T_in``.
    checkpoints : sequence of int, optional
        Outer iterations ``t`` after which the running averages are recorded in ``trace_``.
    record_projections : bool, optional
        Audit every projection with :func:`projection_certificate` (one extra oracle call
        each, not counted in ``n_oracle_calls_``).
    compiled : bool, optional
        Run ApproxProject's iterations in the compiled kernel (module docstring).

    Attributes
    ----------
    n_outer_, n_inner_ : int
    eta_ : float
    row_mixture_, column_mixture_ : PolicyMixture
        ``wbar`` and ``ubar = (1/T_out) sum_t u_t``.
    row_vector_, column_vector_ : ndarray of float64, shape (m, K)
    mean_payoff_ : float
        ``(1/T_out) sum_t w_t^T B u_t``.
    n_oracle_calls_ : int
        Calls made by the algorithm (``w_1``, best responses and projections).
    trace_ : list of Checkpoint
    projections_ : list of ProjectionRecord
        Empty unless ``record_projections``.
    """

    def __init__(
        self,
        n_outer: int | None = None,
        n_inner: int | None = None,
        eta: float | None = None,
        nu: float | None = None,
        epsilon: float | None = None,
        checkpoints: Sequence[int] = (),
        record_projections: bool = False,
        compiled: bool = False,
    ) -> None:
        self.n_outer = n_outer
        self.n_inner = n_inner
        self.eta = eta
        self.nu = nu
        self.epsilon = epsilon
        self.checkpoints = checkpoints
        self.record_projections = record_projections
        self.compiled = compiled

    def _budget(self, game: CompactGame) -> tuple[int, int, float]:
        if (self.n_outer is None or self.n_inner is None) and self.epsilon is None:
            raise ValueError(
                "give n_outer and n_inner, or epsilon to use the theory's T_in = T_out"
            )
        default = None if self.epsilon is None else pgd_iterations(game.bound, self.epsilon)
        n_outer = int(default if self.n_outer is None else self.n_outer)
        n_inner = int(default if self.n_inner is None else self.n_inner)
        if n_outer < 1 or n_inner < 1:
            raise ValueError(f"n_outer and n_inner must be positive; got {n_outer}, {n_inner}")
        eta = pgd_eta(game.bound, n_outer) if self.eta is None else float(self.eta)
        if not eta > 0:
            raise ValueError(f"eta must be positive; got {eta}")
        return n_outer, n_inner, eta

    def fit(
        self, game: CompactGame, oracle: PolicyOracle, initial: PolicyMixture | None = None
    ) -> ProjectedGD:
        """Run ProjectedGD on ``game`` (deterministic given the oracle).

        Parameters
        ----------
        game : CompactGame
        oracle : PolicyOracle
        initial : PolicyMixture, optional
            ``w_1``; default the oracle's answer to all-zero costs (one call).

        Returns
        -------
        self
        """
        if oracle.n_rounds != game.n_rounds or oracle.n_actions != game.n_actions:
            raise ValueError(
                f"the oracle covers (m, K) = ({oracle.n_rounds}, {oracle.n_actions}), the game "
                f"{game.shape}"
            )
        n_outer, n_inner, eta = self._budget(game)
        calls = 0
        if initial is None:
            initial = PolicyMixture.uniform([oracle.argmin(np.zeros(game.shape)).policy])
            calls += 1
        checkpoints = sorted({int(t) for t in self.checkpoints if 1 <= t <= n_outer})
        w_mixture, w = initial, initial.vector(oracle)
        row_parts: list[tuple[NDArray[np.int64], NDArray[np.float64]]] = []
        column_ids = np.empty(n_outer, dtype=np.int64)
        row_sum = np.zeros(game.shape)
        column_sum = np.zeros(game.shape)
        payoff_sum = 0.0
        self.trace_: list[Checkpoint] = []
        self.projections_: list[ProjectionRecord] = []
        for t in range(1, n_outer + 1):
            answer = oracle.argmin(game.transpose_times(w))
            calls += 1
            u = oracle.vector(answer.policy)
            payoff_sum += answer.cost / math.sqrt(game.n_rounds)
            row_parts.append((w_mixture.policies, w_mixture.weights))
            column_ids[t - 1] = answer.policy
            row_sum += w
            column_sum += u
            if checkpoints and t == checkpoints[0]:
                checkpoints.pop(0)
                self.trace_.append(
                    Checkpoint(
                        iteration=t,
                        oracle_calls=calls,
                        row_mixture=_merge(row_parts),
                        column_mixture=PolicyMixture.uniform(column_ids[:t]),
                        row_vector=row_sum / t,
                        column_vector=column_sum / t,
                    )
                )
            if t == n_outer:
                break
            z = w + eta * game.times(u)
            projection = approx_project(
                z, w_mixture, w, oracle, n_inner, self.nu, compiled=self.compiled
            )
            calls += projection.oracle_calls
            if self.record_projections:
                self.projections_.append(
                    ProjectionRecord(
                        iteration=t,
                        distance=projection.distance,
                        nu=projection.nu,
                        bound=projection.bound,
                        certificate=projection_certificate(z, projection.vector, oracle),
                        output_distance=float(np.sum((z - projection.vector) ** 2)),
                        target=z,
                    )
                )
            w_mixture, w = projection.mixture, projection.vector
        self.n_outer_, self.n_inner_, self.eta_ = n_outer, n_inner, eta
        self.row_mixture_ = _merge(row_parts)
        self.column_mixture_ = PolicyMixture.uniform(column_ids)
        self.row_vector_: NDArray[np.float64] = row_sum / n_outer
        self.column_vector_: NDArray[np.float64] = column_sum / n_outer
        self.mean_payoff_ = payoff_sum / n_outer
        self.n_oracle_calls_ = calls
        return self


def _merge(parts: list[tuple[NDArray[np.int64], NDArray[np.float64]]]) -> PolicyMixture:
    """The uniform average of the mixtures given as (ids, weights) pairs."""
    return PolicyMixture.from_weights(
        np.concatenate([ids for ids, _ in parts]), np.concatenate([weights for _, weights in parts])
    )
