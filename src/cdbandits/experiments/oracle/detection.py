"""Power of the bound checks: which broken implementations each check detects.

The correct implementation (the control) and every variant of :mod:`.broken_variants` run
the sweep trials of :mod:`.experiments` on the parts of :data:`PARTS` (settings of
:mod:`.detection_settings`, on the two fixed populations: *switching*, with a Condorcet
winner in the class, and *cyclic*, whose von Neumann winner is mixed), and every statement
of :data:`~.statements.STATEMENTS` is checked on its rows exactly as the bound table checks
it (:func:`~.bound_table.check_statement`: a trial fails when the measured quantity is
above its bound or below its floor, the smallest value any output can give on the ground
truth, which a regret has). Only *informative* trials count (bound below the ground
truth's ceiling, :mod:`.ceilings`): elsewhere the bound holds whatever the code does. A
check *detects* a variant when it failed at more than a fraction ``delta``
of its informative trials, i.e. when the bound table's guarantee (coverage at least
``1 - delta``) would fail; a check that flags the control raises a false alarm.

A variant runs only the parts whose rows depend on the code it replaces
(:attr:`SweepPart.uses`, with SparringFPL's long parts kept for SparringFPL's variants); a
statement none of whose informative parts ran for a variant does not apply to it (the
solvers' checks, for instance, hold on any game within the range its estimator declares,
which the library enforces, so the estimator's variants do not run them). Each variant ends with a
:data:`STATUSES` entry: detected, refused (the library raised before any check),
harmless here (every bound met and no mean measured quantity above :data:`HARMLESS_FACTOR`
times the control's on the same trials; for a variant of the regret measurement itself,
none below ``1 / HARMLESS_FACTOR`` times it either), or missed.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from .bound_table import check_statement
from .broken_variants import CORRECT, VARIANTS, BrokenVariant
from .detection_settings import DetectionSettings
from .environment import SweepEnvironment, detection_environment
from .experiments import explore_first_trial, regret_trial, solvers_trial
from .jobs import ExperimentSettings
from .statements import STATEMENTS, Statement
from .trials import LIBRARY, Row, Trial, sweep_trials

__all__ = [
    "DETECTION_COLUMNS",
    "HARMLESS_FACTOR",
    "PARTS",
    "STATUSES",
    "DetectionResult",
    "PartRun",
    "SweepPart",
    "check_power",
    "detect_broken_variants",
    "part_tables",
    "run_part",
    "statement_cells",
    "variant_status",
]

logger = logging.getLogger(__name__)

#: Columns of the detection matrix (one row per statement and variant): ``seeds`` counts the
#: informative trials checked (a seed on each part the statement is checked on),
#: ``detections`` those at which the check failed, ``applies`` whether any of them ran the
#: variant's code, ``measured`` and ``control_measured`` the mean measured quantity of the
#: variant and of the control on those trials.
DETECTION_COLUMNS = (
    "statement",
    "variant",
    "seeds",
    "detections",
    "detected",
    "applies",
    "measured",
    "control_measured",
    "component",
    "error",
)

#: What a variant's run came to, in the order of precedence.
STATUSES = ("detected", "refused", "harmless here", "missed")

#: A variant whose measured quantities all lie within this factor of the control's (and
#: which meets every bound) is harmless on these populations.
HARMLESS_FACTOR = 2.0


@dataclass(frozen=True)
class SweepPart:
    """Trials of one sweep on one population, whose rows depend only on some code.

    Attributes
    ----------
    name : str
    experiment : str
        The sweep (its rows are checked as that sweep's).
    population : str
        ``switching`` or ``cyclic``.
    uses : frozenset of str
        Fields of :class:`~.trials.Implementations` whose variants run the part: the code
        its rows depend on, except that SparringFPL's long parts (``main_eps_fpl``,
        ``main_regret_fpl``) run for SparringFPL's variants only (the estimator's,
        exploitation's and the measurement's are checked on the exact solver's parts).
    settings_name : str
        The attribute of :class:`~.detection_settings.DetectionSettings` with its settings
        (a dictionary of them by population for the regret parts).
    solver : str, optional
        Keep only the rows of this ``solver`` (an ``explore_first`` trial also solves the
        game by LP and ProjectedGD).
    """

    name: str
    experiment: str
    population: str
    uses: frozenset[str]
    settings_name: str
    solver: str = ""

    def settings(self, detection: DetectionSettings) -> ExperimentSettings:
        """The sweep settings of this part."""
        if self.name == "solvers_fpl":
            return dataclasses.replace(detection.solvers, pgd_iterations=())
        if self.name == "solvers_pgd":
            return dataclasses.replace(detection.solvers, fpl_rounds=())
        found = getattr(detection, self.settings_name)
        return found[self.population] if isinstance(found, dict) else found

    @property
    def label(self) -> str:
        """``population/experiment``: the sweep name of its checks."""
        return f"{self.population}/{self.experiment}"


_EXPLORATION = frozenset({"scheme", "maxmin"})
_EPISODE = frozenset({"scheme", "exploitation", "regret", "explore_rounds"})

#: The parts every variant may run.
PARTS = (
    SweepPart("explore_first", "explore_first", "switching", _EXPLORATION, "explore_first"),
    SweepPart("cyclic_explore_first", "explore_first", "cyclic", _EXPLORATION, "explore_first"),
    SweepPart(
        "small_explore_first",
        "small_explore_first",
        "switching",
        _EXPLORATION | {"pgd"},
        "small_explore_first",
    ),
    SweepPart("solvers_fpl", "solvers", "switching", frozenset({"fpl"}), "solvers"),
    SweepPart("solvers_pgd", "solvers", "switching", frozenset({"pgd"}), "solvers"),
    SweepPart("cyclic_solvers_fpl", "solvers", "cyclic", frozenset({"fpl"}), "cyclic_solvers"),
    SweepPart(
        "main_eps_fpl",
        "small_explore_first",
        "switching",
        frozenset({"fpl"}),
        "main_eps_fpl",
        solver="fpl",
    ),
    SweepPart(
        "main_regret_fpl", "small_regret", "switching", frozenset({"fpl"}), "main_regret_fpl"
    ),
    SweepPart("explore_exploit", "regret", "switching", _EPISODE | {"maxmin"}, "explore_exploit"),
    SweepPart(
        "cyclic_explore_exploit", "regret", "cyclic", _EPISODE | {"maxmin"}, "explore_exploit"
    ),
    SweepPart("sparring", "regret", "switching", frozenset({"sparring", "regret"}), "sparring"),
    SweepPart("cyclic_sparring", "regret", "cyclic", frozenset({"sparring", "regret"}), "sparring"),
)

_TRIALS: dict[str, Any] = {
    "explore_first": explore_first_trial,
    "small_explore_first": explore_first_trial,
    "solvers": solvers_trial,
    "regret": regret_trial,
    "small_regret": regret_trial,
}


def replaced_fields(implementations: Any) -> frozenset[str]:
    """Fields of ``implementations`` that differ from the library's."""
    return frozenset(
        field.name
        for field in dataclasses.fields(LIBRARY)
        if getattr(implementations, field.name) is not getattr(LIBRARY, field.name)
    )


