"""What the verifier knows and the implementation under test never touches.

The checks of :mod:`.statements` compare a measured quantity with a bound; a bound is
evidence only when the quantity could exceed it. These functions give, from the ground
truth of a run (the true policy game ``M``, the drawn contexts, the game ``B`` whose
value is measured), the *largest value each quantity can take*, whatever the code under
test outputs, and the constants the paper *declares* for each estimator:

* :func:`declared_constants`: ``L`` and ``V`` of an estimator of uniform exploration, from
  its name and ``K`` (``K^2`` for the paper's, ``K(K-1)/2`` for the skew-symmetrised one):
  a broken estimator that reports a larger ``L`` cannot loosen its own bound;
* :func:`exploitability_ceiling`: ``max M``. The exploitability ``max_rho -W^T M rho`` of a
  mixture ``W`` is convex in ``W``, so its maximum over the policy hull is at a pure
  policy: the largest entry of ``M`` (enumerated over the distinct policies);
* :func:`deviation_ceiling`: ``L + max |M|``. Every entry of ``Mhat`` is an average of
  estimates in ``[-L, L]``;
* :func:`regret_ceiling`: the largest regret (rd1) any learner can have on the drawn
  contexts, ``max_pi sum_t max_a P_{x_t}(pi(x_t), a)`` (the two maxima commute: the learner
  that plays ``a_t = b_t = argmin`` against the best policy). One call of the class's exact
  oracle with costs ``-max_a P_x(c, a)`` times the rounds of each context; at most
  ``sum_t max P_{x_t}``;
* :func:`counter_play_regret_ceiling`: the same maximum against the adaptive
  :class:`~cdbandits.contextual.environments.CounterPlayAdversary`, over every sequence
  ``P_t`` a learner can make it choose on the drawn contexts;
* :func:`regret_floor`: the smallest regret (rd1) any learner can have on the drawn
  contexts, ``max_W sum_x n_x min_a sum_pi W(pi) P_x(pi(x), a)`` over mixtures ``W`` of the
  class (``n_x`` rounds in context ``x``). For every ``W``, ``max_pi sum_t g_t(pi(x_t))``
  is at least ``W``'s average gain, which is at least that sum whatever the learner plays.
  One LP over the distinct policies, certified by its dual (the learner's responses).
  A measured regret below it is no regret of the episode: the measurement is wrong;
* :func:`projection_ceiling`: the largest ``-min_s F(s, v)`` over outputs ``v`` of the
  policy hull, ``F(s, v) = ||s - z||^2 - ||s - v||^2`` (Theorem approx-proj). It is linear
  in ``s`` and, maximised over ``s``, convex in ``v``: both maxima are at policy vectors, so
  it is ``1 - ||z||^2 + max_s (2 s . z - 2 min_v s . v)`` over the distinct policies
  (``s . v`` is the fraction of rounds on which the two agree).

The gaps of a game (Theorems fpl and proj-out2, Lemma proj-out1) have their ceilings in
the game ``Mhat`` itself: ``w^T B u`` of hull points lies between the smallest and largest
entries of ``Mhat``, which the sweeps record (:mod:`.experiments`).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import linprog

from ...contextual.environments import ContextPopulation, CounterPlayAdversary
from ...contextual.oracle import ClassificationOracle

__all__ = [
    "CEILINGS",
    "counter_play_regret_ceiling",
    "declared_constants",
    "deviation_ceiling",
    "exploitability_ceiling",
    "projection_ceiling",
    "regret_ceiling",
    "regret_floor",
    "round_agreement",
]

#: How each ceiling column of the sweeps is computed (the bound table's ``ceiling`` text).
CEILINGS = {
    "deviation_ceiling": "L + max |M| (L declared for the estimator; M enumerated)",
    "exploitability_ceiling": "max M (largest entry of the true policy game, enumerated)",
    "regret_floor": (
        "max_W sum_x n_x min_a sum_pi W(pi) P_x(pi(x), a) on the drawn contexts (LP, certified "
        "by its dual)"
    ),
    "regret_ceiling": (
        "max_pi sum_t max_a P_{x_t}(pi(x_t), a) on the drawn contexts (one exact oracle call)"
    ),
    "counter_play_regret_ceiling": (
        "max_pi sum_t max_a P_t(pi(x_t), a) over every P_t the counter-play adversary can be "
        "made to choose on the drawn contexts: the margin on every round, except the first "
        "visit of a context where the policy does not play the opening winner (one exact "
        "oracle call)"
    ),
    "certificate_ceiling": (
        "max over hull outputs v of -min_s F(s, v) / ||z - v_1||, worst projection of the "
        "run (pure pairs of policies, enumerated)"
    ),
    "value - min Mhat": "value - min Mhat (LP value; smallest entry of the game, enumerated)",
    "max Mhat - min Mhat": "max Mhat - min Mhat (range of the game, enumerated)",
}


def declared_constants(estimator: str, n_actions: int) -> tuple[float, float]:
    """``(L, V)`` the paper declares for an estimator of uniform exploration over ``K`` actions.

    ``importance_weighted`` (pairs uniform over the ``K^2`` ordered pairs,
    ``Phat = K^2 r``): ``L = V = K^2``; ``skew_symmetrised`` (uniform over the ``K(K-1)``
    pairs of distinct actions, ``Phat(a, b) = -Phat(b, a) = (K(K-1)/2) r``):
    ``L = V = K(K-1)/2`` (Section 6 and Appendix D of the paper).

    Raises
    ------
    ValueError
        For another estimator name or ``K < 2``.
    """
    if n_actions < 2:
        raise ValueError(f"need K >= 2 actions; got {n_actions}")
    if estimator == "importance_weighted":
        scale = float(n_actions * n_actions)
    elif estimator == "skew_symmetrised":
        scale = n_actions * (n_actions - 1) / 2.0
    else:
        raise ValueError(f"no declared constants for the estimator {estimator!r}")
    return scale, scale


def exploitability_ceiling(true_matrix: ArrayLike) -> float:
    """``max M``: the largest exploitability of any mixture of the class (module docstring)."""
    return float(np.max(true_matrix))


def deviation_ceiling(true_matrix: ArrayLike, bound: float) -> float:
    """``L + max |M|``: the largest ``max |Mhat - M|`` of estimates bounded by ``L``."""
    return float(bound + np.max(np.abs(true_matrix)))


def regret_ceiling(
    population: ContextPopulation, oracle: ClassificationOracle, context_ids: ArrayLike
) -> float:
    """The largest regret (rd1) of any learner on the rounds' contexts (module docstring).

    Parameters
    ----------
    population : ContextPopulation
        Its matrices are the rounds' ``P_t = P_{x_t}``.
    oracle : ClassificationOracle
        The exact oracle of the class on the population's contexts.
    context_ids : array_like of int, shape (T,)
        The context of every round.
    """
    counts = np.bincount(np.asarray(context_ids, dtype=np.int64), minlength=population.n_contexts)
    best = population.matrices.max(axis=2)  # max_a P_x(c, a), shape (n_contexts, K)
    return float(-oracle.argmin(-counts[:, None] * best).cost)


def counter_play_regret_ceiling(
    adversary: CounterPlayAdversary, oracle: ClassificationOracle, context_ids: ArrayLike
) -> float:
    """The largest regret (rd1) of any learner against the counter-play adversary.

    The adversary's ``P_t`` depends on the learner's play, so the ceiling is
    ``max_pi sum_t max_a P_t(pi(x_t), a)`` maximised over the sequences a learner can make
    it choose on the drawn contexts. At the first visit of a context nothing has been
    played there and the winner is the opening one (favourite ``0``), whatever the learner
    does; from the second visit on, a learner that keeps playing ``w - 1`` makes any action
    ``w`` the winner. ``max_a P_t(c, a)`` is the margin when ``c`` is the winner and ``0``
    otherwise.

    Parameters
    ----------
    adversary : CounterPlayAdversary
    oracle : ClassificationOracle
        The exact oracle of the class on the adversary's contexts.
    context_ids : array_like of int, shape (T,)
        The context of every round (drawn independently of the learner).
    """
    ids = np.asarray(context_ids, dtype=np.int64)
    visits = np.bincount(ids, minlength=adversary.n_contexts).astype(np.float64)
    k = adversary.n_actions
    opening = adversary.winner_matrix(1 % k).max(axis=1)  # favourite 0 before any play
    reachable = np.max([adversary.winner_matrix(w).max(axis=1) for w in range(k)], axis=0)
    visited = (visits > 0)[:, None]
    gains = visited * opening[None, :] + np.maximum(visits - 1.0, 0.0)[:, None] * reachable
    return float(-oracle.argmin(-gains).cost)


def regret_floor(
    population: ContextPopulation, policy_actions: ArrayLike, context_ids: ArrayLike
) -> float:
    """The smallest regret (rd1) of any learner on the rounds' contexts (module docstring).

    Solves ``max_W sum_x n_x u_x`` subject to ``u_x <= sum_pi W(pi) P_x(pi(x), a)`` for every
    drawn context ``x`` and action ``a`` (HiGHS), and returns the exact value of the mixture
    found: a floor whatever the solver's accuracy. Its dual, the learner's response
    distribution in each context, bounds the optimum from above; the two must agree.

    Parameters
    ----------
    population : ContextPopulation
        Its matrices are the rounds' ``P_t = P_{x_t}``.
    policy_actions : array_like of int, shape (n_contexts, n)
        The class's (distinct) policies on the population's contexts.
    context_ids : array_like of int, shape (T,)
        The context of every round.

    Raises
    ------
    RuntimeError
        If HiGHS fails, or its dual certificate is further than ``1e-7 T`` from the floor.
    """
    ids = np.asarray(context_ids, dtype=np.int64)
    counts = np.bincount(ids, minlength=population.n_contexts).astype(np.float64)
    drawn = np.flatnonzero(counts)
    actions = np.asarray(policy_actions, dtype=np.int64)[drawn]
    c, n = actions.shape
    k = population.n_actions
    # gains[x, a, pi] = P_x(pi(x), a) on the drawn contexts.
    gains = np.take_along_axis(population.matrices[drawn], actions[:, :, None], axis=1)
    gains = gains.transpose(0, 2, 1)
    weights = counts[drawn]
    # Variables [W (n), u (c)]; rows (x, a): u_x - sum_pi W(pi) P_x(pi(x), a) <= 0.
    a_ub = np.zeros((c * k, n + c))
    a_ub[:, :n] = -gains.reshape(c * k, n)
    a_ub[np.arange(c * k), n + np.repeat(np.arange(c), k)] = 1.0
    result = linprog(
        np.concatenate([np.zeros(n), -weights]),
        A_ub=a_ub,
        b_ub=np.zeros(c * k),
        A_eq=np.concatenate([np.ones(n), np.zeros(c)])[None],
        b_eq=[1.0],
        bounds=[(0.0, None)] * n + [(None, None)] * c,
        method="highs",
    )
    if result.status != 0:
        raise RuntimeError(f"HiGHS found no regret floor: {result.message}")
    mixture = np.clip(result.x[:n], 0.0, None)
    mixture /= mixture.sum()
    floor = float(weights @ (gains @ mixture).min(axis=1))
    duals = np.clip(-result.ineqlin.marginals.reshape(c, k), 0.0, None)
    totals = duals.sum(axis=1, keepdims=True)
    responses = np.where(totals > 0, duals / np.where(totals > 0, totals, 1.0), 1.0 / k)
    upper = float(np.einsum("x,xa,xap->p", weights, responses, gains).max())
    if upper - floor > 1e-7 * ids.size:
        raise RuntimeError(
            f"the regret floor is not certified: dual {upper:.6g} - primal {floor:.6g} "
            f"> {1e-7 * ids.size:.1e}"
        )
    return floor


def round_agreement(round_actions: ArrayLike) -> NDArray[np.float64]:
    """``min_v s . v`` for every policy ``s``: the smallest fraction of rounds on which another
    policy of the class agrees with it (:func:`projection_ceiling`).

    Parameters
    ----------
    round_actions : array_like of int, shape (m, n)
        The distinct policies' actions on the game's rounds.
    """
    actions = np.asarray(round_actions)
    m = actions.shape[0]
    agreement = np.zeros((actions.shape[1], actions.shape[1]))
    for row in actions:  # rows are rounds: m passes over an n x n table
        agreement += row[:, None] == row[None, :]
    return agreement.min(axis=1) / m


def projection_ceiling(
    target: ArrayLike, round_actions: ArrayLike, least_agreement: ArrayLike
) -> float:
    """``max_{v in C} -min_{s in C} F(s, v)`` for ApproxProject's point ``z`` (module docstring).

    Parameters
    ----------
    target : array_like, shape (m, K)
        ``z``.
    round_actions : array_like of int, shape (m, n)
        The distinct policies' actions on the game's rounds.
    least_agreement : array_like, shape (n,)
        :func:`round_agreement` of ``round_actions``.

    Returns
    -------
    float
        Not divided by ``||z - v_1||``.
    """
    z = np.asarray(target, dtype=np.float64)
    actions = np.asarray(round_actions, dtype=np.int64)
    m = z.shape[0]
    # s . z for every policy s: sum_i z[i, s(x_i)] / sqrt(m).
    along = np.take_along_axis(z, actions, axis=1).sum(axis=0) / math.sqrt(m)
    return float(1.0 - np.sum(z * z) + np.max(2.0 * along - 2.0 * np.asarray(least_agreement)))
