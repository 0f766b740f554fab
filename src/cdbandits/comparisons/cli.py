"""``cdbandits winners --pairs LOG [LOG ...]``: winners of a comparison log, with uncertainty.

:func:`add_pairs_arguments` (from the light :mod:`.arguments`) adds the options to the
``winners`` sub-command of :mod:`cdbandits.cli` and :func:`run_pairs` runs them;
``python -m cdbandits.comparisons.cli`` runs the same on its own. Examples::

    cdbandits winners --pairs atp_matches_201*.csv --preset atp --top 20
    cdbandits winners --pairs judgments.txt --preset trec-dl --context-value 23287 --json
    cdbandits winners --pairs log.csv --first a --second b --winner preferred --context topic
    cdbandits winners --pairs 00006-00000001.toc

The report opens with every convention the numbers rest on: the matrix (``--matrix``:
the majority margins, default for PrefLib files, or each pair's rate, default for table
logs; see :mod:`.counts`), ties, the PrefLib rule for unranked alternatives, pairs never
compared and rare items; the JSON output holds them under ``settings``. When the log's
matrix has more than one von Neumann winner the report says so and gives each item's least
and largest weight over all of them beside the reported one (the analytic centre).

Exit status 0 on success; 2 for unreadable or invalid input, an option that does not apply
to the input or contradicts another, an input beyond a limit (:mod:`cdbandits.limits`; the
message gives what was found, the memory it would need and the option that raises the
limit), too little to report on (fewer than two items or no comparison, naming the choice
that removed them) or a report that cannot be written; 3 when a von Neumann winner cannot
be computed or certified. Warnings (ties, dropped rows, pairs never compared, rare items,
item names that differ only by case or invisible characters) go to stderr and into the
JSON output. A run estimated to take longer than :data:`~cdbandits.limits.LONG_RUN_SECONDS`
says so first and shows its progress; so does the first use of the compiled solver after
installation, which compiles it.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ..console import EXIT_INVALID, finite_json, json_text, say, write_report
from ..files import to_jsonable
from ..limits import (
    DENSE_MAX_K,
    LONG_RUN_SECONDS,
    MAX_RESAMPLED_BYTES,
    MAX_RESAMPLES,
    analysis_bytes,
    analysis_seconds,
    format_bytes,
    format_seconds,
    resampled_bytes,
)
from ..winners import CertificationError, SolverError
from .arguments import add_max_items_argument, add_pairs_arguments, option_conflicts
from .logs import LOG_PRESETS, LogSpec, read_logs, with_file_context
from .preflib import PREFLIB_SUFFIXES, election_log, read_preflib
from .records import (
    ComparisonDataWarning,
    ComparisonLog,
    ComparisonLogError,
    concatenate_logs,
    merge_similar_items,
    require_whole_weights,
    similar_item_names,
    warn,
)
from .settings import RESAMPLING_METHODS, CountPolicy, MatrixEstimand

if TYPE_CHECKING:
    from .analysis import AnalysisSettings, LogAnalysis

__all__ = [
    "add_pairs_arguments",
    "conventions_line",
    "main",
    "matrix_estimand",
    "read_pairs",
    "run_pairs",
]

_PROG = "cdbandits winners"

# The analysis (solvers, scipy) is imported inside the functions that run it; pandas is not
# loaded at all (the tables are formatted here).

#: Items listed besides the reported support: in the support of at least this fraction of
#: the resamples of some method.
SHOW_SUPPORT_PROBABILITY = 0.05

#: The option of each setting of :class:`~.analysis.AnalysisSettings` and its policy.
_SETTING_OPTIONS = {
    "confidence": "--confidence",
    "prior": "--prior",
    "bt_pseudo_count": "--bt-pseudo-count",
    "resamples": "--resamples",
    "top": "--top",
    "min_comparisons": "--min-comparisons",
    "jobs": "--jobs",
}

#: What each matrix estimand is, for the report's header.
_MATRIX_TEXT = {
    "margins": "majority margins, wins minus losses of each pair over c, the most "
    "comparisons of one pair: the maximal lottery of social choice",
    "rates": "each pair's rate, 2 wins/(wins + losses) - 1: the paper's preference matrix",
}


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


def preflib_files(arguments: argparse.Namespace) -> list[bool]:
    """Per ``--pairs`` file, whether it is read as a PrefLib file (``--format`` or suffix)."""
    return [
        arguments.format == "preflib"
        or (arguments.format is None and Path(name).suffix.lower() in PREFLIB_SUFFIXES)
        for name in arguments.pairs
    ]


def read_pairs(arguments: argparse.Namespace) -> ComparisonLog:
    """Read the files of ``--pairs`` as one log (tables by the spec, PrefLib by suffix)."""
    spec = log_spec(arguments)
    paths = [Path(name) for name in arguments.pairs]
    preflib = preflib_files(arguments)
    tables = [path for path, is_preflib in zip(paths, preflib, strict=True) if not is_preflib]
    logs = (
        [read_logs(tables, spec, arguments.context_per_file, max_records=arguments.max_records)]
        if tables
        else []
    )
    for path in (path for path, is_preflib in zip(paths, preflib, strict=True) if is_preflib):
        room = arguments.max_records - sum(log.n_records for log in logs)
        log = election_log(
            read_preflib(path),
            arguments.unranked,
            arguments.declared_alternatives,
            max_records=room,
        )
        if arguments.context_per_file:
            log = with_file_context(log, path.name)
        elif spec.context is not None:
            raise ComparisonLogError(
                f"{path}: a PrefLib file has no context column; use --context-per-file"
            )
        logs.append(log)
    return concatenate_logs(logs)


def matrix_estimand(arguments: argparse.Namespace) -> MatrixEstimand:
    """``--matrix``, else the default of the input: margins for PrefLib files, rates for
    table logs (the reasons are in ``--help`` and :mod:`.counts`); mixed input must choose."""
    if arguments.matrix is not None:
        return arguments.matrix
    preflib = preflib_files(arguments)
    if all(preflib):
        return "margins"
    if not any(preflib):
        return "rates"
    raise ComparisonLogError(
        "the files mix PrefLib elections (whose default matrix is the majority margins) and "
        "table logs (whose default is the rates): choose --matrix margins or --matrix rates"
    )


def analysis_settings(arguments: argparse.Namespace) -> AnalysisSettings:
    """The :class:`~.analysis.AnalysisSettings` the options describe (ranges checked there)."""
    methods = {"both": RESAMPLING_METHODS, "none": ()}.get(arguments.method, (arguments.method,))
    values = _comma_list(arguments.prior, "--prior")
    try:
        prior = tuple(float(value) for value in values)
    except ValueError:
        prior = ()
    if len(prior) != 2:
        raise ComparisonLogError(f"--prior needs two positive numbers A,B, got {arguments.prior!r}")
    if arguments.resamples > MAX_RESAMPLES:
        raise ComparisonLogError(
            f"--resamples {arguments.resamples} is more than {MAX_RESAMPLES:,}, the most "
            "resamples per method; a few thousand already give intervals to about 1%"
        )
    from .analysis import AnalysisSettings

    try:
        return AnalysisSettings(
            policy=CountPolicy(
                matrix=matrix_estimand(arguments),
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
            jobs=arguments.jobs,
            rankings=arguments.rankings,
        )
    except ValueError as error:
        setting = str(error).split(" ", 1)[0]
        option = f"{_SETTING_OPTIONS[setting]}: " if setting in _SETTING_OPTIONS else ""
        raise ComparisonLogError(f"{option}{error}") from None


def _percent(value: float) -> str:
    """A fraction as a percentage; ``<1%`` and ``>99%`` rather than a misleading 0 or 100."""
    if 0 < value < 0.005:
        return "<1%"
    if 0.995 <= value < 1:
        return ">99%"
    return f"{100 * value:.0f}%"


def _names(analysis: LogAnalysis, indices: Sequence[int]) -> str:
    return ", ".join(analysis.items[i] for i in indices) or "none"


def _cell(value: Any) -> str:
    if value is None:
        return "NA"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def text_table(columns: dict[str, list[Any]], indent: str = "") -> str:
    """Columns right-aligned under their names, one row per line (floats to 4 decimals)."""
    cells = {name: [_cell(value) for value in values] for name, values in columns.items()}
    widths = {name: max([len(name), *map(len, values)]) for name, values in cells.items()}
    rows = [[name.rjust(widths[name]) for name in cells]]
    rows += [
        [cells[name][row].rjust(widths[name]) for name in cells]
        for row in range(len(next(iter(cells.values()), [])))
    ]
    return "\n".join(indent + " ".join(row) for row in rows)


def _support_table(analysis: LogAnalysis) -> str:
    """The reported support, then items often in the resamples' supports, with intervals."""
    dists = list(analysis.distributions.values())
    shown = [int(i) for i in analysis.support]
    for dist in dists:
        likely = np.flatnonzero(dist.support_probability >= SHOW_SUPPORT_PROBABILITY)
        shown += [int(i) for i in likely if i not in shown]
    level = _percent(analysis.settings.confidence)
    table: dict[str, list[Any]] = {
        "item": [analysis.items[i] for i in shown],
        "weight": [f"{analysis.weights[i]:.3f}" for i in shown],
    }
    if analysis.unique is False:
        low, high = analysis.weight_range
        table["over all winners"] = [f"[{low[i]:.3f}, {high[i]:.3f}]" for i in shown]
    for dist in dists:
        low, high = dist.weight_interval()
        table[f"{dist.method}: in support"] = [_percent(dist.support_probability[i]) for i in shown]
        table[f"{dist.method}: {level} interval"] = [
            f"[{low[i]:.3f}, {high[i]:.3f}]" for i in shown
        ]
    return text_table(table, indent="  ")


