"""Winners of real comparison logs, with their uncertainty.

Read a log of pairwise comparisons (:mod:`.logs`: CSV, Parquet, JSON, whitespace text;
:mod:`.preflib`: PrefLib elections), count it under explicit choices for the matrix (majority
margins or per-pair rates), ties, rare items and pairs never compared (:mod:`.counts`,
:mod:`.settings`), and get the certified von Neumann winner with the range of each weight
over all winners (:mod:`.near_optimal`) and its distribution under the bootstrap and a Beta
posterior (:mod:`.uncertainty`), full rankings (:mod:`.rankings`), all at once
(:mod:`.analysis`). :mod:`.coverage` checks the intervals on synthetic logs; :mod:`.cli` is
``cdbandits winners --pairs`` and :mod:`.report` its text report.

The names below are imported from their modules on first use, so that importing the package
(as the command line does) does not load the solvers.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Public name -> the module that defines it.
_EXPORTS = {
    "AnalysisSettings": "analysis",
    "LogAnalysis": "analysis",
    "analyze_contexts": "analysis",
    "analyze_log": "analysis",
    "PairCounts": "counts",
    "apply_policy": "counts",
    "count_pairs": "counts",
    "coverage_check": "coverage",
    "merge_coverage": "coverage",
    "synthetic_log": "coverage",
    "LOG_PRESETS": "specs",
    "LogSpec": "specs",
    "read_log": "logs",
    "read_logs": "logs",
    "PreflibElection": "preflib",
    "election_log": "preflib",
    "pairwise_margins": "preflib",
    "read_preflib": "preflib",
    "BradleyTerry": "rankings",
    "bradley_terry": "rankings",
    "iterated_maximal_lotteries": "rankings",
    "rankings_table": "rankings",
    "ComparisonDataWarning": "records",
    "ComparisonLog": "records",
    "ComparisonLogError": "records",
    "concatenate_logs": "records",
    "log_from_counts": "records",
    "CountPolicy": "settings",
    "MatrixEstimand": "settings",
    "optimal_face_bounds": "near_optimal",
    "WinnerDistribution": "uncertainty",
    "resampled_distribution": "uncertainty",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
