import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from cdbandits.preference import (
    PreferenceMatrixError,
    as_skew,
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
