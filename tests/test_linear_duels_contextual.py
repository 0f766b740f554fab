"""Linear dueling environments in the paper's setting (cdbandits.linear_duels.contextual)."""

import numpy as np
import pytest
from adversary_cases import check_outcomes_follow_the_adversary
from hypothesis import given, settings
from hypothesis import strategies as st
from linear_duels_cases import ALGORITHM_NAMES, assert_same_population_runs, random_population

from cdbandits.contextual.duels import round_by_round_log
from cdbandits.contextual.environments import (
    ContextPopulation,
    CounterPlayAdversary,
    StochasticEnvironment,
)
from cdbandits.linear_duels import (
    DuelingBanditGradientDescent,
    linear_environment,
    make_algorithm,
    simulate,
    synthetic_linear_environment,
)
from cdbandits.linear_duels.contextual import (
    ArmScorePolicies,
    action_features,
    as_population,
    dbgd_duel_log,
    dbgd_environment_log,
    dbgd_population_log,
    environment_duel_log,
    linear_duel_log,
    population_duel_log,
)

#: Context 0 shows arms with utilities (1, 0, -1), context 1 the reverse (theta = 1, d = 1).
MIRRORED = linear_environment([[[1.0], [0.0], [-1.0]], [[-1.0], [0.0], [1.0]]], [1.0])


def test_as_population_flattens_the_arm_features_and_keeps_the_matrices():
    population = as_population(MIRRORED)
    assert population.features.tolist() == [[1.0, 0.0, -1.0], [-1.0, 0.0, 1.0]]
    np.testing.assert_array_equal(population.matrices, MIRRORED.skew_matrices())
    np.testing.assert_array_equal(population.probabilities, [0.5, 0.5])


def test_arm_score_policies_pick_the_arm_of_highest_score():
    policies = ArmScorePolicies(3, 1, 16, random_state=0).fit(as_population(MIRRORED).features)
    actions = policies.actions(as_population(MIRRORED).features)
    # a positive direction picks the best arm of each context, a negative one the worst
    expected = np.where(policies.directions_[:, 0] > 0, 0, 2)
    assert actions[0].tolist() == expected.tolist()
    assert actions[1].tolist() == (2 - expected).tolist()
    assert "theta = (" in policies.describe(0)


def test_arm_score_policies_refuse_contexts_of_another_width():
    policies = ArmScorePolicies(3, 2, 4, random_state=0)
    with pytest.raises(ValueError, match=r"3 x 2 = 6 features"):
        policies.fit(np.zeros((2, 5)))
    with pytest.raises(RuntimeError, match="fit"):
        policies.actions(np.zeros((2, 6)))


def test_linear_duel_log_replays_the_recorded_duels():
    environment = synthetic_linear_environment(6, 4, 3, np.random.default_rng(0))
    result = simulate(
        make_algorithm("maxinp"), environment, 200, np.random.default_rng(1), record_duels=True
    )
    population = as_population(environment)
    log = linear_duel_log(population, result, np.random.default_rng(2))
    assert result.duels is not None
    assert log.context_ids.tolist() == result.duels[:, 0].tolist()
    assert log.first_actions.tolist() == result.duels[:, 1].tolist()
    assert log.outcomes.tolist() == np.where(result.duels[:, 3] == 1, 1, -1).tolist()
    without = simulate(make_algorithm("maxinp"), environment, 20, np.random.default_rng(1))
    with pytest.raises(ValueError, match="record_duels=True"):
        linear_duel_log(population, without, np.random.default_rng(2))


def test_dbgd_ties_while_both_rankers_pick_the_same_arm_and_learns_from_wins():
    # from w = 0 both rankers pick arm 0 only if the candidate does: a tie, no update
    log = dbgd_duel_log(DuelingBanditGradientDescent(), MIRRORED, 1, np.random.default_rng(0))
    assert log.horizon == 1 and log.first_actions[0] == 0
    # on the mirrored contexts DBGD ends with a positive weight (the true theta is +1)
    algorithm = DuelingBanditGradientDescent(learning_rate=0.1)
    dbgd_duel_log(algorithm, MIRRORED, 2000, np.random.default_rng(0))
    assert algorithm.weights_[0] > 0 and algorithm.wins_ > 0


