"""Reading LETOR / SVMlight files into compact arrays, streaming, with an npz cache.

A LETOR line is ``label qid:Q i1:v1 i2:v2 ... [# comment]`` with 1-based feature indices in
increasing order (MSLR lists all 136, SVMlight files may omit zero features). The reader
parses raw bytes block by block with a compiled parser, so a gigabyte file never becomes one
Python object per value; only the result arrays are held in memory.

Errors are loud: a malformed line raises :class:`LetorFormatError` whose message names the
file, the line number (1-based), the column and the line's text. A query whose lines are not
contiguous (its qid reappears after another qid) is an error too.

**Truncated last query.** An excerpt made of the first lines of a LETOR file (such as the
5,000-line MSLR sample of ``rankeval``) usually cuts its last query: the query keeps only
some of its documents. Nothing inside the file tells, so the caller says what to do with
``last_query``:

* ``"complete"`` (default): the file is a whole LETOR file; every query is kept as is.
* ``"drop"``: the file is an excerpt; its last query is removed (a warning names it and
  how many lines were dropped).
* ``"flag"``: the file is an excerpt; its last query is kept but listed in
  :attr:`LetorData.truncated_qids` (and a warning names it), so that later steps can tell.

A file whose final line has no line break and does not parse is reported as malformed with a
hint that the file may have been cut mid-line.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from ..files import atomic_path
from .line_parser import ERRORS, EXACT_POWERS, NEWLINE, parse_block

__all__ = [
    "LastQueryPolicy",
    "LetorData",
    "LetorFormatError",
    "concatenate",
    "read_letor",
    "read_letor_files",
]

logger = logging.getLogger(__name__)

LastQueryPolicy = Literal["complete", "drop", "flag"]

#: Bytes read per block; a block holds whole lines (a line longer than this is still read).
DEFAULT_BLOCK_BYTES = 1 << 25

_CACHE_FORMAT_VERSION = 1


class LetorFormatError(ValueError):
    """A LETOR file has a malformed line or inconsistent query blocks."""


@dataclass(frozen=True)
class LetorData:
    """Documents of a LETOR data set, grouped by query.

    Attributes
    ----------
    features : ndarray, shape (n_documents, n_features)
        Feature values; column ``k`` is LETOR feature ``k + 1``. Features a line omits are 0.
    labels : ndarray of int8, shape (n_documents,)
        Relevance grades.
    qids : ndarray of int64, shape (n_queries,)
        Query ids, in file order.
    query_offsets : ndarray of int64, shape (n_queries + 1,)
        The documents of query ``q`` are rows ``query_offsets[q]:query_offsets[q + 1]``.
    truncated_qids : ndarray of int64
        Queries known to be incomplete (last query of an excerpt read with ``"flag"``).
    sources : tuple of str
        Names of the files read.
    """

    features: NDArray[np.float64]
    labels: NDArray[np.int8]
    qids: NDArray[np.int64]
    query_offsets: NDArray[np.int64]
    truncated_qids: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    sources: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        n_docs = self.features.shape[0]
        if self.labels.shape != (n_docs,):
            raise ValueError(
                f"labels have shape {self.labels.shape}, features {self.features.shape}; "
                "one label per document row is needed"
            )
        offsets = self.query_offsets
        if (
            offsets.shape != (self.qids.size + 1,)
            or offsets[0] != 0
            or offsets[-1] != n_docs
            or np.any(np.diff(offsets) < 1)
        ):
            raise ValueError(
                "query_offsets must start at 0, end at the number of documents "
                f"({n_docs}), increase strictly and have one entry more than qids "
                f"({self.qids.size}); got {offsets!r}"
            )

    @property
    def n_queries(self) -> int:
        """Number of queries."""
        return int(self.qids.size)

    @property
    def n_documents(self) -> int:
        """Number of documents (lines)."""
        return int(self.features.shape[0])

    @property
    def n_features(self) -> int:
        """Number of feature columns."""
        return int(self.features.shape[1])

    @property
    def documents_per_query(self) -> NDArray[np.int64]:
        """Number of documents of each query."""
        return np.diff(self.query_offsets)

    @property
    def truncated(self) -> NDArray[np.bool_]:
        """Mask over queries: True for those listed in :attr:`truncated_qids`."""
        return np.isin(self.qids, self.truncated_qids)

    def query_slice(self, query: int) -> slice:
        """Rows of the ``query``-th query (0-based position, not qid)."""
        return slice(int(self.query_offsets[query]), int(self.query_offsets[query + 1]))

    def query_means(self) -> NDArray[np.float64]:
        """Mean feature vector of each query's documents, shape (n_queries, n_features)."""
        sums = np.add.reduceat(self.features, self.query_offsets[:-1], axis=0)
        return sums / self.documents_per_query[:, None]

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write to an uncompressed ``.npz`` (atomically); read back with :meth:`load`."""
        with atomic_path(path) as temporary, open(temporary, "wb") as stream:
            np.savez(
                stream,
                format_version=np.int64(_CACHE_FORMAT_VERSION),
                features=self.features,
                labels=self.labels,
                qids=self.qids,
                query_offsets=self.query_offsets,
                truncated_qids=self.truncated_qids,
                sources=np.array(self.sources, dtype=np.str_),
            )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> LetorData:
        """Read a file written by :meth:`save`."""
        with np.load(path, allow_pickle=False) as archive:
            version = int(archive["format_version"]) if "format_version" in archive else None
            if version != _CACHE_FORMAT_VERSION:
                raise ValueError(
                    f"{path} is not a LETOR cache of format version {_CACHE_FORMAT_VERSION} "
                    f"(found {version}); delete it to have it rebuilt"
                )
            return cls(
                features=archive["features"],
                labels=archive["labels"],
                qids=archive["qids"],
                query_offsets=archive["query_offsets"],
                truncated_qids=archive["truncated_qids"],
                sources=tuple(str(name) for name in archive["sources"]),
            )


def _line_text(buffer: NDArray[np.uint8], line: int) -> str:
    starts = np.concatenate(([0], np.flatnonzero(buffer == NEWLINE) + 1))
    start = int(starts[line])
    stop = int(starts[line + 1]) - 1 if line + 1 < starts.size else buffer.size
    text = bytes(buffer[start:stop]).decode("utf-8", errors="replace").rstrip("\r")
    return text if len(text) <= 120 else text[:117] + "..."


def _raise_parse_error(
    path: Path, buffer: NDArray[np.uint8], first_line: int, code: int, line: int, column: int
) -> None:
    text = _line_text(buffer, line)
    hint = ""
    if buffer.size and buffer[-1] != NEWLINE and line == int(np.count_nonzero(buffer == NEWLINE)):
        hint = " (this is the last line and has no line break: the file may have been cut)"
    raise LetorFormatError(
        f"{path}:{first_line + line + 1}: malformed LETOR line, {ERRORS[code]} "
        f"(column {column + 1}){hint}: {text!r}"
    )


def _blocks(path: Path, block_bytes: int):
    """Yield (block of whole lines as uint8, number of lines before it) from ``path``."""
    lines_before = 0
    carry = b""
    with open(path, "rb") as stream:
        while True:
            chunk = stream.read(block_bytes)
            if not chunk:
                break
            data = carry + chunk
            cut = data.rfind(b"\n")
            if cut < 0:
                carry = data
                continue
            carry = data[cut + 1 :]
            block = np.frombuffer(data, dtype=np.uint8, count=cut + 1)
            yield block, lines_before
            lines_before += int(np.count_nonzero(block == NEWLINE))
    if carry:
        yield np.frombuffer(carry, dtype=np.uint8), lines_before


def _check_contiguous(path: Path, qids: NDArray[np.int64], lines: NDArray[np.int64]) -> None:
    starts = np.concatenate(([0], np.flatnonzero(np.diff(qids) != 0) + 1))
    block_qids = qids[starts]
    unique, counts = np.unique(block_qids, return_counts=True)
    if np.any(counts > 1):
        repeated = unique[counts > 1]
        second = min(int(np.flatnonzero(block_qids == qid)[1]) for qid in repeated)
        qid = int(block_qids[second])
        first_seen = int(lines[starts[np.flatnonzero(block_qids == qid)[0]]]) + 1
        raise LetorFormatError(
            f"{path}:{int(lines[starts[second]]) + 1}: qid {qid} appears again after other "
            f"queries (first seen on line {first_seen}); the lines of a query must be contiguous"
        )


def read_letor(
    path: str | os.PathLike[str],
    *,
    n_features: int = 136,
    last_query: LastQueryPolicy = "complete",
    block_bytes: int = DEFAULT_BLOCK_BYTES,
) -> LetorData:
    """Read one LETOR / SVMlight file.

    Parameters
    ----------
    path : path-like
        The file (plain text).
    n_features : int, optional
        Number of feature columns; an index above it is an error.
    last_query : {"complete", "drop", "flag"}, optional
        What to do with the last query, see the module docstring.
    block_bytes : int, optional
        Bytes read per block.

    Returns
    -------
    LetorData

    Raises
    ------
    LetorFormatError
        On a malformed line (the message names file, line and column), a query whose lines
        are not contiguous, or a file without any document line.
    """
    path = Path(path)
    if last_query not in ("complete", "drop", "flag"):
        raise ValueError(f"last_query must be 'complete', 'drop' or 'flag', got {last_query!r}")
    parts: list[tuple[NDArray, NDArray, NDArray, NDArray]] = []
    for block, lines_before in _blocks(path, block_bytes):
        capacity = int(np.count_nonzero(block == NEWLINE)) + 1
        labels = np.empty(capacity, dtype=np.int8)
        qids = np.empty(capacity, dtype=np.int64)
        features = np.empty((capacity, n_features), dtype=np.float64)
        row_lines = np.empty(capacity, dtype=np.int64)
        rows, _, code, line, column = parse_block(
            block, n_features, labels, qids, features, row_lines, EXACT_POWERS
        )
        if code:
            _raise_parse_error(path, block, lines_before, code, line, column)
        parts.append((labels[:rows], qids[:rows], features[:rows], row_lines[:rows] + lines_before))
    if not parts or sum(part[0].size for part in parts) == 0:
        raise LetorFormatError(f"{path}: no document lines (expected 'label qid:Q i:v ...')")
    labels = np.concatenate([part[0] for part in parts])
    row_qids = np.concatenate([part[1] for part in parts])
    features = np.concatenate([part[2] for part in parts]) if len(parts) > 1 else parts[0][2]
    lines = np.concatenate([part[3] for part in parts])
    _check_contiguous(path, row_qids, lines)

    starts = np.concatenate(([0], np.flatnonzero(np.diff(row_qids) != 0) + 1))
    offsets = np.append(starts, row_qids.size).astype(np.int64)
    qids = row_qids[starts].astype(np.int64)
    truncated = np.zeros(0, dtype=np.int64)
    if last_query != "complete":
        last_qid, last_lines = int(qids[-1]), int(offsets[-1] - offsets[-2])
        if last_query == "drop":
            if qids.size == 1:
                raise LetorFormatError(
                    f"{path}: dropping the truncated last query (qid {last_qid}) would leave "
                    "no query"
                )
            logger.warning(
                "%s: dropped the last query, qid %d (%d lines), as the file is an excerpt",
                path,
                last_qid,
                last_lines,
            )
            keep = int(offsets[-2])
            labels, features = labels[:keep], features[:keep]
            qids, offsets = qids[:-1], offsets[:-1]
        else:
            logger.warning(
                "%s: the last query, qid %d (%d lines), may be truncated; kept and flagged",
                path,
                last_qid,
                last_lines,
            )
            truncated = np.array([last_qid], dtype=np.int64)
    data = LetorData(
        features=features,
        labels=labels,
        qids=qids,
        query_offsets=offsets,
        truncated_qids=truncated,
        sources=(path.name,),
    )
    logger.info(
        "%s: %d queries, %d documents, %d features",
        path,
        data.n_queries,
        data.n_documents,
        n_features,
    )
    return data


def concatenate(parts: Sequence[LetorData]) -> LetorData:
    """Join data sets read from several files (their qids must not overlap).

    Raises
    ------
    ValueError
        If ``parts`` is empty, the feature counts differ or a qid occurs in two parts.
    """
    if not parts:
        raise ValueError("nothing to concatenate")
    widths = {part.n_features for part in parts}
    if len(widths) != 1:
        raise ValueError(f"the parts have different numbers of features: {sorted(widths)}")
    qids = np.concatenate([part.qids for part in parts])
    unique, counts = np.unique(qids, return_counts=True)
    if np.any(counts > 1):
        raise ValueError(
            f"qid {int(unique[counts > 1][0])} occurs in more than one of "
            f"{[name for part in parts for name in part.sources]}"
        )
    shifts = np.cumsum([0] + [part.n_documents for part in parts[:-1]])
    offsets = np.concatenate(
        [[0]] + [part.query_offsets[1:] + shift for part, shift in zip(parts, shifts, strict=True)]
    ).astype(np.int64)
    return LetorData(
        features=np.concatenate([part.features for part in parts]),
        labels=np.concatenate([part.labels for part in parts]),
        qids=qids,
        query_offsets=offsets,
        truncated_qids=np.concatenate([part.truncated_qids for part in parts]),
        sources=tuple(name for part in parts for name in part.sources),
    )


def read_letor_files(
    paths: Sequence[str | os.PathLike[str]],
    *,
    n_features: int = 136,
    last_query: LastQueryPolicy = "complete",
    cache: str | os.PathLike[str] | None = None,
) -> LetorData:
    """Read several LETOR files into one data set, through an optional npz cache.

    Parameters
    ----------
    paths : sequence of path-like
        The files, read in order; ``last_query`` applies to each of them.
    n_features : int, optional
        Number of feature columns.
    last_query : {"complete", "drop", "flag"}, optional
        See the module docstring.
    cache : path-like, optional
        An ``.npz`` written by :meth:`LetorData.save`. It is used when it exists and is
        newer than every file in ``paths``; otherwise the files are read and it is written.

    Returns
    -------
    LetorData
    """
    sources = [Path(path) for path in paths]
    if cache is not None:
        cache = Path(cache)
        newest = max(source.stat().st_mtime for source in sources)
        if cache.is_file() and cache.stat().st_mtime >= newest:
            data = LetorData.load(cache)
            if data.sources == tuple(source.name for source in sources):
                logger.info("read %d queries from the cache %s", data.n_queries, cache)
                return data
    data = concatenate(
        [read_letor(source, n_features=n_features, last_query=last_query) for source in sources]
    )
    if cache is not None:
        data.save(cache)
    return data
