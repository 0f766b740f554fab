"""Power as a curve: the smallest degradation of the correct code each check detects.

Each :class:`Degradation` scales one parameter of the correct implementation by the factors
of :data:`FACTORS` (SparringFPL's perturbations, ProjectedGD's step, Exp4.P's exploration
rate, the estimator's scale, explore-then-exploit's exploration rounds); each degraded
implementation runs through the detection (:func:`~.detection.run_implementation`, on the
parts the parameter acts on; no control is needed) and every check is judged as there.
Per check and parameter, :func:`power_table` gives the smallest factor detected at the
detection's seeds; a check that detects none of them reports ``> 100``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from .broken_solvers import broken_scheme, scaled_fpl, scaled_pgd
from .broken_sparring import exploring_sparring
from .detection import PARTS, part_tables, replaced_fields, run_implementation, statement_cells
from .detection_settings import DetectionSettings
from .environment import detection_environment
from .jobs import RegretSettings
from .trials import LIBRARY, Implementations

__all__ = [
    "DEGRADATIONS",
    "FACTORS",
    "POWER_COLUMNS",
    "Degradation",
    "measure_power",
    "power_markdown",
    "power_table",
]

#: The factors each parameter is scaled by.
FACTORS = (2.0, 5.0, 10.0, 100.0)

#: Columns of :func:`measure_power`'s table (one row per parameter, factor and statement).
POWER_COLUMNS = (
    "parameter",
    "factor",
    "delta",
    "statement",
    "seeds",
    "detections",
    "detected",
    "measured",
    "error",
)


@dataclass(frozen=True)
class Degradation:
    """A parameter of the correct implementation scaled by a factor.

    Attributes
    ----------
    parameter : str
    description : str
        What a factor ``f`` does.
    degrade : callable
        ``degrade(f)``: the implementations with the parameter scaled.
    """

    parameter: str
    description: str
    degrade: Callable[[float], Implementations]


def _fewer_rounds(factor: float) -> Callable[[RegretSettings, int, int, int], int]:
    def explore_rounds(settings: RegretSettings, horizon: int, n_policies: int, k: int) -> int:
        return max(1, math.ceil(settings.explore_rounds(horizon, n_policies, k) / factor))

    return explore_rounds


#: Every parameter scaled, in the order of the power table.
DEGRADATIONS = (
    Degradation(
        "fpl_perturbation",
        "SparringFPL's perturbations f times the theory's (alpha / f)",
        lambda f: replace(LIBRARY, fpl=scaled_fpl(f)),
    ),
    Degradation(
        "pgd_step",
        "ProjectedGD's step eta / f",
        lambda f: replace(LIBRARY, pgd=scaled_pgd(1.0 / f)),
    ),
    Degradation(
        "exp4p_exploration",
        "Exp4.P's p_min f times the theory's",
        lambda f: replace(LIBRARY, sparring=exploring_sparring(scale=f)),
    ),
    Degradation(
        "estimator_bias",
        "every estimate divided by f (biased towards 0)",
        lambda f: replace(LIBRARY, scheme=broken_scheme("scaled", 1.0 / f)),
    ),
    Degradation(
        "exploration_rounds",
        "explore-then-exploit exploring m / f rounds",
        lambda f: replace(LIBRARY, explore_rounds=_fewer_rounds(f)),
    ),
)


def measure_power(
    settings: DetectionSettings,
    seed: int,
    factors: tuple[float, ...] = FACTORS,
    degradations: tuple[Degradation, ...] = DEGRADATIONS,
) -> pd.DataFrame:
    """Every degradation at every factor through every check (:data:`POWER_COLUMNS`).

    The factors run in increasing order; a part runs again at a larger factor only while one
    of the checks informative on it has not detected the degradation (the smallest factor
    detected is then known).

    Parameters
    ----------
    settings : DetectionSettings
    seed : int
        The master seed.
    factors : tuple of float, optional
    degradations : tuple of Degradation, optional

    Returns
    -------
    pandas.DataFrame
        The statements each degradation applies to (an informative check whose parts it ran)
        at each factor run.
    """
    environments = {
        population: detection_environment(settings.environment, population)
        for population in settings.environment.POPULATIONS
    }
    rows: list[dict[str, Any]] = []
    for degradation in degradations:
        pending: set[str] | None = None  # statements not detected yet (None: all)
        parts_of: dict[str, set[str]] = {}  # statement -> its informative parts
        for factor in sorted(factors):
            implementations = degradation.degrade(factor)
            replaced = replaced_fields(implementations)
            parts = [
                part
                for part in PARTS
                if replaced & part.uses
                and (pending is None or any(part.name in parts_of[s] for s in pending))
            ]
            if not parts:
                break
            name = f"{degradation.parameter} x{factor:g}"
            runs, ran = run_implementation(
                implementations, settings, environments, seed, {}, name, parts
            )
            cells, checks = statement_cells(
                part_tables(runs), ran, {part: runs[part].error for part in ran}, settings.delta
            )
            if pending is None:
                parts_of = {
                    statement: set(found["part"])
                    for statement, found in checks.items()
                    if found is not None and len(found)
                }
                pending = set(parts_of)
            rows.extend(
                {"parameter": degradation.parameter, "factor": factor, "delta": settings.delta}
                | {column: cell[column] for column in POWER_COLUMNS[3:]}
                for cell in cells
                if cell["applies"] or (cell["error"] and cell["statement"] in pending)
            )
            pending -= {cell["statement"] for cell in cells if cell["detected"]}
    return pd.DataFrame(rows, columns=list(POWER_COLUMNS))


def power_table(power: pd.DataFrame) -> pd.DataFrame:
    """Per statement and parameter, the smallest factor detected (NaN: none detected).

    Columns ``statement``, ``parameter``, ``smallest_factor``, ``largest_fraction`` (the
    largest fraction of informative trials at which the bound failed), ``acts`` (the mean
    measured quantity differs between the factors run: false when the parameter changes
    nothing the check measures, as ProjectedGD's step for Lemma eq. (f2), or the scale of
    the estimates for the exact solver's output), ``refused`` (the factors at which the
    library raised).
    """
    rows = []
    for (statement, parameter), part in power.groupby(["statement", "parameter"], sort=False):
        detected = part[part["detected"]]
        ran = part[part["seeds"] > 0]
        rows.append(
            {
                "statement": statement,
                "parameter": parameter,
                "smallest_factor": float(detected["factor"].min()) if len(detected) else math.nan,
                "largest_fraction": (
                    float((ran["detections"] / ran["seeds"]).max()) if len(ran) else math.nan
                ),
                "acts": bool(len(detected) or _varies(ran["measured"])),
                "refused": ";".join(f"{f:g}" for f in part.loc[part["error"] != "", "factor"]),
            }
        )
    return pd.DataFrame(rows)


def _varies(values: pd.Series) -> bool:
    """Whether the means differ by more than an LP solver's rounding."""
    spread = float(values.max() - values.min()) if len(values) else 0.0
    return spread > 1e-6 * max(1.0, float(values.abs().max()))


