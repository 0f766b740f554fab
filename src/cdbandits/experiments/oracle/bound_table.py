"""The paper-wide bound table: every statement's checks, counted where they can fail.

:func:`bound_checks` turns the sweeps' rows into one row per statement
(:data:`~.statements.STATEMENTS`) and trial: the measured quantity, the bound's value at the
parameters used, the statement's ceiling (the largest value the quantity can take on the
run's ground truth, :mod:`.ceilings`), whether the bound is below it (*informative*) and
whether it held. :func:`bound_table` aggregates them per statement over its *settings* (a
sweep and a value of the statement's parameter), the correct implementation's informative
trials in the broken-variant detection (its two fixed populations, sweeps named
``detection/<population>/<experiment>``) included:

* settings run, and informative settings (every trial's bound below its ceiling);
* coverage on the informative settings only (fraction of their (seed, setting) trials in
  which the bound held, every check of the trial for Theorem approx-proj, and the measured
  value was at least the statement's floor where it has one) with its 95%
  Clopper-Pearson interval, and whether the worst informative setting reaches
  ``1 - delta``; coverage of vacuous settings is not evidence and is not reported;
* bound / measured (median over the informative trials);
* where no setting of the sweeps is informative, the smallest informative budget of
  :mod:`.budgets` on them;
* the number of broken variants of the statement's check that the detection table
  (``results/oracle/detection.csv``, joined on the statement name) reports detected;
* the empirical rate (log-log slope of the mean measured value against the parameter on the
  statement's main sweep, with a bootstrap interval over seeds), next to the theory's rate
  only where the sweep scales the parameters as the statement requires.

Rows of Theorem sparring-exp4 from the Section 5 sweep's coverage table are joined per
setting (informative horizons: bound below the smallest ceiling of their episodes, the
largest regret any learner can have on the episode's contexts, recorded by the sweep).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ...contextual.bounds import sparring_exp4p_regret_bound
from ...randomness import named_generator
from ...stats import bootstrap_slope_per_value, clopper_pearson
from .broken_variants import CORRECT
from .budgets import smallest_informative_budget, sparring_budget
from .ceilings import CEILINGS
from .statements import STATEMENTS, Statement, evaluate, is_above_floor, is_informative

__all__ = [
    "BOOTSTRAP",
    "DETECTION_COLUMNS",
    "bound_checks",
    "bound_table",
    "bound_table_markdown",
    "check_statement",
    "detected_variants",
    "informative_summary",
    "statement_rows",
]

#: Bootstrap resamples of the seeds for the interval of a slope.
BOOTSTRAP = 500

#: Columns of the broken-variant detection table joined into the bound table.
DETECTION_COLUMNS = ("statement", "variant", "seeds", "detections", "detected", "applies")

#: The prefix of the detection's sweeps in the bound table.
DETECTION_SWEEP = "detection/"

#: The ceiling of the Section 5 sweep's rows, by environment (the adaptive adversary's, or a
#: finite population's).
ONLINE_CEILINGS = {"adversarial": "counter_play_regret_ceiling"}


def _select(rows: pd.DataFrame, selection: tuple[tuple[str, str], ...]) -> pd.DataFrame:
    for column, value in selection:
        rows = rows[rows[column] == value]
    return rows


def statement_rows(statement: Statement, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The rows of the statement's main sweep that its selection keeps."""
    return _select(tables[statement.experiment], statement.selection)


