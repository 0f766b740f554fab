"""``cdbandits winners --pairs LOG [LOG ...]``: winners of a comparison log, with uncertainty.

:func:`add_pairs_arguments` (from the light :mod:`.arguments`) adds the options to the
``winners`` sub-command of :mod:`cdbandits.cli` and :func:`run_pairs` runs them;
``python -m cdbandits.comparisons.cli`` runs the same on its own. Examples::

    cdbandits winners --pairs atp_matches_201*.csv --preset atp --top 20
    cdbandits winners --pairs judgments.txt --preset trec-dl --context-value 23287 --json
    cdbandits winners --pairs log.csv --first a --second b --winner preferred --context topic
    cdbandits winners --pairs 00006-00000001.toc

Exit status 0 on success, 2 for unreadable or invalid input, 3 when a von Neumann winner
cannot be computed or certified. Warnings (ties, dropped rows, pairs never compared, rare
items) go to stderr and into the JSON output.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ..files import to_jsonable
from ..winners import CertificationError, SolverError
from .arguments import add_pairs_arguments
from .logs import LOG_PRESETS, LogSpec, read_logs, with_file_context
from .preflib import PREFLIB_SUFFIXES, election_log, read_preflib
from .records import ComparisonDataWarning, ComparisonLog, ComparisonLogError, concatenate_logs
from .settings import RESAMPLING_METHODS, CountPolicy

if TYPE_CHECKING:
    from .analysis import AnalysisSettings, LogAnalysis

__all__ = ["add_pairs_arguments", "main", "read_pairs", "run_pairs"]

_PROG = "cdbandits winners"

# The analysis (batched solver, numba, scipy.stats) is imported inside the functions that run
# it. The ``winners`` parser is built from :mod:`.arguments` alone: this module loads pandas.

#: Items listed besides the reported support: in the support of at least this fraction of
#: the resamples of some method.
SHOW_SUPPORT_PROBABILITY = 0.05


def _comma_list(text: str | None, option: str) -> tuple[str, ...]:
    values = tuple(part.strip() for part in (text or "").split(",") if part.strip())
    if not values:
        raise ComparisonLogError(f"{option} needs comma-separated values")
    return values


def log_spec(arguments: argparse.Namespace) -> LogSpec:
    """The :class:`~.logs.LogSpec` the options describe (a preset, then the overrides)."""
    spec = LOG_PRESETS[arguments.preset] if arguments.preset else LogSpec()
    changes: dict[str, Any] = {}
    for option in ("first", "second", "context", "weight", "group"):
        if getattr(arguments, option) is not None:
            changes[option] = getattr(arguments, option)
    if arguments.format not in (None, "preflib"):
        changes["format"] = arguments.format
    if arguments.names is not None:
        changes["names"] = _comma_list(arguments.names, "--names")
    if arguments.outcome is not None:
        changes |= {"outcome_from": "outcome", "outcome": arguments.outcome}
    if arguments.winner is not None:
        changes |= {"outcome_from": "winner", "winner": arguments.winner}
    if arguments.first_always_wins:
        changes["outcome_from"] = "first_wins"
    if arguments.outcome_values is not None:
        parts = arguments.outcome_values.split(",")
        if len(parts) != 3:
            raise ComparisonLogError(
                "--outcome-values needs three comma-separated values, got "
                f"{arguments.outcome_values!r}"
            )
        first, second, tie = (tuple(v.strip() for v in part.split("|")) for part in parts)
        changes |= {"first_values": first, "second_values": second, "tie_values": tie}
    if arguments.keep_all_rows:
        changes["drop"] = ()
    elif arguments.drop_if:
        rules = []
        for rule in arguments.drop_if:
            column, separator, pattern = rule.partition("=")
            if not separator or not column:
                raise ComparisonLogError(f"--drop-if needs COL=REGEX, got {rule!r}")
            rules.append((column, pattern))
        changes["drop"] = tuple(rules)
    if arguments.context_per_file:
        changes["context"] = None
    try:
        return replace(spec, **changes)
    except ValueError as error:
        raise ComparisonLogError(str(error)) from None


def read_pairs(arguments: argparse.Namespace) -> ComparisonLog:
    """Read the files of ``--pairs`` as one log (tables by the spec, PrefLib by suffix)."""
    spec = log_spec(arguments)
    paths = [Path(name) for name in arguments.pairs]
    preflib = [
        arguments.format == "preflib"
        or (arguments.format is None and path.suffix.lower() in PREFLIB_SUFFIXES)
        for path in paths
    ]
    tables = [path for path, is_preflib in zip(paths, preflib, strict=True) if not is_preflib]
    logs = [read_logs(tables, spec, arguments.context_per_file)] if tables else []
    for path in (path for path, is_preflib in zip(paths, preflib, strict=True) if is_preflib):
        log = election_log(read_preflib(path), arguments.unranked)
        if arguments.context_per_file:
            log = with_file_context(log, path.name)
        elif spec.context is not None:
            raise ComparisonLogError(
                f"{path}: a PrefLib file has no context column; use --context-per-file"
            )
        logs.append(log)
    return concatenate_logs(logs)


def _is_positive(text: str) -> bool:
    try:
        return float(text) > 0
    except ValueError:
        return False


def analysis_settings(arguments: argparse.Namespace) -> AnalysisSettings:
    """The :class:`~.analysis.AnalysisSettings` the options describe."""
    methods = {"both": RESAMPLING_METHODS, "none": ()}.get(arguments.method, (arguments.method,))
    values = _comma_list(arguments.prior, "--prior")
    if len(values) != 2 or not all(_is_positive(value) for value in values):
        raise ComparisonLogError(f"--prior needs two positive numbers A,B, got {arguments.prior!r}")
    prior = (float(values[0]), float(values[1]))
    from .analysis import AnalysisSettings

    try:
        return AnalysisSettings(
            policy=CountPolicy(
                ties=arguments.ties,
                unobserved=arguments.unobserved,
                rare_items=arguments.rare_items,
                min_comparisons=arguments.min_comparisons,
            ),
            methods=methods,
            resamples=arguments.resamples,
            confidence=arguments.confidence,
            prior=prior,
            bt_pseudo_count=arguments.bt_pseudo_count,
            top=arguments.top,
        )
    except ValueError as error:
        raise ComparisonLogError(str(error)) from None


def _percent(value: float) -> str:
    """A fraction as a percentage; ``<1%`` and ``>99%`` rather than a misleading 0 or 100."""
    if 0 < value < 0.005:
        return "<1%"
    if 0.995 <= value < 1:
        return ">99%"
    return f"{100 * value:.0f}%"


def _names(analysis: LogAnalysis, indices: Sequence[int]) -> str:
    return ", ".join(analysis.items[i] for i in indices) or "none"


def _support_table(analysis: LogAnalysis) -> str:
    """The reported support, then items often in the resamples' supports, with intervals."""
    dists = list(analysis.distributions.values())
    shown = [int(i) for i in analysis.support]
    for dist in dists:
        likely = np.flatnonzero(dist.support_probability >= SHOW_SUPPORT_PROBABILITY)
        shown += [int(i) for i in likely if i not in shown]
    level = _percent(analysis.settings.confidence)
    table = pd.DataFrame(
        {
            "item": [analysis.items[i] for i in shown],
            "weight": [f"{analysis.weights[i]:.3f}" for i in shown],
        }
    )
    for dist in dists:
        low, high = dist.weight_interval()
        table[f"{dist.method}: in support"] = [_percent(dist.support_probability[i]) for i in shown]
        table[f"{dist.method}: {level} interval"] = [
            f"[{low[i]:.3f}, {high[i]:.3f}]" for i in shown
        ]
    return "\n".join("  " + line for line in table.to_string(index=False).splitlines())


