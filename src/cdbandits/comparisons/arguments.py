"""The options of ``cdbandits winners --pairs``, without the readers and the solvers.

:func:`add_pairs_arguments` only needs the names of the presets, formats and policies, so
building the ``winners`` parser loads neither pandas nor numba; :mod:`.cli` runs the options.
"""

from __future__ import annotations

import argparse

from .preflib import UNRANKED_RULES
from .settings import RARE_ITEM_POLICIES, RESAMPLING_METHODS, TIE_POLICIES, UNOBSERVED_POLICIES
from .specs import LOG_PRESETS, TABLE_FORMATS

__all__ = ["add_pairs_arguments"]


def add_pairs_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``--pairs`` options to ``parser`` (the ``winners`` sub-command).

    :func:`run_pairs` also reads ``json`` (``--json``) from the parsed arguments, which the
    ``winners`` command defines for both of its modes, and ``path`` if present.
    """
    group = parser.add_argument_group(
        "comparison logs (--pairs)",
        "Winners of a log of pairwise comparisons, with their uncertainty under the "
        "bootstrap and a Beta posterior. Presets: "
        + "; ".join(f"{name}: {spec.description}" for name, spec in LOG_PRESETS.items())
        + ". PrefLib files (.soc .soi .toc .toi) are recognised by their suffix.",
    )
    add = group.add_argument
    add(
        "--pairs",
        nargs="+",
        metavar="LOG",
        help="comparison log files (CSV, TSV, Parquet, "
        "whitespace text or PrefLib); several files are read as one log",
    )
    add("--preset", choices=sorted(LOG_PRESETS), help="columns and rules of a known log")
    add("--format", choices=(*TABLE_FORMATS, "preflib"), help="file format (default: suffix)")
    add("--names", help="comma-separated column names of a text file without header line")
    add("--first", metavar="COL", help="column of the first item (default 'first')")
    add("--second", metavar="COL", help="column of the second item (default 'second')")
    outcome = group.add_mutually_exclusive_group()
    outcome.add_argument("--outcome", metavar="COL", help="outcome column (default 'outcome')")
    outcome.add_argument("--winner", metavar="COL", help="column naming the preferred item")
    outcome.add_argument(
        "--first-always-wins",
        action="store_true",
        help="no outcome column: the first item won every row",
    )
    add(
        "--outcome-values",
        metavar="FIRST,SECOND,TIE",
        help="outcome values meaning first wins, second wins, tie; '|' separates "
        "alternatives (default '1|first,0|second,0.5|tie')",
    )
    add("--context", metavar="COL", help="context column: each context is analysed on its own")
    add(
        "--context-value",
        action="append",
        metavar="VALUE",
        help="analyse only this context (repeatable; default: every context)",
    )
    add("--context-per-file", action="store_true", help="each file is its own context")
    add("--weight", metavar="COL", help="column of frequency weights (default: 1 per row)")
    add(
        "--group",
        metavar="COL",
        help="column of resampling groups (e.g. voters) for the "
        "bootstrap (default: every comparison on its own)",
    )
    add(
        "--drop-if",
        action="append",
        metavar="COL=REGEX",
        help="drop rows whose COL matches REGEX (repeatable; replaces the preset's rules)",
    )
    add("--keep-all-rows", action="store_true", help="drop no rows (not even the preset's)")
    add(
        "--unranked",
        choices=UNRANKED_RULES,
        default="ignore",
        help="PrefLib: alternatives an order leaves out are ignored (default) or below all "
        "ranked ones",
    )
    add(
        "--ties",
        choices=TIE_POLICIES,
        default="half",
        help="a tie counts half a win each (default), is dropped, or is an error",
    )
    add(
        "--unobserved",
        choices=UNOBSERVED_POLICIES,
        default="half",
        help="pairs never compared: entry 1/2 (default), drop items until every pair was "
        "compared, or error",
    )
    add(
        "--rare-items",
        choices=RARE_ITEM_POLICIES,
        default="keep",
        help="items in fewer than --min-comparisons comparisons: keep (default), drop, error",
    )
    add("--min-comparisons", type=float, default=2, help="see --rare-items (default 2)")
    add(
        "--top",
        type=int,
        metavar="N",
        help="keep the N items with most comparisons (in each context)",
    )
    add(
        "--method",
        choices=("both", *RESAMPLING_METHODS, "none"),
        default="both",
        help="uncertainty by bootstrap, Beta posterior, both (default) or none",
    )
    add("--resamples", type=int, default=1000, help="resampled matrices per method")
    add("--confidence", type=float, default=0.95, help="level of the intervals")
    add("--seed", type=int, default=0, help="seed of the resampling")
    add("--prior", default="1,1", metavar="A,B", help="Beta(A, B) prior of the posterior")
    add(
        "--bt-pseudo-count",
        type=float,
        default=0.0,
        help="virtual comparisons per pair for the Bradley-Terry fit (default 0: plain MLE)",
    )
    add("--rankings", action="store_true", help="also print the rankings table")
    add("--include-pairs", action="store_true", help="JSON: add every pair's counts and interval")
