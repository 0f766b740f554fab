"""Reading comparison logs from CSV, Parquet and whitespace-separated text files.

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
``.tsv`` (tab-separated, header line), ``.parquet``/``.pq``, anything else whitespace-
separated text (blank lines and lines starting with ``#`` skipped). A text file without a
header line needs ``names``: the column names in order.

:data:`LOG_PRESETS` holds the specs of the public logs this project uses (``"atp"``,
``"trec-dl"``). Any problem with a file raises :class:`~.records.ComparisonLogError`
naming the file, the line (row for Parquet) and the column.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

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


def table_format(path: str | os.PathLike[str], requested: TableFormat = "auto") -> TableFormat:
    """The format of a log file: ``requested`` unless ``"auto"``, else from the suffix."""
    if requested != "auto":
        return requested
    suffix = Path(path).suffix.lower()
    return {".csv": "csv", ".tsv": "tsv", ".parquet": "parquet", ".pq": "parquet"}.get(
        suffix, "whitespace"
    )


class _Table:
    """The needed columns of a file as strings, with the line (or row) of every row."""

    def __init__(self, path: Path, frame: pd.DataFrame, positions: Any, kind: str) -> None:
        self.path, self.frame = path, frame
        self.origins = RecordOrigins.of_source(str(path), kind, positions)

    def fail(self, row: int, column: str, problem: str) -> ComparisonLogError:
        return ComparisonLogError(f"{self.origins[row]}: column {column!r}: {problem}")


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
        + (f". It looks like a log of a known kind: use {' or '.join(hints)}" if hints else "")
    )


def _read_delimited(path: Path, spec: LogSpec, delimiter: str) -> _Table:
    header = None if spec.names is not None else 0
    try:
        if spec.names is None:
            present = list(pd.read_csv(path, sep=delimiter, nrows=0, dtype=str).columns)
        else:
            present = list(spec.names)
        _missing_columns(path, present, spec)
        frame = pd.read_csv(
            path,
            sep=delimiter,
            header=header,
            names=list(spec.names) if spec.names is not None else None,
            usecols=list(spec.columns),
            dtype=str,
            keep_default_na=False,
            na_filter=False,
            skip_blank_lines=True,
            encoding="utf-8",
        )
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
        raise ComparisonLogError(
            f"{path}: cannot read as {_format_name(delimiter)}: {error}"
        ) from None
    lines = _delimited_lines(path, delimiter, header is not None, len(present), len(frame))
    if lines is None:  # pandas and the csv module disagree (unusual quoting): data rows
        return _Table(path, frame, np.arange(1, len(frame) + 1), "data row")
    return _Table(path, frame, lines, "line")


def _format_name(delimiter: str) -> str:
    return "CSV" if delimiter == "," else "tab-separated text"


def _delimited_lines(
    path: Path, delimiter: str, has_header: bool, width: int, rows: int
) -> list[int] | None:
    """The line of every data record (as the csv module counts), None if the count differs.

    Also checks that every record has ``width`` fields (pandas ignores extra fields when
    reading only some columns).
    """
    lines = []
    with open(path, encoding="utf-8", newline="") as stream:
        reader = csv.reader(stream, delimiter=delimiter)
        skip_header = has_header
        for record in reader:
            if not record or record == [""]:
                continue
            if len(record) != width:
                raise ComparisonLogError(
                    f"{path}:{reader.line_num}: {len(record)} fields, expected {width}"
                )
            if skip_header:
                skip_header = False
                continue
            lines.append(reader.line_num)
    return lines if len(lines) == rows else None


def _read_whitespace(path: Path, spec: LogSpec) -> _Table:
    names = list(spec.names) if spec.names is not None else None
    rows: list[list[str]] = []
    lines: list[int] = []
    try:
        with open(path, encoding="utf-8") as stream:
            for number, line in enumerate(stream, start=1):
                fields = line.split()
                if not fields or fields[0].startswith("#"):
                    continue
                if names is None:
                    names = fields
                    continue
                if len(fields) != len(names):
                    raise ComparisonLogError(
                        f"{path}:{number}: {len(fields)} fields, expected {len(names)} "
                        f"({' '.join(names)})"
                    )
                rows.append(fields)
                lines.append(number)
    except UnicodeDecodeError as error:
        raise ComparisonLogError(f"{path}: not UTF-8 text: {error}") from None
    if names is None:
        raise ComparisonLogError(f"{path}: empty file (no header line, no rows)")
    _missing_columns(path, names, spec)
    frame = pd.DataFrame(rows, columns=names, dtype=str) if rows else pd.DataFrame(columns=names)
    return _Table(path, frame[list(spec.columns)], lines, "line")


def _read_parquet(path: Path, spec: LogSpec) -> _Table:
    import pyarrow.parquet as pq

    try:
        present = pq.read_schema(path).names
    except (OSError, ValueError) as error:  # pyarrow raises ArrowInvalid, a ValueError
        raise ComparisonLogError(f"{path}: cannot read as Parquet: {error}") from None
    _missing_columns(path, present, spec)
    frame = pd.read_parquet(path, columns=list(spec.columns))
    table = _Table(path, frame, np.arange(1, len(frame) + 1), "row")
    for column in spec.columns:
        missing = frame[column].isna().to_numpy()
        if missing.any():
            raise table.fail(int(np.flatnonzero(missing)[0]), column, "value is missing")
    table.frame = frame.astype(str)
    return table


def _apply_drop_rules(table: _Table, spec: LogSpec) -> list[int]:
    """Drop the rows the rules match; return the number each rule dropped."""
    dropped = []
    for column, pattern in spec.drop:
        matches = table.frame[column].str.contains(pattern, regex=True).to_numpy()
        dropped.append(int(matches.sum()))
        if matches.any():
            keep = ~matches
            table.frame = table.frame[keep].reset_index(drop=True)
            table.origins = table.origins.take(keep)
    return dropped


def _warn_dropped(spec: LogSpec, dropped: list[int], rows: int, files: Sequence[Path]) -> None:
    where = str(files[0]) if len(files) == 1 else f"{len(files)} files"
    for (column, pattern), count in zip(spec.drop, dropped, strict=True):
        if count:
            warn(f"{where}: dropped {count} of {rows} rows whose {column!r} matches {pattern!r}")


def _item_names(table: _Table, column: str) -> np.ndarray:
    names = table.frame[column].str.strip().to_numpy(dtype=object)
    empty = np.flatnonzero(names == "")
    if empty.size:
        raise table.fail(int(empty[0]), column, "item name is empty")
    return names


def _outcomes(table: _Table, spec: LogSpec, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    n = len(first)
    if spec.outcome_from == "first_wins":
        return np.full(n, FIRST_WINS, dtype=np.int8)
    ties = {outcome_token(v) for v in spec.tie_values}
    if spec.outcome_from == "winner":
        winner = table.frame[spec.winner].str.strip().to_numpy(dtype=object)
        outcome = np.where(winner == first, FIRST_WINS, SECOND_WINS).astype(np.int8)
        neither = np.flatnonzero((winner != first) & (winner != second))
        is_tie = np.array([outcome_token(value) in ties for value in winner[neither]], dtype=bool)
        outcome[neither[is_tie]] = TIE
        if neither.size > is_tie.sum():
            row = int(neither[~is_tie][0])
            raise table.fail(
                row,
                spec.winner,
                f"winner {winner[row]!r} is neither the first item {first[row]!r} nor the "
                f"second {second[row]!r}"
                + (f" nor a tie value ({', '.join(spec.tie_values)})" if spec.tie_values else ""),
            )
        return outcome
    codes = {outcome_token(v): FIRST_WINS for v in spec.first_values}
    codes |= {outcome_token(v): SECOND_WINS for v in spec.second_values}
    codes |= {outcome_token(v): TIE for v in spec.tie_values}
    raw = table.frame[spec.outcome].to_numpy(dtype=object)
    tokens = pd.Series(raw).map(outcome_token)
    mapped = tokens.map(codes)
    unknown = np.flatnonzero(mapped.isna().to_numpy())
    if unknown.size:
        row = int(unknown[0])
        raise table.fail(
            row,
            spec.outcome,
            f"outcome {raw[row]!r} is not one of {', '.join(spec.first_values)} (first wins), "
            f"{', '.join(spec.second_values)} (second wins), {', '.join(spec.tie_values)} (tie)",
        )
    return mapped.to_numpy(dtype=np.int8)


def _weights(table: _Table, column: str | None) -> np.ndarray:
    n = len(table.frame)
    if column is None:
        return np.ones(n)
    values = pd.to_numeric(table.frame[column].str.strip(), errors="coerce").to_numpy(float)
    bad = np.flatnonzero(~(np.isfinite(values) & (values > 0)))
    if bad.size:
        row = int(bad[0])
        raise table.fail(
            row,
            column,
            f"weight {table.frame[column].iloc[row]!r} is not a positive number (a weight is "
            "the number of identical comparisons the row stands for)",
        )
    return values


def _read_table(path: Path, spec: LogSpec) -> _Table:
    if not path.is_file():
        raise ComparisonLogError(f"{path}: no such file")
    kind = table_format(path, spec.format)
    if kind == "parquet":
        return _read_parquet(path, spec)
    if kind == "whitespace":
        return _read_whitespace(path, spec)
    return _read_delimited(path, spec, "," if kind == "csv" else "\t")


def read_log(path: str | os.PathLike[str], spec: LogSpec | None = None) -> ComparisonLog:
    """Read one comparison log file.

    Parameters
    ----------
    path : path-like
        The file (format from ``spec.format`` or the suffix).
    spec : LogSpec, optional
        Columns and outcome rule; default ``LogSpec()`` (columns ``first``, ``second``,
        ``outcome``).

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
    log, dropped, rows = _read_one(Path(path), spec)
    _warn_dropped(spec, dropped, rows, [Path(path)])
    return log


