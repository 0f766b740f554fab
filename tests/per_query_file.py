"""Per-query matrices files for tests, written by cdbandits.letor (the one format)."""

import numpy as np

from cdbandits.letor import PerQueryMatrices


def write_per_query_file(path, matrices):
    """A per-query matrices file as cdbandits.letor writes it, around ``matrices``."""
    n = matrices.shape[0]
    PerQueryMatrices(
        matrices=matrices,
        features=np.random.default_rng(0).standard_normal((n, 136)),
        qids=np.arange(100, 100 + n),
        n_documents=np.full(n, 10),
        truncated=np.zeros(n, dtype=bool),
        rankers=np.arange(matrices.shape[1]),
        comparisons_per_pair=100,
        click_model="informational",
        method="probabilistic",
        credit_ties="redrawn",
        tau=3.0,
        list_length=10,
    ).save(path)
    return path