def _most_likely(items: Sequence[str], probability: NDArray[np.float64], count: int = 3) -> str:
    """The ``count`` most probable items with their probabilities (zero ones left out)."""
    likely = np.argsort(-probability, kind="stable")[:count]
    return ", ".join(f"{items[i]} {_percent(probability[i])}" for i in likely if probability[i] > 0)


def _uniqueness(analysis: LogAnalysis) -> str:
    """Whether the weights shown are the only von Neumann winner, for the report."""
    if analysis.unique is None:
        return f"uniqueness not checked above {DENSE_MAX_K} items"
    return "unique" if analysis.unique else "NOT unique, see below"


def format_analysis(analysis: LogAnalysis, show_rankings: bool = False) -> str:
    """Text report of one analysis (see the module docstring of :mod:`.cli`)."""
    k = len(analysis.items)
    observed = int(np.triu(analysis.counts.observed, 1).sum())
    title = f"context {analysis.context}: " if analysis.context is not None else ""
    matrix = analysis.counts.matrix
    scale = f", c = {analysis.counts.margin_scale:g}" if matrix == "margins" else ""
    lines = [
        f"== {title}{k} items, {analysis.log.n_comparisons:g} comparisons, {observed} of "
        f"{k * (k - 1) // 2} pairs compared ==",
        f"von Neumann winner of the {matrix}{scale} (certified, min_j (w^T P)_j = "
        f"{analysis.certificate:.1e}, {analysis.solver_path}; {_uniqueness(analysis)}):",
        _support_table(analysis),
    ]
    if analysis.unique is False:
        lines.append(
            "  (the von Neumann winner is not unique: the weights shown are the analytic "
            "centre of all of them, and 'over all winners' is each item's least and largest "
            "weight among them; cdbandits.comparisons.near_optimal.optimal_face_bounds)"
        )
    dists = list(analysis.distributions.values())
    if dists:
        lines.append(
            "  (weight intervals: the least and largest weight of the item in any lottery "
            "that could be the von Neumann winner, all items at once; "
            "cdbandits.comparisons.near_optimal)"
        )
    for dist in dists:
        bound = dist.exploitability_bound()
        beaten = (
            f"by a margin above {bound:.3f} (net wins per {analysis.counts.margin_scale:g} "
            "comparisons"
            if matrix == "margins"
            else f"with probability above {(1 + bound) / 2:.3f} (exploitability <= {bound:.3f}"
        )
        lines.append(
            f"{dist.method}: with {_percent(dist.confidence)} confidence no single item beats "
            f"this lottery {beaten}, median {np.median(dist.exploitability):.3f})"
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
    if show_rankings and analysis.ranking_columns:
        lines.append("Rankings (iterated maximal lotteries; items of one lottery share a rank):")
        lines.append(text_table(analysis.ranking_columns))
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
            "settings": asdict(settings) | _input_conventions(arguments),
            "warnings": warnings_seen,
            "results": [a.to_dict(include_pairs=arguments.include_pairs) for a in analyses],
        }
    )


