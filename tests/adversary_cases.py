"""Shared check of the duels tests: a log played against the counter-play adversary
(:class:`cdbandits.contextual.environments.CounterPlayAdversary`) follows its rule."""

import numpy as np

from cdbandits.contextual.duels import round_by_round_log


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
