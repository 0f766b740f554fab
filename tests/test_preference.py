import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from cdbandits.preference import (
    MAX_TOL,
    PreferenceMatrixError,
    as_skew,
    as_skew_stack,
    check_tolerance,
    detect_convention,
    to_probability,
    to_skew,
)


def random_skew(rng: np.random.Generator, k: int) -> np.ndarray:
    upper = np.triu(rng.uniform(-1, 1, (k, k)), 1)
    return upper - upper.T


@given(
    arrays(np.float64, (6, 6), elements=st.floats(-1, 1, allow_nan=False, width=64)),
)
def test_round_trip_between_conventions(values):
    upper = np.triu(values, 1)
    P = upper - upper.T
    Q = to_probability(P)
    np.testing.assert_allclose(Q + Q.T, 1.0, atol=1e-15)
    np.testing.assert_allclose(to_skew(Q), P, atol=1e-15)
    assert detect_convention(Q) == "probability"
    assert detect_convention(P) == "skew"


def test_as_skew_returns_exactly_skew_symmetric_matrix():
    rng = np.random.default_rng(3)
    P = random_skew(rng, 7)
    Q = (P + 1) / 2 + rng.uniform(-1e-8, 1e-8, P.shape)
    np.fill_diagonal(Q, 0.5)
    skew = as_skew(Q)
    assert np.array_equal(skew, -skew.T)
    np.testing.assert_allclose(skew, P, atol=1e-7)


def test_published_informational_matrix_is_probability_form(data_mirror):
    path = data_mirror / "mslr-preference-matrices/nightingal3-duelling-bandits"
    Q = np.load(path / "MSLR_Informational_PMat.npz")["PMat"]
    assert detect_convention(Q) == "probability"
    P = as_skew(Q)
    assert P.shape == (136, 136)
    np.testing.assert_array_equal(P, -P.T)


@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        ([[0.5, 0.7], [0.3]], "square"),
        (np.zeros((2, 3)), r"square \(K x K\); got shape \(2, 3\)"),
        (np.zeros((0, 0)), "at least one arm"),
        ([[0.5, np.nan], [0.5, 0.5]], r"entry \(0, 1\) is nan"),
        ([[0.5, 1.2], [-0.2, 0.5]], r"entry \(0, 1\) = 1.2 is outside \[0, 1\]"),
        ([[0.5, 0.7], [0.4, 0.5]], r"entries \(0, 1\) = 0.7 and \(1, 0\) = 0.4 sum to"),
        ([[0.0, 0.5], [-0.4, 0.0]], r"entries \(0, 1\) = 0.5 and \(1, 0\) = -0.4"),
        ([[0.5, 0.5], [0.5, 0.4]], r"diagonal entry \(1, 1\) = 0.4"),
    ],
)
def test_invalid_matrices_name_the_offending_entry(matrix, message):
    with pytest.raises(PreferenceMatrixError, match=message):
        as_skew(matrix)


def test_explicit_convention_is_enforced():
    P = [[0.0, 0.5], [-0.5, 0.0]]
    with pytest.raises(PreferenceMatrixError, match=r"entry \(1, 0\) = -0.5 is outside \[0, 1\]"):
        as_skew(P, "probability")
    np.testing.assert_array_equal(as_skew(P, "skew"), P)
    with pytest.raises(ValueError, match="convention must be"):
        as_skew(P, "percent")


def test_tolerance_is_the_stated_one():
    Q = np.array([[0.5, 0.6 + 2e-6], [0.4, 0.5]])
    with pytest.raises(PreferenceMatrixError, match="tolerance 1e-06"):
        as_skew(Q)
    assert as_skew(Q, tol=1e-5).shape == (2, 2)


ENTRY_POINTS = {
    "as_skew": lambda matrix, **kw: as_skew(matrix, **kw),
    "detect_convention": lambda matrix, **kw: detect_convention(matrix, **kw),
    "to_skew": lambda matrix, **kw: to_skew(matrix, **kw),
    "to_probability": lambda matrix, **kw: to_probability(matrix, **kw),
    "as_skew_stack": lambda matrix, **kw: as_skew_stack([matrix], **kw),
}


@pytest.mark.parametrize("entry_point", ENTRY_POINTS)
@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        (
            [[0.5, "0.5"], [0.5, 0.5]],
            r"entry \(0, 1\) is '0.5' \(str\); every entry must be a real",
        ),
        (np.array([["0.5", "0.5"], ["0.5", "0.5"]]), r"entry \(0, 0\) is '0.5' \(str\)"),
        ([[True, False], [False, True]], r"entry \(0, 0\) is True \(bool\)"),
        (np.array([[0.5, 0.5 + 1j], [0.5, 0.5]]), r"entry \(0, 0\) is \(0.5\+0j\) \(complex128\)"),
        ([[0.5, None], [0.5, 0.5]], r"entry \(0, 1\) is None"),
        ([[0.5, 10**400], [0.5, 0.5]], r"entry \(0, 1\) is too large"),
        ([[0.5, 0.5], [0.5]], "row 1 has 1 entry, but row 0 has 2 entries"),
        ([[0.5, np.inf], [0.5, 0.5]], r"entry \(0, 1\) is inf; every entry must be a finite"),
    ],
)
def test_every_entry_point_rejects_what_is_not_an_array_of_real_numbers(
    entry_point, matrix, message
):
    with pytest.raises(PreferenceMatrixError, match=message):
        ENTRY_POINTS[entry_point](matrix)


