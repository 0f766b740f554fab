"""Budgets solved from the formulas of the paper's statements.

Theorem main-regret's exploration rounds ``m`` for a horizon (:func:`exploration_rounds`,
with the exploration scheme of an estimator name, :func:`scheme_of`), the smallest horizon
that leaves rounds to exploit after them (:func:`smallest_exploiting_horizon`, a rule of
the ``oracle`` section through :func:`check_exploits`), and the stump bins that give a
class size (:func:`stump_bins`).

The smallest budgets that make each statement's bound informative: a bound is informative
when it is below its statement's ceiling (:mod:`.statements`). For
a statement that no setting of a run made informative, :func:`smallest_informative_budget`
solves the bound's formula (:mod:`cdbandits.oracle_methods.bounds`) for the smallest budget
at which it drops below the ceiling, every other parameter as in the run (the sweep's
``m``, ``L``, ``V``, ``|Pi|``, ``delta``, the smallest ceiling of its trials; a regret's
ceiling grows with ``T``, so its smallest ratio to ``T`` is kept). Where the
statement has two budgets (Theorem main-eps: ``m`` and ``N`` or ``T_in = T_out``), the pair
of least cost is searched on a geometric grid of ``m``. Costs are counted in the units the
algorithms spend: oracle calls (each over the ``m`` contexts of the game) or rounds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd

from ...contextual.bounds import sparring_exp4p_regret_bound
from ...oracle_methods.bounds import (
    deviation_bound,
    fpl_gap_bound,
    main_eps_bound,
    pgd_bound,
)
from ...oracle_methods.exploration import (
    FixedExploration,
    skew_symmetric_exploration,
    uniform_exploration,
)
from ...oracle_methods.theory import (
    Algorithm,
    explore_exploit_rounds,
    main_regret_bound,
    statistics_delta,
)
from ..config_model import ConfigError
from .statements import Statement, evaluate, is_informative

__all__ = [
    "Budget",
    "check_exploits",
    "exploration_rounds",
    "failure_share",
    "scheme_of",
    "smallest_exploiting_horizon",
    "smallest_informative_budget",
    "smallest_integer",
    "sparring_budget",
    "stump_bins",
]

#: The largest budget searched (beyond it a statement is reported as out of reach).
LARGEST_BUDGET = 10**15


@dataclass(frozen=True)
class Budget:
    """The smallest informative budget of a statement on one sweep.

    Attributes
    ----------
    experiment : str
        The sweep whose other parameters were kept.
    budget : str
        The budget, e.g. ``"N = 75,601 (m = 1,000)"``.
    cost : str
        What one seed then spends, e.g. ``"151,202 oracle calls over 1,000 contexts"``.
    units : float
        That cost as one number (oracle calls times contexts, or rounds), to compare sweeps.
    """

    experiment: str
    budget: str
    cost: str
    units: float


def smallest_integer(holds: Callable[[int], bool], start: int = 1) -> int | None:
    """The smallest integer ``n >= start`` with ``holds(n)``, for ``holds`` monotone in ``n``
    (false, then true); ``None`` when it is false up to :data:`LARGEST_BUDGET`."""
    high = max(1, start)
    while not holds(high):
        if high > LARGEST_BUDGET:
            return None
        high *= 2
    low = max(start, high // 2) - 1  # holds(low) is false, or low < start
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if holds(middle) else (middle, high)
    return high


def scheme_of(estimator: str, n_actions: int) -> FixedExploration:
    """The uniform scheme of an estimator name of :data:`~.exploration.ESTIMATORS`."""
    if estimator == "importance_weighted":
        return uniform_exploration(n_actions)
    if estimator == "skew_symmetrised":
        return skew_symmetric_exploration(n_actions)
    raise ValueError(f"unknown estimator {estimator!r}")


def failure_share(delta: float) -> float:
    """Theorem main-regret's ``delta`` split over eq. (f2), FPL and Hoeffding."""
    return delta / 3.0


