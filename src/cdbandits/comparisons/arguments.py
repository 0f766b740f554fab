"""The options of ``cdbandits winners --pairs``, without the readers and the solvers.

:func:`add_pairs_arguments` only needs the names of the presets, formats and policies, so
building the ``winners`` parser loads neither pandas nor numba; :mod:`.cli` runs the options.

Every option is added with an action of this module that records it as given
(:func:`given_options`), so that :func:`option_conflicts` can refuse an option of the other
input kind, or one that contradicts another, naming both, even when its value would be
unused. Numbers are parsed here (:func:`integer`, :func:`finite_number`); their ranges are
checked by the settings they fill (:class:`~.analysis.AnalysisSettings`,
:class:`~.settings.CountPolicy`) or, for the limits of the command line, by :mod:`.cli`.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from typing import Any

from ..limits import (
    DENSE_MAX_K,
    MAX_ITEMS,
    MAX_RECORDS,
    MAX_RESAMPLES,
    SUPPORT_ENUMERATION_MAX_ITEMS,
)
from .preflib import DECLARED_ALTERNATIVES, UNRANKED_RULES
from .settings import (
    INTERVAL_CONSTRUCTIONS,
    MATRIX_ESTIMANDS,
    RARE_ITEM_POLICIES,
    RESAMPLING_METHODS,
    TIE_POLICIES,
    UNOBSERVED_POLICIES,
)
from .specs import LOG_PRESETS, TABLE_FORMATS

__all__ = [
    "MATRIX_OPTIONS",
    "PREFLIB_OPTIONS",
    "TABLE_OPTIONS",
    "Append",
    "Flag",
    "Store",
    "add_max_items_argument",
    "add_pairs_arguments",
    "count",
    "finite_number",
    "given_options",
    "integer",
    "option_conflicts",
    "seed",
]

#: Options of a matrix file (``cdbandits winners PATH``), by destination.
MATRIX_OPTIONS = {
    "convention": "--convention",
    "key": "--key",
    "solver": "--solver",
    "engine": "--engine",
    "tol": "--tol",
}

#: Options that describe a table log (CSV, TSV, Parquet, whitespace text), by destination.
TABLE_OPTIONS = {
    "preset": "--preset",
    "names": "--names",
    "first": "--first",
    "second": "--second",
    "outcome": "--outcome",
    "winner": "--winner",
    "first_always_wins": "--first-always-wins",
    "outcome_values": "--outcome-values",
    "context": "--context",
    "weight": "--weight",
    "group": "--group",
    "drop_if": "--drop-if",
    "keep_all_rows": "--keep-all-rows",
}

#: Options that apply to PrefLib files only, by destination.
PREFLIB_OPTIONS = {"unranked": "--unranked", "declared_alternatives": "--declared-alternatives"}

#: The analysis options of ``--pairs`` besides the table and PrefLib ones, by destination.
_ANALYSIS_OPTIONS = {
    "format": "--format",
    "context_value": "--context-value",
    "context_per_file": "--context-per-file",
    "matrix": "--matrix",
    "ties": "--ties",
    "unobserved": "--unobserved",
    "rare_items": "--rare-items",
    "min_comparisons": "--min-comparisons",
    "top": "--top",
    "method": "--method",
    "resamples": "--resamples",
    "intervals": "--intervals",
    "jobs": "--jobs",
    "confidence": "--confidence",
    "seed": "--seed",
    "prior": "--prior",
    "bt_pseudo_count": "--bt-pseudo-count",
    "merge_similar_names": "--merge-similar-names",
    "max_records": "--max-records",
    "rankings": "--rankings",
    "include_pairs": "--include-pairs",
}

_GIVEN = "given_options"


def _mark(namespace: argparse.Namespace, dest: str) -> None:
    given = set(getattr(namespace, _GIVEN, ()))
    given.add(dest)
    setattr(namespace, _GIVEN, frozenset(given))


class Store(argparse.Action):
    """``store``, recording the option as given."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
        setattr(namespace, self.dest, values)
        _mark(namespace, self.dest)


