"""The online family's adaptive adversary in the duels sweep: every algorithm, rd1 in hindsight.

An ``"online"`` environment with ``setting: "adversarial"``
(:class:`~.settings.DuelsEnvironment`) is the online family's adversarial instance
(:func:`cdbandits.experiments.online.experiments.build_instance`, the same contexts and
policy class as the online sweep's setting ``adversarial_K{K}_N{N}`` for the same
parameters and master seed): ``n_contexts`` Gaussian contexts drawn uniformly, and the
:class:`~cdbandits.contextual.environments.CounterPlayAdversary`, which in each round makes
``(f + 1) mod K`` the Condorcet winner by ``margin``, ``f`` the action the learner has played
most in that context. ``P_t`` thus depends on the learner's past duels: there is no
population, no fixed matrix and no von Neumann winner ``W``.

Every algorithm plays it, each on a fresh adversary reset with the run's
generator (:func:`adversarial_log`), with what it may use:

* the K-armed algorithms of :mod:`cdbandits.karmed` no context, in their compiled kernels
  (:func:`karmed_adversarial_log`: the duels their public ``select`` / ``update`` would
  play), ``rng`` split into the adversary's stream and the algorithm's, as
  :func:`cdbandits.karmed.simulate` splits it;
* SparringEXP4.P: its compiled episode on the adversary's rounds (:meth:`SparringExp4P.run
  <cdbandits.contextual.exp4p.SparringExp4P.run>` on the adversary);
* explore-then-exploit (:func:`explore_then_exploit_log`, each phase at once): the same recipe as
  :func:`cdbandits.oracle_methods.explore_exploit.explore_then_exploit` (uniform pairs for
  ``m`` rounds, the compact game of their outcomes solved by SparringFPL, ``a_t, b_t ~
  What(x_t)`` afterwards), played against the adversary, which keeps counting its plays;
* CoLSTIM, MaxInP and DBGD: the arm features ``e_a (x) z(x)`` of the other online
  environments (:func:`~.contextual.online_arm_features`), in their kernels
  (:func:`cdbandits.linear_duels.contextual.environment_duel_log`,
  :func:`~cdbandits.linear_duels.contextual.dbgd_environment_log`).

Each compiled path plays the adversary's rounds drawn ahead
(:func:`~cdbandits.contextual.duels.counter_play_rounds`) and gives the log of a
round-by-round play (:func:`cdbandits.contextual.duels.round_by_round_log`), which the tests
compare it with.

Regret (:func:`adversarial_regret`): ``hindsight``, eq. rd1 against the best policy of the
class in hindsight (:func:`cdbandits.contextual.regret.regret_curve`), as the online family
reports for the adversary; ``von_neumann``, ``condorcet`` and ``copeland`` are NaN. The
tables and figures rank this environment by ``hindsight`` and say so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ...contextual.duels import DuelLog, counter_play_log, counter_play_rounds
from ...contextual.environments import CounterPlayAdversary
from ...contextual.oracle import ActionTable, ClassificationOracle
from ...contextual.policies import PolicyClass
from ...contextual.regret import mixture_action_distributions, regret_curve
from ...dueling.counter_play import CounterPlayRounds, round_win_probability
from ...karmed import ALGORITHMS as KARMED_ALGORITHMS
from ...karmed import make_algorithm as make_karmed
from ...karmed.base import DuelingBanditAlgorithm
from ...linear_duels import DuelingBanditGradientDescent
from ...linear_duels import make_algorithm as make_linear
from ...linear_duels.contextual import dbgd_environment_log, environment_duel_log
from ...oracle_methods.compact_game import CompactGame
from ...oracle_methods.exploration import ExplorationSample, uniform_exploration
from ...oracle_methods.fpl import SparringFPL
from ...oracle_methods.oracles import ExactOracle
from ..online.experiments import OnlineSetting, build_instance
from ..online.settings import AdversarialParameters
from .contextual import FPL_ROUNDS, explore_rounds, online_arm_features, sparring_exp4p
from .settings import DuelsEnvironment

__all__ = [
    "AdversarialInstance",
    "adversarial_log",
    "adversarial_regret",
    "adversarial_summary",
    "build_adversarial_instance",
    "explore_then_exploit_log",
    "karmed_adversarial_log",
    "opening_probabilities",
]


@dataclass(frozen=True)
class AdversarialInstance:
    """The adversarial environment made concrete (module docstring).

    Attributes
    ----------
    parameters : AdversarialParameters
    contexts : ndarray of float64, shape (n_contexts, n_features)
    policy_class : PolicyClass
        The online family's random linear argmax policies, fitted on the contexts.
    table : ActionTable
    oracle : ClassificationOracle
    arm_features : ndarray of float64, shape (n_contexts, K, d)
        What CoLSTIM, MaxInP and DBGD see of each context's actions.
    """

    parameters: AdversarialParameters
    contexts: NDArray[np.float64]
    policy_class: PolicyClass
    table: ActionTable
    oracle: ClassificationOracle
    arm_features: NDArray[np.float64]

    @property
    def n_actions(self) -> int:
        """``K``."""
        return self.parameters.n_actions

    def new_environment(self) -> CounterPlayAdversary:
        """A fresh adversary (no play recorded until its ``reset``)."""
        return CounterPlayAdversary(self.contexts, self.n_actions, self.parameters.margin)


def build_adversarial_instance(settings: DuelsEnvironment, seed: int) -> AdversarialInstance:
    """The online family's adversarial instance of ``settings`` from the master ``seed``."""
    parameters = settings.online
    if not isinstance(parameters, AdversarialParameters) or settings.components is None:
        raise ValueError(f"environment {settings.name!r} is not an adversarial one")
    # the online sweep's name for this setting: its contexts' stream is keyed by it
    name = f"adversarial_K{parameters.n_actions}_N{parameters.n_policies}"
    online = build_instance(OnlineSetting(name, (1,), parameters), seed)
    contexts = online.environment.contexts
    return AdversarialInstance(
        parameters=parameters,
        contexts=contexts,
        policy_class=online.policy_class,
        table=online.table,
        oracle=online.oracle,
        arm_features=online_arm_features(contexts, parameters.n_actions, settings.components),
    )


