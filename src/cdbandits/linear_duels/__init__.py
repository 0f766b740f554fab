"""Linear contextual dueling bandits: CoLSTIM, MaxInP and Dueling Bandit Gradient Descent.

Every round shows a context of ``K`` arms with feature vectors; an arm's hidden utility is
(in the realisable case) linear in its features, and duels follow a linear stochastic
transitivity model (:mod:`~cdbandits.linear_duels.environments`). Two algorithms of the
field share one interface (:class:`~cdbandits.linear_duels.base.LinearDuelingAlgorithm`,
shaped like :class:`cdbandits.karmed.DuelingBanditAlgorithm`), each with a readable NumPy
round and a numba kernel that play the same duels on the same seed:

==============  ============================================================================
identifier      algorithm
==============  ============================================================================
``colstim``     :class:`CoLSTIM` (Bengs, Saha and Hüllermeier, ICML 2022)
``maxinp``      :class:`MaxInP` (Saha, NeurIPS 2021)
==============  ============================================================================

:func:`~cdbandits.linear_duels.simulation.simulate` runs one in an environment and keeps
per-context arm counts at checkpoints; :mod:`~cdbandits.linear_duels.regret` turns them into
utility, weak, preference (Condorcet), von Neumann (rd1) and hindsight regret.

:class:`DuelingBanditGradientDescent` (``dbgd``; Yue and Joachims, ICML 2009) learns a
linear ranker over LETOR features from interleaved comparisons with simulated clicks
(:mod:`~cdbandits.linear_duels.dbgd`, run by :func:`simulate_dbgd`).
:data:`PUBLISHED_RESULTS` records what the three papers report on data this project holds.
"""

from .base import LinearDuelingAlgorithm, MaximumLikelihoodDueler
from .colstim import CoLSTIM
from .dbgd import DBGDResult, DuelingBanditGradientDescent, simulate_dbgd
from .environments import (
    LinearDuelingEnvironment,
    letor_linear_environment,
    linear_environment,
    synthetic_linear_environment,
)
from .links import LINKS, Link
from .maxinp import MaxInP
from .published import PUBLISHED_RESULTS, PublishedResult
from .ranking import RankingEnvironment, expected_ndcg, ranking_environment
from .regret import (
    context_von_neumann_winners,
    hindsight_regret,
    preference_regret,
    regret_table,
    utility_regret,
    von_neumann_regret,
)
from .simulation import LinearSimulationResult, simulate

#: Every linear algorithm of the package, by identifier.
ALGORITHMS: dict[str, type[LinearDuelingAlgorithm]] = {
    algorithm.name: algorithm for algorithm in (CoLSTIM, MaxInP)
}


def make_algorithm(name: str, **parameters: object) -> LinearDuelingAlgorithm:
    """The algorithm ``name`` (an :data:`ALGORITHMS` key) with the given hyper-parameters."""
    try:
        algorithm = ALGORITHMS[name]
    except KeyError:
        raise KeyError(f"unknown algorithm {name!r}; known: {sorted(ALGORITHMS)}") from None
    return algorithm(**parameters)


__all__ = [
    "ALGORITHMS",
    "LINKS",
    "CoLSTIM",
    "DBGDResult",
    "DuelingBanditGradientDescent",
    "LinearDuelingAlgorithm",
    "LinearDuelingEnvironment",
    "LinearSimulationResult",
    "Link",
    "MaxInP",
    "MaximumLikelihoodDueler",
    "PUBLISHED_RESULTS",
    "PublishedResult",
    "RankingEnvironment",
    "context_von_neumann_winners",
    "expected_ndcg",
    "hindsight_regret",
    "letor_linear_environment",
    "linear_environment",
    "make_algorithm",
    "preference_regret",
    "ranking_environment",
    "regret_table",
    "simulate",
    "simulate_dbgd",
    "synthetic_linear_environment",
    "utility_regret",
    "von_neumann_regret",
]