def power_markdown(power: pd.DataFrame, statements: tuple[str, ...]) -> str:
    """The power table in Markdown: statements by parameters, each cell the smallest factor
    detected (``> 100`` when none is; ``—`` where the parameter changes nothing the check
    measures)."""
    table = power_table(power)
    parameters = [d.parameter for d in DEGRADATIONS]
    largest = max(FACTORS)
    lines = [
        "Smallest degradation each check detects: every parameter of the correct code scaled "
        f"by {', '.join(f'{f:g}' for f in FACTORS)}, run at the detection's seeds on its "
        "two populations; a check detects a factor when its bound fails at more than delta "
        f"of its informative trials. `> {largest:g}`: no factor detected; `—`: the "
        "parameter changes nothing the check measures (not run on its parts, or the same "
        "measured quantity at every factor); `raised`: the library refused every factor run.",
        "",
        "| check | " + " | ".join(parameters) + " |",
        "|" + "---|" * (len(parameters) + 1),
    ]
    cells = table.set_index(["statement", "parameter"])
    for statement in statements:
        row = []
        for parameter in parameters:
            if (statement, parameter) not in cells.index:
                row.append("—")
                continue
            found = cells.loc[(statement, parameter)]
            if not found["acts"] and not found["refused"]:
                row.append("—")
            elif not math.isnan(found["smallest_factor"]):
                row.append(f"{found['smallest_factor']:g}")
            elif math.isnan(found["largest_fraction"]) and found["refused"]:
                row.append("raised")
            else:
                row.append(f"> {largest:g}")
        lines.append(f"| {statement} | " + " | ".join(row) + " |")
    lines += [
        "",
        "Parameters: " + "; ".join(f"{d.parameter}: {d.description}" for d in DEGRADATIONS) + ".",
    ]
    return "\n".join(lines) + "\n"
