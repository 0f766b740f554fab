"""PrefLib elections (``.soc``, ``.soi``, ``.toc``, ``.toi``) as pairwise comparisons.

The PrefLib 2022 format (https://preflib.org/format): header lines ``# KEY: value`` (among
them ``NUMBER ALTERNATIVES``, ``NUMBER VOTERS`` and ``ALTERNATIVE NAME i``), then one line
per distinct order, ``count: a1,a2,{a3,a4},a5``: ``count`` voters ranked the alternatives
(numbered from 1) best first; braces group alternatives a voter ranked equal. The suffix
says what is allowed: ``soc`` strict complete orders, ``soi`` strict incomplete, ``toc``
complete with ties, ``toi`` incomplete with ties.

Each voter's order gives one comparison per pair of alternatives it ranks:

* alternatives in different positions: the higher ranked wins;
* alternatives in one brace group (``.toc``, ``.toi``): a **tie**, then counted by the
  ``ties`` policy of :mod:`.counts` (half a win each by default);
* alternatives a voter left out (``.soi``, ``.toi``), by the ``unranked`` rule:
  ``"ignore"`` (default): no comparison involves them; ``"below"``: every ranked
  alternative beats every unranked one, and unranked alternatives are not compared with
  each other.

The comparisons of one order line form one resampling *group* of weight ``count`` (see
:mod:`.records`): the bootstrap resamples voters, whose comparisons are not independent.
The majority margin ``N[i, j] - N[j, i]`` (:func:`pairwise_margins`) is then
``wins[i, j] - wins[j, i]`` of the counts. Alternative names that occur twice among the
items are made distinct by appending `` (#i)``, the alternative's number.

The items of :func:`election_log` are the alternatives some order ranks (``alternatives=
"ranked"``, the default): an alternative that is only declared has no comparison to count,
so it is left out with a :class:`~.records.ComparisonDataWarning` (``"all"`` keeps every
declared alternative). The file is read line by line in linear time; the comparisons an
election stands for are counted before they are built and refused beyond ``max_records``
(default :data:`~cdbandits.limits.MAX_RECORDS`), as are counts of voters beyond
:data:`~cdbandits.limits.MAX_WEIGHT`. Files are UTF-8, with or without a byte-order mark.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from ..input_files import text_lines
from ..limits import MAX_RECORDS, MAX_WEIGHT, format_bytes, records_bytes
from .records import ComparisonLog, ComparisonLogError, RecordOrigins, warn

__all__ = [
    "DECLARED_ALTERNATIVES",
    "PREFLIB_SUFFIXES",
    "UNRANKED_RULES",
    "DeclaredAlternatives",
    "PreflibElection",
    "UnrankedRule",
    "election_log",
    "pairwise_margins",
    "read_preflib",
]

#: The PrefLib order files this module reads.
PREFLIB_SUFFIXES: tuple[str, ...] = (".soc", ".soi", ".toc", ".toi")

UnrankedRule = Literal["ignore", "below"]
UNRANKED_RULES: tuple[UnrankedRule, ...] = ("ignore", "below")

DeclaredAlternatives = Literal["ranked", "all"]
#: Which alternatives become items: those some order ranks, or every declared one.
DECLARED_ALTERNATIVES: tuple[DeclaredAlternatives, ...] = ("ranked", "all")

_NAME_KEY = re.compile(r"ALTERNATIVE NAME (\d+)")
#: Digits of the largest number read (``MAX_WEIGHT`` has 16).
_MAX_DIGITS = 16


@dataclass(frozen=True)
class PreflibElection:
    """The orders of one PrefLib file.

    Attributes
    ----------
    path : str
    data_type : {"soc", "soi", "toc", "toi"}
    title : str
        The ``TITLE`` header (empty if absent).
    n_alternatives : int
        ``NUMBER ALTERNATIVES``: the alternatives are numbered ``1 .. n_alternatives``.
    names : mapping of int to str
        The ``ALTERNATIVE NAME i`` headers, by number ``i``; an alternative without one is
        named by its number.
    orders : tuple of tuple of tuple of int
        Each order as its groups best first, each group the 0-based alternatives in it.
    counts : ndarray of int64
        Voters with each order.
    lines : tuple of int
        Line of each order in the file.
    """

    path: str
    data_type: str
    title: str
    n_alternatives: int
    names: Mapping[int, str]
    orders: tuple[tuple[tuple[int, ...], ...], ...]
    counts: NDArray[np.int64]
    lines: tuple[int, ...]

    @property
    def n_voters(self) -> int:
        """Total number of voters."""
        return int(self.counts.sum())

    @property
    def alternatives(self) -> tuple[str, ...]:
        """Names of every declared alternative; position ``a`` is alternative ``a + 1``."""
        return self.alternative_names(range(self.n_alternatives))

    def alternative_names(self, alternatives: Sequence[int]) -> tuple[str, ...]:
        """Names of the given 0-based alternatives, repeated names made distinct by ``(#i)``."""
        raw = [self.names.get(a + 1, str(a + 1)) for a in alternatives]
        repeated = {name for name, count in Counter(raw).items() if count > 1}
        return tuple(
            f"{name} (#{a + 1})" if name in repeated else name
            for a, name in zip(alternatives, raw, strict=True)
        )

    def ranked_alternatives(self) -> NDArray[np.int64]:
        """The 0-based alternatives some order ranks, in increasing order."""
        ranked = {a for groups in self.orders for group in groups for a in group}
        return np.array(sorted(ranked), dtype=np.int64)


def _number(text: str) -> int | None:
    """A non-negative decimal integer of at most :data:`_MAX_DIGITS` digits, else ``None``."""
    text = text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > _MAX_DIGITS:
        return None
    return int(text)


def _parse_order(text: str, where: str, n_alternatives: int) -> tuple[tuple[int, ...], ...]:
    """The groups of an order such as ``3,1,{2,4}`` (linear in the length of ``text``)."""

    def fail() -> ComparisonLogError:
        return ComparisonLogError(
            f"{where}: cannot read the order {text[:80]!r}{'...' if len(text) > 80 else ''}; "
            "expected alternative numbers separated by commas, tied ones in braces: 3,1,{2,4}"
        )

    groups: list[tuple[int, ...]] = []
    group: list[int] | None = None
    seen: set[int] = set()
    expect_alternative = True
    for token in re.split(r"([{},])", text):
        if token == ",":
            if expect_alternative:
                raise fail()
            expect_alternative = True
        elif token == "{":
            if group is not None or not expect_alternative:
                raise fail()
            group = []
        elif token == "}":
            if group is None or expect_alternative:
                raise fail()
            groups.append(tuple(group))
            group = None
        elif token.strip():
            number = _number(token)
            if number is None:
                if token.strip().isascii() and token.strip().isdigit():
                    number = n_alternatives + 1  # too many digits: outside the range
                else:
                    raise fail()
            if not expect_alternative:
                raise fail()
            if not 1 <= number <= n_alternatives:
                raise ComparisonLogError(
                    f"{where}: alternative {token.strip()[:20]} is not among 1..{n_alternatives}"
                )
            if number - 1 in seen:
                raise ComparisonLogError(f"{where}: alternative {number} appears twice")
            seen.add(number - 1)
            if group is None:
                groups.append((number - 1,))
            else:
                group.append(number - 1)
            expect_alternative = False
    if group is not None or expect_alternative:
        raise fail()
    return tuple(groups)


def _check_order(
    groups: tuple[tuple[int, ...], ...], data_type: str, where: str, n_alternatives: int
) -> None:
    if data_type in ("soc", "soi") and any(len(group) > 1 for group in groups):
        raise ComparisonLogError(
            f"{where}: ties ({{...}}) are not allowed in a .{data_type} file (strict orders)"
        )
    ranked = sum(len(group) for group in groups)
    if data_type in ("soc", "toc") and ranked != n_alternatives:
        raise ComparisonLogError(
            f"{where}: ranks {ranked} of {n_alternatives} alternatives; a .{data_type} file "
            "holds complete orders"
        )


def read_preflib(path: str | os.PathLike[str]) -> PreflibElection:
    """Read a PrefLib ``.soc``, ``.soi``, ``.toc`` or ``.toi`` file (2022 format).

    Raises
    ------
    ComparisonLogError
        If the file is missing or unreadable, not UTF-8, has another suffix, lacks
        ``NUMBER ALTERNATIVES``, names an alternative it does not declare, or a line is not
        a valid order for its type; the message names the file and line.
    """
    path = Path(path)
    data_type = path.suffix.lower().lstrip(".")
    if f".{data_type}" not in PREFLIB_SUFFIXES:
        raise ComparisonLogError(
            f"{path}: not a PrefLib order file (expected {', '.join(PREFLIB_SUFFIXES)})"
        )
    header: dict[str, str] = {}
    names: dict[int, tuple[str, int]] = {}
    orders, counts, lines = [], [], []
    n_alternatives = None
    for number, line in enumerate(text_lines(path, ComparisonLogError), start=1):
        where = f"{path}:{number}"
        text = line.strip()
        if not text:
            continue
        if text.startswith("#"):
            key, separator, value = text[1:].partition(":")
            if not separator:
                continue
            key, value = " ".join(key.split()).upper(), value.strip()
            name = _NAME_KEY.fullmatch(key)
            if name:
                alternative = _number(name.group(1))
                names[-1 if alternative is None else alternative] = (value, number)
            else:
                header[key] = value
            continue
        if n_alternatives is None:
            n_alternatives = _number_of_alternatives(header, path)
        count_text, separator, body = text.partition(":")
        count = _number(count_text)
        if not separator or count is None or count < 1:
            if (
                separator
                and count is None
                and count_text.strip().isascii()
                and count_text.strip().isdigit()
            ):
                raise ComparisonLogError(
                    f"{where}: count {count_text.strip()[:30]} is larger than 2**53 = "
                    f"{MAX_WEIGHT:,}, the largest count held exactly"
                )
            raise ComparisonLogError(
                f"{where}: expected 'count: a1,a2,...' with a positive count, got "
                f"{text[:80]!r} (PrefLib 2022 format)"
            )
        if count > MAX_WEIGHT:
            raise ComparisonLogError(
                f"{where}: count {count} is larger than 2**53 = {MAX_WEIGHT:,}, the largest "
                "count held exactly"
            )
        groups = _parse_order(body.strip(), where, n_alternatives)
        _check_order(groups, data_type, where, n_alternatives)
        orders.append(groups)
        counts.append(count)
        lines.append(number)
    if n_alternatives is None:
        n_alternatives = _number_of_alternatives(header, path)
    for alternative, (_, line) in names.items():
        if not 1 <= alternative <= n_alternatives:
            raise ComparisonLogError(
                f"{path}:{line}: ALTERNATIVE NAME of alternative "
                f"{alternative if alternative >= 0 else 'above 2**53'}, but the file declares "
                f"NUMBER ALTERNATIVES: {n_alternatives}"
            )
    declared_type = header.get("DATA TYPE", data_type).lower()
    if declared_type != data_type:
        raise ComparisonLogError(
            f"{path}: the header says DATA TYPE {declared_type[:20]}, the suffix .{data_type}"
        )
    voters = _number(header.get("NUMBER VOTERS", ""))
    if voters is not None and voters != sum(counts):
        raise ComparisonLogError(
            f"{path}: the header says NUMBER VOTERS {voters}, the orders count {sum(counts)}"
        )
    if sum(counts) > MAX_WEIGHT:
        raise ComparisonLogError(
            f"{path}: the orders count {sum(counts)} voters, more than 2**53 = {MAX_WEIGHT:,}, "
            "the largest count held exactly"
        )
    return PreflibElection(
        path=str(path),
        data_type=data_type,
        title=header.get("TITLE", ""),
        n_alternatives=n_alternatives,
        names={alternative: name for alternative, (name, _) in names.items()},
        orders=tuple(orders),
        counts=np.array(counts, dtype=np.int64),
        lines=tuple(lines),
    )


def _number_of_alternatives(header: dict[str, str], path: Path) -> int:
    value = _number(header.get("NUMBER ALTERNATIVES", ""))
    if value is None or value < 1:
        raise ComparisonLogError(
            f"{path}: no valid '# NUMBER ALTERNATIVES: m' header line (m from 1 to 2**53) before "
            "the orders (PrefLib 2022 format)"
        )
    return value


def _positions(
    groups: tuple[tuple[int, ...], ...], n_alternatives: int, unranked: UnrankedRule
) -> NDArray[np.int64]:
    """Level of every alternative in one order (0 = best); unranked: -1, or last level."""
    position = np.full(n_alternatives, len(groups) if unranked == "below" else -1)
    for level, group in enumerate(groups):
        position[list(group)] = level
    return position


def _order_records(
    groups: tuple[tuple[int, ...], ...], item_of: Mapping[int, int], k: int, below: bool
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int8]]:
    """The comparisons of one order between items, lower item first, sorted by pair."""
    ranked = np.array([item_of[a] for group in groups for a in group], dtype=np.int64)
    level = np.array([depth for depth, group in enumerate(groups) for _ in group], np.int64)
    left, right = np.triu_indices(ranked.size, 1)
    a, b = ranked[left], ranked[right]
    # a is ranked at least as high as b: it wins unless they tie (same level).
    outcome = np.where(level[left] == level[right], 0, np.where(a < b, 1, -1))
    first, second = np.minimum(a, b), np.maximum(a, b)
    if below:
        others = np.setdiff1d(np.arange(k, dtype=np.int64), ranked, assume_unique=True)
        winner = np.repeat(ranked, others.size)
        loser = np.tile(others, ranked.size)
        first = np.concatenate([first, np.minimum(winner, loser)])
        second = np.concatenate([second, np.maximum(winner, loser)])
        outcome = np.concatenate([outcome, np.where(winner < loser, 1, -1)])
    order = np.lexsort((second, first))
    return first[order], second[order], outcome[order].astype(np.int8)