@dataclass(frozen=True)
class PartRun:
    """The rows of a part's trials, or the error the run raised (then no rows)."""

    rows: list[Row]
    error: str = ""


def run_part(
    part: SweepPart,
    settings: DetectionSettings,
    environment: SweepEnvironment,
    implementations: Any,
    seed: int,
) -> PartRun:
    """Every trial of a part with the given implementations (or the error it raised).

    The game solvers run on their compiled paths (the regret trials' SparringFPL as its
    settings say).
    """
    experiment = part.settings(settings)
    run_trial = _TRIALS[part.experiment]
    extra = {} if part.experiment in ("regret", "small_regret") else {"compiled": True}
    rows: list[Row] = []
    trials: list[Trial] = sweep_trials(experiment)
    try:
        for trial in trials:
            rows.extend(run_trial(environment, experiment, trial, seed, implementations, **extra))
    except ValueError as error:
        return PartRun([], f"{type(error).__name__}: {error}")
    if part.solver:
        rows = [row for row in rows if row["solver"] == part.solver]
    return PartRun(rows)


def _select(rows: pd.DataFrame, selection: tuple[tuple[str, str], ...]) -> pd.DataFrame:
    for column, value in selection:
        if rows.empty:
            break
        rows = rows[rows[column] == value]
    return rows


def _part_checks(statement: Statement, part: SweepPart, rows: pd.DataFrame) -> pd.DataFrame | None:
    """The statement's informative checks on a part's rows (None when it has none there)."""
    frames = []
    for source in (*statement.sources, *statement.detection_sources):
        if source.experiment != part.experiment or rows.empty:
            continue
        selected = _select(rows, source.selection)
        if not selected.empty:
            frames.append(check_statement(statement, selected, part.label))
    if not frames:
        return None
    checks = pd.concat(frames, ignore_index=True).assign(part=part.name)
    return checks[checks["informative"]]


def part_tables(runs: Mapping[str, PartRun]) -> dict[str, pd.DataFrame]:
    """Every part's rows as a table."""
    return {name: pd.DataFrame(run.rows) for name, run in runs.items()}


