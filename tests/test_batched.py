"""The batched vNW solver: same kernel as the single call, checked against the cvxpy reference."""

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbandits import batched
from cdbandits.batched import (
    METHODS,
    subset_von_neumann_winners,
    von_neumann_winners,
)
from cdbandits.datasets import DATA_FILES
from cdbandits.matrix_io import load_matrix
from cdbandits.paper_examples import clone_example_matrix, five_arm_matrix
from cdbandits.preference import PreferenceMatrixError, as_skew
from cdbandits.winners import (
    CERTIFICATE_TOL,
    CertificationError,
    condorcet_winner,
    reference_von_neumann_winner,
    von_neumann_winner,
)

#: Both solvers return the exact equalizer solution on the same support; they differ by
#: rounding of two different linear solves.
WEIGHT_TOL = 1e-8


def random_skew(rng: np.random.Generator, k: int, kind: str) -> np.ndarray:
    """A random skew-form matrix of one of several structures."""
    if kind == "uniform":
        values = rng.uniform(-1, 1, (k, k))
    elif kind == "tournament":  # signs of a random tournament, magnitudes in [0.01, 1]
        values = rng.choice([-1.0, 1.0], (k, k)) * rng.uniform(0.01, 1, (k, k))
    elif kind == "near_transitive":  # mostly a chain with a few upsets: small supports
        values = rng.uniform(0.01, 1, (k, k)) * np.where(rng.random((k, k)) < 0.15, -1, 1)
    elif kind == "margins":  # integer margins of 6 voters: exact ties
        values = rng.integers(-3, 4, (k, k)) / 3
    else:
        raise ValueError(kind)
    upper = np.triu(values, 1)
    return upper - upper.T


def assert_agrees_with_reference(P: np.ndarray, weights: np.ndarray, certificate: float) -> None:
    """Certified, same support as cvxpy, and the same weights when the vNW is unique."""
    reference = reference_von_neumann_winner(P)
    np.testing.assert_array_equal(np.flatnonzero(weights > 0), reference.support)
    support = reference.support
    equalizer = np.vstack([P[np.ix_(support, support)].T, np.ones(support.size)])
    if np.linalg.matrix_rank(equalizer) == support.size:  # the vNW is unique
        np.testing.assert_allclose(weights, reference.weights, rtol=0, atol=WEIGHT_TOL)
    assert certificate >= -CERTIFICATE_TOL * np.abs(P).max()
    assert float((weights @ P).min()) == pytest.approx(certificate, abs=1e-15)
    assert abs(weights.sum() - 1) <= 1e-12