def election_log(
    election: PreflibElection,
    unranked: UnrankedRule = "ignore",
    alternatives: DeclaredAlternatives = "ranked",
    *,
    max_records: int = MAX_RECORDS,
) -> ComparisonLog:
    """The pairwise comparisons of an election (rules in the module docstring).

    Parameters
    ----------
    election : PreflibElection
    unranked : {"ignore", "below"}, optional
        What an incomplete order says about the alternatives it leaves out.
    alternatives : {"ranked", "all"}, optional
        The items: the alternatives some order ranks (default; the others are reported by a
        :class:`~.records.ComparisonDataWarning`), or every declared alternative.
    max_records : int, optional
        Refuse an election that stands for more comparisons than this.

    Returns
    -------
    ComparisonLog
        Items in the order of the alternatives' numbers, one group per order line, weight
        = its count.

    Raises
    ------
    ComparisonLogError
        If the election stands for more than ``max_records`` comparisons (or, with
        ``"all"``, declares more alternatives than that).
    """
    if unranked not in UNRANKED_RULES:
        raise ValueError(f"unranked must be one of {UNRANKED_RULES}, got {unranked!r}")
    if alternatives not in DECLARED_ALTERNATIVES:
        raise ValueError(
            f"alternatives must be one of {DECLARED_ALTERNATIVES}, got {alternatives!r}"
        )
    m = election.n_alternatives
    ranked = election.ranked_alternatives()
    if alternatives == "all":
        if m > max_records:
            raise ComparisonLogError(
                f"{election.path}: declares {m:,} alternatives, more than the limit of "
                f"{max_records:,} records in memory; keep only the ranked ones "
                "(declared alternatives 'ranked') or raise the limit (--max-records)"
            )
        kept = np.arange(m, dtype=np.int64)
    else:
        kept = ranked
        if ranked.size < m:
            shown = ", ".join(election.alternative_names(range(min(m, 5))))
            warn(
                f"{election.path}: {m - ranked.size:,} of {m:,} declared alternatives are "
                f"ranked by no voter (the file names {shown}{' ...' if m > 5 else ''}); they "
                "are left out (declared alternatives 'ranked'; 'all' keeps them as items)"
            )
    k = kept.size
    below = unranked == "below"
    sizes = [sum(len(group) for group in groups) for groups in election.orders]
    total = sum(r * (r - 1) // 2 + (r * (k - r) if below else 0) for r in sizes)
    if total > max_records:
        raise ComparisonLogError(
            f"{election.path}: the {len(sizes):,} orders over {k:,} alternatives stand for "
            f"{total:,} pairwise comparisons, more than the limit of {max_records:,} records "
            f"in memory (they would take about {format_bytes(records_bytes(total))}); "
            "--max-records raises it"
        )
    item_of = {int(a): index for index, a in enumerate(kept)}
    parts = [_order_records(groups, item_of, k, below) for groups in election.orders]
    order = np.repeat(np.arange(len(parts), dtype=np.int64), [part[0].size for part in parts])
    first, second, outcome = (
        np.concatenate([part[column] for part in parts]) if parts else np.zeros(0, np.int64)
        for column in range(3)
    )
    lines = np.asarray(election.lines, dtype=np.int64)
    return ComparisonLog(
        items=election.alternative_names(kept.tolist()),
        first=first.astype(np.int64),
        second=second.astype(np.int64),
        outcome=outcome.astype(np.int8),
        weight=election.counts[order].astype(np.float64),
        context=None,
        group=order,
        origin=RecordOrigins.of_source(election.path, "line", lines[order]),
    )


def pairwise_margins(
    election: PreflibElection, unranked: UnrankedRule = "ignore"
) -> NDArray[np.int64]:
    """Number of voters ranking ``i`` strictly above ``j``, shape (m, m), every declared one.

    Counted from the orders as a matrix, not through :func:`election_log`'s records (the
    tests check that ``wins[i, j] - wins[j, i]`` of the log's counts equals
    ``above[i, j] - above[j, i]``).
    """
    m = election.n_alternatives
    above = np.zeros((m, m), dtype=np.int64)
    for groups, count in zip(election.orders, election.counts, strict=True):
        position = _positions(groups, m, unranked)
        ranked = position >= 0
        better = (position[:, None] < position[None, :]) & ranked[:, None] & ranked[None, :]
        above += count * better
    return above