def exploration_rounds(
    horizon: int, n_policies: int, n_actions: int, estimator: str, delta: float
) -> int:
    """Theorem main-regret's ``m`` for ``horizon`` with the estimator's ``V`` for ``K``."""
    variance_bound = scheme_of(estimator, n_actions).variance_bound
    return explore_exploit_rounds(horizon, n_policies, failure_share(delta), variance_bound)


def smallest_exploiting_horizon(
    n_policies: int, n_actions: int, estimator: str, delta: float
) -> int:
    """The smallest ``T`` whose :func:`exploration_rounds` leave a round to exploit."""
    horizon = smallest_integer(
        lambda t: exploration_rounds(t, n_policies, n_actions, estimator, delta) < t, start=2
    )
    if horizon is None:
        raise ValueError(f"no horizon up to {LARGEST_BUDGET} leaves a round to exploit")
    return horizon


def check_exploits(
    horizons: Sequence[int], k: int, n_policies: int, estimator: str, delta: float, key: str
) -> None:
    """Raise :class:`ConfigError` naming ``key`` if a horizon leaves no round to exploit after
    Theorem main-regret's ``m`` (``K = k`` actions, ``n_policies`` policies)."""
    for horizon in horizons:
        m = exploration_rounds(horizon, n_policies, k, estimator, delta)
        if m >= horizon:
            smallest = smallest_exploiting_horizon(n_policies, k, estimator, delta)
            raise ConfigError(
                f"T = {horizon} leaves no round to exploit after Theorem main-regret's m = {m} "
                f"exploration rounds (K = {k}, |Pi| = {n_policies}); the smallest horizon that "
                f"does is {smallest}",
                key,
            )


def stump_bins(class_size: int, n_features: int, n_actions: int) -> int:
    """``n_bins`` with ``d (n_bins - 1) K^2 = class_size`` (which must be divisible)."""
    per_threshold = n_features * n_actions**2
    if class_size < per_threshold or class_size % per_threshold:
        raise ValueError(
            f"a stump class has d (n_bins - 1) K^2 policies, a multiple of {per_threshold} for "
            f"d = {n_features}, K = {n_actions}; got {class_size}"
        )
    return class_size // per_threshold + 1


def _below(bound: float, ceiling: float) -> bool:
    return bool(is_informative(bound, ceiling))


def _grid(start: int, factor: float = 1.2, steps: int = 60) -> list[int]:
    """``start, start * factor, ...`` rounded up, distinct."""
    return sorted({math.ceil(start * factor**step) for step in range(steps)})


def _count(value: float) -> str:
    return f"{value:,.0f}"


class _Sweep:
    """The parameters a sweep's rows share, read once."""

    def __init__(self, statement: Statement, rows: pd.DataFrame) -> None:
        first = rows.iloc[0]
        self.rows = rows
        self.delta = float(first["delta"]) if "delta" in rows else math.nan
        self.bound = float(first["bound_L"]) if "bound_L" in rows else math.nan
        self.variance = float(first["variance_V"]) if "variance_V" in rows else self.bound
        self.n_policies = int(first["n_policies"]) if "n_policies" in rows else 0
        # A setting is informative when every trial is: the smallest ceiling counts.
        ceilings = evaluate(statement.ceiling, rows)
        self.ceiling = float(ceilings.min())
        self.ceiling_rate = (
            float((ceilings / rows["horizon"].to_numpy()).min()) if "horizon" in rows else 1.0
        )

    def column(self, name: str) -> int:
        return int(self.rows[name].max())


def _exploration(tails: int) -> Callable[[_Sweep, str], Budget | None]:
    def solve(sweep: _Sweep, experiment: str) -> Budget | None:
        m = smallest_integer(
            lambda m: _below(
                deviation_bound(
                    m, sweep.n_policies, sweep.delta, sweep.bound, sweep.variance, tails
                ),
                sweep.ceiling,
            )
        )
        return (
            None if m is None else Budget(experiment, f"m = {_count(m)}", f"{_count(m)} rounds", m)
        )

    return solve