class Flag(argparse.Action):
    """``store_true``, recording the option as given."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, const=True, default=False, **kwargs)

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
        setattr(namespace, self.dest, True)
        _mark(namespace, self.dest)


class Append(argparse.Action):
    """``append``, recording the option as given."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest) or []), values])
        _mark(namespace, self.dest)


def given_options(arguments: argparse.Namespace) -> frozenset[str]:
    """Destinations of the options given on the command line (not left at their default)."""
    return frozenset(getattr(arguments, _GIVEN, ()))


def integer(text: str) -> int:
    """argparse type: a decimal integer (``1000``, not ``1e3``)."""
    try:
        return int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def count(text: str) -> int:
    """argparse type: a positive integer (a limit or a number of resamples)."""
    value = integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def seed(text: str) -> int:
    """argparse type: a seed, an integer >= 0 (:class:`numpy.random.SeedSequence` entropy)."""
    value = integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is an integer >= 0, got {text!r}")
    return value


def finite_number(text: str) -> float:
    """argparse type: a finite decimal number (no ``nan``, no ``inf``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def add_pairs_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``--pairs`` options to ``parser`` (the ``winners`` sub-command).

    :func:`run_pairs` also reads ``json`` (``--json``) and ``max_items`` (``--max-items``)
    from the parsed arguments, which the ``winners`` command defines for both of its modes,
    and ``path`` if present.
    """
    group = parser.add_argument_group(
        "comparison logs (--pairs)",
        "Winners of a log of pairwise comparisons, with their uncertainty under the "
        "bootstrap and a Beta posterior. Presets: "
        + "; ".join(f"{name}: {spec.description}" for name, spec in LOG_PRESETS.items())
        + ". PrefLib files (.soc .soi .toc .toi) are recognised by their suffix; .json logs "
        'hold a list of objects {"winner": ..., "loser": ...[, "weight": ...]}. '
        "Options that do not apply to the input, or contradict another, are refused.",
    )
    add = group.add_argument
    add(
        "--pairs",
        nargs="+",
        metavar="LOG",
        action=Store,
        help="comparison log files (CSV, TSV, Parquet, "
        "whitespace text or PrefLib); several files are read as one log",
    )
    add(
        "--preset",
        choices=sorted(LOG_PRESETS),
        action=Store,
        help="columns and rules of a known log (default: none)",
    )
    add(
        "--format",
        choices=(*TABLE_FORMATS, "preflib"),
        action=Store,
        help="file format (default: from the suffix)",
    )
    add(
        "--names",
        action=Store,
        help="comma-separated column names of a text file without header line (default: "
        "the file's first line)",
    )
    add("--first", metavar="COL", action=Store, help="column of the first item (default: 'first')")
    add(
        "--second",
        metavar="COL",
        action=Store,
        help="column of the second item (default: 'second')",
    )
    outcome = group.add_mutually_exclusive_group()
    outcome.add_argument(
        "--outcome", metavar="COL", action=Store, help="outcome column (default: 'outcome')"
    )
    outcome.add_argument(
        "--winner", metavar="COL", action=Store, help="column naming the preferred item"
    )
    outcome.add_argument(
        "--first-always-wins",
        action=Flag,
        help="no outcome column: the first item won every row",
    )
    add(
        "--outcome-values",
        metavar="FIRST,SECOND,TIE",
        action=Store,
        help="outcome values meaning first wins, second wins, tie; '|' separates "
        "alternatives (default: '1|first,0|second,0.5|tie')",
    )
    add(
        "--context",
        metavar="COL",
        action=Store,
        help="context column: each context is analysed on its own (default: none, one analysis)",
    )
    add(
        "--context-value",
        action=Append,
        metavar="VALUE",
        help="analyse only this context (repeatable; default: every context)",
    )
    add("--context-per-file", action=Flag, help="each file is its own context")
    add(
        "--weight",
        metavar="COL",
        action=Store,
        help="column of frequency weights (default: 1 per row)",
    )
    add(
        "--group",
        metavar="COL",
        action=Store,
        help="column of resampling groups (e.g. voters) for the "
        "bootstrap (default: every comparison on its own)",
    )
    add(
        "--drop-if",
        action=Append,
        metavar="COL=REGEX",
        help="drop rows whose COL matches REGEX (repeatable; replaces the preset's rules)",
    )
    add("--keep-all-rows", action=Flag, help="drop no rows (not even the preset's)")
    add(
        "--unranked",
        choices=UNRANKED_RULES,
        default="ignore",
        action=Store,
        help="PrefLib: alternatives an order leaves out are ignored or below all ranked ones "
        "(default: ignore)",
    )
    add(
        "--declared-alternatives",
        choices=DECLARED_ALTERNATIVES,
        default="ranked",
        action=Store,
        help="PrefLib: the items are the alternatives some voter ranked (the others are "
        "reported and left out) or all declared ones (default: ranked)",
    )
    add(
        "--matrix",
        choices=MATRIX_ESTIMANDS,
        action=Store,
        help="the matrix whose von Neumann winner is reported: 'margins', the majority "
        "margins (wins minus losses of each pair over one constant: the maximal lottery of "
        "social choice, as pref_voting and OpenSpiel compute it), or 'rates', each pair's "
        "own 2 wins/(wins + losses) - 1 (the paper's preference matrix P: how likely one "
        "item beats the other when they meet). Margins weigh a pair by how often it was "
        "compared, which in a match log says who met whom, not who is better; rates do not. "
        "(default: margins for PrefLib files, rates for table logs; mixed input needs it)",
    )
    add(
        "--ties",
        choices=TIE_POLICIES,
        default="half",
        action=Store,
        help="a tie counts half a win each, is dropped, or is an error (default: half; in "
        "a margin a tie cancels either way)",
    )
    add(
        "--unobserved",
        choices=UNOBSERVED_POLICIES,
        default="half",
        action=Store,
        help="pairs never compared: entry 1/2 (margin 0), drop items until every pair was "
        "compared, or error (default: half)",
    )
    add(
        "--rare-items",
        choices=RARE_ITEM_POLICIES,
        default="keep",
        action=Store,
        help="items in fewer than --min-comparisons comparisons: keep, drop, error (default: keep)",
    )
    add(
        "--min-comparisons",
        type=finite_number,
        default=2,
        action=Store,
        help="see --rare-items (default: 2)",
    )
    add(
        "--top",
        type=integer,
        metavar="N",
        action=Store,
        help="keep the N items with most comparisons (in each context; N >= 2; default: "
        "every item)",
    )
    add(
        "--method",
        choices=("both", *RESAMPLING_METHODS, "none"),
        default="both",
        action=Store,
        help="uncertainty by bootstrap, Beta posterior, both or none (default: both)",
    )
    add(
        "--resamples",
        type=integer,
        default=1000,
        action=Store,
        help=f"resampled matrices per method, at most {MAX_RESAMPLES} (default: 1000)",
    )
    add(
        "--intervals",
        choices=INTERVAL_CONSTRUCTIONS,
        action=Store,
        help="weight intervals: 'identified', per item an interval and a label in, out or "
        "undecided from the supports the data do not reject (the rates matrix, whole "
        f"counts, every pair compared, at most {SUPPORT_ENUMERATION_MAX_ITEMS} items, "
        "--resamples at least 20/(1 - confidence)), or 'conservative', every lottery that "
        "could be the von Neumann winner (default: identified where it applies, else "
        "conservative)",
    )
    add(
        "--jobs",
        type=integer,
        metavar="N",
        action=Store,
        help=f"worker processes solving the resamples of a log of more than {DENSE_MAX_K} items "
        "(default: every available core; the results do not depend on it)",
    )
    add(
        "--confidence",
        type=finite_number,
        default=0.95,
        action=Store,
        help="level of the intervals, in (0, 1) (default: 0.95)",
    )
    add(
        "--seed",
        type=seed,
        default=0,
        action=Store,
        help="seed of the resampling, >= 0 (default: 0)",
    )
    add(
        "--prior",
        default="1,1",
        metavar="A,B",
        action=Store,
        help="Beta(A, B) prior of the posterior, finite A, B > 0 (default: 1,1)",
    )
    add(
        "--bt-pseudo-count",
        type=finite_number,
        default=0.0,
        action=Store,
        help="virtual comparisons per pair for the Bradley-Terry fit, >= 0 (default: 0, the "
        "plain MLE)",
    )
    add(
        "--merge-similar-names",
        action=Flag,
        help="merge items whose names differ only by case, Unicode form, spacing or "
        "invisible characters (default: warn and keep them apart)",
    )
    add(
        "--max-records",
        type=count,
        default=MAX_RECORDS,
        action=Store,
        help=f"most comparison records held in memory (default: {MAX_RECORDS:,})",
    )
    add(
        "--rankings",
        action=Flag,
        help="also compute the rankings (iterated maximal lotteries, Copeland, Borda, "
        "Bradley-Terry; one game per tier), in the text and the JSON report",
    )
    add("--include-pairs", action=Flag, help="JSON: add every pair's counts and interval")


