"""Power of the bound checks: which broken implementations each check detects.

Every variant of :mod:`.broken_variants` (and the correct implementation, the control) runs
the sweep trials of :mod:`.experiments` at a small setting (:class:`DetectionSettings`,
config ``oracle.detection``), and every statement of :data:`~.statements.STATEMENTS` is
checked on its rows exactly as the bound table checks it (:func:`~.tables.check_statement`:
at each trial, whether the statement's bound held), on the rows of every sweep of the
statement the detection runs (:attr:`~.statements.Statement.sources` and
:attr:`~.statements.Statement.detection_sources`). A check *detects* a
variant when the bound failed at more than a fraction ``delta`` of the trials, i.e. when
the bound table's guarantee (coverage at least ``1 - delta``) would fail; a check that
detects no variant has no power (:func:`check_power`), and one that flags the correct
implementation raises a false alarm.

The population is fixed, not drawn (:class:`DetectionEnvironmentSettings`,
:func:`~.environment.switching_population`): two actions whose winner switches at the
median of one feature with a stated ``margin``: a broken implementation which picks the
wrong policy pays ``margin`` per context whatever the master seed (on a drawn, nearly
indifferent population nothing a broken solver outputs exceeds the bounds). The master
seed drives only the trials' streams. Each check's budget makes its bound informative
(below the quantity's ceiling): ``m`` large for Lemmas eq. (f2) and explore-first, the
skew-symmetrised estimator (``L = 1``) with large ``T_in = T_out`` for Theorem main-eps with
ProjectedGD (``small_explore_first``), a game of ``m = 2`` exploration rounds for the
solvers (its payoffs span the range ``L`` allows), a long horizon for the regret bounds, and
for Theorems main-eps and main-regret with SparringFPL parts of their own (``main_eps_fpl``,
``main_regret_fpl``: the skew-symmetrised estimator, ``m`` and ``N`` large enough, only the
SparringFPL rows, on its compiled path, :mod:`~cdbandits.oracle_methods.fpl`).

Only the trials a variant can change are run: a sweep part (:data:`PARTS`) whose rows do
not depend on the component a variant replaces reuses the correct implementation's rows,
which are then identical (same code, same named random streams).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pandas as pd

from .broken_variants import CORRECT, VARIANTS, BrokenVariant
from .environment import SweepEnvironment
from .experiments import (
    LIBRARY,
    Row,
    Trial,
    explore_first_trial,
    regret_trial,
    solvers_trial,
    sweep_trials,
)
from .jobs import (
    ExperimentSettings,
    ExploreFirstSettings,
    RegretSettings,
    SmallExploreFirstSettings,
    SolversSettings,
    detection_regret,
)
from .settings import PAPER_ESTIMATOR, SKEW_ESTIMATOR, DetectionEnvironmentSettings, OracleSection
from .statements import STATEMENTS, Source, Statement
from .tables import check_statement, json_records

__all__ = [
    "DETECTION_COLUMNS",
    "PARTS",
    "SKEW_ESTIMATOR",
    "DetectionEnvironmentSettings",
    "DetectionResult",
    "DetectionSettings",
    "PartRun",
    "SweepPart",
    "check_power",
    "detect_broken_variants",
    "detection_markdown",
    "detection_metadata",
    "run_part",
]

logger = logging.getLogger(__name__)

#: Columns of the detection matrix (one row per statement and variant): ``seeds`` counts the
#: trials checked (a seed on each of the statement's sweeps the detection runs),
#: ``detections`` those at which the bound failed.
DETECTION_COLUMNS = (
    "statement",
    "variant",
    "seeds",
    "detections",
    "detected",
    "component",
    "error",
)


@dataclass(frozen=True)
class DetectionSettings:
    """``oracle.detection`` with ``oracle.delta``: the setting the variants run at.

    Attributes
    ----------
    delta : float
        Failure probability of every statement (``oracle.delta``).
    seeds : int
    environment : DetectionEnvironmentSettings
    explore_first : ExploreFirstSettings
        One ``m``, the paper's estimator.
    small_explore_first : SmallExploreFirstSettings
        One ``m``, the skew-symmetrised estimator (Theorem main-eps with ProjectedGD is
        informative there).
    solvers : SolversSettings
        One ``N`` and one ``T_in = T_out``.
    regret : RegretSettings
        One horizon.
    main_eps_fpl : SmallExploreFirstSettings
        One ``m`` and ``N``, the skew-symmetrised estimator, compiled SparringFPL (Theorem
        main-eps with SparringFPL is informative there).
    main_regret_fpl : RegretSettings
        One horizon and ``N``, the skew-symmetrised estimator, explore-then-exploit with
        compiled SparringFPL only (Theorem main-regret with SparringFPL is informative).
    """

    KEYS: ClassVar[tuple[str, ...]] = ("delta", "detection")

    delta: float
    seeds: int
    environment: DetectionEnvironmentSettings
    explore_first: ExploreFirstSettings
    small_explore_first: SmallExploreFirstSettings
    solvers: SolversSettings
    regret: RegretSettings
    main_eps_fpl: SmallExploreFirstSettings
    main_regret_fpl: RegretSettings

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> DetectionSettings:
        """From the ``oracle`` section or its :data:`KEYS` (its ``delta`` and ``detection``)."""
        oracle = OracleSection.from_config(config, "oracle", partial=True)
        delta, section = oracle.delta, oracle.detection
        seeds = section.seeds
        paper, small = section.explore_first, section.small_explore_first
        solvers, main_eps = section.solvers, section.main_eps_fpl
        return cls(
            delta=delta,
            seeds=seeds,
            environment=section.environment,
            explore_first=ExploreFirstSettings(
                delta, seeds, (PAPER_ESTIMATOR,), (paper.explore_rounds,), paper.fpl_rounds,
                paper.pgd_iterations,
            ),
            # The skew part runs no SparringFPL (0 rounds): it serves ProjectedGD.
            small_explore_first=SmallExploreFirstSettings(
                delta, seeds, (SKEW_ESTIMATOR,), (small.explore_rounds,), 0, small.pgd_iterations
            ),
            solvers=SolversSettings(
                delta, seeds, solvers.explore_rounds, (solvers.fpl_rounds,),
                (solvers.pgd_iterations,),
            ),
            regret=detection_regret(oracle, "regret"),
            # its ProjectedGD row is dropped (SweepPart.solver)
            main_eps_fpl=SmallExploreFirstSettings(
                delta, seeds, (SKEW_ESTIMATOR,), (main_eps.explore_rounds,), main_eps.fpl_rounds,
                1, compiled_fpl=True,
            ),
            main_regret_fpl=detection_regret(oracle, "main_regret_fpl"),
        )  # fmt: skip


@dataclass(frozen=True)
class SweepPart:
    """Trials of one sweep whose rows depend only on some of the implementations.

    Attributes
    ----------
    name : str
    experiment : str
        The sweep (its rows join that sweep's table).
    uses : frozenset of str
        Fields of :class:`~.experiments.Implementations` the rows depend on.
    solver : str, optional
        Keep only the rows of this ``solver`` (an ``explore_first`` trial also solves the
        game by LP and ProjectedGD).
    """

    name: str
    experiment: str
    uses: frozenset[str]
    solver: str = ""

    def settings(self, detection: DetectionSettings) -> ExperimentSettings:
        """The sweep settings of this part."""
        if self.name == "solvers_fpl":
            return dataclasses.replace(detection.solvers, pgd_iterations=())
        if self.name == "solvers_pgd":
            return dataclasses.replace(detection.solvers, fpl_rounds=())
        if self.name in ("main_eps_fpl", "main_regret_fpl"):
            return getattr(detection, self.name)
        return getattr(detection, self.experiment)


#: The parts every variant may run; SparringFPL and ProjectedGD rows of ``solvers`` apart.
PARTS = (
    SweepPart("explore_first", "explore_first", frozenset({"scheme", "fpl", "pgd"})),
    SweepPart("small_explore_first", "small_explore_first", frozenset({"scheme", "pgd"})),
    SweepPart("solvers_fpl", "solvers", frozenset({"scheme", "fpl"})),
    SweepPart("solvers_pgd", "solvers", frozenset({"scheme", "pgd"})),
    SweepPart("regret", "regret", frozenset({"scheme", "fpl", "sparring", "regret"})),
    SweepPart("main_eps_fpl", "small_explore_first", frozenset({"scheme", "fpl"}), "fpl"),
    SweepPart("main_regret_fpl", "small_regret", frozenset({"scheme", "fpl", "regret"})),
)

_TRIALS: dict[str, Any] = {
    "explore_first": explore_first_trial,
    "small_explore_first": explore_first_trial,
    "solvers": solvers_trial,
    "regret": regret_trial,
    "small_regret": regret_trial,
}


def _replaced(variant: BrokenVariant) -> frozenset[str]:
    """Fields of the variant's implementations that differ from the library's."""
    return frozenset(
        field.name
        for field in dataclasses.fields(LIBRARY)
        if getattr(variant.implementations, field.name) is not getattr(LIBRARY, field.name)
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
    variant: BrokenVariant,
    seed: int,
) -> PartRun:
    """Every trial of a part with the variant's implementations (or the error it raised)."""
    experiment = part.settings(settings)
    run_trial = _TRIALS[part.experiment]
    rows: list[Row] = []
    trials: list[Trial] = sweep_trials(experiment)
    try:
        for trial in trials:
            rows.extend(run_trial(environment, experiment, trial, seed, variant.implementations))
    except ValueError as error:
        return PartRun([], f"{type(error).__name__}: {error}")
    if part.solver:
        rows = [row for row in rows if row["solver"] == part.solver]
    return PartRun(rows)


@dataclass(frozen=True)
class DetectionResult:
    """The detection matrix and its per-check summary.

    Attributes
    ----------
    matrix : pandas.DataFrame
        :data:`DETECTION_COLUMNS`, one row per (statement, variant), the control first.
    checks : pandas.DataFrame
        One row per statement (:func:`check_power`).
    """

    matrix: pd.DataFrame
    checks: pd.DataFrame


def _select(rows: pd.DataFrame, source: Source) -> pd.DataFrame:
    for column, value in source.selection:
        if rows.empty:
            break
        rows = rows[rows[column] == value]
    return rows


def _statement_cell(
    statement: Statement,
    variant: BrokenVariant,
    tables: Mapping[str, pd.DataFrame],
    errors: Mapping[str, str],
    delta: float,
) -> tuple[dict[str, Any], pd.DataFrame | None]:
    """A row of the matrix, and the statement's checks (None when its run raised).

    The statement is checked on its selected rows of every sweep of its sources the
    detection runs; the trials of all of them count.
    """
    cell = {"statement": statement.name, "variant": variant.name, "component": variant.component}
    sources = [
        source
        for source in (*statement.sources, *statement.detection_sources)
        if source.experiment in tables
    ]
    selected = [(source, _select(tables[source.experiment], source)) for source in sources]
    selected = [(source, rows) for source, rows in selected if not rows.empty]
    if not selected:
        # Its rows' parts raised (rows of other parts of the sweeps may be there).
        error = "; ".join(filter(None, (errors.get(source.experiment) for source in sources)))
        if not error:
            raise ValueError(f"{statement.name}: its selections keep no row of the detection")
        return cell | {"seeds": 0, "detections": 0, "detected": False, "error": error}, None
    checks = pd.concat(
        [check_statement(statement, rows, source.experiment) for source, rows in selected],
        ignore_index=True,
    )
    failures = int((~checks["held"]).sum())
    return cell | {
        "seeds": len(checks),
        "detections": failures,
        "detected": bool(failures > delta * len(checks)),
        "error": "",
    }, checks


def detect_broken_variants(settings: DetectionSettings, seed: int) -> DetectionResult:
    """Run the control and every variant through every check of :data:`STATEMENTS`.

    Parameters
    ----------
    settings : DetectionSettings
    seed : int
        The master seed (the population's stream ``("oracle", "population")`` and the
        trials' streams, as in the sweeps).

    Returns
    -------
    DetectionResult
    """
    environment = settings.environment.build()
    control: dict[str, PartRun] = {}
    cells: list[dict[str, Any]] = []
    control_checks: dict[str, pd.DataFrame] = {}
    for variant in (CORRECT, *VARIANTS):
        replaced = _replaced(variant)
        runs = {}
        for part in PARTS:
            if variant is CORRECT or replaced & part.uses:
                runs[part.name] = run_part(part, settings, environment, variant, seed)
                logger.info(
                    "%s on %s: %d rows%s",
                    variant.name,
                    part.name,
                    len(runs[part.name].rows),
                    f" ({runs[part.name].error})" if runs[part.name].error else "",
                )
            else:
                runs[part.name] = control[part.name]
        if variant is CORRECT:
            control = runs
        tables = {
            experiment: pd.DataFrame(
                [
                    row
                    for part in PARTS
                    if part.experiment == experiment
                    for row in runs[part.name].rows
                ]
            )
            for experiment in _TRIALS
        }
        errors: dict[str, str] = {}
        for part in PARTS:
            if runs[part.name].error:
                errors[part.experiment] = "; ".join(
                    filter(None, (errors.get(part.experiment), runs[part.name].error))
                )
        if variant is CORRECT and errors:
            raise RuntimeError(f"the correct implementation raised: {errors}")
        for statement in STATEMENTS:
            cell, checks = _statement_cell(statement, variant, tables, errors, settings.delta)
            cells.append(cell)
            if variant is CORRECT and checks is not None:
                control_checks[statement.name] = checks
    matrix = pd.DataFrame(cells, columns=list(DETECTION_COLUMNS))
    return DetectionResult(matrix, check_power(matrix, control_checks))


def check_power(matrix: pd.DataFrame, control_checks: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Per statement: how informative its bound was, false alarms, variants detected.

    Columns ``statement``, ``reference``, ``sweep`` (of the statement's sweeps in the
    detection, the one where the correct implementation's median bound is smallest relative
    to the median ceiling), ``median_bound`` and ``median_measured`` (of the correct
    implementation on that sweep), ``ceiling`` (the largest value the quantity can take),
    ``informative`` (median bound below the median ceiling), ``false_alarm`` (the control
    detected), ``variants_detected`` (among the broken variants), ``power`` (``"no power"``
    when none).
    """
    rows = []
    broken = matrix[matrix["variant"] != CORRECT.name]
    for statement in STATEMENTS:
        medians = (
            control_checks[statement.name]
            .groupby("experiment", sort=False)[["bound", "measured", "ceiling"]]
            .median()
        )
        sweep = (medians["bound"] / medians["ceiling"]).idxmin()
        control = matrix[
            (matrix["statement"] == statement.name) & (matrix["variant"] == CORRECT.name)
        ]
        detected = broken[(broken["statement"] == statement.name) & broken["detected"]]
        median_bound = float(medians.loc[sweep, "bound"])
        ceiling = float(medians.loc[sweep, "ceiling"])
        rows.append(
            {
                "statement": statement.name,
                "reference": statement.reference,
                "sweep": sweep,
                "median_bound": median_bound,
                "median_measured": float(medians.loc[sweep, "measured"]),
                "ceiling": ceiling,
                "informative": bool(median_bound < ceiling),
                "false_alarm": bool(control["detected"].iloc[0]),
                "variants_detected": len(detected),
                "power": ", ".join(detected["variant"]) if len(detected) else "no power",
            }
        )
    return pd.DataFrame(rows)


def detection_markdown(result: DetectionResult) -> str:
    """The matrix (variants x statements, cells ``failed trials / trials``) and the summary."""
    matrix, checks = result.matrix, result.checks
    statements = list(checks["statement"])
    header = "| variant | " + " | ".join(statements) + " |"
    lines = [
        "Detection of broken implementations: trials (seed and sweep) at which each "
        "statement's bound failed / trials run (**bold**: detected, the bound failed at more "
        "than delta of the trials; `raised`: the run stopped with an error before the check).",
        "",
        header,
        "|" + "---|" * (len(statements) + 1),
    ]
    for variant, rows in matrix.groupby("variant", sort=False):
        cells = []
        for statement in statements:
            row = rows[rows["statement"] == statement].iloc[0]
            if row["error"]:
                cells.append("raised")
            else:
                text = f"{row['detections']}/{row['seeds']}"
                cells.append(f"**{text}**" if row["detected"] else text)
        lines.append(f"| {variant} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "| statement | reference | sweep | median bound | median measured (correct) | ceiling "
        "| informative | false alarm | variants detected |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in checks.itertuples():
        lines.append(
            f"| {row.statement} | {row.reference} | {row.sweep} | {row.median_bound:.4g} | "
            f"{row.median_measured:.4g} | {row.ceiling:.4g} | {'yes' if row.informative else 'no'} "
            f"| {'YES' if row.false_alarm else 'no'} | {row.power} |"
        )
    return "\n".join(lines) + "\n"


def detection_metadata(result: DetectionResult, metadata: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON beside the matrix: the variants, each check's power (``checks_without_power``:
    statements that detected no variant; ``false_alarms``: those that flagged the correct
    implementation), the run's ``metadata``."""
    checks = result.checks
    return {
        "variants": [
            {"name": v.name, "component": v.component, "description": v.description}
            for v in (CORRECT, *VARIANTS)
        ],
        "checks": json_records(checks),
        "checks_without_power": list(checks.loc[checks["variants_detected"] == 0, "statement"]),
        "false_alarms": list(checks.loc[checks["false_alarm"], "statement"]),
        "metadata": dict(metadata),
    }
