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
and largest weight over all of them beside the reported one (the analytic centre). The
weight intervals (``--intervals``) are the identified ones of :mod:`.identified`, with an
in/out/undecided label per item, where they apply (the rates matrix, whole counts, every
pair compared, at most :data:`~cdbandits.limits.SUPPORT_ENUMERATION_MAX_ITEMS` items),
else the conservative ones of :mod:`.near_optimal`; the report names the construction used.

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
from .report import conventions_line, format_analysis
from .settings import RESAMPLING_METHODS, CountPolicy, MatrixEstimand

if TYPE_CHECKING:
    from .analysis import AnalysisSettings, LogAnalysis

__all__ = [
    "add_pairs_arguments",
    "main",
    "matrix_estimand",
    "read_pairs",
    "run_pairs",
]

_PROG = "cdbandits winners"

# The analysis (solvers, scipy) is imported inside the functions that run it; pandas is not
# loaded at all (the tables are formatted by :mod:`.report`).


#: The option of each setting of :class:`~.analysis.AnalysisSettings` and its policy.
_SETTING_OPTIONS = {
    "confidence": "--confidence",
    "prior": "--prior",
    "bt_pseudo_count": "--bt-pseudo-count",
    "resamples": "--resamples",
    "intervals": "--intervals",
    "top": "--top",
    "min_comparisons": "--min-comparisons",
    "jobs": "--jobs",
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
            intervals=arguments.intervals,
        )
    except ValueError as error:
        setting = str(error).split(" ", 1)[0]
        option = f"{_SETTING_OPTIONS[setting]}: " if setting in _SETTING_OPTIONS else ""
        raise ComparisonLogError(f"{option}{error}") from None


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
    unranked = _input_conventions(arguments)["unranked"]
    text = [_describe_input(log, settings), conventions_line(settings.policy, unranked)]
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