def add_max_items_argument(parser: argparse.ArgumentParser) -> None:
    """``--max-items``, the limit shared by both input kinds."""
    parser.add_argument(
        "--max-items",
        type=count,
        default=MAX_ITEMS,
        action=Store,
        metavar="N",
        help=f"most arms of a matrix, or items of a log analysed together (default: {MAX_ITEMS})",
    )


def option_conflicts(arguments: argparse.Namespace, preflib: Sequence[bool] = ()) -> str | None:
    """The first option that does not apply to the input or contradicts another, or ``None``.

    Parameters
    ----------
    arguments : argparse.Namespace
        Parsed by a parser with the options of this module (and ``--json``).
    preflib : sequence of bool, optional
        Per ``--pairs`` file, whether it is a PrefLib file (empty for a matrix file).

    Returns
    -------
    str or None
        A message naming both options, e.g. ``"--key applies to a matrix file, not to
        --pairs"``.
    """
    given = given_options(arguments)
    pairs = getattr(arguments, "pairs", None) is not None
    if pairs:
        for dest, option in MATRIX_OPTIONS.items():
            if dest in given:
                return f"{option} applies to a matrix file, not to --pairs logs"
    else:
        for dest, option in {**TABLE_OPTIONS, **PREFLIB_OPTIONS, **_ANALYSIS_OPTIONS}.items():
            if dest in given:
                return f"{option} applies to --pairs logs, not to a matrix file"
        return None
    if preflib and all(preflib):
        for dest, option in TABLE_OPTIONS.items():
            if dest in given:
                return f"{option} applies to table logs (CSV, TSV, Parquet, text), not PrefLib"
    if preflib and not any(preflib):
        for dest, option in PREFLIB_OPTIONS.items():
            if dest in given:
                return f"{option} applies to PrefLib files, not to table logs"
    pairs_of_options = [
        ("context_per_file", "context", "contradicts", ": choose one"),
        ("keep_all_rows", "drop_if", "contradicts", " (it drops no rows)"),
        ("first_always_wins", "outcome_values", "leaves no outcome column for", ""),
    ]
    names = {**TABLE_OPTIONS, **_ANALYSIS_OPTIONS}
    for one, other, verb, note in pairs_of_options:
        if one in given and other in given:
            return f"{names[one]} {verb} {names[other]}{note}"
    json = bool(getattr(arguments, "json", False))
    if "include_pairs" in given and not json:
        return "--include-pairs adds the pairs to the JSON output: give --json too"
    method = arguments.method
    if "prior" in given and method not in ("posterior", "both"):
        return f"--prior is the Beta posterior's prior; --method {method} does not use it"
    if method == "none":
        for dest in ("resamples", "seed", "intervals"):
            if dest in given:
                return f"{names[dest]} applies to the resampling; --method none has none"
        if "confidence" in given and not arguments.include_pairs:
            return (
                "--confidence sets the intervals; --method none (without --include-pairs) has none"
            )
    return None