def statement_cells(
    tables: Mapping[str, pd.DataFrame],
    ran: set[str],
    errors: Mapping[str, str],
    delta: float,
    control: Mapping[str, pd.DataFrame] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, pd.DataFrame | None]]:
    """Per statement: the matrix cell of one implementation's runs, and its checks.

    Parameters
    ----------
    tables : mapping of str to pandas.DataFrame
        The parts' rows (:func:`part_tables`; the control's where the implementation did
        not run the part, or none).
    ran : set of str
        The parts the implementation ran.
    errors : mapping of str to str
        The error each part it ran raised, if any.
    delta : float
    control : mapping of str to pandas.DataFrame, optional
        The control's part tables (for the measured quantity on the same trials; NaN
        without them).
    """
    cells, all_checks = [], {}
    error = "; ".join(sorted({errors.get(name, "") for name in ran} - {""}))
    empty = pd.DataFrame()
    for statement in STATEMENTS:
        checks = [
            (part, found)
            for part in PARTS
            if (found := _part_checks(statement, part, tables.get(part.name, empty))) is not None
        ]
        own = [found for part, found in checks if part.name in ran and len(found)]
        used = pd.concat(own, ignore_index=True) if own else pd.DataFrame()
        reference = [
            _part_checks(statement, part, control[part.name])
            for part, found in checks
            if control is not None and part.name in ran and len(found)
        ]
        reference = [frame for frame in reference if frame is not None and len(frame)]
        failures = int((~used["held"]).sum()) if len(used) else 0
        cells.append(
            {
                "statement": statement.name,
                "seeds": len(used),
                "detections": failures,
                "detected": bool(len(used) and failures > delta * len(used)),
                "applies": bool(len(used)),
                "measured": float(used["measured"].mean()) if len(used) else math.nan,
                "control_measured": (
                    float(pd.concat(reference)["measured"].mean()) if reference else math.nan
                ),
                "ceiling": float(used["ceiling"].median()) if len(used) else math.nan,
                "error": error,
            }
        )
        all_checks[statement.name] = (
            pd.concat([found for _, found in checks], ignore_index=True) if checks else None
        )
    return cells, all_checks


def _harmless(cell: Mapping[str, Any], component: str) -> bool:
    """Whether a variant's mean measured quantity is at most :data:`HARMLESS_FACTOR` times
    the control's (for a negative mean, at most 0), up to rounding relative to the ceiling;
    for a variant of the measurement itself, also at least ``1 / HARMLESS_FACTOR`` times it
    (a broken measurement may err on the side that hides a failure)."""
    measured, control = cell["measured"], cell["control_measured"]
    slack = 1e-6 * abs(cell["ceiling"])
    if measured > control + (HARMLESS_FACTOR - 1.0) * abs(control) + slack:
        return False
    if component != "regret":
        return True
    return measured >= control - (1.0 - 1.0 / HARMLESS_FACTOR) * abs(control) - slack


def variant_status(cells: Sequence[Mapping[str, Any]], component: str) -> tuple[str, str]:
    """A variant's :data:`STATUSES` entry and its measured reason, from its matrix cells."""
    detected = [cell["statement"] for cell in cells if cell["detected"]]
    if detected:
        return "detected", "by " + ", ".join(detected)
    errors = sorted({cell["error"] for cell in cells if cell["error"]})
    if errors:
        return "refused", errors[0]
    applied = [cell for cell in cells if cell["applies"]]
    if not applied:
        return "missed", "no informative check runs its code"
    for cell in applied:
        if not _harmless(cell, component):
            return "missed", (
                f"meets every bound, but its mean {cell['statement']} quantity is "
                f"{cell['measured']:.4g} against the correct code's {cell['control_measured']:.4g}"
            )
    worst = max(applied, key=lambda cell: cell["measured"] - cell["control_measured"])
    return "harmless here", (
        f"meets every bound; no mean measured quantity above {HARMLESS_FACTOR:g}x the correct "
        f"code's (closest: {worst['statement']}, {worst['measured']:.4g} against "
        f"{worst['control_measured']:.4g})"
    )


@dataclass(frozen=True)
class DetectionResult:
    """The detection matrix, each variant's status, each check's power, the control's checks.

    Attributes
    ----------
    matrix : pandas.DataFrame
        :data:`DETECTION_COLUMNS`, one row per (statement, variant), the control first.
    variants : pandas.DataFrame
        One row per variant: ``variant``, ``component``, ``kind``, ``description``,
        ``status`` (:data:`STATUSES`), ``reason``.
    checks : pandas.DataFrame
        One row per statement (:func:`check_power`).
    control_checks : pandas.DataFrame
        The control's informative checks (:func:`~.bound_table.check_statement` rows, the
        sweep named ``population/experiment``), for the bound table.
    control_runs : dict of str to PartRun
        The control's runs of every part (what the degraded implementations of
        :mod:`.power` reuse).
    """

    matrix: pd.DataFrame
    variants: pd.DataFrame
    checks: pd.DataFrame
    control_checks: pd.DataFrame
    control_runs: dict[str, PartRun]