def _explore_first(sweep: _Sweep, experiment: str) -> Budget | None:
    def holds(m: int) -> bool:
        eps = deviation_bound(m, sweep.n_policies, sweep.delta, sweep.bound, sweep.variance)
        return _below(main_eps_bound(eps, 0.0), sweep.ceiling)

    m = smallest_integer(holds)
    return None if m is None else Budget(experiment, f"m = {_count(m)}", f"{_count(m)} rounds", m)


def _main_eps(algorithm: Algorithm) -> Callable[[_Sweep, str], Budget | None]:
    """Theorem main-eps: the (m, N) or (m, T_in = T_out) of least cost (oracle calls x m)."""

    def solve(sweep: _Sweep, experiment: str) -> Budget | None:
        delta = statistics_delta(sweep.delta, algorithm)

        def deviation(m: int) -> float:
            return deviation_bound(m, sweep.n_policies, delta, sweep.bound, sweep.variance)

        first = smallest_integer(lambda m: _below(2.0 * deviation(m), sweep.ceiling))
        if first is None:
            return None
        best: Budget | None = None
        for m in _grid(first + 1):
            found = _algorithm_budget(
                algorithm, sweep.bound, m, delta, sweep.ceiling - 2.0 * deviation(m)
            )
            if found is not None and (best is None or found[1] * m < best.units):
                budget, calls = found
                cost = f"{_count(calls)} oracle calls over {_count(m)} contexts"
                best = Budget(experiment, f"{budget}, m = {_count(m)}", cost, calls * m)
        return best

    return solve


def _algorithm_budget(
    algorithm: str, bound: float, m: int, delta: float, room: float
) -> tuple[str, int] | None:
    """The smallest ``N`` (FPL) or ``T_in = T_out`` (PGD) with ``eps_alg < room``, as text,
    with its oracle calls."""
    if algorithm == "fpl":
        n = smallest_integer(lambda n: _below(fpl_gap_bound(bound, m, n, delta), room))
        return None if n is None else (f"N = {_count(n)}", 2 * n)
    t = smallest_integer(lambda t: _below(pgd_bound(bound, t, t), room))
    return None if t is None else (f"T_in = T_out = {t}", t + t * t)


def _fpl(sweep: _Sweep, experiment: str) -> Budget | None:
    m = sweep.column("n_explore")
    n = smallest_integer(
        lambda n: _below(fpl_gap_bound(sweep.bound, m, n, sweep.delta), sweep.ceiling)
    )
    if n is None:
        return None
    cost = f"{_count(2 * n)} oracle calls over {_count(m)} contexts"
    return Budget(experiment, f"N = {_count(n)} (m = {_count(m)})", cost, 2 * n * m)


def _pgd(sweep: _Sweep, experiment: str) -> Budget | None:
    m = sweep.column("n_explore")
    t = smallest_integer(lambda t: _below(pgd_bound(sweep.bound, t, t), sweep.ceiling))
    if t is None:
        return None
    cost = f"{_count(t + t * t)} oracle calls over {_count(m)} contexts"
    return Budget(experiment, f"T_in = T_out = {t} (m = {_count(m)})", cost, (t + t * t) * m)


def _approx_proj(sweep: _Sweep, experiment: str) -> Budget | None:
    m = sweep.column("n_explore")
    t = smallest_integer(lambda t: _below(8.0 / math.sqrt(t), sweep.ceiling))
    if t is None:
        return None
    cost = f"{_count(t)} oracle calls per projection over {_count(m)} contexts"
    return Budget(experiment, f"T_in = {t}", cost, t * m)


def _regret_parameters(sweep: _Sweep) -> tuple[int, float, float]:
    """``|Pi|``, ``K^2`` (``L = V`` of uniform exploration) and Theorem main-regret's share."""
    k = int(sweep.rows["n_actions"].iloc[0])
    return sweep.n_policies, float(k * k), failure_share(sweep.delta)


