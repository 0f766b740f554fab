"""Shared helpers of the appendix tests: random matrices, hand-made counts."""

from __future__ import annotations

import numpy as np

from cdbandits.batched import subset_von_neumann_winners
from cdbandits.experiments.appendix.counts import (
    AppendixCounts,
    KCounts,
    count_summaries,
    summarise_subsets,
)

# A 4-arm matrix counted by hand: arms 0 > 1 > 2 > 0 form a cycle and all beat arm 3.
CYCLE_AND_LOSER = np.array(
    [
        [0.0, 0.4, -0.4, 0.3],
        [-0.4, 0.0, 0.4, 0.3],
        [0.4, -0.4, 0.0, 0.3],
        [-0.3, -0.3, -0.3, 0.0],
    ]
)

# The same with a fifth arm, an exact clone of arm 0 (tied with it): the sub-matrices that
# hold both clones and no arm beating them have a face of vNWs (the interior point path).
CYCLE_LOSER_AND_CLONE = CYCLE_AND_LOSER[np.ix_([0, 1, 2, 3, 0], [0, 1, 2, 3, 0])]


def random_skew(rng: np.random.Generator, k: int, tie_share: float = 0.0) -> np.ndarray:
    """A random skew-symmetric matrix, entries zeroed (tied) with probability ``tie_share``."""
    values = rng.uniform(-1, 1, (k, k)) * (rng.random((k, k)) >= tie_share)
    upper = np.triu(values, 1)
    return upper - upper.T


def counts_of(P: np.ndarray, subsets: np.ndarray, variant="wins") -> KCounts:
    """Solve and count the sub-matrices of ``P`` on ``subsets``."""
    solution = subset_von_neumann_winners(P, subsets)
    return count_summaries(subsets.shape[1], summarise_subsets(P, subsets, solution, variant))


def k_counts(
    k: int,
    n: int,
    *,
    condorcet: int,
    all_copeland: int | None = None,
    some_copeland: int | None = None,
    support_size: dict[int, int] | None = None,
    max_copeland_loss: dict[int, int] | None = None,
) -> KCounts:
    """Counts of ``n`` matrices of size ``k`` with chosen properties (defaults: all fine)."""
    return KCounts(
        k=k,
        matrices=n,
        condorcet=condorcet,
        all_copeland_in_support=n if all_copeland is None else all_copeland,
        some_copeland_in_support=n if some_copeland is None else some_copeland,
        support_size=support_size or {1: condorcet, 3: n - condorcet},
        max_copeland_loss=max_copeland_loss or {0: n},
        methods={"condorcet": condorcet, "simplex": n - condorcet, "interior_point": 0},
        worst_exploitability=0.0,
    )


def appendix_counts(name: str, per_k: dict[int, KCounts]) -> AppendixCounts:
    """Counts of whole blocks of 1000 rows."""
    units = tuple((k, b, 1000) for k, c in per_k.items() for b in range(c.matrices // 1000))
    return AppendixCounts(name, "wins", units, per_k)


def synthetic_counts(
    name: str, support_five: int, condorcet_by_k: dict[int, int]
) -> AppendixCounts:
    """Counts of 400,000 matrices per K for K = 2, 50, 100, 136 with chosen properties."""
    n = 400_000
    per_k = {}
    for k, condorcet in condorcet_by_k.items():
        five = support_five if k == 136 else 0
        per_k[k] = k_counts(
            k,
            n,
            condorcet=condorcet,
            all_copeland=n - 100,
            some_copeland=n - 10,
            support_size={1: condorcet, 3: n - condorcet - five, **({5: five} if five else {})},
            max_copeland_loss={0: n - 50, 4: 50},
        )
    return appendix_counts(name, per_k)


def informational(data_mirror) -> np.ndarray:
    """The published informational MSLR matrix, skew form."""
    from cdbandits.datasets import DATA_FILES
    from cdbandits.matrix_io import load_matrix
    from cdbandits.preference import as_skew

    entry = DATA_FILES["mslr_informational"]
    return as_skew(load_matrix(data_mirror / entry.mirror_path), "probability")
