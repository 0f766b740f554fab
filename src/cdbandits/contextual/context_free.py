"""A K-armed algorithm in a stochastic contextual environment, which it plays without context.

In a :class:`~cdbandits.contextual.environments.StochasticEnvironment` the context ``x_t`` is
drawn independently of the past and of the duel ``(a_t, b_t)`` of an algorithm that does not
see it, so such an algorithm meets, in every round, ``a`` winning with probability
``sum_x p(x) (1 + P_x(a, b)) / 2 = (1 + Pbar(a, b)) / 2``, with the context-averaged matrix
``Pbar = sum_x p(x) P_x`` (:func:`context_averaged_matrix`). Its duels and outcomes thus have
exactly the law of a K-armed run against ``Pbar``, which the compiled engine of
:func:`cdbandits.karmed.simulate` plays. Each round's context then follows from its posterior
given the duel and its outcome ``r`` (:func:`posterior_contexts`),

``Pr(x_t = x | a, b, r) = p(x) (1 + r P_x(a, b)) / 2 / Pr(r | a, b)``,

independently across rounds, and the duel uniform from its law given the outcome
(:func:`outcome_log`: below ``(1 + P_x(a, b)) / 2`` for a win, above it for a loss). The
rounds ``(x_t, a_t, b_t, r_t)`` then have the joint law of the round-by-round episode (Nature
draws ``x_t``, then the outcome from ``P_{x_t}``), so the regret (rd1) of the
:class:`~cdbandits.contextual.duels.DuelLog` :func:`simulate_context_free` returns has the law
it has there; only the random numbers that realise it differ.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..karmed.base import DuelingBanditAlgorithm
from ..karmed.simulation import simulate
from .duels import DuelLog, schedule_log
from .environments import ContextPopulation

__all__ = [
    "context_averaged_matrix",
    "outcome_log",
    "posterior_contexts",
    "simulate_context_free",
]


def context_averaged_matrix(population: ContextPopulation) -> NDArray[np.float64]:
    """``Pbar = sum_x p(x) P_x`` (skew form): what an algorithm blind to the context meets."""
    return np.einsum("x,xab->ab", population.probabilities, population.matrices)


def _checked_duels(
    population: ContextPopulation,
    first: NDArray[np.int64],
    second: NDArray[np.int64],
    outcomes: NDArray[np.int8],
) -> None:
    k = population.n_actions
    if not first.shape == second.shape == outcomes.shape or first.ndim != 1:
        raise ValueError(
            "first, second and outcomes must be 1-d arrays of one length; got shapes "
            f"{first.shape}, {second.shape}, {outcomes.shape}"
        )
    if first.size and (min(first.min(), second.min()) < 0 or max(first.max(), second.max()) >= k):
        raise ValueError(f"actions must be in 0..{k - 1}")
    if not np.isin(outcomes, (-1, 1)).all():
        raise ValueError("outcomes must be +1 (first action won) or -1")


def posterior_contexts(
    population: ContextPopulation,
    first: NDArray[np.int64],
    second: NDArray[np.int64],
    outcomes: NDArray[np.int8],
    uniforms: NDArray[np.float64],
) -> NDArray[np.int64]:
    """Each round's context drawn from its posterior given the duel and its outcome.

    Round ``t`` gets the first context ``x`` whose cumulative posterior probability
    ``Pr(x_t <= x | a_t, b_t, r_t)`` (module docstring) exceeds ``uniforms[t]``.

    Parameters
    ----------
    population : ContextPopulation
    first, second : ndarray of int64, shape (T,)
        The duelled actions.
    outcomes : ndarray of int8, shape (T,)
        ``+1`` if the first action won, ``-1`` otherwise.
    uniforms : ndarray of float64, shape (T,)
        Uniforms on ``[0, 1)``, one per round.

    Returns
    -------
    ndarray of int64, shape (T,)
    """
    _checked_duels(population, first, second, outcomes)
    if uniforms.shape != first.shape:
        raise ValueError(f"need one uniform per round; got {uniforms.shape} for {first.shape}")
    win = (1.0 + population.matrices) / 2.0  # (n_contexts, K, K)
    contexts = np.empty(first.size, dtype=np.int64)
    keys = (first * population.n_actions + second) * 2 + (outcomes > 0)
    for key in np.unique(keys):
        rounds = np.flatnonzero(keys == key)
        a, b, won = int(first[rounds[0]]), int(second[rounds[0]]), bool(key % 2)
        likelihood = win[:, a, b] if won else 1.0 - win[:, a, b]
        cumulative = np.cumsum(population.probabilities * likelihood)
        if cumulative[-1] <= 0:
            raise ValueError(f"the duel ({a}, {b}) cannot have outcome {1 if won else -1}")
        drawn = np.searchsorted(cumulative / cumulative[-1], uniforms[rounds], side="right")
        contexts[rounds] = np.minimum(drawn, population.n_contexts - 1)
    return contexts


def outcome_log(
    population: ContextPopulation,
    context_ids: NDArray[np.int64],
    first: NDArray[np.int64],
    second: NDArray[np.int64],
    outcomes: NDArray[np.int8],
    uniforms: NDArray[np.float64],
) -> DuelLog:
    """The :class:`DuelLog` of rounds whose contexts, duels and outcomes are known.

    The duel uniform of round ``t`` is drawn from its law given the outcome, from
    ``uniforms[t]``: ``q u`` for a win and ``q + (1 - q) u`` for a loss, with
    ``q = (1 + P_{x_t}(a_t, b_t)) / 2``; :func:`cdbandits.contextual.duels.schedule_log` then
    gives back these outcomes and adds the evaluator's gains.
    """
    _checked_duels(population, first, second, outcomes)
    if not context_ids.shape == uniforms.shape == first.shape:
        raise ValueError("need one context and one uniform per round")
    q = (1.0 + population.matrices[context_ids, first, second]) / 2.0
    duel_uniforms = np.where(outcomes > 0, q * uniforms, q + (1.0 - q) * uniforms)
    log = schedule_log(population, context_ids, duel_uniforms, first, second)
    if not np.array_equal(log.outcomes, outcomes):
        raise ValueError("an outcome has probability 0 in its context")
    return log


def simulate_context_free(
    algorithm: DuelingBanditAlgorithm,
    population: ContextPopulation,
    horizon: int,
    rng: np.random.Generator,
) -> DuelLog:
    """Play ``horizon`` rounds of a K-armed ``algorithm`` that ignores the context.

    Parameters
    ----------
    algorithm : DuelingBanditAlgorithm
        Started afresh; its arms are the population's actions.
    population : ContextPopulation
        The i.i.d. contexts and their preference matrices.
    horizon : int
    rng : numpy.random.Generator
        Split into the run's stream (:func:`cdbandits.karmed.simulate` against
        :func:`context_averaged_matrix`, compiled engine), the contexts' and the duel
        uniforms' streams.

    Returns
    -------
    DuelLog
        Every round, with the contexts and gains of the contextual environment.
    """
    run_rng, context_rng, uniform_rng = rng.spawn(3)
    result = simulate(
        algorithm,
        context_averaged_matrix(population),
        horizon,
        run_rng,
        record_duels=True,
        convention="skew",
    )
    assert result.duels is not None  # recorded on request
    first, second = result.duels[:, 0], result.duels[:, 1]
    outcomes = np.where(result.duels[:, 2] == 1, 1, -1).astype(np.int8)
    contexts = posterior_contexts(population, first, second, outcomes, context_rng.random(horizon))
    return outcome_log(population, contexts, first, second, outcomes, uniform_rng.random(horizon))
