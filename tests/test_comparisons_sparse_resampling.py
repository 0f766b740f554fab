"""Large logs resampled pair by pair: the dense path's winners, warm or cold, any workers."""

import numpy as np
import pytest
from test_vnw_sparse import sparse_log_matrix

from cdbandits.comparisons.counts import count_pairs
from cdbandits.comparisons.records import ComparisonLogError, log_from_counts
from cdbandits.comparisons.sparse_resampling import sparse_distribution
from cdbandits.comparisons.uncertainty import resampled_distribution
from cdbandits.vnw_sparse import solve_sparse


def sparse_log(k=60, seed=0):
    """A log whose pairs met a few times each, most pairs never (integer counts)."""
    P = sparse_log_matrix(k, 5, 1.5, 0.0, seed)
    meetings = np.where(P != 0, 3.0, 0.0)
    meetings[np.triu_indices(k, 1)] *= np.random.default_rng(seed).integers(1, 3, k * (k - 1) // 2)
    meetings = np.triu(meetings, 1) + np.triu(meetings, 1).T
    wins = np.round((1 + P) / 2 * meetings)
    return log_from_counts([f"i{n}" for n in range(k)], wins * (1 - np.eye(k)))


def reported_lottery(log):
    return solve_sparse(count_pairs(log).skew_sparse())


def test_pair_by_pair_resamples_give_the_dense_paths_winners():
    log = sparse_log()
    solution = reported_lottery(log)
    dense = resampled_distribution(log, "bootstrap", solution.weights, 25, np.random.default_rng(1))
    pairwise = sparse_distribution(
        log, count_pairs(log), "bootstrap", solution.weights, 25, np.random.default_rng(1), jobs=1
    )
    np.testing.assert_array_equal(pairwise.weights > 1e-12, dense.weights > 1e-12)
    np.testing.assert_allclose(pairwise.weights, dense.weights, rtol=0, atol=1e-8)
    np.testing.assert_allclose(pairwise.exploitability, dense.exploitability, atol=1e-12)
    np.testing.assert_array_equal(pairwise.condorcet, dense.condorcet)
    np.testing.assert_array_equal(pairwise.copeland, dense.copeland)
    assert sum(pairwise.solver_paths.values()) == 25
    assert np.isnan(pairwise.weight_interval()[0]).all()
    assert pairwise.to_dict()["weight_interval"]["construction"].startswith("not computed")


def test_workers_and_warm_starts_do_not_change_the_winners():
    """Same bytes with one worker or two; warm and cold starts give the same winners."""
    log = sparse_log(80, 3)
    counts = count_pairs(log)
    solution = reported_lottery(log)

    def run(jobs, start):
        return sparse_distribution(
            log,
            counts,
            "bootstrap",
            solution.weights,
            12,
            np.random.default_rng(4),
            jobs=jobs,
            start=start,
        )

    warm = run(1, solution.arms)
    assert run(2, solution.arms).weights.tobytes() == warm.weights.tobytes()
    cold = run(1, None)
    np.testing.assert_array_equal(cold.weights > 1e-12, warm.weights > 1e-12)
    np.testing.assert_allclose(cold.weights, warm.weights, rtol=0, atol=1e-9)


def test_the_posterior_of_a_log_with_pairs_never_compared_is_refused():
    log = sparse_log(30, 5)
    with pytest.raises(ComparisonLogError, match="never compared"):
        sparse_distribution(
            log, count_pairs(log), "posterior", np.full(30, 1 / 30), 5, np.random.default_rng(0)
        )
