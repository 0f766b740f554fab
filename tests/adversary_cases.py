"""Shared check of the duels tests: a log played against the counter-play adversary
(:class:`cdbandits.contextual.environments.CounterPlayAdversary`) follows its rule."""

import numpy as np

from cdbandits.contextual.duels import DuelLog, round_by_round_log
from cdbandits.contextual.regret import mixture_action_distributions
from cdbandits.oracle_methods.compact_game import CompactGame
from cdbandits.oracle_methods.exploration import ExplorationSample, uniform_exploration
from cdbandits.oracle_methods.oracles import ExactOracle


def replayed_matrices(log, n_actions, margin):
    """Each round's ``P_t`` of the counter-play rule, recomputed from the log's own duels.

    An independent statement of the adversary: the favourite ``f`` of context ``x_t`` is its
    most played action in the earlier rounds (both slots, smallest on ties), and
    ``(f + 1) mod K`` beats every other action by ``margin``.
    """
    counts = np.zeros((int(log.context_ids.max()) + 1, n_actions), dtype=np.int64)
    matrices = np.zeros((log.horizon, n_actions, n_actions))
    for t, (x, a, b) in enumerate(
        zip(log.context_ids, log.first_actions, log.second_actions, strict=True)
    ):
        winner = (int(np.argmax(counts[x])) + 1) % n_actions
        matrices[t, winner, :] = margin
        matrices[t, :, winner] = -margin
        matrices[t, winner, winner] = 0.0
        counts[x, a] += 1
        counts[x, b] += 1
    return matrices


def check_outcomes_follow_the_adversary(log, n_actions, margin):
    """The log's gains are those of the replayed ``P_t`` (one adversary, reset once), and its
    outcomes are drawn from them: win rates of the first action where ``P_t(a, b)`` is
    ``+margin``, ``-margin`` and 0 within 4 binomial standard errors of ``(1 + P) / 2``."""
    matrices = replayed_matrices(log, n_actions, margin)
    rounds = np.arange(log.horizon)
    expected_gains = (
        matrices[rounds, :, log.first_actions] + matrices[rounds, :, log.second_actions]
    ) / 2.0
    np.testing.assert_allclose(log.gains, expected_gains)
    preference = matrices[rounds, log.first_actions, log.second_actions]
    for value in (margin, -margin, 0.0):
        chosen = np.isclose(preference, value)
        if chosen.sum() < 30:
            continue
        share = (log.outcomes[chosen] > 0).mean()
        probability = (1.0 + value) / 2.0
        error = np.sqrt(probability * (1.0 - probability) / chosen.sum())
        assert abs(share - probability) <= 4 * error + 1e-12, (value, share, chosen.sum())


def round_by_round_karmed_log(algorithm, environment, horizon, rng):
    """The reference K-armed run against the adversary: ``select`` / ``update`` one round
    at a time through :func:`cdbandits.contextual.duels.round_by_round_log`, ``rng`` split
    as :func:`cdbandits.experiments.duels.adversarial.karmed_adversarial_log` splits it."""
    environment_rng, algorithm_rng = rng.spawn(2)
    environment.reset(environment_rng)
    algorithm.start(environment.n_actions, algorithm_rng, horizon)
    return round_by_round_log(
        environment,
        horizon,
        lambda _context: algorithm.select(),
        lambda a, b, outcome: algorithm.update(a, b, 1 if outcome > 0 else 0),
    )


def round_by_round_explore_then_exploit_log(
    environment, policy_class, horizon, n_explore, solver, rng
):
    """The reference explore-then-exploit against the adversary, one round at a time
    (:func:`cdbandits.contextual.duels.round_by_round_log`), ``rng`` split as
    :func:`cdbandits.experiments.duels.adversarial.explore_then_exploit_log` splits it."""
    scheme = uniform_exploration(environment.n_actions)
    explore_rng, solver_rng, exploit_rng = rng.spawn(3)
    environment_rng, pair_rng = explore_rng.spawn(2)
    first_explore, second_explore = scheme.draw_pairs(n_explore, pair_rng)
    pairs = zip(first_explore.tolist(), second_explore.tolist(), strict=True)
    environment.reset(environment_rng)
    exploration = round_by_round_log(
        environment, n_explore, lambda _context: next(pairs), lambda a, b, outcome: None
    )
    if n_explore == horizon:
        return exploration
    sample = ExplorationSample(
        exploration.context_ids,
        exploration.first_actions,
        exploration.second_actions,
        exploration.outcomes,
    )
    oracle = ExactOracle(policy_class, environment.contexts, sample.context_ids)
    solver.fit(CompactGame.from_sample(sample, scheme), oracle, solver_rng)
    distributions = mixture_action_distributions(
        policy_class.actions(environment.contexts, solver.row_mixture_.policies),
        solver.row_mixture_.weights,
        environment.n_actions,
    )
    cumulative = np.cumsum(distributions, axis=1)
    first_rng, second_rng = exploit_rng.spawn(2)
    last = environment.n_actions - 1

    def draw(context):
        first = int((first_rng.random() >= cumulative[context]).sum())
        second = int((second_rng.random() >= cumulative[context]).sum())
        return min(first, last), min(second, last)

    exploitation = round_by_round_log(
        environment, horizon - n_explore, draw, lambda a, b, outcome: None
    )
    fields = ("context_ids", "first_actions", "second_actions", "outcomes", "gains")
    return DuelLog(
        *(
            np.concatenate([getattr(exploration, name), getattr(exploitation, name)])
            for name in fields
        )
    )
