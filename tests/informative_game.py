"""A compact game on which the bounds of Theorem fpl, Lemma proj-out1 and Theorems proj-out2
and approx-proj bite, for the tests of cdbandits.oracle_methods.

Two exploration rounds of the paper's estimator (``L = 4``) on 2 actions and 8 stumps (a
drawn population, trial 3 of master seed 0, as ``oracle.detection`` used before its
population was fixed): the game's payoffs
span the whole range ``[-L, L]``, so solvers with a bug reach gaps of about ``L`` while the
bounds at ``N = 2000`` (FPL) and ``T_in = T_out = 64`` (PGD) are 1.7 and 3.
"""

from cdbandits.experiments.oracle.environment import build_environment
from cdbandits.experiments.oracle.settings import EnvironmentSettings
from cdbandits.oracle_methods.exploration import uniform_exploration
from cdbandits.oracle_methods.ground_truth import maxmin_strategy
from cdbandits.randomness import named_generator

#: The population and class of the game: 2 actions, one feature, 8 stumps.
ENVIRONMENT = {
    "n_actions": 2,
    "n_features": 1,
    "n_contexts": 20,
    "intransitivity": 0.0,
    "n_bins": 3,
}


def informative_game():
    """``(game, oracle, value)``: the compact game, its exact oracle and its LP value."""
    environment = build_environment(EnvironmentSettings(**ENVIRONMENT), 0)
    sample, game, oracle = environment.explore_game(
        uniform_exploration(2), 2, named_generator(0, "oracle", "solvers", 3)
    )
    value = maxmin_strategy(environment.empirical_matrix(game, sample)).value
    return game, oracle, value
