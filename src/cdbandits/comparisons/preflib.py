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
``wins[i, j] - wins[j, i]`` of the counts. Alternative names that occur twice in a file are
made distinct by appending `` (#i)``, the alternative's number.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from .records import ComparisonLog, ComparisonLogError, RecordOrigins

__all__ = [
    "PREFLIB_SUFFIXES",
    "UNRANKED_RULES",
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

_HEADER = re.compile(r"#\s*([^:]+?)\s*:\s*(.*?)\s*$")
_ORDER = re.compile(r"\s*(\d+)\s*:\s*(.*?)\s*$")
_NUMBER = r"\s*\d+\s*"
_GROUP = rf"(?:{_NUMBER}|\s*\{{{_NUMBER}(?:,{_NUMBER})*\}}\s*)"
_ORDER_BODY = re.compile(rf"{_GROUP}(?:,{_GROUP})*")


@dataclass(frozen=True)
class PreflibElection:
    """The orders of one PrefLib file.

    Attributes
    ----------
    path : str
    data_type : {"soc", "soi", "toc", "toi"}
    title : str
        The ``TITLE`` header (empty if absent).
    alternatives : tuple of str
        Names; position ``a`` is alternative number ``a + 1``.
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
    alternatives: tuple[str, ...]
    orders: tuple[tuple[tuple[int, ...], ...], ...]
    counts: NDArray[np.int64]
    lines: tuple[int, ...]

    @property
    def n_voters(self) -> int:
        """Total number of voters."""
        return int(self.counts.sum())


def _parse_order(text: str, where: str, n_alternatives: int) -> tuple[tuple[int, ...], ...]:
    if not _ORDER_BODY.fullmatch(text):
        raise ComparisonLogError(
            f"{where}: cannot read the order {text!r}; expected alternative numbers separated "
            "by commas, tied ones in braces: 3,1,{2,4}"
        )
    groups = tuple(
        tuple(int(token) - 1 for token in (match.group(1) or match.group(2)).split(","))
        for match in re.finditer(r"\{([^{}]*)\}|(\d+)", text)
    )
    flat = [a for group in groups for a in group]
    outside = [a + 1 for a in flat if not 0 <= a < n_alternatives]
    if outside:
        raise ComparisonLogError(
            f"{where}: alternative {outside[0]} is not among 1..{n_alternatives}"
        )
    if len(set(flat)) != len(flat):
        repeated = next(a for a in flat if flat.count(a) > 1)
        raise ComparisonLogError(f"{where}: alternative {repeated + 1} appears twice")
    return groups


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
        If the file is missing, has another suffix, lacks ``NUMBER ALTERNATIVES``, or a line
        is not a valid order for its type; the message names the file and line.
    """
    path = Path(path)
    data_type = path.suffix.lower().lstrip(".")
    if f".{data_type}" not in PREFLIB_SUFFIXES:
        raise ComparisonLogError(
            f"{path}: not a PrefLib order file (expected {', '.join(PREFLIB_SUFFIXES)})"
        )
    if not path.is_file():
        raise ComparisonLogError(f"{path}: no such file")
    header: dict[str, str] = {}
    names: dict[int, str] = {}
    orders, counts, lines = [], [], []
    n_alternatives = None
    with open(path, encoding="utf-8") as stream:
        for number, line in enumerate(stream, start=1):
            where = f"{path}:{number}"
            if not line.strip():
                continue
            if line.startswith("#"):
                match = _HEADER.match(line)
                if match is None:
                    continue
                key, value = match.group(1).upper(), match.group(2)
                name = re.fullmatch(r"ALTERNATIVE NAME (\d+)", key)
                if name:
                    names[int(name.group(1))] = value
                else:
                    header[key] = value
                continue
            if n_alternatives is None:
                n_alternatives = _number_of_alternatives(header, path)
            match = _ORDER.match(line)
            if match is None or int(match.group(1)) < 1:
                raise ComparisonLogError(
                    f"{where}: expected 'count: a1,a2,...' with a positive count, got "
                    f"{line.strip()!r} (PrefLib 2022 format)"
                )
            groups = _parse_order(match.group(2), where, n_alternatives)
            _check_order(groups, data_type, where, n_alternatives)
            orders.append(groups)
            counts.append(int(match.group(1)))
            lines.append(number)
    if n_alternatives is None:
        n_alternatives = _number_of_alternatives(header, path)
    declared_type = header.get("DATA TYPE", data_type).lower()
    if declared_type != data_type:
        raise ComparisonLogError(
            f"{path}: the header says DATA TYPE {declared_type}, the suffix .{data_type}"
        )
    voters = header.get("NUMBER VOTERS")
    if voters is not None and voters.isdigit() and int(voters) != sum(counts):
        raise ComparisonLogError(
            f"{path}: the header says NUMBER VOTERS {voters}, the orders count {sum(counts)}"
        )
    return PreflibElection(
        path=str(path),
        data_type=data_type,
        title=header.get("TITLE", ""),
        alternatives=_alternative_names(names, n_alternatives),
        orders=tuple(orders),
        counts=np.array(counts, dtype=np.int64),
        lines=tuple(lines),
    )


def _number_of_alternatives(header: dict[str, str], path: Path) -> int:
    value = header.get("NUMBER ALTERNATIVES", "")
    if not value.isdigit() or int(value) < 1:
        raise ComparisonLogError(
            f"{path}: no valid '# NUMBER ALTERNATIVES: m' header line before the orders "
            "(PrefLib 2022 format)"
        )
    return int(value)


def _alternative_names(names: dict[int, str], count: int) -> tuple[str, ...]:
    raw = [names.get(number, str(number)) for number in range(1, count + 1)]
    repeated = {name for name in raw if raw.count(name) > 1}
    return tuple(
        f"{name} (#{number})" if name in repeated else name
        for number, name in enumerate(raw, start=1)
    )


def _positions(
    groups: tuple[tuple[int, ...], ...], n_alternatives: int, unranked: UnrankedRule
) -> NDArray[np.int64]:
    """Level of every alternative in one order (0 = best); unranked: -1, or last level."""
    position = np.full(n_alternatives, len(groups) if unranked == "below" else -1)
    for level, group in enumerate(groups):
        position[list(group)] = level
    return position


def election_log(election: PreflibElection, unranked: UnrankedRule = "ignore") -> ComparisonLog:
    """The pairwise comparisons of an election (rules in the module docstring).

    Parameters
    ----------
    election : PreflibElection
    unranked : {"ignore", "below"}, optional
        What an incomplete order says about the alternatives it leaves out.

    Returns
    -------
    ComparisonLog
        All alternatives as items (in file order), one group per order line, weight = its
        count.
    """
    if unranked not in UNRANKED_RULES:
        raise ValueError(f"unranked must be one of {UNRANKED_RULES}, got {unranked!r}")
    m = len(election.alternatives)
    rows, cols = np.triu_indices(m, 1)
    parts = []
    for index, groups in enumerate(election.orders):
        position = _positions(groups, m, unranked)
        ranked = position < len(groups)
        if unranked == "ignore":
            compared = (position[rows] >= 0) & (position[cols] >= 0)
        else:  # "below": unranked ones are not compared with each other
            compared = ranked[rows] | ranked[cols]
        first, second = rows[compared], cols[compared]
        outcome = np.sign(position[second] - position[first]).astype(np.int8)
        parts.append((first, second, outcome, np.full(first.size, index)))
    first, second, outcome, order = (
        np.concatenate([part[column] for part in parts]) if parts else np.zeros(0, np.int64)
        for column in range(4)
    )
    lines = np.asarray(election.lines, dtype=np.int64)
    return ComparisonLog(
        items=election.alternatives,
        first=first.astype(np.int64),
        second=second.astype(np.int64),
        outcome=outcome.astype(np.int8),
        weight=election.counts[order].astype(np.float64),
        context=None,
        group=order.astype(np.int64),
        origin=RecordOrigins.of_source(election.path, "line", lines[order]),
    )


def pairwise_margins(
    election: PreflibElection, unranked: UnrankedRule = "ignore"
) -> NDArray[np.int64]:
    """Number of voters ranking ``i`` strictly above ``j``, shape (m, m).

    Counted from the orders as a matrix, not through :func:`election_log`'s records (the
    tests check that ``wins[i, j] - wins[j, i]`` of the log's counts equals
    ``above[i, j] - above[j, i]``).
    """
    m = len(election.alternatives)
    above = np.zeros((m, m), dtype=np.int64)
    for groups, count in zip(election.orders, election.counts, strict=True):
        position = _positions(groups, m, unranked)
        ranked = position >= 0
        better = (position[:, None] < position[None, :]) & ranked[:, None] & ranked[None, :]
        above += count * better
    return above
