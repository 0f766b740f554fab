"""The contextual environments of the duels sweep: every algorithm, one exact regret.

A ``"contextual"`` environment (:class:`~.settings.DuelsEnvironment`) is a synthetic
linear-utility environment (:func:`cdbandits.linear_duels.synthetic_linear_environment`,
logistic link): ``contexts`` equally likely contexts of ``actions`` arms with Gaussian
features, arm ``i`` of context ``x`` beating arm ``j`` with probability
``F(theta . (x_i - x_j))``. The best arm differs from context to context, so no fixed arm
is good. Seen as the paper's setting (:func:`cdbandits.linear_duels.contextual.as_population`)
it comes with a class of ``policies`` linear argmax policies
(:class:`~cdbandits.linear_duels.contextual.ArmScorePolicies`), its exact oracle and its exact,
certified contextual von Neumann winner ``W``
(:func:`cdbandits.contextual.regret.contextual_von_neumann_winner`). The environment is
drawn from the stream ``duels/<environment>/environment`` and the class from
``duels/<environment>/policies``: every seed and algorithm meets the same ones.

Each algorithm plays it with what it may use (:func:`contextual_log`):

* the K-armed algorithms of :mod:`cdbandits.karmed` no context: the actions are their arms
  (:func:`cdbandits.karmed.context_free.simulate_context_free`);
* SparringEXP4.P (``delta = 0.05``, with the uniform expert) and explore-then-exploit
  (uniform exploration for Theorem main-regret's ``m`` rounds with ``delta = 0.05``, the
  compact game solved by SparringFPL with 100 rounds): the policy class on the contexts;
* CoLSTIM and MaxInP (their papers' defaults) and DBGD (the defaults of
  :class:`~cdbandits.linear_duels.DuelingBanditGradientDescent`): the arms' features, not the
  class (they may beat ``W``: a negative regret).

Regret (:func:`contextual_regret`, the columns of the K-armed runs): ``von_neumann`` against
``W``, ``sum_t sum_a d_{x_t}(a) g_t(a)`` with ``d_x`` the action distribution of ``W`` in
context ``x`` and ``g_t`` the evaluator's gains of the log, in expectation over ``W`` the
paper's eq. rd1 with ``pi ~ W``; ``hindsight``, eq. rd1 itself (the best policy of the class
in hindsight, :func:`cdbandits.contextual.regret.regret_curve`); Condorcet and Copeland
regret are NaN (no single matrix).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ...contextual.duels import DuelLog
from ...contextual.environments import ContextPopulation, StochasticEnvironment
from ...contextual.exp4p import SparringExp4P
from ...contextual.oracle import ActionTable, ClassificationOracle
from ...contextual.regret import (
    ContextualVonNeumannWinner,
    contextual_von_neumann_winner,
    mixture_action_distributions,
    regret_curve,
)
from ...karmed import ALGORITHMS as KARMED_ALGORITHMS
from ...karmed import make_algorithm as make_karmed
from ...karmed.context_free import context_averaged_matrix, simulate_context_free
from ...linear_duels import DuelingBanditGradientDescent, synthetic_linear_environment
from ...linear_duels import make_algorithm as make_linear
from ...linear_duels import simulate as simulate_linear
from ...linear_duels.contextual import (
    ArmScorePolicies,
    as_population,
    dbgd_duel_log,
    linear_duel_log,
)
from ...linear_duels.environments import LinearDuelingEnvironment
from ...oracle_methods.exploration import uniform_exploration
from ...oracle_methods.explore_exploit import explore_then_exploit
from ...oracle_methods.fpl import SparringFPL
from ...oracle_methods.theory import explore_exploit_rounds
from ...randomness import named_generator
from .settings import DuelsEnvironment

__all__ = [
    "DELTA",
    "FPL_ROUNDS",
    "ContextualInstance",
    "build_contextual_instance",
    "context_averaged_probabilities",
    "contextual_instance",
    "contextual_log",
    "contextual_regret",
    "contextual_summary",
]

#: Failure probability of SparringEXP4.P and of explore-then-exploit's ``m``.
DELTA = 0.05
#: Rounds of SparringFPL solving explore-then-exploit's compact game.
FPL_ROUNDS = 100


@dataclass(frozen=True)
class ContextualInstance:
    """A contextual environment made concrete (module docstring).

    Attributes
    ----------
    environment : LinearDuelingEnvironment
    population : ContextPopulation
        The same as the paper's setting.
    policy_class : ArmScorePolicies
    table : ActionTable
        The class on the contexts.
    oracle : ClassificationOracle
    winner : ContextualVonNeumannWinner
        ``W``, exact and certified.
    distributions : ndarray of float64, shape (n_contexts, K)
        ``d_x``: the action distribution of ``W`` in each context.
    """

    environment: LinearDuelingEnvironment
    population: ContextPopulation
    policy_class: ArmScorePolicies
    table: ActionTable
    oracle: ClassificationOracle
    winner: ContextualVonNeumannWinner
    distributions: NDArray[np.float64]


def build_contextual_instance(settings: DuelsEnvironment, seed: int) -> ContextualInstance:
    """The environment, class, oracle and exact winner of a contextual ``settings``."""
    if settings.kind != "contextual":
        raise ValueError(f"environment {settings.name!r} is a {settings.kind} environment")
    assert settings.contexts and settings.actions and settings.features and settings.policies
    environment = synthetic_linear_environment(
        settings.contexts,
        settings.actions,
        settings.features,
        named_generator(seed, "duels", settings.name, "environment"),
    )
    policy_class = ArmScorePolicies(
        settings.actions,
        settings.features,
        settings.policies,
        named_generator(seed, "duels", settings.name, "policies"),
    )
    return contextual_instance(environment, policy_class)


def contextual_instance(
    environment: LinearDuelingEnvironment, policy_class: ArmScorePolicies
) -> ContextualInstance:
    """The instance of a given environment and (unfitted) policy class."""
    population = as_population(environment)
    policy_class.fit(population.features)
    table = policy_class.action_table(population.features)
    winner = contextual_von_neumann_winner(population, table.actions)
    return ContextualInstance(
        environment=environment,
        population=population,
        policy_class=policy_class,
        table=table,
        oracle=policy_class.oracle(population.features),
        winner=winner,
        distributions=mixture_action_distributions(
            table.actions, winner.policy_weights, population.n_actions
        ),
    )


def contextual_log(
    algorithm: str, instance: ContextualInstance, horizon: int, rng: np.random.Generator
) -> DuelLog:
    """The episode of ``algorithm`` on ``instance`` (module docstring), all ``horizon`` rounds."""
    population = instance.population
    if algorithm in KARMED_ALGORITHMS:
        return simulate_context_free(make_karmed(algorithm), population, horizon, rng)
    if algorithm == "sparring_exp4p":
        learner = SparringExp4P(instance.table, delta=DELTA, uniform_expert=True)
        return learner.run(StochasticEnvironment(population), horizon, rng)
    if algorithm == "explore_exploit_fpl":
        n_explore = explore_exploit_rounds(
            horizon,
            instance.table.n_policies,
            DELTA,
            uniform_exploration(population.n_actions).variance_bound,
        )
        return explore_then_exploit(
            StochasticEnvironment(population),
            instance.policy_class,
            horizon,
            n_explore,
            SparringFPL(n_rounds=FPL_ROUNDS),
            rng,
        ).log
    if algorithm in ("colstim", "maxinp"):
        run_rng, log_rng = rng.spawn(2)
        result = simulate_linear(
            make_linear(algorithm), instance.environment, horizon, run_rng, record_duels=True
        )
        return linear_duel_log(population, result, log_rng)
    if algorithm == "dbgd":
        return dbgd_duel_log(DuelingBanditGradientDescent(), instance.environment, horizon, rng)
    raise ValueError(f"no contextual run for algorithm {algorithm!r}")


def contextual_regret(
    instance: ContextualInstance, log: DuelLog, checkpoints: NDArray[np.int64]
) -> pd.DataFrame:
    """Regret of ``log`` at each checkpoint: ``round``, ``von_neumann``, ``hindsight``,
    ``condorcet`` and ``copeland`` (NaN), as the K-armed runs' table."""
    per_round = np.einsum("ta,ta->t", instance.distributions[log.context_ids], log.gains)
    return pd.DataFrame(
        {
            "round": checkpoints,
            "von_neumann": np.cumsum(per_round)[checkpoints - 1],
            "hindsight": regret_curve(log, instance.oracle, checkpoints),
            "condorcet": np.nan,
            "copeland": np.nan,
        }
    )


def contextual_summary(instance: ContextualInstance) -> dict[str, Any]:
    """What the tables say of the environment beyond its K-armed view.

    ``context_free_best``: the largest share of the contexts in which any one action is a
    best arm; ``winner_policies``: the policies in the support of ``W``; ``winner_best_share``:
    the probability that ``W`` plays a best arm of the context.
    """
    environment = instance.environment
    best = environment.utilities == environment.best_utilities()[:, None]
    return {
        "n_contexts": environment.n_contexts,
        "n_features": environment.n_features,
        "n_policies": instance.table.n_policies,
        "distinct_policies": instance.winner.distinct_policies,
        "winner_policies": int(instance.winner.support.size),
        "context_free_best": float((environment.probabilities @ best).max()),
        "winner_best_share": float(
            environment.probabilities @ (instance.distributions * best).sum(axis=1)
        ),
    }


def context_averaged_probabilities(instance: ContextualInstance) -> NDArray[np.float64]:
    """The probability form of ``Pbar``, the matrix the K-armed algorithms meet."""
    return (context_averaged_matrix(instance.population) + 1.0) / 2.0