@settings(max_examples=80, deadline=None)
@given(
    k=st.integers(1, 14),
    kind=st.sampled_from(["uniform", "tournament", "near_transitive", "margins"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_matrices_agree_with_reference(k, kind, seed):
    P = random_skew(np.random.default_rng(seed), k, kind)
    result = von_neumann_winners(P[None])
    assert_agrees_with_reference(P, result.weights[0], result.exploitability[0])


@settings(max_examples=40, deadline=None)
@given(
    k=st.integers(1, 30),
    kind=st.sampled_from(["uniform", "margins"]),
    scale=st.sampled_from([1.0, 1e-9]),
    seed=st.integers(0, 2**32 - 1),
)
def test_batched_equals_single_call_bit_for_bit(k, kind, scale, seed):
    """Both run the same kernel, so the batch is just a faster way to call it."""
    P = random_skew(np.random.default_rng(seed), k, kind) * scale
    batched = von_neumann_winners(P[None])
    single = von_neumann_winner(P)
    np.testing.assert_array_equal(batched.weights[0], single.weights)
    assert METHODS[batched.method[0]] == single.solver


def test_many_matrices_in_one_batch():
    rng = np.random.default_rng(11)
    stack = np.stack([random_skew(rng, 9, "tournament") for _ in range(300)])
    result = von_neumann_winners(stack)
    assert (result.exploitability >= -CERTIFICATE_TOL).all()
    for P, weights, certificate in zip(
        stack[::10], result.weights[::10], result.exploitability[::10], strict=True
    ):
        assert_agrees_with_reference(P, weights, certificate)
    sizes = result.support_size
    assert (sizes % 2 == 1).all()  # generic skew-symmetric matrices have odd supports
    assert sizes.max() >= 5


@pytest.mark.parametrize("k", [1, 2])
def test_tiny_matrices(k):
    P = np.zeros((k, k))
    if k == 2:
        P[0, 1], P[1, 0] = -0.3, 0.3
    result = von_neumann_winners(P[None])
    expected = np.zeros(k)
    expected[k - 1] = 1.0
    np.testing.assert_array_equal(result.weights[0], expected)
    assert METHODS[result.method[0]] == "condorcet"
    assert result.exploitability[0] == 0.0


@settings(max_examples=60, deadline=None)
@given(k=st.integers(1, 12), seed=st.integers(0, 2**32 - 1))
def test_condorcet_shortcut_exactly_when_condorcet_winner_exists(k, seed):
    P = random_skew(np.random.default_rng(seed), k, "near_transitive")
    result = von_neumann_winners(P[None])
    winner = condorcet_winner(P)
    assert (METHODS[result.method[0]] == "condorcet") == (winner is not None)
    if winner is not None:
        assert result.weights[0, winner] == 1.0
        assert result.exploitability[0] == 0.0


@pytest.mark.parametrize(
    "name, P, expected",
    [
        ("all ties, 3 arms", np.zeros((3, 3)), [1 / 3] * 3),
        ("tie between 2 arms", np.zeros((2, 2)), [0.5, 0.5]),
        ("clone example K=5", clone_example_matrix(5), [1 / 6, 1 / 6, 1 / 3, 1 / 3] + [0] * 5),
        (
            "weak Condorcet winner tied with one arm",
            np.array([[0, 0, 0.5], [0, 0, -0.2], [-0.5, 0.2, 0]]),
            None,
        ),
    ],
)
def test_ties_and_clones_give_the_analytic_centre(name, P, expected):
    result = von_neumann_winners(P[None])
    assert METHODS[result.method[0]] == "interior_point", name
    assert_agrees_with_reference(P, result.weights[0], result.exploitability[0])
    if expected is not None:
        np.testing.assert_allclose(result.weights[0], expected, rtol=0, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(k=st.integers(3, 10), seed=st.integers(0, 2**32 - 1))
def test_random_matrix_with_a_clone_shares_weight(k, seed):
    rng = np.random.default_rng(seed)
    base = random_skew(rng, k, "tournament")
    cloned = rng.integers(k)
    order = np.r_[np.arange(k), cloned]  # arm k is an exact copy of arm `cloned`
    P = base[np.ix_(order, order)]
    result = von_neumann_winners(P[None])
    assert_agrees_with_reference(P, result.weights[0], result.exploitability[0])
    assert result.weights[0, cloned] == pytest.approx(result.weights[0, k], abs=1e-12)


def test_paper_five_arm_example():
    result = von_neumann_winners(five_arm_matrix()[None])
    np.testing.assert_allclose(result.weights[0], [1 / 3, 1 / 3, 1 / 3, 0, 0], rtol=0, atol=1e-12)
    assert METHODS[result.method[0]] == "simplex"


def test_dense_supports_at_large_k_take_the_interior_point_method():
    rng = np.random.default_rng(5)
    stack = np.stack([random_skew(rng, 120, "uniform") for _ in range(3)])
    result = von_neumann_winners(stack)
    assert result.method_counts() == {"condorcet": 0, "simplex": 0, "interior_point": 3}
    assert result.support_size.min() > 40  # dense supports
    for P, weights, certificate in zip(stack, result.weights, result.exploitability, strict=True):
        assert_agrees_with_reference(P, weights, certificate)


def test_uncertifiable_matrix_raises_and_names_it(monkeypatch):
    def failing(matrices, matrix_of_row, subsets, weights, exploitability, method):
        method[:] = 0
        method[1] = -1

    monkeypatch.setattr(batched, "_solve_serial", failing)
    monkeypatch.setattr(batched, "_solve_parallel", failing)
    with pytest.raises(CertificationError, match=r"matrix 1 of the batch \(arms \[0, 1, 2\]\)"):
        von_neumann_winners(np.zeros((3, 3, 3)))


@pytest.mark.parametrize("tol", [np.nan, np.inf, -1.0])
def test_bad_tolerance_is_rejected(tol):
    with pytest.raises(ValueError, match="tol must be a finite number"):
        von_neumann_winners(np.zeros((1, 3, 3)), tol=tol)


def test_probability_convention():
    P = random_skew(np.random.default_rng(2), 6, "uniform")
    skew = von_neumann_winners(P[None])
    probability = von_neumann_winners(((P + 1) / 2)[None], convention="probability")
    np.testing.assert_allclose(probability.weights, skew.weights, rtol=0, atol=1e-12)


def test_invalid_matrix_is_named():
    good = random_skew(np.random.default_rng(3), 4, "uniform")
    bad = good.copy()
    bad[1, 2] += 0.1
    with pytest.raises(PreferenceMatrixError, match=r"matrix 1 of the stack: .*\(1, 2\)"):
        von_neumann_winners(np.stack([good, bad]))
    with pytest.raises(PreferenceMatrixError, match="shape"):
        von_neumann_winners(good)


def test_subsets_equal_materialised_stack():
    rng = np.random.default_rng(4)
    P = random_skew(rng, 30, "near_transitive")
    subsets = np.stack([np.sort(rng.choice(30, 8, replace=False)) for _ in range(200)])
    by_index = subset_von_neumann_winners(P, subsets)
    materialised = von_neumann_winners(np.stack([P[np.ix_(s, s)] for s in subsets]))
    np.testing.assert_array_equal(by_index.weights, materialised.weights)
    np.testing.assert_array_equal(by_index.method, materialised.method)


@pytest.mark.parametrize(
    "subsets, message",
    [
        ([[0, 1, 1]], r"subset 0 repeats an arm"),
        ([[0, 1], [2, 9]], r"subset 1 has arm index 9"),
        ([[0.0, 1.0]], r"integer"),
    ],
)
def test_invalid_subsets_are_named(subsets, message):
    P = random_skew(np.random.default_rng(6), 5, "uniform")
    with pytest.raises(ValueError, match=message):
        subset_von_neumann_winners(P, subsets)


def test_real_mslr_subsets_agree_with_reference(data_mirror):
    entry = DATA_FILES["mslr_informational"]
    P = as_skew(load_matrix(data_mirror / entry.mirror_path), "probability")
    rng = np.random.default_rng(8)
    for k, count in ((5, 20), (40, 40), (100, 30), (136, 2)):
        subsets = np.stack([np.sort(rng.choice(136, k, replace=False)) for _ in range(count)])
        result = subset_von_neumann_winners(P, subsets)
        for arms, weights, certificate in zip(
            subsets, result.weights, result.exploitability, strict=True
        ):
            assert_agrees_with_reference(P[np.ix_(arms, arms)], weights, certificate)
    full = subset_von_neumann_winners(P, np.arange(136)[None])
    np.testing.assert_array_equal(np.flatnonzero(full.support[0]), [64, 109, 114])


def test_small_batches_run_serially_large_ones_in_parallel_with_the_same_bytes(monkeypatch):
    """The batch's estimated work picks the loop; the answers do not depend on it."""
    rng = np.random.default_rng(11)
    upper = np.triu(np.round(rng.uniform(-2, 2, (60, 10, 10))) / 2, 1)
    stack = upper - np.swapaxes(upper, 1, 2)
    calls = []
    for name in ("_solve_serial", "_solve_parallel"):
        original = getattr(batched, name)
        monkeypatch.setattr(
            batched, name, lambda *a, _n=name, _f=original: (calls.append(_n), _f(*a))[1]
        )
    small = von_neumann_winners(stack)
    monkeypatch.setattr(batched, "PARALLEL_WORK", 0)
    large = von_neumann_winners(stack)
    assert calls == ["_solve_serial", "_solve_parallel"] or numba.get_num_threads() == 1
    assert small.weights.tobytes() == large.weights.tobytes()
    np.testing.assert_array_equal(small.method, large.method)