def test_action_features_put_the_context_in_the_action_block():
    phi = action_features([[1.0, 2.0], [3.0, -1.0]], 3)
    assert phi.shape == (2, 3, 6)
    assert phi[0].tolist() == [[1, 2, 0, 0, 0, 0], [0, 0, 1, 2, 0, 0], [0, 0, 0, 0, 1, 2]]
    assert phi[1, 2].tolist() == [0, 0, 0, 0, 3, -1]
    with pytest.raises(ValueError, match="n_actions >= 2"):
        action_features([[1.0]], 1)


#: Two contexts with the same features: action 0 always beats 1 in context 0 and always
#: loses in context 1, so outcomes come from P_x, which the features cannot tell apart.
DETERMINISTIC = ContextPopulation(
    np.zeros((2, 1)),
    np.array([[[0.0, 1.0], [-1.0, 0.0]], [[0.0, -1.0], [1.0, 0.0]]]),
    np.array([0.5, 0.5]),
)


def _recording(algorithm):
    """``algorithm`` with every outcome its ``update`` is given kept in ``seen``."""
    update = algorithm.update
    algorithm.seen = []

    def recorded(*arguments):
        algorithm.seen.append(arguments[-1])
        update(*arguments)

    algorithm.update = recorded
    return algorithm


@pytest.mark.parametrize("name", ["colstim", "maxinp", "dbgd"])
def test_a_population_decides_the_duels_by_its_own_matrices(name):
    phi = action_features(np.ones((2, 1)), 2)
    rng = np.random.default_rng(0)
    if name == "dbgd":
        algorithm = _recording(DuelingBanditGradientDescent())
        log = dbgd_population_log(algorithm, DETERMINISTIC, phi, 400, rng, compiled=False)
        compiled = dbgd_population_log(
            DuelingBanditGradientDescent(), DETERMINISTIC, phi, 400, np.random.default_rng(0)
        )
        np.testing.assert_array_equal(compiled.outcomes, log.outcomes)
    else:
        algorithm = _recording(make_algorithm(name))
        log = population_duel_log(algorithm, DETERMINISTIC, phi, 400, rng, compiled=False)
        compiled = population_duel_log(
            make_algorithm(name), DETERMINISTIC, phi, 400, np.random.default_rng(0)
        )
        np.testing.assert_array_equal(compiled.outcomes, log.outcomes)
    duels = log.first_actions != log.second_actions
    assert duels.sum() >= 5 and set(log.context_ids.tolist()) == {0, 1}
    # arm 0 wins in context 0 and loses in context 1, whichever slot it holds
    winner_is_0 = np.where(log.outcomes > 0, log.first_actions, log.second_actions) == 0
    assert (winner_is_0[duels] == (log.context_ids[duels] == 0)).all()
    # and the algorithm learned from these outcomes (DBGD: 0 for a tie, else +-1)
    if name == "dbgd":
        expected = np.where(duels, log.outcomes, 0)
    else:
        expected = (log.outcomes > 0).astype(int)
    assert algorithm.seen == expected.tolist()


def test_population_runs_refuse_features_of_another_shape():
    with pytest.raises(ValueError, match=r"arm_features must have shape \(2, 2, d\)"):
        population_duel_log(
            make_algorithm("colstim"), DETERMINISTIC, np.zeros((2, 3, 1)), 5,
            np.random.default_rng(0),
        )  # fmt: skip


#: An adaptive adversary over three contexts of one feature (3 actions, margin 0.8).
def _adversary():
    return CounterPlayAdversary(np.array([[1.0], [-1.0], [0.5]]), 3, 0.8)


def test_round_by_round_log_lets_the_environment_see_each_duel_before_the_next_round():
    environment = _adversary()
    environment.reset(np.random.default_rng(0))
    choices = np.random.default_rng(1).integers(0, 3, size=(500, 2))
    rounds = iter(choices.tolist())
    learned = []
    log = round_by_round_log(
        environment,
        500,
        lambda context: tuple(next(rounds)),
        lambda a, b, outcome: learned.append((a, b, outcome)),
    )
    assert log.first_actions.tolist() == choices[:, 0].tolist()
    assert learned == list(
        zip(
            log.first_actions.tolist(),
            log.second_actions.tolist(),
            log.outcomes.tolist(),
            strict=True,
        )
    )
    check_outcomes_follow_the_adversary(log, 3, 0.8)
    with pytest.raises(ValueError, match="horizon must be at least 1"):
        round_by_round_log(environment, 0, lambda context: (0, 0), lambda *_: None)