def _read_one(path: Path, spec: LogSpec) -> tuple[ComparisonLog, list[int], int]:
    """The log of one file, the rows each drop rule removed, and the rows before."""
    table = _read_table(path, spec)
    rows = len(table.frame)
    dropped = _apply_drop_rules(table, spec)
    first = _item_names(table, spec.first)
    second = _item_names(table, spec.second)
    outcome = _outcomes(table, spec, first, second)
    weight = _weights(table, spec.weight)
    # Items in order of first appearance: factorize the names row by row, first then second.
    codes, names = pd.factorize(np.stack([first, second], axis=1).ravel())
    context = None
    if spec.context is not None:
        context = table.frame[spec.context].str.strip().to_numpy(dtype=object)
        empty = np.flatnonzero(context == "")
        if empty.size:
            raise table.fail(int(empty[0]), spec.context, "context is empty")
    group = None
    if spec.group is not None:
        group = pd.factorize(table.frame[spec.group].str.strip())[0].astype(np.int64)
    log = ComparisonLog(
        items=tuple(str(name) for name in names),
        first=codes[0::2].astype(np.int64),
        second=codes[1::2].astype(np.int64),
        outcome=outcome,
        weight=weight,
        context=context,
        group=group,
        origin=table.origins,
    )
    return log, dropped, rows


def read_logs(
    paths: Sequence[str | os.PathLike[str]],
    spec: LogSpec | None = None,
    context_per_file: bool = False,
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
        log, dropped_here, rows_here = _read_one(path, spec)
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
