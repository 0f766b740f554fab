"""Reading comparison logs from CSV, Parquet, JSON and whitespace-separated text files.

A log file holds one comparison per row. :class:`LogSpec` says which columns hold the two
items and how the outcome is given, in one of three ways (``outcome_from``):

* ``"outcome"``: a column with one of the values of ``first_values`` (first item won,
  default ``1`` or ``first``), ``second_values`` (``0`` or ``second``) or ``tie_values``
  (``0.5`` or ``tie``). Numbers are compared as numbers (``1``, ``1.0`` and ``1e0`` agree),
  words without regard to case.
* ``"winner"``: a column naming the preferred item, which must equal the first or the
  second item of the row (or one of ``tie_values``). The TREC-DL judgments are written so.
* ``"first_wins"``: no outcome column; the first item won every row (the ATP results
  list ``winner_name`` before ``loser_name``).

Optional columns: ``context`` (a topic, a surface: analysed separately), ``weight``
(frequency weights, see :mod:`.records`) and ``group`` (the bootstrap's resampling unit).
Rows can be dropped before anything else by ``drop`` rules ``(column, regular
expression)``: a row is dropped when the expression matches somewhere in that column's
value (:func:`re.search`). Every rule that drops rows is reported by a
:class:`~.records.ComparisonDataWarning` with the count.

Formats (``format="auto"`` goes by the suffix): ``.csv`` (comma-separated, header line),
``.tsv`` (tab-separated, header line), ``.parquet``/``.pq``, ``.json``, anything else
whitespace-separated text (blank lines and lines starting with ``#`` skipped). A text file
without a header line needs ``names``: the column names in order. A JSON log is one array
of objects, one comparison each, whose keys are the columns and whose values are strings
or numbers; with the default spec it is read as ``{"winner": ..., "loser": ...}`` objects,
the winner beat the loser, with an optional ``"weight"`` (frequency weight, default 1):
:data:`JSON_SPEC`. Any other JSON (an object at the top, nested values) is refused, naming
the entry.

:data:`LOG_PRESETS` holds the specs of the public logs this project uses (``"atp"``,
``"trec-dl"``). Any problem with a file raises :class:`~.records.ComparisonLogError`
naming the file, the line (row for Parquet) and the column. Text files are UTF-8, with or
without a byte-order mark (:mod:`cdbandits.input_files`). The files are read row by row in
linear time, without pandas; a log of more than ``max_records`` records (default
:data:`~cdbandits.limits.MAX_RECORDS`) is refused as soon as the count is passed.
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
from array import array
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..input_files import path_problem, text_lines
from ..limits import MAX_RECORDS, MAX_WEIGHT, format_bytes, records_bytes
from .records import (
    FIRST_WINS,
    SECOND_WINS,
    TIE,
    ComparisonLog,
    ComparisonLogError,
    RecordOrigins,
    concatenate_logs,
    warn,
)
from .specs import (
    LOG_PRESETS,
    OUTCOME_SOURCES,
    TABLE_FORMATS,
    LogSpec,
    OutcomeSource,
    TableFormat,
    outcome_token,
)

__all__ = [
    "COLUMN_ADVICE",
    "JSON_SPEC",
    "LOG_PRESETS",
    "OUTCOME_SOURCES",
    "TABLE_FORMATS",
    "LogSpec",
    "OutcomeSource",
    "TableFormat",
    "read_log",
    "read_logs",
    "table_format",
    "with_file_context",
]


#: The spec of a JSON log read with the default spec: ``{"winner", "loser"[, "weight"]}``.
JSON_SPEC = LogSpec(
    first="winner",
    second="loser",
    outcome_from="first_wins",
    weight="weight",
    format="json",
    description='JSON array of {"winner": ..., "loser": ...[, "weight": ...]} objects',
)

#: How to name the columns, for the messages of a file that does not fit the spec.
COLUMN_ADVICE = (
    "name the columns with --first COL --second COL and --outcome COL, --winner COL or "
    "--first-always-wins (--names A,B,... for a text file without header line, --format "
    "for a file whose suffix does not say its format)"
)


def table_format(path: str | os.PathLike[str], requested: TableFormat = "auto") -> TableFormat:
    """The format of a log file: ``requested`` unless ``"auto"``, else from the suffix."""
    if requested != "auto":
        return requested
    suffix = Path(path).suffix.lower()
    return {
        ".csv": "csv",
        ".tsv": "tsv",
        ".parquet": "parquet",
        ".pq": "parquet",
        ".json": "json",
    }.get(suffix, "whitespace")


def _missing_columns(path: Path, present: Sequence[str], spec: LogSpec) -> None:
    missing = [column for column in spec.columns if column not in present]
    if not missing:
        return
    hints = [
        f"--preset {name} ({preset.description})"
        for name, preset in LOG_PRESETS.items()
        if all(column in present for column in preset.columns)
    ]
    raise ComparisonLogError(
        f"{path}: no column {', '.join(map(repr, missing))}; the file has "
        f"{', '.join(map(repr, list(present)[:30]))}"
        + (
            f". It looks like a log of a known kind: use {' or '.join(hints)}"
            if hints
            else f"; {COLUMN_ADVICE}"
        )
    )


def _too_many_records(path: Path, limit: int) -> ComparisonLogError:
    return ComparisonLogError(
        f"{path}: the log holds more than {limit:,} comparisons (the files read so far), the "
        f"limit of records held in memory (about {format_bytes(records_bytes(limit))}); "
        "--max-records raises it"
    )


class _LogBuilder:
    """The records of one file, built row by row (items numbered in order of appearance)."""

    def __init__(
        self, path: Path, spec: LogSpec, header: Sequence[str], max_records: int, read_before: int
    ):
        _missing_columns(path, header, spec)
        self.path, self.spec, self.max_records = path, spec, max_records
        self.room = max_records - read_before
        column = {name: len(header) - 1 - index for index, name in enumerate(header[::-1])}
        self.column = {name: column[name] for name in spec.columns}  # first of repeated names
        self.rules = [(self.column[name], re.compile(pattern)) for name, pattern in spec.drop]
        self.dropped = [0] * len(spec.drop)
        self.rows = 0
        self.items: dict[str, int] = {}
        self.contexts: dict[str, int] = {}
        self.groups: dict[str, int] = {}
        self.first, self.second = array("q"), array("q")
        self.context, self.group = array("q"), array("q")
        self.outcome, self.weight, self.position = array("b"), array("d"), array("q")
        self.codes = {outcome_token(v): FIRST_WINS for v in spec.first_values}
        self.codes |= {outcome_token(v): SECOND_WINS for v in spec.second_values}
        self.codes |= {outcome_token(v): TIE for v in spec.tie_values}
        self.ties = {outcome_token(v) for v in spec.tie_values}
        self.where = ""

    def fail(self, column: str, problem: str) -> ComparisonLogError:
        return ComparisonLogError(f"{self.where}: column {column!r}: {problem}")

    def _text(self, values: Sequence[str], column: str, what: str) -> str:
        text = values[self.column[column]].strip()
        if not text:
            raise self.fail(column, f"{what} is empty")
        return text

    def add(self, values: Sequence[str], position: int, where: str) -> None:
        """Add the row ``values`` (all fields of the row, as strings) at ``position``."""
        self.where = where
        self.rows += 1
        for index, (field, pattern) in enumerate(self.rules):
            if pattern.search(values[field]):
                self.dropped[index] += 1
                return
        if len(self.position) >= self.room:
            raise _too_many_records(self.path, self.max_records)
        spec = self.spec
        first = self._text(values, spec.first, "item name")
        second = self._text(values, spec.second, "item name")
        self.first.append(self.items.setdefault(first, len(self.items)))
        self.second.append(self.items.setdefault(second, len(self.items)))
        self.outcome.append(self._outcome(values, first, second))
        self.weight.append(
            1.0 if spec.weight is None else self._weight(values[self.column[spec.weight]])
        )
        if spec.context is not None:
            context = self._text(values, spec.context, "context")
            self.context.append(self.contexts.setdefault(context, len(self.contexts)))
        if spec.group is not None:
            group = values[self.column[spec.group]].strip()
            self.group.append(self.groups.setdefault(group, len(self.groups)))
        self.position.append(position)

    def _outcome(self, values: Sequence[str], first: str, second: str) -> int:
        spec = self.spec
        if spec.outcome_from == "first_wins":
            return FIRST_WINS
        if spec.outcome_from == "winner":
            winner = values[self.column[spec.winner]].strip()
            if winner == first:
                return FIRST_WINS
            if winner == second:
                return SECOND_WINS
            if outcome_token(winner) in self.ties:
                return TIE
            raise self.fail(
                spec.winner,
                f"winner {winner!r} is neither the first item {first!r} nor the second "
                f"{second!r}"
                + (f" nor a tie value ({', '.join(spec.tie_values)})" if spec.tie_values else ""),
            )
        raw = values[self.column[spec.outcome]]
        code = self.codes.get(outcome_token(raw))
        if code is None:
            raise self.fail(
                spec.outcome,
                f"outcome {raw!r} is not one of {', '.join(spec.first_values)} (first wins), "
                f"{', '.join(spec.second_values)} (second wins), "
                f"{', '.join(spec.tie_values)} (tie)",
            )
        return code

    def _weight(self, text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            value = math.nan
        column = self.spec.weight
        if not (math.isfinite(value) and value > 0):
            raise self.fail(
                column,
                f"weight {text!r} is not a positive number (a weight is the number of "
                "identical comparisons the row stands for)",
            )
        digits = text.strip()
        exact = digits.isascii() and digits.isdigit() and len(digits) <= 20
        if value > MAX_WEIGHT or (exact and int(digits) > MAX_WEIGHT):
            raise self.fail(
                column,
                f"weight {text!r} is larger than 2**53 = {MAX_WEIGHT:,}, the largest count "
                "held exactly",
            )
        return value

    def log(self, kind: str) -> ComparisonLog:
        n = len(self.position)
        context = None
        if self.spec.context is not None:
            names = np.array(list(self.contexts), dtype=object)
            context = names[np.frombuffer(self.context, dtype=np.int64)] if n else names[:0]
        return ComparisonLog(
            items=tuple(self.items),
            first=np.frombuffer(self.first, dtype=np.int64).copy(),
            second=np.frombuffer(self.second, dtype=np.int64).copy(),
            outcome=np.frombuffer(self.outcome, dtype=np.int8).copy(),
            weight=np.frombuffer(self.weight, dtype=np.float64).copy(),
            context=context,
            group=(
                None
                if self.spec.group is None
                else np.frombuffer(self.group, dtype=np.int64).copy()
            ),
            origin=RecordOrigins.of_source(
                str(self.path), kind, np.frombuffer(self.position, dtype=np.int64)
            ),
        )


def _format_name(delimiter: str) -> str:
    return "CSV" if delimiter == "," else "tab-separated text"


def _read_delimited(
    path: Path, spec: LogSpec, delimiter: str, max_records: int, read_before: int
) -> _LogBuilder:
    reader = csv.reader(text_lines(path, ComparisonLogError), delimiter=delimiter, strict=True)
    builder = None
    width = len(spec.names) if spec.names is not None else 0
    if spec.names is not None:
        builder = _LogBuilder(path, spec, spec.names, max_records, read_before)
    try:
        for record in reader:
            if not record or record == [""]:
                continue
            if builder is None:
                builder, width = (
                    _LogBuilder(path, spec, record, max_records, read_before),
                    len(record),
                )
                continue
            if len(record) != width:
                raise ComparisonLogError(
                    f"{path}:{reader.line_num}: {len(record)} fields, expected {width} (as "
                    f"in the header line); {COLUMN_ADVICE}"
                )
            builder.add(record, reader.line_num, f"{path}:{reader.line_num}")
    except csv.Error as error:
        raise ComparisonLogError(
            f"{path}:{reader.line_num}: cannot read as {_format_name(delimiter)}: {error}"
        ) from None
    if builder is None:
        raise ComparisonLogError(f"{path}: empty file (no header line, no rows)")
    return builder


def _read_whitespace(path: Path, spec: LogSpec, max_records: int, read_before: int) -> _LogBuilder:
    builder = None
    names = list(spec.names) if spec.names is not None else None
    if names is not None:
        builder = _LogBuilder(path, spec, names, max_records, read_before)
    for number, line in enumerate(text_lines(path, ComparisonLogError), start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if builder is None:
            names = fields
            builder = _LogBuilder(path, spec, names, max_records, read_before)
            continue
        if len(fields) != len(names):
            raise ComparisonLogError(
                f"{path}:{number}: {len(fields)} fields, expected {len(names)} "
                f"({' '.join(names)}); {COLUMN_ADVICE}"
            )
        builder.add(fields, number, f"{path}:{number}")
    if builder is None:
        raise ComparisonLogError(f"{path}: empty file (no header line, no rows)")
    return builder


def _read_parquet(path: Path, spec: LogSpec, max_records: int, read_before: int) -> _LogBuilder:
    import pyarrow.parquet as pq

    try:
        file = pq.ParquetFile(path)
        present = file.schema_arrow.names
        _missing_columns(path, present, spec)
        if read_before + file.metadata.num_rows > max_records:
            raise _too_many_records(path, max_records)
        table = file.read(columns=list(spec.columns))
    except (OSError, ValueError) as error:  # pyarrow raises ArrowInvalid, a ValueError
        if isinstance(error, ComparisonLogError):
            raise
        raise ComparisonLogError(f"{path}: cannot read as Parquet: {error}") from None
    columns = list(spec.columns)
    builder = _LogBuilder(path, spec, columns, max_records, read_before)
    values = [table.column(name).to_pylist() for name in columns]
    for row, fields in enumerate(zip(*values, strict=True), start=1):
        builder.where = f"{path}: row {row}"
        for name, value in zip(columns, fields, strict=True):
            if value is None or (isinstance(value, float) and math.isnan(value)):
                raise builder.fail(name, "value is missing")
        builder.add([str(value) for value in fields], row, f"{path}: row {row}")
    return builder


def _json_value(value: object) -> str | None:
    """A JSON value as a field: strings and numbers (not booleans), else ``None``."""
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return repr(value)
    return None


def _read_json(path: Path, spec: LogSpec, max_records: int, read_before: int) -> _LogBuilder:
    """A JSON array of objects, one comparison each (module docstring)."""
    try:
        records = json.loads("".join(text_lines(path, ComparisonLogError)))
    except (json.JSONDecodeError, RecursionError) as error:
        raise ComparisonLogError(f"{path}: cannot read as JSON: {error}") from None
    if not isinstance(records, list):
        raise ComparisonLogError(
            f"{path}: a JSON log is an array of objects, one comparison each, e.g. "
            f'[{{"winner": "a", "loser": "b"}}, ...]; the file holds a {type(records).__name__}'
        )
    if replace(spec, format="auto") == LogSpec():
        spec = JSON_SPEC
    optional = {JSON_SPEC.weight: "1"} if spec == JSON_SPEC else {}
    columns = list(spec.columns)
    builder = None
    for number, record in enumerate(records, start=1):
        where = f"{path}: entry {number}"
        if not isinstance(record, dict):
            raise ComparisonLogError(
                f"{where}: expected an object with keys {', '.join(map(repr, columns))}, got "
                f"a {type(record).__name__}"
            )
        if builder is None:
            _missing_columns(path, list(record), replace(spec, weight=None) if optional else spec)
            builder = _LogBuilder(path, spec, columns, max_records, read_before)
        fields = []
        for name in columns:
            value = record.get(name, optional.get(name))
            if name not in record and name not in optional:
                raise ComparisonLogError(f"{where}: no key {name!r}; {COLUMN_ADVICE}")
            text = _json_value(value)
            if text is None:
                raise ComparisonLogError(
                    f"{where}: key {name!r}: expected a string or a number, got {value!r}"
                )
            fields.append(text)
        builder.add(fields, number, where)
    if builder is None:
        raise ComparisonLogError(f"{path}: empty JSON array (no comparisons)")
    return builder


def _read_one(
    path: Path, spec: LogSpec, max_records: int, read_before: int = 0
) -> tuple[ComparisonLog, list[int], int]:
    """The log of one file, the rows each drop rule removed, and the rows before.

    ``read_before`` records of the files read before count towards ``max_records``.
    """
    problem = path_problem(path)
    if problem is not None:
        raise ComparisonLogError(f"{path}: {problem}")
    kind = table_format(path, spec.format)
    if kind == "parquet":
        builder = _read_parquet(path, spec, max_records, read_before)
    elif kind == "json":
        builder = _read_json(path, spec, max_records, read_before)
    elif kind == "whitespace":
        builder = _read_whitespace(path, spec, max_records, read_before)
    else:
        builder = _read_delimited(
            path, spec, "," if kind == "csv" else "\t", max_records, read_before
        )
    log = builder.log({"parquet": "row", "json": "entry"}.get(kind, "line"))
    return log, builder.dropped, builder.rows


def _warn_dropped(spec: LogSpec, dropped: list[int], rows: int, files: Sequence[Path]) -> None:
    where = str(files[0]) if len(files) == 1 else f"{len(files)} files"
    for (column, pattern), count in zip(spec.drop, dropped, strict=True):
        if count:
            warn(f"{where}: dropped {count} of {rows} rows whose {column!r} matches {pattern!r}")


def read_log(
    path: str | os.PathLike[str], spec: LogSpec | None = None, *, max_records: int = MAX_RECORDS
) -> ComparisonLog:
    """Read one comparison log file.

    Parameters
    ----------
    path : path-like
        The file (format from ``spec.format`` or the suffix).
    spec : LogSpec, optional
        Columns and outcome rule; default ``LogSpec()`` (columns ``first``, ``second``,
        ``outcome``).
    max_records : int, optional
        Refuse a file with more records than this.

    Returns
    -------
    ComparisonLog
        Items in order of first appearance; ``origin[row]`` is ``file:line`` of a record.

    Raises
    ------
    ComparisonLogError
        If the file is missing or unreadable, lacks a column, or a value is invalid; the
        message names the file, line (row for Parquet) and column.
    """
    spec = spec or LogSpec()
    log, dropped, rows = _read_one(Path(path), spec, max_records)
    _warn_dropped(spec, dropped, rows, [Path(path)])
    return log


def read_logs(
    paths: Sequence[str | os.PathLike[str]],
    spec: LogSpec | None = None,
    context_per_file: bool = False,
    *,
    max_records: int = MAX_RECORDS,
) -> ComparisonLog:
    """Read several log files with one spec and combine them (items merged by name).

    Parameters
    ----------
    paths : sequence of path-like
        The files, e.g. ``atp_matches_2010.csv`` ... ``atp_matches_2019.csv``.
    spec : LogSpec, optional
        As for :func:`read_log`.
    context_per_file : bool, optional
        Make each file its own context (named by the file name), instead of a context column.
    max_records : int, optional
        Refuse logs with more records than this, all files together.

    Returns
    -------
    ComparisonLog
    """
    if not paths:
        raise ComparisonLogError("no log files given")
    spec = spec or LogSpec()
    if context_per_file and spec.context is not None:
        raise ComparisonLogError(
            f"choose either a context column ({spec.context!r}) or a context per file"
        )
    files = [Path(path) for path in paths]
    logs, dropped, rows = [], [0] * len(spec.drop), 0
    for path in files:
        log, dropped_here, rows_here = _read_one(
            path, spec, max_records, sum(log.n_records for log in logs)
        )
        logs.append(log)
        dropped = [total + here for total, here in zip(dropped, dropped_here, strict=True)]
        rows += rows_here
    _warn_dropped(spec, dropped, rows, files)
    if context_per_file:
        logs = [with_file_context(log, path.name) for log, path in zip(logs, files, strict=True)]
    return concatenate_logs(logs)


def with_file_context(log: ComparisonLog, name: str) -> ComparisonLog:
    """``log`` with every record in the context ``name``."""
    return replace(log, context=np.full(log.n_records, name, dtype=object))