@pytest.mark.parametrize("name", ["colstim", "maxinp", "dbgd"])
def test_environment_runs_learn_the_outcomes_of_any_environment(name):
    phi = action_features(np.ones((2, 1)), 2)

    def run(environment, features, seed):
        if name == "dbgd":
            algorithm = _recording(DuelingBanditGradientDescent())
            log = dbgd_environment_log(algorithm, environment, features, 400, seed, compiled=False)
        else:
            algorithm = _recording(make_algorithm(name))
            log = environment_duel_log(algorithm, environment, features, 400, seed, compiled=False)
        duels = log.first_actions != log.second_actions
        expected = np.where(duels, log.outcomes, 0) if name == "dbgd" else log.outcomes > 0
        assert algorithm.seen == expected.astype(int).tolist()
        return log

    # a population, round by round: arm 0 wins in context 0 and loses in context 1
    log = run(StochasticEnvironment(DETERMINISTIC), phi, np.random.default_rng(0))
    duels = log.first_actions != log.second_actions
    assert duels.sum() >= 5 and set(log.context_ids.tolist()) == {0, 1}
    winner_is_0 = np.where(log.outcomes > 0, log.first_actions, log.second_actions) == 0
    assert (winner_is_0[duels] == (log.context_ids[duels] == 0)).all()
    # the adaptive adversary: outcomes and gains of its P_t, the same bytes for the same seed
    features = action_features(_adversary().contexts, 3)
    log = run(_adversary(), features, np.random.default_rng(2))
    check_outcomes_follow_the_adversary(log, 3, 0.8)
    again = run(_adversary(), features, np.random.default_rng(2))
    assert log.gains.tobytes() == again.gains.tobytes()
    assert log.outcomes.tobytes() == again.outcomes.tobytes()


@pytest.mark.parametrize("name", [*ALGORITHM_NAMES, "dbgd"])
def test_the_compiled_adversary_run_plays_the_duels_of_the_round_by_round_run(name):
    # the adversary of the duels family's shape (10 contexts of 5 features), several K,
    # margins and seeds, past the exploration (tau = K^2 d = 45 to 80 rounds): the kernel
    # on the adversary's rounds drawn ahead and the NumPy select / update round by round
    # give the same log, byte for byte, the same play counts and the same learned state
    contexts = np.random.default_rng(0).normal(size=(10, 5))
    for n_actions, margin, seed in [(3, 0.8, 0), (3, 0.8, 1), (4, 0.5, 2), (2, 1.0, 3)]:
        features = action_features(contexts, n_actions)
        runs = []
        for compiled in (True, False):
            adversary = CounterPlayAdversary(contexts, n_actions, margin)
            if name == "dbgd":
                algorithm = DuelingBanditGradientDescent()
                run = dbgd_environment_log
            else:
                algorithm, run = make_algorithm(name), environment_duel_log
            rng = np.random.default_rng(seed)
            log = run(algorithm, adversary, features, 600, rng, compiled=compiled)
            runs.append((log, adversary, algorithm))
        (log, adversary, algorithm), (reference, reference_adversary, reference_algorithm) = runs
        for field in ("context_ids", "first_actions", "second_actions", "outcomes", "gains"):
            compiled_field, reference_field = getattr(log, field), getattr(reference, field)
            assert compiled_field.dtype == reference_field.dtype, (field, n_actions, seed)
            assert compiled_field.tobytes() == reference_field.tobytes(), (field, n_actions, seed)
        np.testing.assert_array_equal(adversary.play_counts_, reference_adversary.play_counts_)
        if name == "dbgd":
            assert algorithm.wins_ == reference_algorithm.wins_ > 0
            np.testing.assert_allclose(algorithm.weights_, reference_algorithm.weights_)
        else:
            assert algorithm.last_fit_ == reference_algorithm.last_fit_ > algorithm.tau_
            np.testing.assert_allclose(algorithm.theta_, reference_algorithm.theta_, atol=1e-12)