def _most_likely(items: Sequence[str], probability: NDArray[np.float64], count: int = 3) -> str:
    """The ``count`` most probable items with their probabilities (zero ones left out)."""
    likely = np.argsort(-probability, kind="stable")[:count]
    return ", ".join(f"{items[i]} {_percent(probability[i])}" for i in likely if probability[i] > 0)


def format_analysis(analysis: LogAnalysis, show_rankings: bool = False) -> str:
    """Text report of one analysis (see the module docstring of :mod:`.cli`)."""
    k = len(analysis.items)
    observed = int(np.triu(analysis.counts.observed, 1).sum())
    title = f"context {analysis.context}: " if analysis.context is not None else ""
    lines = [
        f"== {title}{k} items, {analysis.log.n_comparisons:g} comparisons, {observed} of "
        f"{k * (k - 1) // 2} pairs compared ==",
        f"von Neumann winner (certified, min_j (w^T P)_j = {analysis.certificate:.1e}, "
        f"{analysis.solver_path}):",
        _support_table(analysis),
        "  (weight intervals: the least and largest weight of the item in any lottery that "
        "could be the von Neumann winner, all items at once; cdbandits.comparisons.near_optimal)",
    ]
    dists = list(analysis.distributions.values())
    for dist in dists:
        bound = dist.exploitability_bound()
        lines.append(
            f"{dist.method}: with {_percent(dist.confidence)} confidence no single item beats "
            f"this lottery with probability above {(1 + bound) / 2:.3f} (exploitability "
            f"<= {bound:.3f}, median {np.median(dist.exploitability):.3f})"
        )
    condorcet = "none" if analysis.condorcet is None else analysis.items[analysis.condorcet]
    lines.append(f"Condorcet winner: {condorcet}")
    for dist in dists:
        named = _most_likely(analysis.items, dist.condorcet_probability)
        lines.append(
            f"  {dist.method}: a Condorcet winner exists in {_percent(dist.condorcet_exists)} "
            f"of resamples" + (f" ({named})" if named else "")
        )
    lines.append(f"Copeland winners: {_names(analysis, analysis.copeland)}")
    for dist in dists:
        named = _most_likely(analysis.items, dist.copeland_probability)
        lines.append(f"  {dist.method}: probability of being a Copeland winner: {named}")
    if show_rankings:
        lines.append("Rankings (iterated maximal lotteries; items of one lottery share a rank):")
        lines.append(analysis.rankings.round(4).to_string(index=False))
    return "\n".join(lines)