def _input_conventions(arguments: argparse.Namespace) -> dict[str, Any]:
    """The PrefLib rules used (``None`` for a log without PrefLib files)."""
    preflib = any(preflib_files(arguments))
    return {
        "unranked": arguments.unranked if preflib else None,
        "declared_alternatives": arguments.declared_alternatives if preflib else None,
    }


def conventions_line(settings: AnalysisSettings, arguments: argparse.Namespace) -> str:
    """Every convention the numbers rest on, in one line of the text report."""
    policy = settings.policy
    unranked = _input_conventions(arguments)["unranked"]
    parts = [
        f"matrix: {policy.matrix} ({_MATRIX_TEXT[policy.matrix]})",
        f"ties: {policy.ties}",
        *([f"unranked (PrefLib): {unranked}"] if unranked is not None else []),
        f"unobserved pairs: {policy.unobserved}",
        f"rare items (< {policy.min_comparisons:g} comparisons): {policy.rare_items}",
    ]
    return "conventions: " + "; ".join(parts)


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


def _items_per_context(log: ComparisonLog) -> dict[str | None, int]:
    """Items with a comparison in each context (``None``: the log without contexts)."""
    if log.context is None:
        return {None: len(log.items)}
    names, code = np.unique(log.context.astype(str), return_inverse=True)
    k = len(log.items)
    code = code.astype(np.int64).ravel()
    present = np.unique(np.concatenate([code * k + log.first, code * k + log.second]))
    counts = np.bincount(present // k, minlength=names.size)
    return {str(name): int(count) for name, count in zip(names, counts, strict=True)}


def _check_sizes(
    log: ComparisonLog, settings: AnalysisSettings, arguments: argparse.Namespace
) -> list[int]:
    """The items of every context to analyse, after ``--top``; refuse too few or too many."""
    per_context = _items_per_context(log)
    chosen = arguments.context_value or list(per_context)
    sizes = []
    methods, resamples = len(settings.methods), settings.resamples
    for context in chosen:
        if context not in per_context:
            continue  # the analysis names the missing context
        found = per_context[context]
        k = min(found, settings.top) if settings.top is not None else found
        where = f"context {context}: " if context is not None else f"{_sources(log)}: "
        if k < 2:
            kept = f"--top {settings.top} keeps" if k < found else "the log has"
            raise ComparisonLogError(
                f"{where}{kept} {k} item{'s' if k != 1 else ''}"
                + (f" ({log.items[0]!r})" if k == 1 and log.context is None else "")
                + "; a winner needs at least two items compared"
            )
        if k > arguments.max_items:
            found_text = f" (of {found:,})" if k < found else ""
            advice = (
                "keep the items with most comparisons (--top N) or raise the limit "
                f"(--max-items {k})"
            )
            if k > DENSE_MAX_K:
                raise ComparisonLogError(
                    f"{where}{k:,} items are compared{found_text}, more than the limit of "
                    f"--max-items {arguments.max_items} (more than {DENSE_MAX_K:,} items are "
                    f"analysed pair by pair, without weight intervals or rankings): {advice}"
                )
            raise ComparisonLogError(
                f"{where}{k:,} items are compared{found_text}; analysing them together holds "
                f"{k:,} x {k:,} matrices, about "
                f"{format_bytes(analysis_bytes(k, resamples, methods))} of memory, more than "
                f"the limit of --max-items {arguments.max_items}: {advice}"
            )
        if resampled_bytes(k, resamples, methods) > MAX_RESAMPLED_BYTES:
            raise ComparisonLogError(
                f"{where}{methods} x {resamples:,} resamples of {k:,} items keep about "
                f"{format_bytes(resampled_bytes(k, resamples, methods))} of resampled "
                f"winners, more than {format_bytes(MAX_RESAMPLED_BYTES)}: lower --resamples "
                "or keep fewer items (--top N)"
            )
        sizes.append(k)
    return sizes


def _sources(log: ComparisonLog) -> str:
    names = list(log.sources)
    return names[0] if len(names) == 1 else f"{len(names)} files ({names[0]} ... {names[-1]})"


def _announce(sizes: list[int], settings: AnalysisSettings) -> bool:
    """Say what a long run will take, and a compilation ahead; return whether it is long."""
    from .solving import compiled_solver_cached, uses_compiled_solver

    methods, resamples = len(settings.methods), settings.resamples
    seconds = sum(analysis_seconds(k, resamples, methods) for k in sizes)
    if any(uses_compiled_solver(k, 2 if methods else 1) for k in sizes):
        if not compiled_solver_cached():
            say(
                _PROG,
                "compiling the von Neumann solver for this machine; the first run after "
                "installation takes about a minute for it, later runs load it from the cache",
            )
    if seconds <= LONG_RUN_SECONDS:
        return False
    largest = max(sizes)
    say(
        _PROG,
        f"{len(sizes)} analys{'es' if len(sizes) > 1 else 'is'} of up to {largest:,} items "
        f"with {methods} x {resamples:,} resamples may take about {format_seconds(seconds)} "
        "(a rough estimate); --top N, --resamples N or --method none make it shorter",
    )
    return True


def _similar_names(log: ComparisonLog, merge: bool) -> ComparisonLog:
    groups = similar_item_names(log.items)
    if not groups:
        return log
    shown = "; ".join(" / ".join(ascii(name) for name in group) for group in groups[:5])
    more = f" and {len(groups) - 5} more groups" if len(groups) > 5 else ""
    what = (
        f"{len(groups)} group{'s' if len(groups) > 1 else ''} of item names that differ only "
        f"by case, Unicode form, spacing or invisible characters: {shown}{more}"
    )
    if merge:
        warn(f"{what}; each merged into its first name (--merge-similar-names)")
        return merge_similar_items(log)
    warn(f"{what}; kept as different items (--merge-similar-names merges them)")
    return log


def _analyse(arguments: argparse.Namespace) -> tuple[ComparisonLog, list, Any]:
    """Read, check and analyse the log (raises the errors :func:`run_pairs` reports)."""
    from .analysis import analyze_contexts

    settings = analysis_settings(arguments)
    log = _similar_names(read_pairs(arguments), arguments.merge_similar_names)
    if log.n_records == 0:
        items = f"; its only item is {log.items[0]!r}" if len(log.items) == 1 else ""
        raise ComparisonLogError(
            f"{_sources(log)}: no comparisons to analyse (no data rows, every row dropped, or "
            f"nothing ranked against anything){items}; a winner needs two items compared"
        )
    if "bootstrap" in settings.methods:
        require_whole_weights(
            log,
            "the bootstrap resamples whole comparisons; for fractional weights use --method "
            "posterior (or none)",
        )
    sizes = _check_sizes(log, settings, arguments)
    long_run = _announce(sizes, settings) if sizes else False
    analyses = analyze_contexts(
        log,
        settings,
        arguments.seed,
        arguments.context_value,
        progress=long_run or (sys.stderr is not None and sys.stderr.isatty()),
    )
    return log, analyses, settings


def run_pairs(arguments: argparse.Namespace) -> int:
    """Run ``winners --pairs`` on parsed arguments; return the exit status.

    Parameters
    ----------
    arguments : argparse.Namespace
        From a parser set up by :func:`add_pairs_arguments` and
        :func:`~.arguments.add_max_items_argument`, with ``json``.

    Returns
    -------
    int
        0 on success, 2 for unreadable or invalid input (or an unwritable report), 3 when a
        von Neumann winner cannot be computed or certified (1 if the reader of standard
        output closed it).
    """
    if getattr(arguments, "path", None) is not None:
        say(_PROG, "give either a matrix file or --pairs, not both")
        return EXIT_INVALID
    if sys.stdout is None:
        say(_PROG, "standard output is closed; the report cannot be written")
        return EXIT_INVALID
    conflict = option_conflicts(arguments, preflib_files(arguments))
    if conflict is not None:
        say(_PROG, conflict)
        return EXIT_INVALID
    seen: list[str] = []

    def show(message: Warning | str, category: type[Warning], *rest: Any, **more: Any) -> None:
        if issubclass(category, ComparisonDataWarning):
            seen.append(str(message))
        say(_PROG, f"warning: {message}")

    with warnings.catch_warnings():
        warnings.simplefilter("always", ComparisonDataWarning)
        warnings.showwarning = show
        try:
            log, analyses, settings = _analyse(arguments)
        except (ComparisonLogError, OSError) as error:
            say(_PROG, str(error))
            return EXIT_INVALID
        except MemoryError:
            say(
                _PROG,
                "ran out of memory; analyse fewer items (--top N, --max-items) or fewer "
                "resamples (--resamples N)",
            )
            return EXIT_INVALID
        except (SolverError, CertificationError) as error:
            say(_PROG, str(error))
            return 3
    if arguments.json:
        report, non_finite = finite_json(_report(log, analyses, arguments, settings, seen))
        if non_finite:
            report["non_finite"] = non_finite
            say(_PROG, f"warning: values that are not finite numbers written as null: {non_finite}")
        return write_report(_PROG, json_text(report))
    text = [_describe_input(log, settings), conventions_line(settings, arguments)]
    text += [format_analysis(analysis, arguments.rankings) for analysis in analyses]
    return write_report(_PROG, "\n".join(text))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m cdbandits.comparisons.cli --pairs LOG ...`` (same as ``winners --pairs``)."""
    parser = argparse.ArgumentParser(
        prog=_PROG, description=__doc__.split("\n\n")[0], allow_abbrev=False
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    add_pairs_arguments(parser)
    add_max_items_argument(parser)
    arguments = parser.parse_args(argv)
    if not arguments.pairs:
        parser.error("--pairs LOG is required")
    return run_pairs(arguments)


if __name__ == "__main__":
    sys.exit(main())
