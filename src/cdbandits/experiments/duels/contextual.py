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

An ``"online"`` environment is one of the online family's
(:func:`cdbandits.experiments.online.experiments.build_instance`: the synthetic intransitive
population with random linear policies, a supervised dataset or the MSLR per-query matrices
with decision stumps), the same instance as the ``online`` sweep's for the same parameters
and master seed, with the exact winner ``W`` of its policy class. CoLSTIM, MaxInP and DBGD
need arm features; it has none, so they get ``phi(x, a) = e_a (x) z(x)``
(:func:`cdbandits.linear_duels.contextual.action_features`): ``z(x)`` the context's features,
or, when it has more than ``components`` of them, its first ``components`` principal
components (standardised, :func:`cdbandits.linear_duels.environments.principal_components`),
placed in action ``a``'s block (``K * components`` dimensions: a linear score is one linear
score of ``z`` per action). They play the population's own matrices ``P_x``
(:func:`cdbandits.linear_duels.contextual.population_duel_log` and
:func:`~cdbandits.linear_duels.contextual.dbgd_population_log`, numba kernels on the
population's schedule playing the same duels as their NumPy loops): no linear model holds
there. The online family's adaptive adversary
(:class:`cdbandits.contextual.environments.CounterPlayAdversary`) is played round by round
in :mod:`.adversarial`: its ``P_t`` depends on the learner's past duels in each context, so
the duels of a context-blind algorithm do not have the law of a K-armed run against one
fixed matrix, which is what :func:`~cdbandits.contextual.context_free.simulate_context_free`
(the compiled K-armed engine) relies on, and it has no ``W``.

Each algorithm plays it with what it may use (:func:`contextual_log`):

* the K-armed algorithms of :mod:`cdbandits.karmed` no context: the actions are their arms
  (:func:`cdbandits.contextual.context_free.simulate_context_free`);
* SparringEXP4.P (``delta = 0.05``, with the uniform expert) and explore-then-exploit
  (uniform exploration for Theorem main-regret's ``m`` rounds with ``delta = 0.05``, the
  compact game solved by SparringFPL with 100 rounds): the policy class on the contexts;
* CoLSTIM and MaxInP (their papers' defaults) and DBGD (the defaults of
  :class:`~cdbandits.linear_duels.DuelingBanditGradientDescent`): the arms' features (above
  for an online environment), not the class (they may beat ``W``: a negative regret).

Regret (:func:`contextual_regret`, the columns of the K-armed runs): ``von_neumann`` against
``W``, ``sum_t sum_a d_{x_t}(a) g_t(a)`` with ``d_x`` the action distribution of ``W`` in
context ``x`` and ``g_t`` the evaluator's gains of the log, in expectation over ``W`` the
paper's eq. rd1 with ``pi ~ W``; ``hindsight``, eq. rd1 itself (the best policy of the class
in hindsight, :func:`cdbandits.contextual.regret.regret_curve`); Condorcet and Copeland
regret are NaN (no single matrix).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ...contextual.context_free import context_averaged_matrix, simulate_context_free
from ...contextual.duels import DuelLog
from ...contextual.environments import ContextPopulation, StochasticEnvironment
from ...contextual.exp4p import SparringExp4P
from ...contextual.oracle import ActionTable, ClassificationOracle
from ...contextual.policies import DecisionStumps, PolicyClass, RandomLinearPolicies
from ...contextual.regret import (
    ContextualVonNeumannWinner,
    contextual_von_neumann_winner,
    distinct_policies,
    mixture_action_distributions,
    regret_curve,
)
from ...karmed import ALGORITHMS as KARMED_ALGORITHMS
from ...karmed import make_algorithm as make_karmed
from ...linear_duels import DuelingBanditGradientDescent, synthetic_linear_environment
from ...linear_duels import make_algorithm as make_linear
from ...linear_duels import simulate as simulate_linear
from ...linear_duels.contextual import (
    ArmScorePolicies,
    action_features,
    as_population,
    dbgd_duel_log,
    dbgd_population_log,
    linear_duel_log,
    population_duel_log,
)
from ...linear_duels.environments import LinearDuelingEnvironment, principal_components
from ...oracle_methods.exploration import uniform_exploration
from ...oracle_methods.explore_exploit import explore_then_exploit
from ...oracle_methods.fpl import SparringFPL
from ...oracle_methods.theory import explore_exploit_rounds
from ...randomness import named_generator
from ...winners import CERTIFICATE_TOL, VonNeumannWinner
from ..online.experiments import OnlineSetting, build_instance
from .settings import DuelsEnvironment

