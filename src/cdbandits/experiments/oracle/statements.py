"""The bounds of the paper checked by the oracle sweeps, declared as data.

Each :class:`Statement` says which sweep rows it is checked on (:attr:`Statement.sources`),
which column holds the measured quantity and which the bound's value at the parameters used,
the parameter its rate is measured against, and its *ceiling*: the largest value the bounded
quantity can take on the run's ground truth (the true game ``M``, the drawn contexts, the
game ``Mhat`` a solver is given), whatever the code under test outputs
(:mod:`.ceilings`). A trial is *informative* when its bound is below its ceiling; a bound
at or above the ceiling holds whatever the algorithm does, so its coverage is no evidence.
Values are given as *expressions* (:func:`evaluate`): a column of the sweep's table, a
formula of :data:`FORMULAS`, or a number. The checks and the bound table built from them are
in :mod:`.bound_table`; the smallest budgets that make a bound informative in :mod:`.budgets`.

Ceilings (columns the sweeps write, :data:`~.ceilings.CEILINGS` says how each is computed):

* ``deviation_ceiling``: ``L + max |M|`` for ``max |Mhat - M|`` (Lemma eq. (f2)), ``L``
  declared for the estimator;
* ``exploitability_ceiling``: ``max M`` for the exploitability of a mixture (Lemma
  explore-first, Theorem main-eps);
* ``value - min Mhat``: the gap ``max_w min_u w^T B u - min_u wbar^T B u`` of any ``wbar``
  (Theorems fpl and proj-out2; ``w^T B u`` of hull points lies between the smallest and
  largest entries of ``Mhat``), ``max Mhat - min Mhat`` for Lemma proj-out1's average
  regret (a difference of two payoffs);
* ``certificate_ceiling``: the largest ``-min_s F(s, v) / ||z - v_1||`` over outputs ``v``
  of the hull, for the worst projection of a run (Theorem approx-proj);
* ``regret_ceiling``: the largest regret (rd1) any learner can have on the episode's
  contexts (Theorems main-regret and sparring-exp4).

A statement whose quantity has a *floor* on the ground truth (:attr:`Statement.floor`: the
smallest value any output can give, ``regret_floor`` for a regret) is also checked from
below: a measured value under the floor is no value of the quantity, so a trial holds
only when ``floor <= measured <= bound``.

The statement names are the join key of the bound table with the broken-variant detection
table (``results/oracle/detection.csv``, column ``statement``): keep them stable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "FORMULAS",
    "STATEMENTS",
    "Source",
    "Statement",
    "evaluate",
    "is_informative",
    "is_above_floor",
]

Selection = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Source:
    """Rows of one sweep: the experiment and the column filters selecting them."""

    experiment: str
    selection: Selection = ()


@dataclass(frozen=True)
class Statement:
    """A bound of the paper as checked here.

    Attributes
    ----------
    name : str
        Short identifier (the join key of the detection table).
    reference : str
        The paper's label.
    experiment : str
        The sweep of its main rows.
    selection : tuple of (str, str)
        Column filters selecting them.
    measured : str
        Column of the measured quantity.
    bound : str
        Expression of the bound's value (:func:`evaluate`).
    parameter : str
        Column of the parameter the rate is measured against.
    theory_rate : float or None
        Exponent of the theory's rate in that parameter, when the sweep scales every other
        parameter as the statement requires; ``None`` for fixed-budget sweeps (their slope
        is reported without a theory to compare with).
    ceiling : str
        Expression of the largest value the quantity can take (module docstring).
    description : str
    counts : tuple of (str, str), optional
        Columns ``(held, trials)`` when a row holds several checks (Theorem approx-proj: one
        per projection of a run); otherwise a row is one trial, held when
        ``measured <= bound``.
    more_sources : tuple of Source, optional
        Further sweeps checked with the same columns (the small game's).
    detection_sources : tuple of Source, optional
        Tables of the broken-variant detection only (not sweeps of the bound table) on
        which it is also checked (:mod:`.detection`).
    floor : str, optional
        Expression of the smallest value the quantity can take (module docstring); empty
        when the quantity has none worth checking.
    """

    name: str
    reference: str
    experiment: str
    selection: Selection
    measured: str
    bound: str
    parameter: str
    theory_rate: float | None
    ceiling: str
    description: str
    counts: tuple[str, str] | None = None
    more_sources: tuple[Source, ...] = ()
    detection_sources: tuple[Source, ...] = ()
    floor: str = ""

    @property
    def sources(self) -> tuple[Source, ...]:
        """Every sweep the statement is checked on, its main one first."""
        return (Source(self.experiment, self.selection), *self.more_sources)


def _column(rows: pd.DataFrame, name: str) -> NDArray[np.float64]:
    return rows[name].to_numpy(dtype=np.float64)


#: Formulas of bounds and ceilings, by the text the statements use.
FORMULAS: dict[str, Callable[[pd.DataFrame], NDArray[np.float64]]] = {
    "8 / sqrt(T_in)": lambda rows: 8.0 / np.sqrt(_column(rows, "budget")),
    "value - min Mhat": lambda rows: _column(rows, "mhat_value") - _column(rows, "mhat_min"),
    "max Mhat - min Mhat": lambda rows: _column(rows, "mhat_max") - _column(rows, "mhat_min"),
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


def is_informative(bound: ArrayLike, ceiling: ArrayLike) -> NDArray[np.bool_]:
    """Whether each bound is below its ceiling, by more than rounding (a bound equal to the
    ceiling in exact arithmetic is not informative)."""
    bound, ceiling = np.asarray(bound, dtype=np.float64), np.asarray(ceiling, dtype=np.float64)
    return bound < ceiling - 1e-9 * np.abs(ceiling)


def is_above_floor(measured: ArrayLike, floor: ArrayLike, ceiling: ArrayLike) -> NDArray[np.bool_]:
    """Whether each measured value is at least its floor, up to rounding relative to the
    ceiling."""
    measured = np.asarray(measured, dtype=np.float64)
    floor = np.asarray(floor, dtype=np.float64)
    return measured >= floor - 1e-9 * np.abs(np.asarray(ceiling, dtype=np.float64))


_PAPER = ("estimator", "importance_weighted")
_SKEW = ("estimator", "skew_symmetrised")

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
        ceiling="deviation_ceiling",
        description=(
            "max |Mhat - M| <= eps', ln(|Pi|^2/delta) (paper's K^2 estimator; as printed: "
            "one tail, too few for |Mhat - M|)"
        ),
    ),
    Statement(
        name="f2_paper_estimator_two_tailed",
        reference="Lemma eq. (f2)",
        experiment="explore_first",
        selection=(("solver", "lp"), _PAPER),
        measured="deviation",
        bound="deviation_bound_two_tailed",
        parameter="n_explore",
        theory_rate=-0.5,
        ceiling="deviation_ceiling",
        description="max |Mhat - M| <= eps', ln(2|Pi|^2/delta) (paper's K^2 estimator; corrected)",
    ),
    Statement(
        name="f2_skew_estimator",
        reference="Lemma eq. (f2)",
        experiment="explore_first",
        selection=(("solver", "lp"), _SKEW),
        measured="deviation",
        bound="deviation_bound",
        parameter="n_explore",
        theory_rate=-0.5,
        ceiling="deviation_ceiling",
        description=(
            "max |Mhat - M| <= eps', ln(|Pi|^2/delta) (skew-symmetrised estimator: one tail "
            "suffices, Mhat is skew)"
        ),
        more_sources=(Source("small_explore_first", (("solver", "lp"), _SKEW)),),
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
        ceiling="exploitability_ceiling",
        description="exact maxmin of Mhat (LP) is a (2 eps' + LP gap)-approximate vNW of M",
        more_sources=(Source("small_explore_first", (("solver", "lp"),)),),
    ),
    Statement(
        name="main_eps_fpl",
        reference="Theorem main-eps",
        experiment="explore_first",
        selection=(("solver", "fpl"), _PAPER),
        measured="exploitability",
        bound="exploitability_bound",
        parameter="n_explore",
        theory_rate=None,
        ceiling="exploitability_ceiling",
        description="SparringFPL output is a (2 eps' + 2 eps_fpl)-approximate vNW of M (fixed N)",
        more_sources=(Source("small_explore_first", (("solver", "fpl"),)),),
    ),
    Statement(
        name="main_eps_pgd",
        reference="Theorem main-eps",
        experiment="explore_first",
        selection=(("solver", "pgd"), _PAPER),
        measured="exploitability",
        bound="exploitability_bound",
        parameter="n_explore",
        theory_rate=None,
        ceiling="exploitability_ceiling",
        description=(
            "ProjectedGD output is a (2 eps' + eps_pgd)-approximate vNW of M (fixed T_in = T_out)"
        ),
        more_sources=(Source("small_explore_first", (("solver", "pgd"),)),),
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
        ceiling="value - min Mhat",
        description="max_w min_u w^T B u - min_u wbar^T B u <= 2 eps (N rounds, fixed m)",
        more_sources=(Source("small_solvers", (("algorithm", "fpl"),)),),
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
        ceiling="max Mhat - min Mhat",
        description=(
            "max_w (1/T) sum w^T B u_t - (1/T) sum w_t^T B u_t <= 2L/sqrt(T_out) + L epsbar/2"
        ),
        more_sources=(Source("small_solvers", (("algorithm", "pgd"),)),),
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
        ceiling="value - min Mhat",
        description="max_w min_u w^T B u - min_u wbar^T B u <= 2L/sqrt(T_out) + 4L/sqrt(T_in)",
        more_sources=(Source("small_solvers", (("algorithm", "pgd"),)),),
    ),
    Statement(
        name="approx_proj",
        reference="Theorem approx-proj",
        experiment="solvers",
        selection=(("algorithm", "pgd"),),
        measured="certificate_shortfall",
        bound="8 / sqrt(T_in)",
        parameter="budget",
        theory_rate=None,
        ceiling="certificate_ceiling",
        description=(
            "-min_s F(s, vbar) / ||z - v_1|| <= 8 / sqrt(T_in), every projection of every run"
        ),
        counts=("projections_held", "projections"),
        more_sources=(Source("small_solvers", (("algorithm", "pgd"),)),),
    ),
    Statement(
        name="main_regret_fpl",
        reference="Theorem main-regret",
        experiment="regret",
        selection=(("algorithm", "explore_exploit_fpl"),),
        measured="regret",
        bound="regret_bound",
        parameter="horizon",
        theory_rate=None,
        ceiling="regret_ceiling",
        floor="regret_floor",
        description="explore-then-exploit regret (rd1), game solved by SparringFPL (fixed N)",
        detection_sources=(Source("small_regret", (("algorithm", "explore_exploit_fpl"),)),),
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
        ceiling="regret_ceiling",
        floor="regret_floor",
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
        ceiling="regret_ceiling",
        floor="regret_floor",
        description="SparringEXP4.P regret (rd1) on the explore-then-exploit environment",
    ),
)
