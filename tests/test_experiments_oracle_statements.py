"""The statements as data: expressions, and every statement readable on the sweeps' rows."""

import numpy as np
import pandas as pd
import pytest
from test_experiments_oracle_experiments import TINY, run_shards

from cdbandits.experiments.oracle.settings import EXPERIMENTS
from cdbandits.experiments.oracle.statements import FORMULAS, STATEMENTS, evaluate
from cdbandits.experiments.oracle.tables import combine_experiment_shards
from cdbandits.oracle_methods.bounds import approx_project_factor


def test_expressions_are_columns_formulas_or_numbers():
    rows = pd.DataFrame({"bound_L": [4.0, 9.0], "horizon": [10, 20], "budget": [4, 16]})
    np.testing.assert_array_equal(evaluate("bound_L", rows), [4.0, 9.0])
    np.testing.assert_array_equal(evaluate("1 + L", rows), [5.0, 10.0])
    np.testing.assert_array_equal(evaluate("2 L", rows), [8.0, 18.0])
    np.testing.assert_array_equal(evaluate("T", rows), [10.0, 20.0])
    np.testing.assert_allclose(
        evaluate("8 / sqrt(T_in)", rows), [approx_project_factor(4), approx_project_factor(16)]
    )
    np.testing.assert_array_equal(evaluate("2", rows), [2.0, 2.0])
    with pytest.raises(ValueError, match="neither a column"):
        evaluate("3 L", rows)


@pytest.fixture(scope="module")
def tables():
    one = {**TINY, "shards": 1}
    return {
        name: combine_experiment_shards(run_shards(one, name), name)
        for name in ("explore_first", "solvers", "regret")
    }


def test_every_statement_selects_rows_and_reads_its_columns(tables):
    assert len({statement.name for statement in STATEMENTS}) == len(STATEMENTS)
    for statement in STATEMENTS:
        assert statement.experiment in EXPERIMENTS
        rows = tables[statement.experiment]
        for column, value in statement.selection:
            rows = rows[rows[column] == value]
        assert not rows.empty, statement.name
        columns = [statement.measured, statement.parameter, *(statement.counts or ())]
        assert set(columns) <= set(rows.columns), statement.name
        for expression in (statement.bound, statement.trivial):
            assert expression in rows.columns or expression in FORMULAS or float(expression)
            assert np.isfinite(evaluate(expression, rows)).all(), statement.name