__all__ = [
    "DELTA",
    "FPL_ROUNDS",
    "ContextualInstance",
    "build_contextual_instance",
    "build_online_instance",
    "context_averaged_probabilities",
    "contextual_instance",
    "contextual_log",
    "contextual_regret",
    "contextual_summary",
    "explore_rounds",
    "online_arm_features",
    "sparring_exp4p",
    "stored_winner",
    "winner_record",
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
    environment : LinearDuelingEnvironment or None
        The linear model of a ``"contextual"`` environment (None for an ``"online"`` one).
    population : ContextPopulation
        The same as the paper's setting.
    policy_class : PolicyClass
    table : ActionTable
        The class on the contexts.
    oracle : ClassificationOracle
    winner : ContextualVonNeumannWinner
        ``W``, exact and certified.
    distributions : ndarray of float64, shape (n_contexts, K)
        ``d_x``: the action distribution of ``W`` in each context.
    arm_features : ndarray of float64, shape (n_contexts, K, d)
        What CoLSTIM, MaxInP and DBGD see of each context's arms.
    """

    environment: LinearDuelingEnvironment | None
    population: ContextPopulation
    policy_class: PolicyClass
    table: ActionTable
    oracle: ClassificationOracle
    winner: ContextualVonNeumannWinner
    distributions: NDArray[np.float64]
    arm_features: NDArray[np.float64]


def build_contextual_instance(
    settings: DuelsEnvironment, seed: int, winner: Mapping[str, Any] | None = None
) -> ContextualInstance:
    """The environment, class, oracle and exact winner of a contextual or online ``settings``.

    ``winner``: the :func:`winner_record` of another build of the same instance; its
    certificate is checked (:func:`stored_winner`) instead of solving the LP again.
    """
    if settings.kind == "online":
        return build_online_instance(settings, seed, winner)
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
    return contextual_instance(environment, policy_class, winner)


def contextual_instance(
    environment: LinearDuelingEnvironment,
    policy_class: ArmScorePolicies,
    winner: Mapping[str, Any] | None = None,
) -> ContextualInstance:
    """The instance of a given environment and (unfitted) policy class."""
    population = as_population(environment)
    policy_class.fit(population.features)
    return _instance(environment, population, policy_class, environment.features, winner)


def build_online_instance(
    settings: DuelsEnvironment, seed: int, winner: Mapping[str, Any] | None = None
) -> ContextualInstance:
    """The online family's instance of an ``"online"`` ``settings`` (module docstring).

    The population and fitted class are those of
    :func:`cdbandits.experiments.online.experiments.build_instance` with the master ``seed``;
    the arm features are ``e_a (x) z(x)``.
    """
    if settings.kind != "online" or settings.online is None or settings.components is None:
        raise ValueError(f"environment {settings.name!r} is a {settings.kind} environment")
    if settings.adversarial:
        raise ValueError(
            f"environment {settings.name!r} is the adaptive adversary, which has no population "
            "(see cdbandits.experiments.duels.adversarial)"
        )
    online = build_instance(OnlineSetting(settings.name, (1,), settings.online), seed)
    assert online.population is not None  # synthetic, supervised and mslr are populations
    arm_features = online_arm_features(
        online.population.features, online.population.n_actions, settings.components
    )
    return _instance(None, online.population, online.policy_class, arm_features, winner)


def online_arm_features(
    contexts: NDArray[np.float64], n_actions: int, components: int
) -> NDArray[np.float64]:
    """``e_a (x) z(x)`` of an online environment's contexts (module docstring): ``z(x)`` the
    context's features, or their first ``components`` principal components if wider."""
    if contexts.shape[1] > components:
        contexts = principal_components(contexts, components)
    return action_features(contexts, n_actions)


def _instance(
    environment: LinearDuelingEnvironment | None,
    population: ContextPopulation,
    policy_class: PolicyClass,
    arm_features: NDArray[np.float64],
    record: Mapping[str, Any] | None = None,
) -> ContextualInstance:
    table = policy_class.action_table(population.features)
    if record is None:
        winner = contextual_von_neumann_winner(population, table.actions)
    else:
        winner = stored_winner(record, population, table.actions)
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
        arm_features=arm_features,
    )


