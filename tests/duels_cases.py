"""Shared inputs of the duels tests: a tiny sweep on hand-made matrices, and the check that
the context matters in a contextual environment."""

import numpy as np

from cdbandits.contextual.environments import StochasticEnvironment
from cdbandits.contextual.exp4p import SparringExp4P
from cdbandits.contextual.oracle import ActionTable
from cdbandits.experiments.duels.contextual import contextual_log, contextual_regret
from cdbandits.experiments.duels.settings import DuelsSweep

SEED = 11

#: Rock-paper-scissors with a dominated fourth arm: no Condorcet winner, vNW uniform on 0-2.
CYCLE = np.array(
    [
        [0.5, 0.8, 0.2, 0.9],
        [0.2, 0.5, 0.8, 0.9],
        [0.8, 0.2, 0.5, 0.9],
        [0.1, 0.1, 0.1, 0.5],
    ]
)

#: Arm 0 beats every other arm: a Condorcet winner.
LINEAR = np.array(
    [
        [0.5, 0.6, 0.7, 0.8, 0.9],
        [0.4, 0.5, 0.6, 0.7, 0.8],
        [0.3, 0.4, 0.5, 0.6, 0.7],
        [0.2, 0.3, 0.4, 0.5, 0.6],
        [0.1, 0.2, 0.3, 0.4, 0.5],
    ]
)


def sweep_config(**changes):
    """A small valid ``duels`` section (two matrix environments, one a 3-arm subset)."""
    config = {
        "environments": [
            {"name": "cycle", "kind": "matrix", "data": ["pref_arxiv"], "title": "cycle"},
            {"name": "linear_k3", "kind": "matrix", "data": ["pref_arxiv"], "arms": 3},
        ],
        "algorithms": ["rucb", "self_sparring", "merge_dts"],
        "horizon": 300,
        "seeds": 3,
        "shards": 2,
        "checkpoints": 5,
        "leaderboard_horizons": [100, 300],
        "horizon_caps": [{"algorithms": ["rucb"], "min_arms": 4, "horizon": 100}],
    }
    return config | changes


def tiny_sweep(**changes):
    return DuelsSweep.from_config(sweep_config(**changes))


def tiny_environments():
    names = lambda k: tuple(f"arm {i}" for i in range(k))  # noqa: E731
    return {"cycle": (CYCLE, names(4)), "linear_k3": (LINEAR, names(5))}


def late_rate(log, instance, horizon):
    """Regret against the contextual von Neumann winner per round over rounds T/2 .. T."""
    regret = contextual_regret(instance, log, np.array([horizon // 2, horizon]))["von_neumann"]
    return (regret.iloc[1] - regret.iloc[0]) / (horizon - horizon // 2)


def check_sparring_exp4p_uses_the_context(instance, horizon, blind, linear, learning):
    """SparringEXP4.P learns (late rate <= ``learning``) where each context-blind algorithm of
    ``blind`` keeps losing (>= ``linear``), and fails that check when fed a constant context
    (every context seen as the first). Runs of seed 0."""
    for name in blind:
        log = contextual_log(name, instance, horizon, np.random.default_rng(0))
        assert late_rate(log, instance, horizon) >= linear, name
    log = contextual_log("sparring_exp4p", instance, horizon, np.random.default_rng(0))
    assert late_rate(log, instance, horizon) <= learning
    population = instance.population
    constant = ActionTable(
        np.repeat(instance.table.actions[:1], population.n_contexts, axis=0),
        population.n_actions,
    )
    broken = SparringExp4P(constant).run(
        StochasticEnvironment(population), horizon, np.random.default_rng(0)
    )
    assert late_rate(broken, instance, horizon) >= linear