def _source_rows(statement: Statement, tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """The statement's selected rows of each of its sweeps present in ``tables``."""
    return {
        source.experiment: _select(tables[source.experiment], source.selection)
        for source in statement.sources
        if source.experiment in tables and not tables[source.experiment].empty
    }


def check_statement(statement: Statement, rows: pd.DataFrame, experiment: str = "") -> pd.DataFrame:
    """One row per trial: measured value, bound, ceiling, informative, how many checks held.

    Columns ``statement``, ``reference``, ``experiment``, ``parameter``, ``value`` (of the
    parameter), ``seed``, ``measured``, ``bound``, ``ceiling``, ``informative`` (bound below
    the ceiling), ``floor`` (the statement's floor, ``-inf`` without one), ``trials`` and
    ``held_trials`` (one check per row, held when ``floor <= measured <= bound``, or the
    statement's :attr:`~.statements.Statement.counts`), ``held`` (every check of the row
    held).
    """
    frame = pd.DataFrame(
        {
            "statement": statement.name,
            "reference": statement.reference,
            "experiment": experiment or statement.experiment,
            "parameter": statement.parameter,
            "value": rows[statement.parameter].to_numpy(),
            "seed": rows["seed"].to_numpy(),
            "measured": rows[statement.measured].to_numpy(dtype=np.float64),
        }
    )
    frame["bound"] = evaluate(statement.bound, rows)
    frame["ceiling"] = evaluate(statement.ceiling, rows)
    frame["informative"] = is_informative(frame["bound"], frame["ceiling"])
    frame["floor"] = evaluate(statement.floor, rows) if statement.floor else -np.inf
    if statement.counts is None:
        frame["trials"] = 1
        held = (frame["measured"] <= frame["bound"]) & is_above_floor(
            frame["measured"], frame["floor"], frame["ceiling"]
        )
        frame["held_trials"] = held.astype(np.int64)
    else:
        held, trials = statement.counts
        frame["trials"] = rows[trials].to_numpy(dtype=np.int64)
        frame["held_trials"] = rows[held].to_numpy(dtype=np.int64)
    frame["held"] = frame["held_trials"] == frame["trials"]
    return frame


def bound_checks(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """:func:`check_statement` for every statement on every sweep it has rows in.

    Parameters
    ----------
    tables : mapping of str to pandas.DataFrame
        The combined shard rows of each experiment.
    """
    frames = [
        check_statement(statement, rows, experiment)
        for statement in STATEMENTS
        for experiment, rows in _source_rows(statement, tables).items()
        if not rows.empty
    ]
    return pd.concat(frames, ignore_index=True)


def _setting_detail(
    statement: Statement, experiment: str, value: Any, part: pd.DataFrame
) -> dict[str, Any]:
    """Coverage, ceiling and looseness of a statement at one setting."""
    held, trials = int(part["held"].sum()), len(part)
    low, high = clopper_pearson(held, trials)
    return {
        "statement": statement.name,
        "reference": statement.reference,
        "experiment": experiment,
        "parameter": statement.parameter,
        "value": value,
        "n_seeds": int(part["seed"].nunique()),
        "trials": trials,
        "informative": bool(part["informative"].all()),
        "informative_trials": int(part["informative"].sum()),
        "coverage": held / trials,
        "coverage_ci_low": low,
        "coverage_ci_high": high,
        "median_measured": float(part["measured"].median()),
        "mean_measured": float(part["measured"].mean()),
        "median_bound": float(part["bound"].median()),
        "median_ceiling": float(part["ceiling"].median()),
        "bound_over_ceiling": float((part["bound"] / part["ceiling"]).median()),
        "bound_over_measured": float((part["bound"] / part["measured"].abs()).median()),
    }


def detected_variants(detection: pd.DataFrame | None) -> pd.DataFrame:
    """Per statement: broken variants run and detected (empty without a detection table).

    The row of the correct implementation (the detection's control) is not counted, nor a
    variant whose code the check does not run (``applies`` false).

    Raises
    ------
    ValueError
        If the table lacks a column of :data:`DETECTION_COLUMNS` or names a statement that
        :data:`~.statements.STATEMENTS` does not (the join key is the statement name).
    """
    columns = ["statement", "variants", "detected_variants"]
    if detection is None or detection.empty:
        return pd.DataFrame(columns=columns)
    missing = set(DETECTION_COLUMNS) - set(detection.columns)
    if missing:
        raise ValueError(f"the detection table lacks columns {sorted(missing)}")
    unknown = sorted(set(detection["statement"]) - {s.name for s in STATEMENTS})
    if unknown:
        raise ValueError(
            f"the detection table names statements {unknown} that STATEMENTS does not "
            "(cdbandits.experiments.oracle.statements)"
        )
    applies = detection["applies"].astype(str).str.lower().isin({"true", "1"})
    broken = detection[(detection["variant"] != CORRECT.name) & applies]  # no control
    detected = broken["detected"].astype(str).str.lower().isin({"true", "1"})
    grouped = broken.assign(detected=detected).groupby("statement", sort=False)
    counted = pd.DataFrame(
        {
            "statement": list(grouped.groups),
            "variants": grouped["variant"].nunique().to_numpy(),
            "detected_variants": grouped["detected"].sum().astype(int).to_numpy(),
        }
    )
    every = pd.DataFrame({"statement": list(dict.fromkeys(detection["statement"]))})
    return (
        every.merge(counted, on="statement", how="left")
        .fillna(0)
        .astype({"variants": int, "detected_variants": int})[columns]
    )


def _rate(
    statement: Statement, group: pd.DataFrame, seed: int
) -> tuple[float, float, float, float]:
    """Slope (with interval) on the statement's main sweep, and the theory's rate or NaN."""
    main = group[group["experiment"] == statement.experiment]
    rng = named_generator(seed, "oracle", "bootstrap", statement.name)
    slope, low, high = bootstrap_slope_per_value(
        {value: part["measured"] for value, part in main.groupby("value")}, rng, BOOTSTRAP
    )
    theory = math.nan if statement.theory_rate is None else statement.theory_rate
    return slope, low, high, theory


def _coverage(held: int, trials: int, setting_coverages: pd.Series, delta: float) -> dict[str, Any]:
    """Coverage columns of a bound-table row, from its informative settings only."""
    low, high = clopper_pearson(held, trials)
    worst = float(setting_coverages.min()) if trials else math.nan
    return {
        "informative_settings": len(setting_coverages),
        "informative_trials": trials,
        "delta": delta,
        "coverage": held / trials if trials else math.nan,
        "coverage_ci_low": low,
        "coverage_ci_high": high,
        "worst_setting_coverage": worst,
        "required_coverage": 1.0 - delta,
        "meets_guarantee": bool(worst >= 1.0 - delta) if trials else None,
    }


def _statement_summary(
    statement: Statement,
    group: pd.DataFrame,
    detail: pd.DataFrame,
    sources: dict[str, pd.DataFrame],
    delta: float,
    seed: int,
) -> dict[str, Any]:
    """A statement's row of the bound table from its checks and per-setting detail."""
    informative = detail[detail["informative"]]
    keys = set(zip(informative["experiment"], informative["value"], strict=True))
    in_informative = [
        (experiment, value) in keys
        for experiment, value in zip(group["experiment"], group["value"], strict=True)
    ]
    trials = group[in_informative]
    count = len(trials)
    # The sweeps' smallest informative budget, unless a sweep (not the detection) has one.
    in_sweeps = any(not experiment.startswith(DETECTION_SWEEP) for experiment, _ in keys)
    budget = None if in_sweeps else smallest_informative_budget(statement, sources)
    slope, slope_low, slope_high, theory = _rate(statement, group, seed)
    return {
        "statement": statement.name,
        "reference": statement.reference,
        "description": statement.description,
        "ceiling": CEILINGS[statement.ceiling],
        "informative_sweeps": ";".join(sorted(informative["experiment"].unique())),
        "parameter": statement.parameter,
        "values": ";".join(f"{v:g}" for v in sorted(group["value"].unique())),
        "settings": len(detail),
        "n_seeds": int(group["seed"].nunique()),
        **_coverage(int(trials["held"].sum()), count, informative["coverage"], delta),
        "bound_over_measured": (
            float((trials["bound"] / trials["measured"].abs()).median()) if count else math.nan
        ),
        "smallest_informative_budget": "" if budget is None else budget.budget,
        "budget_sweep": "" if budget is None else budget.experiment,
        "estimated_cost": "" if budget is None else f"{budget.cost} per seed",
        "empirical_rate": slope,
        "rate_ci_low": slope_low,
        "rate_ci_high": slope_high,
        "theory_rate": theory,
        "source": ";".join(f"results/oracle/{name}.csv" for name in sources),
    }


def bound_table(
    checks: pd.DataFrame,
    tables: Mapping[str, pd.DataFrame],
    delta: float,
    seed: int,
    online_coverage: pd.DataFrame | None = None,
    detection: pd.DataFrame | None = None,
    detection_checks: pd.DataFrame | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The paper-wide bound table and its per-setting detail.

    Parameters
    ----------
    checks : pandas.DataFrame
        From :func:`bound_checks`.
    tables : mapping of str to pandas.DataFrame
        The sweeps' rows (for the smallest informative budgets).
    delta : float
        The failure probability every statement was checked at.
    seed : int
        Master seed (for the bootstrap).
    online_coverage : pandas.DataFrame, optional
        The Section 5 sweep's coverage table (``results/online/coverage.csv``); its rows
        become Theorem sparring-exp4 rows.
    detection : pandas.DataFrame, optional
        The broken-variant detection table (:data:`DETECTION_COLUMNS`); without it the
        ``detected_variants`` column is empty.
    detection_checks : pandas.DataFrame, optional
        The correct implementation's informative checks in the detection
        (:attr:`~.detection.DetectionResult.control_checks`), settings of sweeps named
        ``detection/<population>/<experiment>``.

    Returns
    -------
    summary, detail : pandas.DataFrame
    """
    if detection_checks is not None and not detection_checks.empty:
        own = detection_checks[list(checks.columns)]
        own = own.assign(experiment=DETECTION_SWEEP + own["experiment"])
        checks = pd.concat([checks, own], ignore_index=True)
    statements = {statement.name: statement for statement in STATEMENTS}
    detail_rows, summary_rows = [], []
    for name, group in checks.groupby("statement", sort=False):
        statement = statements[name]
        rows = [
            _setting_detail(statement, experiment, value, part)
            for (experiment, value), part in group.groupby(["experiment", "value"], sort=False)
        ]
        detail_rows.extend(rows)
        sources = _source_rows(statement, tables)
        summary_rows.append(
            _statement_summary(statement, group, pd.DataFrame(rows), sources, delta, seed)
        )
    summary = pd.DataFrame(summary_rows)
    if online_coverage is not None and not online_coverage.empty:
        summary = pd.concat([summary, _online_rows(online_coverage, delta)], ignore_index=True)
    variants = detected_variants(detection)
    summary = summary.merge(variants, on="statement", how="left")
    return summary, pd.DataFrame(detail_rows)


def _online_rows(coverage: pd.DataFrame, delta: float) -> pd.DataFrame:
    """Theorem sparring-exp4 rows from the Section 5 coverage table, one per setting."""
    required = {"setting", "environment", "horizon", "coverage", "bound", "min_ceiling"}
    missing = (required | {"mean_regret", "n_seeds", "empirical_slope"}) - set(coverage.columns)
    if missing:
        raise KeyError(f"the Section 5 coverage table lacks columns {sorted(missing)}")
    rows = []
    for setting, part in coverage.groupby("setting", sort=False):
        informative = part[is_informative(part["bound"], part["min_ceiling"])]
        held = (informative["coverage"] * informative["n_seeds"]).round().astype(int).sum()
        count = int(informative["n_seeds"].sum())
        ratio = informative["bound"] / informative["mean_regret"].abs()
        budget = None if count else _online_budget(part, delta)
        ceiling = ONLINE_CEILINGS.get(part["environment"].iloc[0], "regret_ceiling")
        rows.append(
            {
                "statement": f"sparring_exp4_{setting}",
                "reference": "Theorem sparring-exp4",
                "description": (
                    f"SparringEXP4.P regret (rd1) <= its explicit bound, setting {setting} "
                    "(Section 5 sweep)"
                ),
                "ceiling": CEILINGS[ceiling],
                "informative_sweeps": "online" if count else "",
                "parameter": "horizon",
                "values": ";".join(f"{v:g}" for v in sorted(part["horizon"].unique())),
                "settings": len(part),
                "n_seeds": int(part["n_seeds"].max()),
                **_coverage(int(held), count, informative["coverage"], delta),
                "bound_over_measured": float(ratio.median()) if count else math.nan,
                "smallest_informative_budget": "" if budget is None else budget.budget,
                "budget_sweep": "" if budget is None else budget.experiment,
                "estimated_cost": "" if budget is None else f"{budget.cost} per seed",
                "empirical_rate": float(part["empirical_slope"].iloc[0]),
                "rate_ci_low": math.nan,
                "rate_ci_high": math.nan,
                "theory_rate": 0.5,
                "source": "results/online/coverage.csv",
            }
        )
    return pd.DataFrame(rows)


def _online_budget(part: pd.DataFrame, delta: float) -> Any:
    """Theorem sparring-exp4's smallest informative ``T`` for a Section 5 setting, with or
    without the uniform expert, whichever reproduces the bound the table records, against
    the smallest ceiling per round of its horizons."""
    first = part.iloc[0]
    if not {"n_actions", "n_policies"} <= set(part.columns):
        return None
    k, n_policies = int(first["n_actions"]), int(first["n_policies"])
    setting_delta = float(first["delta"]) if "delta" in part else delta
    rate = float((part["min_ceiling"] / part["horizon"]).min())
    for uniform_expert in (True, False):
        recorded = sparring_exp4p_regret_bound(
            int(first["horizon"]), k, n_policies, setting_delta, uniform_expert
        ).total
        if math.isclose(recorded, float(first["bound"]), rel_tol=1e-9):
            return sparring_budget("online", k, n_policies, setting_delta, uniform_expert, rate)
    return None


def _number(value: float, digits: str = ".3f") -> str:
    return "n/a" if value is None or math.isnan(value) else format(value, digits)


def _coverage_cell(row: pd.Series) -> str:
    if not row["informative_trials"]:
        return "—"
    return (
        f"{row['coverage']:.3f} ({row['coverage_ci_low']:.3f}–{row['coverage_ci_high']:.3f}), "
        f"n = {row['informative_trials']}"
    )


def _budget_cell(row: pd.Series) -> str:
    budget = row["smallest_informative_budget"]
    if isinstance(budget, str) and budget:
        return f"{budget} on {row['budget_sweep']}: {row['estimated_cost']}"
    return "—" if row["informative_trials"] else "none found"


def _sweeps_cell(row: pd.Series) -> str:
    sweeps = row.get("informative_sweeps")
    return sweeps.replace(";", ", ") if isinstance(sweeps, str) and sweeps else "—"


def informative_summary(summary: pd.DataFrame) -> str:
    """One sentence: how many statements are informative against their true ceilings, in the
    sweeps and only in the detection's populations, and which are not at all."""
    rows = summary[summary["statement"].isin([s.name for s in STATEMENTS])]
    sweeps = rows["informative_sweeps"].fillna("").astype(str).str.split(";")
    detection = sweeps.map(lambda found: [f.startswith(DETECTION_SWEEP) for f in found if f])
    in_sweeps = detection.map(lambda flags: not all(flags))
    in_detection = detection.map(any)
    only_detection = rows.loc[~in_sweeps & in_detection, "statement"]
    nowhere = rows.loc[~in_sweeps & ~in_detection, "statement"]
    return (
        f"Informative against the ground truth's ceilings: {int(in_sweeps.sum())} of "
        f"{len(rows)} statements of Sections 6-8 in this run's sweeps, "
        f"{len(only_detection)} more only on the detection's populations"
        + (f" ({', '.join(only_detection)})" if len(only_detection) else "")
        + (
            f"; none for {', '.join(nowhere)} (smallest informative budget below)"
            if len(nowhere)
            else ""
        )
        + "."
    )


def bound_table_markdown(summary: pd.DataFrame) -> str:
    """The bound table as a Markdown table (for the README), with its reading note."""
    note = (
        "Every bound is evaluated at the parameters the run used (m, N, T_in, T_out, T; L "
        "and V as declared for the estimator) and compared with its ceiling, the largest "
        "value the bounded quantity can take on the run's ground truth (column ceiling: "
        "computed from the true policy game M, the drawn contexts, or the game Mhat a "
        "solver is given; against the adaptive adversary, over every preference sequence a "
        "learner can make it choose on the drawn contexts). A setting is informative when "
        "the bound is below the ceiling in every trial; coverage (fraction of (seed, "
        "setting) trials in which the bound held and, for the regrets of the oracle sweeps, "
        "the measured regret was at least its floor, the smallest regret any learner can "
        "have on the drawn contexts; 95% Clopper-Pearson interval, n trials) is counted on "
        "informative settings only, "
        "since a bound above its ceiling holds whatever the algorithm does. Settings include "
        "the correct code's informative trials in the broken-variant detection "
        "(detection/<population>/<sweep>: the switching and cyclic populations). Statements "
        "without an informative setting in the sweeps show the smallest budget at which the "
        "formula becomes informative there. Detected variants: broken implementations whose "
        "check fails, of those whose code the check runs (results/oracle/detection.md). "
        "Rates: log-log "
        "slope of the mean measured value on the main sweep (95% bootstrap interval); the "
        "theory's rate is shown only where the sweep scales the parameters as the statement "
        "requires.\n\n"
    )
    header = (
        "| statement | bound | ceiling | informative / settings run | informative in | "
        "coverage on informative (95% CI) | required | bound / measured | smallest "
        "informative budget | detected variants | rate (95% CI) | theory rate |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for _, row in summary.iterrows():
        rate = _number(row["empirical_rate"], ".2f")
        if not math.isnan(row["rate_ci_low"]):
            rate += f" ({row['rate_ci_low']:.2f}, {row['rate_ci_high']:.2f})"
        variants = row.get("detected_variants", math.nan)
        detected = (
            "n/a"
            if variants is None or (isinstance(variants, float) and math.isnan(variants))
            else f"{int(variants)} / {int(row['variants'])}"
        )
        description = row["description"].replace("|", "\\|")
        ceiling = str(row.get("ceiling", "")).replace("|", "\\|")
        lines.append(
            f"| {row['statement']} ({row['reference']}) | {description} | {ceiling} | "
            f"{row['informative_settings']} / {row['settings']} | {_sweeps_cell(row)} | "
            f"{_coverage_cell(row)} | {row['required_coverage']:.2f} | "
            f"{_number(row['bound_over_measured'], '.3g')} | {_budget_cell(row)} | {detected} | "
            f"{rate} | {_number(row['theory_rate'], '.2f')} |"
        )
    return (
        (informative_summary(summary) + "\n\n" if len(summary) else "")
        + note
        + header
        + "\n".join(lines)
        + "\n"
    )