def run_implementation(
    implementations: Any,
    settings: DetectionSettings,
    environments: Mapping[str, SweepEnvironment],
    seed: int,
    control: Mapping[str, PartRun],
    name: str,
    parts: Sequence[SweepPart] = PARTS,
) -> tuple[dict[str, PartRun], set[str]]:
    """Every part of ``parts`` an implementation's replaced code acts on (every part for the
    library's), the ``control``'s runs elsewhere."""
    replaced = replaced_fields(implementations)
    runs, ran = dict(control), set()
    for part in parts:
        if not replaced or replaced & part.uses:
            runs[part.name] = run_part(
                part, settings, environments[part.population], implementations, seed
            )
            ran.add(part.name)
            logger.info(
                "%s on %s: %d rows %s",
                name,
                part.name,
                len(runs[part.name].rows),
                runs[part.name].error,
            )
    return runs, ran


def detect_broken_variants(settings: DetectionSettings, seed: int) -> DetectionResult:
    """Run the control and every variant through every check of :data:`STATEMENTS`.

    Parameters
    ----------
    settings : DetectionSettings
    seed : int
        The master seed (the trials' streams, as in the sweeps).

    Returns
    -------
    DetectionResult
    """
    environments = {
        population: detection_environment(settings.environment, population)
        for population in settings.environment.POPULATIONS
    }
    control, _ = run_implementation(LIBRARY, settings, environments, seed, {}, CORRECT.name)
    errors = {name: run.error for name, run in control.items() if run.error}
    if errors:
        raise RuntimeError(f"the correct implementation raised: {errors}")
    control_tables = part_tables(control)
    cells, statuses, control_checks = [], [], pd.DataFrame()
    for variant in (CORRECT, *VARIANTS):
        if variant is CORRECT:
            runs, ran = control, set(control)
        else:
            runs, ran = run_implementation(
                variant.implementations, settings, environments, seed, control, variant.name
            )
        tables = control_tables | part_tables({name: runs[name] for name in ran})
        variant_errors = {name: runs[name].error for name in ran}
        variant_cells, checks = statement_cells(
            tables, ran, variant_errors, settings.delta, control_tables
        )
        if variant is CORRECT:
            control_checks = pd.concat(
                [frame for frame in checks.values() if frame is not None], ignore_index=True
            )
        else:
            statuses.append(_status_row(variant, variant_cells))
        cells.extend(
            cell | {"variant": variant.name, "component": variant.component}
            for cell in variant_cells
        )
    matrix = pd.DataFrame(cells)[list(DETECTION_COLUMNS)]
    return DetectionResult(
        matrix,
        pd.DataFrame(statuses),
        check_power(matrix, control_checks),
        control_checks,
        control,
    )


def _status_row(variant: BrokenVariant, cells: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    status, reason = variant_status(cells, variant.component)
    return {
        "variant": variant.name,
        "component": variant.component,
        "kind": variant.kind,
        "description": variant.description,
        "status": status,
        "reason": reason,
    }


def check_power(matrix: pd.DataFrame, control_checks: pd.DataFrame) -> pd.DataFrame:
    """Per statement: where it is informative, false alarms, variants detected.

    Columns ``statement``, ``reference``, ``sweeps`` (the control's informative sweeps),
    ``median_bound``, ``median_measured`` and ``median_ceiling`` (of the control on its
    informative trials), ``false_alarm`` (the control detected), ``variants_detected``,
    ``variants_applied`` (variants whose code the check runs), ``power`` (the variants
    detected, or ``"no power"``).
    """
    rows = []
    broken = matrix[matrix["variant"] != CORRECT.name]
    for statement in STATEMENTS:
        own = control_checks[control_checks["statement"] == statement.name]
        control = matrix[
            (matrix["statement"] == statement.name) & (matrix["variant"] == CORRECT.name)
        ]
        mine = broken[broken["statement"] == statement.name]
        detected = mine[mine["detected"]]
        rows.append(
            {
                "statement": statement.name,
                "reference": statement.reference,
                "sweeps": ";".join(sorted(own["experiment"].unique())),
                "median_bound": float(own["bound"].median()) if len(own) else math.nan,
                "median_measured": float(own["measured"].median()) if len(own) else math.nan,
                "median_ceiling": float(own["ceiling"].median()) if len(own) else math.nan,
                "false_alarm": bool(control["detected"].iloc[0]),
                "variants_detected": len(detected),
                "variants_applied": int(mine["applies"].sum()),
                "power": ", ".join(detected["variant"]) if len(detected) else "no power",
            }
        )
    return pd.DataFrame(rows)
