"""The statements as data: expressions, and every statement readable on the sweeps' rows."""

import numpy as np
import pandas as pd
import pytest
from test_experiments_oracle_experiments import TINY, run_shards

from cdbandits.experiments.oracle.settings import EXPERIMENTS
from cdbandits.experiments.oracle.statements import (
    FORMULAS,
    STATEMENTS,
    evaluate,
    is_informative,
)
from cdbandits.experiments.oracle.tables import combine_experiment_shards
from cdbandits.oracle_methods.bounds import approx_project_factor


def test_expressions_are_columns_formulas_or_numbers():
    rows = pd.DataFrame(
        {
            "bound_L": [4.0, 9.0],
            "regret_ceiling": [10.0, 20.0],
            "budget": [4, 16],
            "mhat_value": [0.0, 0.25],
            "mhat_min": [-0.5, -1.0],
            "mhat_max": [0.5, 2.0],
        }
    )
    np.testing.assert_array_equal(evaluate("bound_L", rows), [4.0, 9.0])
    np.testing.assert_array_equal(evaluate("regret_ceiling", rows), [10.0, 20.0])
    np.testing.assert_array_equal(evaluate("value - min Mhat", rows), [0.5, 1.25])
    np.testing.assert_array_equal(evaluate("max Mhat - min Mhat", rows), [1.0, 3.0])
    np.testing.assert_allclose(
        evaluate("8 / sqrt(T_in)", rows), [approx_project_factor(4), approx_project_factor(16)]
    )
    np.testing.assert_array_equal(evaluate("2", rows), [2.0, 2.0])
    with pytest.raises(ValueError, match="neither a column"):
        evaluate("3 L", rows)


def test_a_bound_equal_to_its_ceiling_is_not_informative():
    # 8 / sqrt(8) = 2 sqrt(2) exactly, though not in floating point.
    assert not is_informative(8.0 / np.sqrt(8.0), 2.0 * np.sqrt(2.0))
    assert not is_informative(1.0, 1.0)
    assert is_informative(8.0 / np.sqrt(9.0), 2.0 * np.sqrt(2.0))
    np.testing.assert_array_equal(is_informative([0.5, 1.0, 1.5], [1.0, 1.0, 1.0]), [1, 0, 0])


@pytest.fixture(scope="module")
def tables():
    one = {**TINY, "shards": 1}
    return {
        name: combine_experiment_shards(run_shards(one, name), name)
        for name in EXPERIMENTS
        if name != "learned"
    }


def test_every_statement_selects_rows_and_reads_its_columns(tables):
    assert len({statement.name for statement in STATEMENTS}) == len(STATEMENTS)
    for statement in STATEMENTS:
        for source in statement.sources:
            assert source.experiment in EXPERIMENTS
            rows = tables[source.experiment]
            for column, value in source.selection:
                rows = rows[rows[column] == value]
            assert not rows.empty, (statement.name, source.experiment)
            columns = [statement.measured, statement.parameter, *(statement.counts or ())]
            assert set(columns) <= set(rows.columns), statement.name
            for expression in (statement.bound, statement.ceiling):
                assert expression in rows.columns or expression in FORMULAS or float(expression)
                assert np.isfinite(evaluate(expression, rows)).all(), statement.name
            # The ground truth's ceiling bounds what was measured (the quantity's maximum).
            measured = rows[statement.measured].to_numpy()
            assert (measured <= evaluate(statement.ceiling, rows) + 1e-9).all(), statement.name