def karmed_adversarial_log(
    algorithm: DuelingBanditAlgorithm,
    environment: CounterPlayAdversary,
    horizon: int,
    rng: np.random.Generator,
) -> DuelLog:
    """A K-armed ``algorithm`` against the adversary, blind to the context (module docstring).

    ``rng`` is split into the adversary's stream (its ``reset``) and the algorithm's, in
    the order :func:`cdbandits.karmed.simulate` uses. The algorithm plays in its compiled
    kernel (:meth:`~cdbandits.karmed.base.DuelingBanditAlgorithm.run_compiled` on
    :class:`~cdbandits.dueling.counter_play.CounterPlayRounds`): the contexts drawn ahead from the
    adversary's context stream, the outcomes from its duel stream, the winner of each round
    from its play counts. These are the duels the algorithm's ``select`` / ``update`` would
    play round by round against the adversary, and the log's gains are the adversary's
    (:meth:`~cdbandits.contextual.environments.DuelingEnvironment.gains`).
    """
    if horizon < 1:
        raise ValueError(f"horizon must be at least 1; got {horizon}")
    environment_rng, algorithm_rng = rng.spawn(2)
    environment.reset(environment_rng)
    algorithm.start(environment.n_actions, algorithm_rng, horizon)
    rounds, duel_rng = counter_play_rounds(environment, horizon)
    duels = np.empty((horizon, 3), dtype=np.int64)
    arm_counts = np.zeros(environment.n_actions, dtype=np.int64)
    algorithm.run_compiled(rounds, duel_rng, horizon, arm_counts, duels)
    outcomes = np.where(duels[:, 2] == 1, 1, -1).astype(np.int8)
    return counter_play_log(environment, rounds, duels[:, 0].copy(), duels[:, 1].copy(), outcomes)


def explore_then_exploit_log(
    environment: CounterPlayAdversary,
    policy_class: PolicyClass,
    horizon: int,
    n_explore: int,
    solver: SparringFPL,
    rng: np.random.Generator,
) -> DuelLog:
    """Explore-then-exploit against the adaptive adversary.

    ``rng`` is split as :func:`~cdbandits.oracle_methods.explore_exploit.explore_then_exploit`
    splits it (exploration, solver, exploitation; the exploration stream into the
    environment's and the pairs'). The adversary is reset once: what it counts during the
    exploration still counts when ``What`` is played. The pairs do not depend on the
    outcomes within a phase, so each phase is played at once: the contexts drawn ahead, the
    pairs and duel uniforms drawn ahead, the adversary's rule run over them in numba
    (the duels, draws and log of a round-by-round play).
    """
    if not 1 <= n_explore <= horizon:
        raise ValueError(f"need 1 <= m <= T; got m = {n_explore}, T = {horizon}")
    scheme = uniform_exploration(environment.n_actions)
    explore_rng, solver_rng, exploit_rng = rng.spawn(3)
    environment_rng, pair_rng = explore_rng.spawn(2)
    first, second = np.empty(horizon, dtype=np.int64), np.empty(horizon, dtype=np.int64)
    first[:n_explore], second[:n_explore] = scheme.draw_pairs(n_explore, pair_rng)
    environment.reset(environment_rng)
    rounds, duel_rng = counter_play_rounds(environment, horizon)
    context_ids, duel_uniforms = rounds.context_ids, duel_rng.random(horizon)
    outcomes = np.empty(horizon, dtype=np.int8)
    explored = slice(0, n_explore)
    _play_pairs(rounds, first, second, duel_uniforms, outcomes, explored.start, explored.stop)
    if n_explore < horizon:
        sample = ExplorationSample(
            context_ids[explored], first[explored], second[explored], outcomes[explored]
        )
        oracle = ExactOracle(policy_class, environment.contexts, sample.context_ids)
        solver.fit(CompactGame.from_sample(sample, scheme), oracle, solver_rng)
        mixture = solver.row_mixture_
        cumulative = np.cumsum(
            mixture_action_distributions(
                policy_class.actions(environment.contexts, mixture.policies),
                mixture.weights,
                environment.n_actions,
            ),
            axis=1,
        )[context_ids[n_explore:]]
        last = environment.n_actions - 1
        for actions, action_rng in zip((first, second), exploit_rng.spawn(2), strict=True):
            uniforms = action_rng.random(horizon - n_explore)
            drawn = (uniforms[:, None] >= cumulative).sum(axis=1)
            actions[n_explore:] = np.minimum(drawn, last)
        _play_pairs(rounds, first, second, duel_uniforms, outcomes, n_explore, horizon)
    return counter_play_log(environment, rounds, first, second, outcomes)


