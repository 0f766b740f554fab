"""Compiled (numba) kernels of the appendix: subset sampling and Copeland scores of sub-matrices.

Copeland scores of many sub-matrices of one ``N x N`` matrix are counted from bit sets of
the full matrix's signs: row ``i`` of a bit set holds, as ``ceil(N / 64)`` 64-bit words, the
arms ``i`` beats (or ties, or loses to); a sub-matrix's score of arm ``i`` is the number of
set bits of that row restricted to the sub-matrix's arms. That is ``K * ceil(N / 64)`` word
operations per sub-matrix instead of ``K**2`` comparisons.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.extending import intrinsic
from numpy.typing import NDArray

from ...winners import COPELAND_VARIANTS, CopelandVariant

__all__ = [
    "partial_shuffles",
    "sign_bitsets",
    "subset_scores",
    "subset_summary_columns",
    "variant_bitsets",
]


@njit(cache=True)
def partial_shuffles(uniforms: NDArray[np.float64], n_arms: int) -> NDArray[np.int64]:
    """The first ``k`` entries of a Fisher-Yates shuffle of ``range(n_arms)``, sorted, per row.

    Step ``i`` of row ``row`` swaps position ``i`` with position ``i + floor(uniforms[row, i]
    * (n_arms - i))``.
    """
    n, k = uniforms.shape
    subsets = np.empty((n, k), dtype=np.int64)
    permutation = np.empty(n_arms, dtype=np.int64)
    chosen = np.empty(n_arms, dtype=np.int64)
    gathered = np.empty(n_arms + 1, dtype=np.int64)
    for row in range(n):
        for arm in range(n_arms):
            permutation[arm] = arm
            chosen[arm] = 0
        for i in range(k):
            # min(): u * m can round up to m when u is the largest double below 1.
            j = i + min(int(uniforms[row, i] * (n_arms - i)), n_arms - i - 1)
            permutation[i], permutation[j] = permutation[j], permutation[i]
            chosen[permutation[i]] = 1
        # Branch-free gathering of the chosen arms in increasing order.
        position = 0
        for arm in range(n_arms):
            gathered[position] = arm
            position += chosen[arm]
        subsets[row] = gathered[:k]
    return subsets


@intrinsic
def _popcount(typingctx, word):
    """Number of set bits of a uint64 (one machine instruction)."""
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


def sign_bitsets(mask: NDArray[np.bool_]) -> NDArray[np.uint64]:
    """Row ``i`` of ``mask`` (shape (N, N)) as ``ceil(N / 64)`` little-endian 64-bit words."""
    n = mask.shape[1]
    words = -(-n // 64)
    padded = np.zeros((mask.shape[0], words * 64), dtype=np.uint8)
    padded[:, :n] = mask
    return np.packbits(padded, axis=1, bitorder="little").view("<u8").astype(np.uint64)


def variant_bitsets(
    P: NDArray[np.float64], variant: CopelandVariant
) -> tuple[NDArray[np.uint64], NDArray[np.uint64], bool]:
    """Bit sets whose counts give the Copeland ``variant``: (counted, subtracted, subtract?)."""
    if variant == "wins":
        wins = sign_bitsets(P > 0)
        return wins, wins, False
    if variant == "wins_or_ties":
        wins_or_ties = sign_bitsets(P >= 0)
        return wins_or_ties, wins_or_ties, False
    if variant == "wins_minus_losses":
        return sign_bitsets(P > 0), sign_bitsets(P < 0), True
    raise ValueError(f"variant must be one of {COPELAND_VARIANTS}, got {variant!r}")


@njit(cache=True)
def _row_scores(
    plus: NDArray[np.uint64],
    minus: NDArray[np.uint64],
    subtract: bool,
    arms: NDArray[np.int64],
    member: NDArray[np.uint64],
    scores: NDArray[np.int64],
) -> None:
    """Scores of the sub-matrix on ``arms``: counted bits of ``plus`` (minus those of ``minus``).

    ``member`` is scratch space of ``plus.shape[1]`` words.
    """
    member[:] = 0
    for arm in arms:
        member[arm >> 6] |= np.uint64(1) << np.uint64(arm & 63)
    for i in range(arms.size):
        total = 0
        for w in range(member.size):
            total += _popcount(plus[arms[i], w] & member[w])
            if subtract:
                total -= _popcount(minus[arms[i], w] & member[w])
        scores[i] = total


@njit(cache=True, parallel=True)
def subset_scores(
    plus: NDArray[np.uint64],
    minus: NDArray[np.uint64],
    subtract: bool,
    subsets: NDArray[np.int64],
) -> NDArray[np.int64]:
    """Scores of every arm of every sub-matrix (bit sets from :func:`variant_bitsets`)."""
    n, k = subsets.shape
    scores = np.empty((n, k), dtype=np.int64)
    for row in prange(n):
        member = np.empty(plus.shape[1], dtype=np.uint64)
        _row_scores(plus, minus, subtract, subsets[row], member, scores[row])
    return scores


_SUMMARY_CHUNK = 256


@njit(cache=True, parallel=True)
def subset_summary_columns(
    plus: NDArray[np.uint64],
    minus: NDArray[np.uint64],
    subtract: bool,
    subsets: NDArray[np.int64],
    weights: NDArray[np.float64],
) -> NDArray[np.int64]:
    """Per row: support size, #Copeland winners, #of them in the support, max loss in it."""
    n, k = subsets.shape
    out = np.empty((n, 4), dtype=np.int64)
    for chunk in prange((n + _SUMMARY_CHUNK - 1) // _SUMMARY_CHUNK):
        member = np.empty(plus.shape[1], dtype=np.uint64)
        scores = np.empty(k, dtype=np.int64)
        for row in range(chunk * _SUMMARY_CHUNK, min(n, (chunk + 1) * _SUMMARY_CHUNK)):
            _row_scores(plus, minus, subtract, subsets[row], member, scores)
            best = scores.max()
            support_size = winners = winners_in_support = 0
            lowest_in_support = best
            for i in range(k):
                in_support = weights[row, i] > 0.0
                support_size += in_support
                if scores[i] == best:
                    winners += 1
                    winners_in_support += in_support
                if in_support:
                    lowest_in_support = min(lowest_in_support, scores[i])
            out[row, 0] = support_size
            out[row, 1] = winners
            out[row, 2] = winners_in_support
            out[row, 3] = best - lowest_in_support
    return out