def _report(
    log: ComparisonLog,
    analyses: list[LogAnalysis],
    arguments: argparse.Namespace,
    settings: AnalysisSettings,
    warnings_seen: list[str],
) -> dict[str, Any]:
    return to_jsonable(
        {
            "sources": list(log.sources),
            "records": log.n_records,
            "items": len(log.items),
            "seed": arguments.seed,
            "settings": asdict(settings),
            "warnings": warnings_seen,
            "results": [a.to_dict(include_pairs=arguments.include_pairs) for a in analyses],
        }
    )


def _describe_input(log: ComparisonLog, settings: AnalysisSettings) -> str:
    names = [Path(source).name for source in log.sources]
    files = names[0] if len(names) == 1 else f"{len(names)} files ({names[0]} ... {names[-1]})"
    top = (
        f"; analysing the {settings.top} items with most comparisons"
        + (" in each context" if log.context is not None else "")
        if settings.top is not None
        else ""
    )
    return f"{files}: {log.n_records} records, {len(log.items)} items{top}"


def run_pairs(arguments: argparse.Namespace) -> int:
    """Run ``winners --pairs`` on parsed arguments; return the exit status.

    Parameters
    ----------
    arguments : argparse.Namespace
        From a parser set up by :func:`add_pairs_arguments`, with ``json``.

    Returns
    -------
    int
        0 on success, 2 for unreadable or invalid input, 3 when a von Neumann winner
        cannot be computed or certified.
    """
    from .analysis import analyze_contexts

    if getattr(arguments, "path", None) is not None:
        print(f"{_PROG}: give either a matrix file or --pairs, not both", file=sys.stderr)
        return 2
    seen: list[str] = []

    def show(message: Warning | str, category: type[Warning], *rest: Any, **more: Any) -> None:
        if issubclass(category, ComparisonDataWarning):
            seen.append(str(message))
        print(f"{_PROG}: warning: {message}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.simplefilter("always", ComparisonDataWarning)
        warnings.showwarning = show
        try:
            settings = analysis_settings(arguments)
            log = read_pairs(arguments)
            analyses = analyze_contexts(
                log,
                settings,
                arguments.seed,
                arguments.context_value,
                progress=sys.stderr.isatty(),
            )
        except (ComparisonLogError, OSError) as error:
            print(f"{_PROG}: {error}", file=sys.stderr)
            return 2
        except (SolverError, CertificationError) as error:
            print(f"{_PROG}: {error}", file=sys.stderr)
            return 3
    if arguments.json:
        report = _report(log, analyses, arguments, settings, seen)
        print(json.dumps(report, indent=2, allow_nan=False))
    else:
        print(_describe_input(log, settings))
        for analysis in analyses:
            print(format_analysis(analysis, arguments.rankings))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m cdbandits.comparisons.cli --pairs LOG ...`` (same as ``winners --pairs``)."""
    parser = argparse.ArgumentParser(prog=_PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    add_pairs_arguments(parser)
    arguments = parser.parse_args(argv)
    if not arguments.pairs:
        parser.error("--pairs LOG is required")
    return run_pairs(arguments)


if __name__ == "__main__":
    sys.exit(main())