@pytest.mark.parametrize("entry_point", ENTRY_POINTS)
@pytest.mark.parametrize("tol", [float("nan"), float("inf"), -1e-9, MAX_TOL, 0.3, "1e-6", True])
def test_every_entry_point_checks_the_tolerance_the_same_way(entry_point, tol):
    with pytest.raises(ValueError, match="tolerance must be"):
        ENTRY_POINTS[entry_point](np.full((2, 2), 0.5), tol=tol)
    with pytest.raises(ValueError, match="tolerance must be"):
        check_tolerance(tol)


@pytest.mark.parametrize("tol", [0, 0.0, 1e-6, np.float32(1e-3), 0.2499])
def test_valid_tolerances(tol):
    assert check_tolerance(tol) == float(tol)
    assert as_skew(np.full((2, 2), 0.5), tol=tol).shape == (2, 2)


def test_exact_real_numbers_of_any_type_are_accepted():
    from fractions import Fraction

    expected = np.array([[0.0, 0.5], [-0.5, 0.0]])
    q = [[Fraction(1, 2), Fraction(3, 4)], [Fraction(1, 4), Fraction(1, 2)]]
    np.testing.assert_array_equal(as_skew(q), expected)
    np.testing.assert_array_equal(as_skew(np.array([[0, 1], [-1, 0]], dtype=np.int8)), 2 * expected)


@given(
    arrays(np.float64, (5, 5), elements=st.floats(-1, 1, width=64)),
    arrays(np.float64, (5, 5), elements=st.floats(-1, 1, width=64)),
    st.floats(0, 0.2, width=64),
    st.booleans(),
)
def test_output_is_valid_at_zero_tolerance_whatever_the_input_tolerance(
    values, noise, tol, probability
):
    """The matrix as_skew returns is checked again (all_winners does) without ever failing."""
    upper = np.triu(values, 1)
    matrix = upper - upper.T + tol * noise / 2  # within tol of validity, range included
    if probability:
        matrix = (upper - upper.T + 1) / 2 + tol * noise / 2
    # Within tol in exact arithmetic can round to just outside it in floating point.
    assume(np.abs(matrix + matrix.T - float(probability)).max() <= tol)
    P = as_skew(matrix, tol=tol)
    np.testing.assert_array_equal(as_skew(P, "skew", 0.0), P)
    assert np.array_equal(P, -P.T) and np.abs(P).max() <= 1


def test_stack_of_mixed_sizes_names_the_matrix_and_both_shapes():
    with pytest.raises(
        PreferenceMatrixError,
        match=r"one size K; matrix 2 has shape \(3, 3\), but matrix 0 has shape \(2, 2\)",
    ):
        as_skew_stack([np.zeros((2, 2)), np.zeros((2, 2)), np.zeros((3, 3))])
    with pytest.raises(
        PreferenceMatrixError, match="matrix 1: row 1 has 1 entry, but row 0 has 2 entries"
    ):
        as_skew_stack([np.zeros((2, 2)), [[0, 0], [0]]])
    with pytest.raises(PreferenceMatrixError, match=r"shape \(n, K, K\) with K >= 1; got shape"):
        as_skew_stack(np.zeros((2, 3)))


@given(
    arrays(np.float64, (4, 3, 3), elements=st.floats(-1, 1, width=64)),
    arrays(np.bool_, 4),
    st.sampled_from(["auto", "given"]),
)
def test_stack_agrees_with_as_skew_matrix_by_matrix(values, probability, convention):
    upper = np.triu(values, 1)
    skew = upper - np.swapaxes(upper, 1, 2)
    matrices = np.where(probability[:, None, None], (skew + 1) / 2, skew)
    if convention == "auto":
        expected = [as_skew(matrix) for matrix in matrices]
        np.testing.assert_array_equal(as_skew_stack(matrices, "auto"), expected)
    else:
        np.testing.assert_array_equal(as_skew_stack(skew, "skew"), skew)
        expected = [as_skew(matrix, "probability") for matrix in (skew + 1) / 2]
        np.testing.assert_array_equal(as_skew_stack((skew + 1) / 2, "probability"), expected)


def test_stack_names_the_first_invalid_matrix_with_the_message_of_as_skew():
    good = np.full((2, 2), 0.5)
    bad = np.array([[0.5, 0.7], [0.4, 0.5]])
    with pytest.raises(PreferenceMatrixError) as single:
        as_skew(bad, "probability")
    with pytest.raises(PreferenceMatrixError) as stacked:
        as_skew_stack([good, good, bad, bad], "probability")
    assert str(stacked.value) == f"matrix 2 of the stack: {single.value}"