@numba.njit(cache=True)
def _play_pairs(
    rounds: CounterPlayRounds,
    first: NDArray[np.int64],
    second: NDArray[np.int64],
    duel_uniforms: NDArray[np.float64],
    outcomes: NDArray[np.int8],
    start: int,
    stop: int,
) -> None:
    """Rounds ``start .. stop - 1`` of pairs given ahead; ``+1`` iff ``a`` won (kernels' rule)."""
    for step in range(start, stop):
        probability = round_win_probability(rounds, step, first[step], second[step])
        outcomes[step] = 1 if duel_uniforms[step] < probability else -1


def adversarial_log(
    algorithm: str, instance: AdversarialInstance, horizon: int, rng: np.random.Generator
) -> DuelLog:
    """The episode of ``algorithm`` against a fresh adversary (module docstring)."""
    environment = instance.new_environment()
    if algorithm in KARMED_ALGORITHMS:
        return karmed_adversarial_log(make_karmed(algorithm), environment, horizon, rng)
    if algorithm == "sparring_exp4p":
        return sparring_exp4p(instance.table).run(environment, horizon, rng)
    if algorithm == "explore_exploit_fpl":
        return explore_then_exploit_log(
            environment,
            instance.policy_class,
            horizon,
            explore_rounds(horizon, instance.table),
            SparringFPL(n_rounds=FPL_ROUNDS),
            rng,
        )
    if algorithm in ("colstim", "maxinp"):
        return environment_duel_log(
            make_linear(algorithm), environment, instance.arm_features, horizon, rng
        )
    if algorithm == "dbgd":
        return dbgd_environment_log(
            DuelingBanditGradientDescent(), environment, instance.arm_features, horizon, rng
        )
    raise ValueError(f"no adversarial run for algorithm {algorithm!r}")


def adversarial_regret(
    instance: AdversarialInstance, log: DuelLog, checkpoints: NDArray[np.int64]
) -> pd.DataFrame:
    """Regret of ``log`` at each checkpoint: ``hindsight`` (rd1 against the best policy in
    hindsight); ``von_neumann``, ``condorcet`` and ``copeland`` NaN (no ``W``, no matrix)."""
    return pd.DataFrame(
        {
            "round": checkpoints,
            "von_neumann": np.nan,
            "hindsight": regret_curve(log, instance.oracle, checkpoints),
            "condorcet": np.nan,
            "copeland": np.nan,
        }
    )


def opening_probabilities(instance: AdversarialInstance) -> NDArray[np.float64]:
    """The adversary's ``P_t`` in a context not yet played, in probability form.

    Action 1 (``(0 + 1) mod K``, the favourite being 0 before any play) beats every other
    by ``margin``; afterwards the winner moves with the learner's favourite. It stands for
    the environment in the matrix file of the build rule, which every environment has.
    """
    skew = np.zeros((instance.n_actions, instance.n_actions))
    skew[1, :] = instance.parameters.margin
    skew[:, 1] = -instance.parameters.margin
    skew[1, 1] = 0.0
    return (skew + 1.0) / 2.0


def adversarial_summary(instance: AdversarialInstance) -> dict[str, Any]:
    """What the tables say of the adversarial environment (goes under ``contextual``).

    ``adversary`` names it, ``margin`` is the winner's margin, ``von_neumann_winner`` is
    None (there is none), ``measure`` the regret it is ranked by (``"hindsight"``).
    """
    return {
        "adversary": "counter-play",
        "margin": instance.parameters.margin,
        "n_contexts": int(instance.contexts.shape[0]),
        "n_features": int(instance.arm_features.shape[2]),
        "n_policies": instance.table.n_policies,
        "policy_class": "random linear argmax policies",
        "distinct_policies": int(np.unique(instance.table.actions, axis=1).shape[1]),
        "von_neumann_winner": None,
        "measure": "hindsight",
    }
