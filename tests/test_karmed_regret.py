"""Regret measures of a K-armed run, computed by hand on small matrices."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from karmed_cases import random_probability_matrix

from cdbandits.karmed import (
    condorcet_regret,
    copeland_regret,
    hindsight_regret,
    make_algorithm,
    regret_table,
    simulate,
    von_neumann_regret,
)
from cdbandits.paper_examples import five_arm_matrix

# Probability form; arm 0 is the Condorcet winner.
CONDORCET = np.array([[0.5, 0.7, 0.8], [0.3, 0.5, 0.6], [0.2, 0.4, 0.5]])


def counts(*duels, n_arms):
    """Play counts of the given duels (a self-duel counts twice)."""
    return np.bincount(np.ravel(duels), minlength=n_arms)


def test_condorcet_example_by_hand():
    one_duel = counts((1, 2), n_arms=3)
    # Condorcet regret: ((0.7 - 0.5) + (0.8 - 0.5)) / 2
    assert condorcet_regret(CONDORCET, one_duel) == pytest.approx(0.25, abs=1e-15)
    # against the vNW (the point mass on arm 0), skew units: (0.4 + 0.6) / 2
    assert von_neumann_regret(CONDORCET, one_duel) == pytest.approx(0.5, abs=1e-15)
    # best arm in hindsight is arm 0, the same 0.5
    assert hindsight_regret(CONDORCET, one_duel) == pytest.approx(0.5, abs=1e-15)
    # normalised Copeland scores (1, 1/2, 0): 1 - (1/2 + 0) / 2
    assert copeland_regret(CONDORCET, one_duel) == pytest.approx(0.75, abs=1e-15)
    # the winner against itself costs nothing under every measure
    perfect = counts((0, 0), (0, 0), n_arms=3)
    for measure in (condorcet_regret, von_neumann_regret, hindsight_regret, copeland_regret):
        assert measure(CONDORCET, perfect) == 0.0


def test_five_arm_example_of_the_paper_by_hand():
    P = five_arm_matrix()  # skew form; vNW uniform on arms 0-2, Copeland winner 3
    one_duel = counts((3, 4), n_arms=5)
    # w^T P = (0, 0, 0, 0.1/3, 0.05/3)
    assert von_neumann_regret(P, one_duel) == pytest.approx((0.1 / 3 + 0.05 / 3) / 2, abs=1e-12)
    # best single arm in hindsight is arm 3: (P[3,3] + P[3,4]) / 2
    assert hindsight_regret(P, one_duel) == pytest.approx(0.25, abs=1e-15)
    # Copeland scores (2, 2, 2, 3, 1) / 4: 3/4 - (3/4 + 1/4) / 2
    assert copeland_regret(P, one_duel) == pytest.approx(0.25, abs=1e-15)
    # arm 0 against itself: no regret against the vNW (it is in its support), but arm 4
    # beats arm 0 by 0.95, which is the regret in hindsight
    inside = counts((0, 0), n_arms=5)
    assert von_neumann_regret(P, inside) == pytest.approx(0.0, abs=1e-12)
    assert hindsight_regret(P, inside) == pytest.approx(0.95, abs=1e-15)
    with pytest.raises(ValueError, match="no Condorcet winner"):
        condorcet_regret(P, one_duel)


def test_checkpoint_rows_and_table():
    result = simulate(
        make_algorithm("rucb"), CONDORCET, 500, np.random.default_rng(0), [1, 100, 500]
    )
    table = regret_table(CONDORCET, result)
    assert list(table.columns) == ["round", "von_neumann", "hindsight", "condorcet", "copeland"]
    np.testing.assert_array_equal(table["round"], [1, 100, 500])
    for column in ("von_neumann", "condorcet", "copeland"):
        assert (np.diff(table[column]) >= 0).all()
    np.testing.assert_allclose(table["condorcet"], table["von_neumann"] / 2, rtol=1e-12)
    last = result.arm_counts[-1]
    assert table["copeland"].iloc[-1] == pytest.approx(copeland_regret(CONDORCET, last))
    no_winner = regret_table(
        five_arm_matrix(),
        simulate(make_algorithm("rucb"), five_arm_matrix(), 50, np.random.default_rng(0)),
    )
    assert no_winner["condorcet"].isna().all()


def test_bad_counts_are_rejected():
    with pytest.raises(ValueError, match="shape"):
        von_neumann_regret(CONDORCET, np.ones(4))
    with pytest.raises(ValueError, match="non-negative"):
        copeland_regret(CONDORCET, -np.ones(3))
    with pytest.raises(ValueError, match="weights"):
        von_neumann_regret(CONDORCET, np.ones(3), weights=np.ones(2))


@settings(max_examples=60)
@given(st.integers(2, 7), st.integers(0, 2**32 - 1))
def test_orderings_between_the_measures(n_arms, seed):
    rng = np.random.default_rng(seed)
    matrix = random_probability_matrix(n_arms, rng)
    arm_counts = rng.integers(0, 20, size=(4, n_arms))
    against_winner = von_neumann_regret(matrix, arm_counts)
    assert (against_winner >= -1e-9).all()  # the vNW's advantage is >= 0 against every arm
    assert (hindsight_regret(matrix, arm_counts) >= against_winner - 1e-9).all()
    assert (copeland_regret(matrix, arm_counts) >= 0).all()
    beats = (matrix > 0.5) | np.eye(n_arms, dtype=bool)
    if beats.all(axis=1).any():  # a Condorcet winner exists
        np.testing.assert_allclose(
            condorcet_regret(matrix, arm_counts), against_winner / 2, rtol=1e-9, atol=1e-12
        )