def test_environment_runs_refuse_features_of_another_shape():
    with pytest.raises(ValueError, match=r"arm_features must have shape \(3, 3, d\)"):
        environment_duel_log(
            make_algorithm("colstim"), _adversary(), np.zeros((3, 2, 1)), 5,
            np.random.default_rng(0),
        )  # fmt: skip
    with pytest.raises(ValueError, match=r"arm_features must have shape \(3, 3, d\)"):
        dbgd_environment_log(
            DuelingBanditGradientDescent(), _adversary(), np.zeros((2, 3, 1)), 5,
            np.random.default_rng(0),
        )  # fmt: skip


#: (K, context features, contexts, horizon): arm features ``phi(x, a)`` of ``K d`` dimensions
#: (6 to 40), ``tau = K^2 d`` exploration rounds, then refits up to the horizon.
POPULATIONS = [(2, 3, 5, 400), (3, 5, 12, 700), (5, 4, 9, 900), (8, 5, 20, 1200)]


@pytest.mark.parametrize("name", [*ALGORITHM_NAMES, "dbgd"])
@pytest.mark.parametrize(("n_actions", "n_features", "n_contexts", "horizon"), POPULATIONS)
def test_compiled_and_numpy_rounds_play_the_same_duels(
    name, n_actions, n_features, n_contexts, horizon
):
    rng = np.random.default_rng(100 * n_actions + n_features)
    population = random_population(rng, n_contexts, n_actions, n_features)
    phi = action_features(population.features, n_actions)
    algorithm = assert_same_population_runs(name, population, phi, horizon, seed=n_actions)
    if name == "dbgd":
        assert 0 < algorithm.wins_ < horizon
    else:
        assert algorithm.tau_ == n_actions * phi.shape[2] < horizon
        assert algorithm.last_fit_ > 1.5 * algorithm.tau_  # several refits


@pytest.mark.parametrize("radius", [None, 0.5])
def test_compiled_dbgd_on_dense_arm_features_with_and_without_projection(radius):
    rng = np.random.default_rng(8)
    population = random_population(rng, 10, 5, 2)
    arm_features = rng.standard_normal((10, 5, 30))
    algorithm = assert_same_population_runs(
        "dbgd", population, arm_features, 2000, seed=4, learning_rate=0.2, radius=radius
    )
    if radius is not None:
        assert np.linalg.norm(algorithm.weights_) == pytest.approx(radius)


@pytest.mark.parametrize("name", ALGORITHM_NAMES)
def test_compiled_rounds_on_dense_arm_features_and_every_round_refits(name):
    rng = np.random.default_rng(7)
    population = random_population(rng, 15, 6, 2)
    arm_features = rng.standard_normal((15, 6, 40)) / np.sqrt(40)
    assert_same_population_runs(
        name, population, arm_features, 600, seed=3, exploration_rounds=50, refit_growth=1
    )


@settings(max_examples=12)
@given(
    name=st.sampled_from([*ALGORITHM_NAMES, "dbgd"]),
    n_actions=st.integers(2, 8),
    n_features=st.integers(2, 4),
    n_contexts=st.integers(5, 12),
    extra_rounds=st.integers(1, 150),
    seed=st.integers(0, 2**32 - 1),
)
def test_any_small_population_gives_identical_runs(
    name, n_actions, n_features, n_contexts, extra_rounds, seed
):
    """Past the default exploration ``tau = K^2 d``, in at least 5 contexts, as the duels
    family plays. Outside these, scores can tie in exact arithmetic (arms whose blocks were
    never duelled; MaxInP's deterministic pairs in 2 to 4 contexts balancing the duel counts)
    and BLAS and the kernel's loops round such ties apart: the caveat of
    :func:`~cdbandits.linear_duels.contextual.population_duel_log`."""
    population = random_population(np.random.default_rng(seed), n_contexts, n_actions, n_features)
    phi = action_features(population.features, n_actions)
    horizon = n_actions * phi.shape[2] + extra_rounds
    assert_same_population_runs(name, population, phi, horizon, seed)
