"""The compiled kernels: bit sets of signs, subset scores and per-matrix summary columns."""

import numpy as np
import pytest
from appendix_helpers import random_skew

from cdbandits.experiments.appendix.kernels import (
    partial_shuffles,
    sign_bitsets,
    subset_scores,
    variant_bitsets,
)


@pytest.mark.parametrize("n", [1, 63, 64, 65, 130])
def test_sign_bitsets_hold_each_row_as_little_endian_words(n):
    mask = np.random.default_rng(n).random((n, n)) < 0.5
    words = sign_bitsets(mask)
    assert words.shape == (n, -(-n // 64)) and words.dtype == np.uint64
    for i in range(n):
        members = [j for j in range(n) if (int(words[i, j // 64]) >> (j % 64)) & 1]
        assert members == np.flatnonzero(mask[i]).tolist()


def test_subset_scores_count_the_bits_of_the_subset():
    P = random_skew(np.random.default_rng(0), 70, tie_share=0.3)
    subsets = np.array([[0, 5, 69], [3, 64, 65]])
    plus, minus, subtract = variant_bitsets(P, "wins_minus_losses")
    scores = subset_scores(plus, minus, subtract, subsets)
    for arms, row in zip(subsets, scores, strict=True):
        sub = P[np.ix_(arms, arms)]
        np.testing.assert_array_equal(row, (sub > 0).sum(axis=1) - (sub < 0).sum(axis=1))
    with pytest.raises(ValueError, match="variant must be one of"):
        variant_bitsets(P, "borda")


def test_partial_shuffles_take_the_documented_swaps():
    # Step i swaps position i with i + floor(u * (5 - i)): u = 0 keeps it, u near 1 takes
    # the last position; the chosen arms come out sorted.
    uniforms = np.array([[0.0, 0.0], [0.999999, 0.0], [0.5, 0.5]])
    np.testing.assert_array_equal(partial_shuffles(uniforms, 5), [[0, 1], [1, 4], [2, 3]])