def winner_record(winner: ContextualVonNeumannWinner) -> dict[str, Any]:
    """What :func:`stored_winner` needs of an exact winner ``W``, as JSON types: its support
    in the class and weights, the number of distinct policies, and the LP's solver, status
    and exploitability (its certificate)."""
    return {
        "support": [int(policy) for policy in winner.support],
        "weights": [float(winner.policy_weights[policy]) for policy in winner.support],
        "n_policies": int(winner.policy_weights.size),
        "distinct_policies": winner.distinct_policies,
        "exploitability": float(winner.winner.exploitability),
        "solver": winner.winner.solver,
        "status": winner.winner.status,
    }


def stored_winner(
    record: Mapping[str, Any], population: ContextPopulation, actions: NDArray[np.uint8]
) -> ContextualVonNeumannWinner:
    """The winner a :func:`winner_record` holds, its certificate checked on this instance.

    The check needs no LP and no policy matrix: ``(M^T w)(rho) = sum_x p(x) (d_x^T P_x)
    (rho(x))`` (``d_x`` the action distribution of ``w`` in context ``x``) for every policy
    ``rho`` of the class, and ``w`` is a von Neumann winner exactly when the smallest of these
    is ``>= -CERTIFICATE_TOL``. Raises if the record does not fit the class (its size, its
    distinct policies, weights on one policy of each set of clones, a distribution) or fails
    the check: it was computed for another instance.
    """
    n_contexts, n_policies = actions.shape
    support = np.asarray(record["support"], dtype=np.int64)
    weights = np.asarray(record["weights"], dtype=np.float64)
    representatives = distinct_policies(actions)
    problems = []
    if record["n_policies"] != n_policies or record["distinct_policies"] != representatives.size:
        problems.append(
            f"it is for {record['n_policies']} policies ({record['distinct_policies']} "
            f"distinct); the class has {n_policies} ({representatives.size} distinct)"
        )
    elif support.shape != weights.shape or not np.isin(support, representatives).all():
        problems.append("its support is not a set of distinct policies of the class")
    elif (weights <= 0).any() or abs(weights.sum() - 1.0) > 1e-9:
        problems.append("its weights are not a distribution")
    if problems:
        raise ValueError(f"the stored winner does not fit this instance: {problems[0]}")
    policy_weights = np.zeros(n_policies)
    policy_weights[support] = weights
    distributions = mixture_action_distributions(actions, policy_weights, population.n_actions)
    gains = np.einsum("xa,xab->xb", distributions, population.matrices)
    exploitability = float(
        (population.probabilities @ gains[np.arange(n_contexts)[:, None], actions]).min()
    )
    if exploitability < -CERTIFICATE_TOL:
        raise ValueError(
            f"the stored winner is not a von Neumann winner of this instance: a policy beats "
            f"it by {-exploitability:.3g} > {CERTIFICATE_TOL:g}"
        )
    distinct_weights = policy_weights[representatives]
    return ContextualVonNeumannWinner(
        policy_weights=policy_weights,
        support=support,
        distinct_policies=int(representatives.size),
        winner=VonNeumannWinner(
            weights=distinct_weights,
            support=np.flatnonzero(distinct_weights > 0).astype(np.int64),
            exploitability=exploitability,
            solver=str(record["solver"]),
            status=str(record["status"]),
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
        return sparring_exp4p(instance.table).run(StochasticEnvironment(population), horizon, rng)
    if algorithm == "explore_exploit_fpl":
        return explore_then_exploit(
            StochasticEnvironment(population),
            instance.policy_class,
            horizon,
            explore_rounds(horizon, instance.table),
            SparringFPL(n_rounds=FPL_ROUNDS),
            rng,
        ).log
    environment = instance.environment
    if algorithm in ("colstim", "maxinp"):
        if environment is None:
            return population_duel_log(
                make_linear(algorithm), population, instance.arm_features, horizon, rng
            )
        run_rng, log_rng = rng.spawn(2)
        result = simulate_linear(
            make_linear(algorithm), environment, horizon, run_rng, record_duels=True
        )
        return linear_duel_log(population, result, log_rng)
    if algorithm == "dbgd":
        if environment is None:
            return dbgd_population_log(
                DuelingBanditGradientDescent(), population, instance.arm_features, horizon, rng
            )
        return dbgd_duel_log(DuelingBanditGradientDescent(), environment, horizon, rng)
    raise ValueError(f"no contextual run for algorithm {algorithm!r}")


def sparring_exp4p(table: ActionTable) -> SparringExp4P:
    """SparringEXP4.P as the sweep runs it: ``delta = DELTA``, with the uniform expert."""
    return SparringExp4P(table, delta=DELTA, uniform_expert=True)


def explore_rounds(horizon: int, table: ActionTable) -> int:
    """Explore-then-exploit's ``m``: Theorem main-regret's with ``delta = DELTA`` and uniform
    exploration of the class ``table``'s actions."""
    return explore_exploit_rounds(
        horizon, table.n_policies, DELTA, uniform_exploration(table.n_actions).variance_bound
    )


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

    A *best arm* of a context is one of highest utility in a linear environment, and one of
    highest Borda score ``sum_b P_x(a, b)`` in an online one (the same arms when the
    utilities exist: the link is increasing). ``context_free_best``: the largest share of the
    contexts in which any one action is a best arm; ``winner_policies``: the policies in the
    support of ``W``; ``winner_best_share``: the probability that ``W`` plays a best arm of
    the context; ``policy_class``: what the class is, for a reader.
    """
    population, environment = instance.population, instance.environment
    if environment is not None:
        scores = environment.utilities
    else:
        scores = population.matrices.sum(axis=2)
    best = scores == scores.max(axis=1, keepdims=True)
    return {
        "n_contexts": population.n_contexts,
        "n_features": int(instance.arm_features.shape[2]),
        "n_policies": instance.table.n_policies,
        "policy_class": _POLICY_CLASSES.get(type(instance.policy_class), "policies"),
        "distinct_policies": instance.winner.distinct_policies,
        "winner_policies": int(instance.winner.support.size),
        "context_free_best": float((population.probabilities @ best).max()),
        "winner_best_share": float(
            population.probabilities @ (instance.distributions * best).sum(axis=1)
        ),
    }


#: How the summaries name the policy classes.
_POLICY_CLASSES: dict[type, str] = {
    ArmScorePolicies: "linear argmax policies",
    RandomLinearPolicies: "random linear argmax policies",
    DecisionStumps: "decision stumps",
}


def context_averaged_probabilities(instance: ContextualInstance) -> NDArray[np.float64]:
    """The probability form of ``Pbar``, the matrix the K-armed algorithms meet."""
    return (context_averaged_matrix(instance.population) + 1.0) / 2.0
