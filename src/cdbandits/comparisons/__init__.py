"""Winners of real comparison logs, with their uncertainty (issue 14).

Read a log of pairwise comparisons (:mod:`.logs`: CSV, Parquet, whitespace text;
:mod:`.preflib`: PrefLib elections), count it under explicit choices for ties, rare items and
pairs never compared (:mod:`.counts`), and get the certified von Neumann winner with its
distribution under the bootstrap and a Beta posterior (:mod:`.uncertainty`), full rankings
(:mod:`.rankings`), all at once (:mod:`.analysis`). :mod:`.coverage` checks the intervals on
synthetic logs; :mod:`.cli` is ``cdbandits winners --pairs``.
"""

from .analysis import AnalysisSettings, LogAnalysis, analyze_contexts, analyze_log
from .counts import CountPolicy, PairCounts, apply_policy, count_pairs
from .coverage import coverage_check, merge_coverage, synthetic_log
from .logs import LOG_PRESETS, LogSpec, read_log, read_logs
from .preflib import PreflibElection, election_log, pairwise_margins, read_preflib
from .rankings import BradleyTerry, bradley_terry, iterated_maximal_lotteries, rankings_table
from .records import (
    ComparisonDataWarning,
    ComparisonLog,
    ComparisonLogError,
    concatenate_logs,
    log_from_counts,
)
from .uncertainty import WinnerDistribution, resampled_distribution

__all__ = [
    "LOG_PRESETS",
    "AnalysisSettings",
    "BradleyTerry",
    "ComparisonDataWarning",
    "ComparisonLog",
    "ComparisonLogError",
    "CountPolicy",
    "LogAnalysis",
    "LogSpec",
    "PairCounts",
    "PreflibElection",
    "WinnerDistribution",
    "analyze_contexts",
    "analyze_log",
    "apply_policy",
    "bradley_terry",
    "concatenate_logs",
    "count_pairs",
    "coverage_check",
    "election_log",
    "iterated_maximal_lotteries",
    "log_from_counts",
    "merge_coverage",
    "pairwise_margins",
    "rankings_table",
    "read_log",
    "read_logs",
    "read_preflib",
    "resampled_distribution",
    "synthetic_log",
]