def _main_regret(exact: bool) -> Callable[[_Sweep, str], Budget | None]:
    def solve(sweep: _Sweep, experiment: str) -> Budget | None:
        n_policies, scale, share = _regret_parameters(sweep)
        rate = sweep.ceiling_rate
        exact_horizon = smallest_integer(
            lambda t: _below(main_regret_bound(t, n_policies, scale, scale, share), rate * t),
            start=2,
        )
        if exact_horizon is None:
            return None
        if exact:
            rounds = _count(exact_horizon)
            return Budget(experiment, f"T = {rounds}", f"{rounds} rounds", exact_horizon)
        # At a fixed N, eps_fpl grows with m ~ T^(2/3): the smallest N at the largest T run,
        # or at twice the smallest T at which the exact solver's bound is informative.
        horizon = max(sweep.column("horizon"), 2 * exact_horizon)
        m = explore_exploit_rounds(horizon, n_policies, share, scale)
        n = smallest_integer(
            lambda n: _below(
                main_regret_bound(horizon, n_policies, scale, scale, share, n), rate * horizon
            )
        )
        if n is None:
            return None
        cost = f"{_count(2 * n)} oracle calls over {_count(m)} contexts"
        return Budget(experiment, f"N = {_count(n)} (T = {_count(horizon)})", cost, 2 * n * m)

    return solve


def sparring_budget(
    experiment: str,
    n_actions: int,
    n_policies: int,
    delta: float,
    uniform_expert: bool = True,
    rate: float = 1.0,
) -> Budget | None:
    """The smallest ``T`` at which Theorem sparring-exp4's explicit bound is below
    ``rate T`` (the regret's ceiling; at most ``T``)."""
    horizon = smallest_integer(
        lambda t: _below(
            sparring_exp4p_regret_bound(t, n_actions, n_policies, delta, uniform_expert).total,
            rate * t,
        ),
        start=2,
    )
    if horizon is None:
        return None
    cost = f"{_count(horizon)} rounds over {_count(n_policies)} policies"
    return Budget(experiment, f"T = {_count(horizon)}", cost, horizon * n_policies)


def _sparring(sweep: _Sweep, experiment: str) -> Budget | None:
    k = int(sweep.rows["n_actions"].iloc[0])
    return sparring_budget(experiment, k, sweep.n_policies, sweep.delta, rate=sweep.ceiling_rate)


_SOLVERS: dict[str, Callable[[_Sweep, str], Budget | None]] = {
    "f2_paper_estimator": _exploration(1),
    "f2_paper_estimator_two_tailed": _exploration(2),
    "f2_skew_estimator": _exploration(1),
    "explore_first_lp": _explore_first,
    "main_eps_fpl": _main_eps("fpl"),
    "main_eps_pgd": _main_eps("pgd"),
    "fpl": _fpl,
    "proj_out1": _pgd,
    "proj_out2": _pgd,
    "approx_proj": _approx_proj,
    "main_regret_fpl": _main_regret(exact=False),
    "main_regret_lp": _main_regret(exact=True),
    "sparring_exp4p_same_environment": _sparring,
}


def smallest_informative_budget(
    statement: Statement, sources: dict[str, pd.DataFrame]
) -> Budget | None:
    """The cheapest smallest informative budget over the statement's sweeps.

    Parameters
    ----------
    statement : Statement
    sources : dict of str to pandas.DataFrame
        The statement's selected rows of each sweep it is checked on (non-empty ones).

    Returns
    -------
    Budget or None
        ``None`` when no budget up to :data:`LARGEST_BUDGET` makes the bound informative.
    """
    if statement.name not in _SOLVERS:
        raise KeyError(f"no budget formula for statement {statement.name!r}")
    found = [
        budget
        for experiment, rows in sources.items()
        if not rows.empty
        and (budget := _SOLVERS[statement.name](_Sweep(statement, rows), experiment)) is not None
    ]
    return min(found, key=lambda budget: budget.units, default=None)
