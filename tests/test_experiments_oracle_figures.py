"""Every figure draws from the tables of a tiny sweep (and from an empty scaling table)."""

import pandas as pd
import pytest
from test_experiments_oracle_experiments import TINY, run_shards

from cdbandits.experiments.oracle.figures import (
    plot_convergence,
    plot_explore_first,
    plot_regret,
    plot_scaling,
)
from cdbandits.experiments.oracle.tables import combine_experiment_shards


@pytest.fixture(scope="module")
def tables():
    one = {**TINY, "shards": 1}
    return {
        e: combine_experiment_shards(run_shards(one, e, seed=5), e)
        for e in ("explore_first", "solvers", "regret")
    }


def test_figures_draw(tables):
    for figure in (
        plot_convergence(tables["solvers"]),
        plot_explore_first(tables["explore_first"]),
        plot_regret(tables["regret"]),
        plot_scaling(pd.DataFrame(columns=["method", "n_policies", "seconds", "peak_mb"])),
        plot_scaling(
            pd.DataFrame(
                {
                    "method": ["fpl", "sparring_exp4p"],
                    "n_policies": [10, 10],
                    "seconds": [1.0, 2.0],
                    "peak_mb": [1.0, 3.0],
                }
            )
        ),
    ):
        assert figure.axes and all(axis.get_xscale() == "log" for axis in figure.axes)
