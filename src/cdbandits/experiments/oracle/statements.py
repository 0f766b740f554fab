"""The bounds of the paper checked by the oracle sweeps, declared as data.

Each :class:`Statement` says which sweep rows it is checked on, which column holds the
measured quantity and which the bound's value at the parameters used, the parameter its
rate is measured against, and the quantity's trivial range (a bound at least that large is
vacuous). Values are given as *expressions* (:func:`evaluate`): a column of the sweep's
table, a formula of :data:`FORMULAS`, or a number. The checks and the bound table built
from them are in :mod:`.tables`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import NDArray

__all__ = ["FORMULAS", "STATEMENTS", "Statement", "evaluate"]


@dataclass(frozen=True)
class Statement:
    """A bound of the paper as checked here.

    Attributes
    ----------
    name : str
        Short identifier.
    reference : str
        The paper's label.
    experiment : str
        The sweep whose rows it uses.
    selection : tuple of (str, str)
        Column filters selecting its rows.
    measured : str
        Column of the measured quantity.
    bound : str
        Expression of the bound's value (:func:`evaluate`).
    parameter : str
        Column of the parameter the rate is measured against.
    theory_rate : float
        Exponent of the theory's rate in that parameter.
    trivial : str
        Expression of the quantity's trivial range (a bound at least this large is vacuous).
    description : str
    counts : tuple of (str, str), optional
        Columns ``(held, trials)`` when a row holds several checks (Theorem approx-proj: one
        per projection of a run); otherwise a row is one trial, held when
        ``measured <= bound``.
    """

    name: str
    reference: str
    experiment: str
    selection: tuple[tuple[str, str], ...]
    measured: str
    bound: str
    parameter: str
    theory_rate: float
    trivial: str
    description: str
    counts: tuple[str, str] | None = None


def _column(rows: pd.DataFrame, name: str) -> NDArray[np.float64]:
    return rows[name].to_numpy(dtype=np.float64)


#: Formulas of bounds and trivial ranges, by the text the statements use.
FORMULAS: dict[str, Callable[[pd.DataFrame], NDArray[np.float64]]] = {
    "1 + L": lambda rows: 1.0 + _column(rows, "bound_L"),
    "2 L": lambda rows: 2.0 * _column(rows, "bound_L"),
    "T": lambda rows: _column(rows, "horizon"),
    "8 / sqrt(T_in)": lambda rows: 8.0 / np.sqrt(_column(rows, "budget")),
}


def evaluate(expression: str, rows: pd.DataFrame) -> NDArray[np.float64]:
    """An expression on every row: a column of ``rows``, a :data:`FORMULAS` entry or a number.

    Raises
    ------
    ValueError
        If the expression is none of these.
    """
    if expression in rows.columns:
        return _column(rows, expression)
    if expression in FORMULAS:
        return FORMULAS[expression](rows)
    try:
        return np.full(len(rows), float(expression))
    except ValueError:
        raise ValueError(
            f"{expression!r} is neither a column, a formula of FORMULAS nor a number"
        ) from None


_PAPER = ("estimator", "importance_weighted")

#: Every statement checked on the oracle sweeps, in the order of the bound table.
STATEMENTS = (
    Statement(
        name="f2_paper_estimator",
        reference="Lemma eq. (f2)",
        experiment="explore_first",
        selection=(("solver", "lp"), _PAPER),
        measured="deviation",
        bound="deviation_bound",
        parameter="n_explore",
        theory_rate=-0.5,
        trivial="1 + L",
        description="max |Mhat - M| <= eps' (paper's K^2 estimator)",
    ),
    Statement(
        name="f2_skew_estimator",
        reference="Lemma eq. (f2)",
        experiment="explore_first",
        selection=(("solver", "lp"), ("estimator", "skew_symmetrised")),
        measured="deviation",
        bound="deviation_bound",
        parameter="n_explore",
        theory_rate=-0.5,
        trivial="1 + L",
        description="max |Mhat - M| <= eps' (skew-symmetrised estimator)",
    ),
    Statement(
        name="explore_first_lp",
        reference="Lemma explore-first",
        experiment="explore_first",
        selection=(("solver", "lp"), _PAPER),
        measured="exploitability",
        bound="exploitability_bound",
        parameter="n_explore",
        theory_rate=-0.5,
        trivial="2",
        description="exact maxmin of Mhat (LP) is a (2 eps' + LP gap)-approximate vNW of M",
    ),
    Statement(
        name="main_eps_fpl",
        reference="Theorem main-eps",
        experiment="explore_first",
        selection=(("solver", "fpl"), _PAPER),
        measured="exploitability",
        bound="exploitability_bound",
        parameter="n_explore",
        theory_rate=-0.5,
        trivial="2",
        description="SparringFPL output is a (2 eps' + 2 eps_fpl)-approximate vNW of M",
    ),
    Statement(
        name="main_eps_pgd",
        reference="Theorem main-eps",
        experiment="explore_first",
        selection=(("solver", "pgd"), _PAPER),
        measured="exploitability",
        bound="exploitability_bound",
        parameter="n_explore",
        theory_rate=-0.5,
        trivial="2",
        description="ProjectedGD output is a (2 eps' + eps_pgd)-approximate vNW of M",
    ),
    Statement(
        name="fpl",
        reference="Theorem fpl",
        experiment="solvers",
        selection=(("algorithm", "fpl"),),
        measured="gap",
        bound="gap_bound",
        parameter="budget",
        theory_rate=-0.5,
        trivial="2 L",
        description="max_w min_u w^T B u - min_u wbar^T B u <= 2 eps (N rounds)",
    ),
    Statement(
        name="proj_out1",
        reference="Lemma proj-out1",
        experiment="solvers",
        selection=(("algorithm", "pgd"),),
        measured="regret_gap",
        bound="regret_bound",
        parameter="budget",
        theory_rate=-0.5,
        trivial="2 L",
        description=(
            "max_w (1/T) sum w^T B u_t - (1/T) sum w_t^T B u_t <= 2L/sqrt(T_out) + L epsbar/2"
        ),
    ),
    Statement(
        name="proj_out2",
        reference="Theorem proj-out2",
        experiment="solvers",
        selection=(("algorithm", "pgd"),),
        measured="gap",
        bound="gap_bound",
        parameter="budget",
        theory_rate=-0.5,
        trivial="2 L",
        description="max_w min_u w^T B u - min_u wbar^T B u <= 2L/sqrt(T_out) + 4L/sqrt(T_in)",
    ),
    Statement(
        name="approx_proj",
        reference="Theorem approx-proj",
        experiment="solvers",
        selection=(("algorithm", "pgd"),),
        measured="projection_gap",
        bound="8 / sqrt(T_in)",
        parameter="budget",
        theory_rate=-0.5,
        trivial="4",
        description=(
            "min_s F(s, vbar) >= -8 ||z - v_1|| / sqrt(T_in), every projection of every run"
        ),
        counts=("projections_held", "projections"),
    ),
    Statement(
        name="main_regret_fpl",
        reference="Theorem main-regret",
        experiment="regret",
        selection=(("algorithm", "explore_exploit_fpl"),),
        measured="regret",
        bound="regret_bound",
        parameter="horizon",
        theory_rate=2 / 3,
        trivial="T",
        description="explore-then-exploit regret (rd1), game solved by SparringFPL (fixed N)",
    ),
    Statement(
        name="main_regret_lp",
        reference="Theorem main-regret",
        experiment="regret",
        selection=(("algorithm", "explore_exploit_lp"),),
        measured="regret",
        bound="regret_bound",
        parameter="horizon",
        theory_rate=2 / 3,
        trivial="T",
        description="explore-then-exploit regret (rd1), game solved exactly (eps_alg -> 0 limit)",
    ),
    Statement(
        name="sparring_exp4p_same_environment",
        reference="Theorem sparring-exp4",
        experiment="regret",
        selection=(("algorithm", "sparring_exp4p"),),
        measured="regret",
        bound="regret_bound",
        parameter="horizon",
        theory_rate=0.5,
        trivial="T",
        description="SparringEXP4.P regret (rd1) on the explore-then-exploit environment",
    ),
)
