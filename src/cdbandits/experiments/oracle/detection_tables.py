"""What the detection of broken variants writes: its Markdown and its JSON metadata.

:func:`detection_markdown` gives the count of variants by status, each variant's status with
its measured reason, the matrix of failed trials (variants by checks) and each check's
informative sweeps and power; :func:`detection_metadata` the JSON beside it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from .broken_variants import CORRECT, VARIANTS
from .detection import HARMLESS_FACTOR, STATUSES, DetectionResult
from .tables import json_records

__all__ = ["detection_markdown", "detection_metadata", "status_counts"]


def status_counts(variants: pd.DataFrame) -> str:
    """E.g. ``"23 broken variants run: 19 detected, 1 refused by the library, ..."``."""
    counts = variants["status"].value_counts()
    parts = [
        f"{counts.get(status, 0)} {status}" + (" by the library" if status == "refused" else "")
        for status in STATUSES
    ]
    return f"{len(variants)} broken variants run: " + ", ".join(parts)


def _cell(row: pd.Series, variant: str) -> str:
    if variant != CORRECT.name and not row["applies"]:
        return "raised" if row["error"] else "·"
    text = f"{row['detections']}/{row['seeds']}"
    return f"**{text}**" if row["detected"] else text


def _number(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.4g}"


def detection_markdown(result: DetectionResult) -> str:
    """The detection's Markdown (module docstring)."""
    matrix, checks, variants = result.matrix, result.checks, result.variants
    statements = list(checks["statement"])
    lines = [
        f"{status_counts(variants)}. A check fails at a trial when the measured quantity "
        "is above its bound or, for a regret, below its floor (the smallest regret any "
        "learner can have on the episode's contexts, from the ground truth); it detects a "
        "variant when it fails at more than delta of its informative trials (bound below "
        "the ground truth's ceiling); "
        "`harmless here`: every bound met and no mean measured quantity above "
        f"{HARMLESS_FACTOR:g}x the correct code's on the same trials (for a broken regret "
        f"measurement, none below 1/{HARMLESS_FACTOR:g} of it either).",
        "",
        "| variant | kind | status | measured reason |",
        "|---|---|---|---|",
    ]
    for row in variants.itertuples():
        status = f"**{row.status}**" if row.status == "missed" else row.status
        reason = str(row.reason).replace("|", "\\|")
        lines.append(f"| {row.variant} | {row.kind} | {status} | {reason} |")
    lines += [
        "",
        "Informative trials (seed and sweep) at which each check failed / informative "
        "trials run (**bold**: detected; `·`: the check runs none of the variant's code; "
        "`raised`: the library refused the variant before the check).",
        "",
        "| variant | " + " | ".join(statements) + " |",
        "|" + "---|" * (len(statements) + 1),
    ]
    for variant, rows in matrix.groupby("variant", sort=False):
        cells = rows.set_index("statement")
        shown = [_cell(cells.loc[name], variant) for name in statements]
        lines.append(f"| {variant} | " + " | ".join(shown) + " |")
    lines += [
        "",
        "| check | reference | informative sweeps (correct code) | median bound | median "
        "measured | median ceiling | false alarm | variants detected / run |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in checks.itertuples():
        lines.append(
            f"| {row.statement} | {row.reference} | {row.sweeps.replace(';', ', ') or 'none'} | "
            f"{_number(row.median_bound)} | {_number(row.median_measured)} | "
            f"{_number(row.median_ceiling)} | {'YES' if row.false_alarm else 'no'} | "
            f"{row.variants_detected} / {row.variants_applied} |"
        )
    return "\n".join(lines) + "\n"


def detection_metadata(result: DetectionResult, metadata: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON beside the matrix: every variant with its status, each check's power
    (``checks_without_power``: statements that detected no variant; ``false_alarms``: those
    that flagged the correct implementation; ``missed``: variants neither detected, refused
    nor harmless), the run's ``metadata``."""
    checks, variants = result.checks, result.variants
    return {
        "summary": status_counts(variants),
        "variants": [
            {"name": CORRECT.name, "component": CORRECT.component, "kind": CORRECT.kind,
             "description": CORRECT.description}
        ]
        + json_records(variants),
        "n_variants": len(VARIANTS),
        "checks": json_records(checks),
        "checks_without_power": list(checks.loc[checks["variants_detected"] == 0, "statement"]),
        "false_alarms": list(checks.loc[checks["false_alarm"], "statement"]),
        "missed": list(variants.loc[variants["status"] == "missed", "variant"]),
        "metadata": dict(metadata),
    }  # fmt: skip
