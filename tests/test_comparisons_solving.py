import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cdbandits.batched import METHODS as COMPILED
from cdbandits.batched import von_neumann_winners as compiled_winners
from cdbandits.comparisons import solving
from cdbandits.comparisons.solving import (
    ENUMERATION_MAX_K,
    METHODS,
    numba_cache_ready,
    uses_compiled_solver,
    von_neumann_winners,
)
from cdbandits.vnw_numpy import NUMPY_MAX_K
from cdbandits.winners import CertificationError


def stack(rng, n, k, kind):
    if kind == "uniform":
        upper = rng.uniform(-1, 1, (n, k, k))
    elif kind == "ties":
        upper = rng.choice([-1.0, 0.0, 1.0], (n, k, k))
    else:  # counts of three comparisons: many exact ties and repeated matrices
        upper = rng.integers(-3, 4, (n, k, k)) / 3
    upper = np.triu(upper, 1)
    return upper - upper.transpose(0, 2, 1)


@pytest.mark.parametrize("kind", ["uniform", "ties", "counts"])
@pytest.mark.parametrize("k", range(2, ENUMERATION_MAX_K + 1))
def test_small_stacks_get_the_compiled_kernels_winners(k, kind):
    matrices = stack(np.random.default_rng(k), 300, k, kind)
    ours = von_neumann_winners(matrices)
    theirs = compiled_winners(matrices)
    np.testing.assert_allclose(ours.weights, theirs.weights, atol=1e-9)
    assert (ours.exploitability >= -1e-9).all()
    np.testing.assert_allclose(ours.weights.sum(axis=1), 1.0)
    paths = {METHODS[m] for m in ours.method}
    assert paths <= {"condorcet", "support_enumeration", "numpy_interior_point"}
    # Every unique vNW found by enumeration is one the kernel proved unique too.
    enumerated = ours.method == METHODS.index("support_enumeration")
    assert {COMPILED[m] for m in theirs.method[enumerated]} <= {"simplex", "condorcet"}


@given(st.integers(2, ENUMERATION_MAX_K), st.integers(0, 2**32 - 1))
def test_identical_matrices_get_identical_answers(k, seed):
    matrices = stack(np.random.default_rng(seed), 4, k, "counts")
    repeated = matrices[[0, 1, 0, 2, 1, 3, 0]]
    solved = von_neumann_winners(repeated)
    assert solved.weights[0].tobytes() == solved.weights[2].tobytes() == solved.weights[6].tobytes()
    np.testing.assert_array_equal(
        solved.weights[[0, 1, 3, 5]], von_neumann_winners(matrices).weights
    )


def test_which_stacks_are_compiled():
    assert not uses_compiled_solver(ENUMERATION_MAX_K, 10**6)
    assert uses_compiled_solver(ENUMERATION_MAX_K + 1, 2)
    assert not uses_compiled_solver(NUMPY_MAX_K, 1)
    assert uses_compiled_solver(NUMPY_MAX_K + 1, 1)


def test_a_larger_single_matrix_is_solved_in_numpy(monkeypatch):
    matrices = stack(np.random.default_rng(0), 1, 30, "uniform")
    reference = compiled_winners(matrices).weights
    monkeypatch.setitem(sys.modules, "cdbandits.batched", None)  # importing it would fail
    solved = von_neumann_winners(matrices)
    np.testing.assert_allclose(solved.weights, reference, atol=1e-9)
    assert METHODS[solved.method[0]] == "numpy_interior_point"


def test_an_uncertified_matrix_raises_naming_it(monkeypatch):
    monkeypatch.setattr(solving, "solve", lambda P: (None, np.zeros(len(P))))
    ties = np.zeros((3, 4, 4))  # every vNW is tied: no support is strictly complementary
    with pytest.raises(CertificationError, match="matrix 0 of the stack .* could not be certified"):
        von_neumann_winners(ties)


@pytest.mark.parametrize(
    ("matrices", "message"),
    [
        (np.zeros((2, 3)), "shape"),
        (np.full((1, 2, 2), np.nan), "finite"),
        (np.zeros((1, 0, 0)), "K >= 1"),
    ],
)
def test_bad_stacks_are_refused(matrices, message):
    with pytest.raises(ValueError, match=message):
        von_neumann_winners(matrices)


def test_numba_cache_readiness_is_read_from_the_cache_index(tmp_path, monkeypatch):
    (tmp_path / "cached_kernel.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef double(x):\n    return 2 * x\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import cached_kernel

    assert not numba_cache_ready(cached_kernel.double)  # nothing compiled yet
    assert cached_kernel.double(2) == 4
    assert numba_cache_ready(cached_kernel.double)
    assert not numba_cache_ready(lambda x: x)  # not a cached numba function


@pytest.mark.parametrize(("n", "k"), [(20, 5), (1, 9), (20, ENUMERATION_MAX_K + 2)])
def test_entries_beyond_one_are_a_multiple_with_the_same_winner(n, k):
    """Bootstrap margins on the log's scale can exceed 1: every path solves them."""
    matrices = stack(np.random.default_rng(k), n, k, "uniform")
    times = np.random.default_rng(1).uniform(1.0, 3.0, n)
    unit = von_neumann_winners(matrices)
    grown = von_neumann_winners(matrices * times[:, None, None])
    np.testing.assert_allclose(grown.weights, unit.weights, atol=1e-8)
    np.testing.assert_allclose(grown.exploitability, unit.exploitability * times, atol=1e-8)
