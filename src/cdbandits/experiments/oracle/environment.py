"""The one fixed environment every oracle sweep runs on, with its ground truth.

A synthetic intransitive population with a decision-stump class small enough for the
ground-truth LPs (:func:`build_environment`); the population comes from the named stream
``("oracle", "population")`` of the master seed, so every shard builds the same one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ...contextual.environments import (
    ContextPopulation,
    StochasticEnvironment,
    synthetic_intransitive_population,
)
from ...contextual.oracle import ClassificationOracle
from ...contextual.policies import DecisionStumps
from ...contextual.regret import (
    contextual_exploitability,
    distinct_policies,
    mixture_action_distributions,
    policy_matrix,
)
from ...oracle_methods.compact_game import CompactGame
from ...oracle_methods.exploration import ExplorationSample, FixedExploration, explore
from ...oracle_methods.ground_truth import MaxminSolution, policy_game_matrix
from ...oracle_methods.hull import PolicyMixture
from ...oracle_methods.oracles import ExactOracle, PolicyOracle
from ...randomness import named_generator
from .settings import DetectionEnvironmentSettings, EnvironmentSettings

__all__ = [
    "SweepEnvironment",
    "build_environment",
    "cyclic_population",
    "detection_environment",
    "environment_of",
    "switching_population",
]


@dataclass(frozen=True)
class SweepEnvironment:
    """The environment and class of the sweeps, with their ground truth.

    Attributes
    ----------
    population : ContextPopulation
    environment : StochasticEnvironment
    stumps : DecisionStumps
        The class ``Pi`` (fitted on the population's contexts).
    actions : ndarray of uint8, shape (n_contexts, |Pi|)
    representatives : ndarray of int64
        One policy per distinct action vector on the population (the smallest id).
    true_matrix : ndarray of float64
        ``M`` over the representatives.
    population_oracle : ClassificationOracle
        The exact oracle of ``Pi`` on the population's contexts.
    """

    population: ContextPopulation
    environment: StochasticEnvironment
    stumps: DecisionStumps
    actions: NDArray[np.uint8]
    representatives: NDArray[np.int64]
    true_matrix: NDArray[np.float64]
    population_oracle: ClassificationOracle

    @property
    def n_policies(self) -> int:
        """``|Pi|`` (duplicates included, as in the union bounds)."""
        return self.stumps.n_policies

    @property
    def n_actions(self) -> int:
        """``K``."""
        return self.population.n_actions

    def explore_game(
        self, scheme: FixedExploration, n_explore: int, rng: np.random.Generator
    ) -> tuple[ExplorationSample, CompactGame, ExactOracle]:
        """Explore for ``n_explore`` rounds: the sample, its compact game, the exact oracle."""
        sample = explore(self.environment, scheme, n_explore, rng)
        game = CompactGame.from_sample(sample, scheme)
        oracle = ExactOracle(self.stumps, self.population.features, sample.context_ids)
        return sample, game, oracle

    def exploitability(self, mixture: PolicyMixture, oracle: PolicyOracle | None = None) -> float:
        """``-min_rho W^T M rho`` over ``Pi`` (the achieved ``eps`` of ``W`` in ``M``).

        ``oracle`` supplies the mixture's policies when they are not ids of ``Pi`` (learned).
        """
        features = self.population.features
        actions = (
            self.stumps.actions(features, mixture.policies)
            if oracle is None
            else oracle.actions(features, mixture.policies)
        )
        distributions = mixture_action_distributions(actions, mixture.weights, self.n_actions)
        return -contextual_exploitability(self.population, self.population_oracle, distributions)

    def empirical_matrix(self, game: CompactGame, sample: ExplorationSample) -> NDArray[np.float64]:
        """``Mhat`` over the representatives."""
        blocks = game.context_blocks(sample.context_ids, self.population.n_contexts)
        return policy_game_matrix(blocks, self.actions[:, self.representatives])

    def lp_mixture(self, solution: MaxminSolution) -> PolicyMixture:
        """The LP's row strategy as a mixture over ``Pi``."""
        keep = solution.row_strategy > 0
        return PolicyMixture.from_weights(self.representatives[keep], solution.row_strategy[keep])


def build_environment(settings: EnvironmentSettings, seed: int) -> SweepEnvironment:
    """The sweeps' environment of ``settings`` for master seed ``seed``."""
    population = synthetic_intransitive_population(
        settings.n_actions,
        settings.n_features,
        settings.n_contexts,
        settings.intransitivity,
        named_generator(seed, "oracle", "population"),
    )
    return environment_of(population, settings.n_bins)


def environment_of(population: ContextPopulation, n_bins: int) -> SweepEnvironment:
    """The environment of ``population`` with the stumps of ``n_bins`` bins per feature."""
    stumps = DecisionStumps(population.n_actions, n_bins).fit(population.features)
    actions = stumps.actions(population.features)
    representatives = distinct_policies(actions)
    return SweepEnvironment(
        population=population,
        environment=StochasticEnvironment(population),
        stumps=stumps,
        actions=actions,
        representatives=representatives,
        true_matrix=policy_matrix(population, np.ascontiguousarray(actions[:, representatives])),
        population_oracle=stumps.oracle(population.features),
    )


def switching_population(n_contexts: int, margin: float) -> ContextPopulation:
    """Two actions whose winner switches at the median of one feature; no randomness.

    Contexts ``x_i = (i + 1/2) / n`` for ``i < n`` (uniform); action 0 beats action 1 with
    probability ``(1 + margin) / 2`` where ``x < 1/2`` and loses with that probability where
    ``x > 1/2`` (skew entry ``M_x(0, 1) = +-margin``). The Condorcet winner of ``M`` is the
    stump ``x -> 0 if x < 1/2 else 1``, in the class whenever the median is a bin edge (an
    even number of bins); its opposite stump is the worst policy, at exploitability
    ``margin``, and the best fixed arm loses ``margin / 2`` per round to the winner.

    Parameters
    ----------
    n_contexts : int
        Even and at least 2 (half the contexts on each side of the median).
    margin : float
        In ``(0, 1]``.

    Raises
    ------
    ValueError
        If ``n_contexts`` is odd or below 2, or ``margin`` is outside ``(0, 1]``.
    """
    features = _median_split_features(n_contexts, margin)
    sign = np.where(features[:, 0] < 0.5, 1.0, -1.0)
    matrices = np.zeros((n_contexts, 2, 2))
    matrices[:, 0, 1], matrices[:, 1, 0] = margin * sign, -margin * sign
    return ContextPopulation(features, matrices, np.full(n_contexts, 1.0 / n_contexts))


def cyclic_population(n_contexts: int, margin: float) -> ContextPopulation:
    """Three actions in a cycle that turns the other way at the median of one feature.

    Contexts ``x_i = (i + 1/2) / n`` for ``i < n``; where ``x < 1/2`` action ``a`` beats
    ``a + 1 (mod 3)`` with probability ``(1 + margin) / 2``, where ``x > 1/2`` it loses to it
    with that probability. No action wins a context, so no policy wins the policy game
    ``M``. Over the stumps of two bins (one cut, at the median), ``M`` is the sum of the two
    halves' cyclic games: its value is 0, its von Neumann winners are the mixtures whose
    action distribution is uniform in each half (support at least 3), every pure policy is
    beaten by ``margin`` (on both halves), and the cyclic symmetry gives every policy the
    same Copeland score, so every policy is a Copeland winner and none a von Neumann
    winner. In every context some action beats any given one by ``margin``.

    Parameters
    ----------
    n_contexts : int
        Even and at least 2.
    margin : float
        In ``(0, 1]``.

    Raises
    ------
    ValueError
        If ``n_contexts`` is odd or below 2, or ``margin`` is outside ``(0, 1]``.
    """
    features = _median_split_features(n_contexts, margin)
    sign = np.where(features[:, 0] < 0.5, 1.0, -1.0)
    cycle = np.zeros((3, 3))
    for a in range(3):
        cycle[a, (a + 1) % 3], cycle[(a + 1) % 3, a] = 1.0, -1.0
    matrices = margin * sign[:, None, None] * cycle
    return ContextPopulation(features, matrices, np.full(n_contexts, 1.0 / n_contexts))


def _median_split_features(n_contexts: int, margin: float) -> NDArray[np.float64]:
    """The contexts ``(i + 1/2) / n`` of the two detection populations, their inputs checked."""
    if n_contexts < 2 or n_contexts % 2:
        raise ValueError(f"n_contexts must be even and at least 2; got {n_contexts}")
    if not 0.0 < margin <= 1.0:
        raise ValueError(f"margin must be in (0, 1]; got {margin}")
    return ((np.arange(n_contexts) + 0.5) / n_contexts)[:, None]


def detection_environment(
    settings: DetectionEnvironmentSettings, population: str
) -> SweepEnvironment:
    """The detection's environment of ``population`` (``"switching"`` or ``"cyclic"``; the
    same for every master seed)."""
    make = {"switching": switching_population, "cyclic": cyclic_population}[population]
    return environment_of(make(settings.n_contexts, settings.margin), settings.n_bins)
