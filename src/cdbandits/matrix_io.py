"""Reading a user's preference matrix from CSV or whitespace text, ``.npy`` or ``.npz``.

The format comes from the suffix:

* ``.npy``: one 2-D array of integers or floating-point numbers, as ``numpy.save`` writes it.
* ``.npz``: the array under ``key``; without a key, the only array in the file, or ``PMat``
  (the name used by the published MSLR matrices).
* anything else (``.csv``, ``.txt``, ``.dat``, ...): text, one matrix row per line, read by
  the rules below.

Text rules:

* UTF-8, with or without a byte-order mark; line ends ``\\n``, ``\\r\\n`` or ``\\r``.
  Blank lines and lines starting with ``#`` are skipped.
* Entries are separated by ``;`` if the first row holding ``;`` or ``,`` holds ``;``, else
  by ``,`` if it holds ``,``, else by whitespace (as ``numpy.savetxt`` writes the MergeDTS
  files). With ``;`` a decimal comma (``0,5``) is read as a decimal point. With ``;`` or
  ``,``: spaces around entries are ignored and a single trailing separator at the end of a
  line is ignored; an empty entry elsewhere is an error.
* Entries are decimal numbers (``0.5``, ``-1``, ``.25``, ``5e-3``), each possibly in double
  quotes (``"0.5"``); NaN and infinity are rejected.
* At most one line before the matrix is skipped: a header, the first line if none of its
  fields is a number (arm names; fields split at ``;`` and ``,`` if the line holds either,
  else at whitespace); or a size line, the first line if it holds only an integer K >= 1 and
  exactly K rows follow (the Double Thompson Sampling files). Any other line that is not a
  row of numbers is an error naming it, so a mistyped first row is never skipped.

A matrix of more than ``max_arms`` arms (default :data:`~cdbandits.limits.MAX_ITEMS`) is
refused before it is read: the shape in an ``.npy`` header (inside an ``.npz`` archive too,
before the member is inflated) is checked first, and a text file too large for such a
matrix is not read. Every error is a :class:`MatrixFileError` whose message names the file
and the line (text) or entry (arrays) and says what was expected. The reader only parses;
validation of the preference-matrix conventions is :func:`cdbandits.preference.as_skew`.
"""

from __future__ import annotations

import math
import os
import re
import zipfile
from pathlib import Path
from typing import BinaryIO

import numpy as np
from numpy.typing import NDArray

from .input_files import decode_text, path_problem, split_lines
from .limits import MAX_ITEMS, format_bytes, matrix_bytes

__all__ = ["MatrixFileError", "load_matrix"]

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
_NON_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.ASCII | re.IGNORECASE)
_DECIMAL_COMMA = re.compile(r"([+-]?\d+),(\d+(?:[eE][+-]?\d+)?)", re.ASCII)
_NOT_PLAIN = re.compile(r"[^0-9eE+\-., \t]")
_SIZE = re.compile(r"\d+", re.ASCII)
_NPY_MAGIC = b"\x93NUMPY"
_ZIP_MAGIC = b"PK\x03\x04"
#: Bytes a text entry takes at most on average (a float64 written with all its digits).
_TEXT_ENTRY_BYTES = 32


class MatrixFileError(ValueError):
    """A matrix file cannot be read; the message names the file and the line or entry."""


def load_matrix(
    path: str | os.PathLike[str], key: str | None = None, *, max_arms: int = MAX_ITEMS
) -> NDArray[np.float64]:
    """Read a square matrix of finite numbers from a file (format from the suffix).

    See the module docstring for the formats and the text rules.

    Parameters
    ----------
    path : path-like
        The file.
    key : str, optional
        Array name inside an ``.npz`` file.
    max_arms : int, optional
        Refuse larger matrices (checked before the data are read).

    Returns
    -------
    ndarray of float64, shape (K, K), 1 <= K <= max_arms

    Raises
    ------
    MatrixFileError
        If the file is missing, not a regular file or unreadable, cannot be parsed, holds
        no unambiguous array, holds something other than a square matrix of finite real
        numbers, or a larger one than ``max_arms``; the message names the file and the line
        or entry.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if key is not None and suffix != ".npz":
        raise MatrixFileError(f"{path}: a key only applies to .npz files")
    problem = path_problem(path)
    if problem is not None:
        raise MatrixFileError(f"{path}: {problem}")
    try:
        with open(path, "rb") as stream:
            if suffix == ".npy":
                size = os.fstat(stream.fileno()).st_size
                return _square(_read_npy(stream, size, str(path), max_arms), str(path))
            if suffix == ".npz":
                return _read_npz(stream, path, key, max_arms)
            size = os.fstat(stream.fileno()).st_size
            if size > _TEXT_ENTRY_BYTES * max_arms * (max_arms + 1) + 65536:
                raise MatrixFileError(
                    f"{path}: {format_bytes(size)} of text is more than a matrix of at most "
                    f"{max_arms} arms takes (the limit; --max-items raises it)"
                )
            data = stream.read()
    except OSError as error:
        raise MatrixFileError(f"{path}: cannot read the file: {error.strerror}") from None
    matrix = _read_text(data, str(path))
    if matrix.shape[0] > max_arms:
        raise _too_large(str(path), matrix.shape, max_arms)
    return matrix


def _too_large(where: str, shape: tuple[int, ...], max_arms: int) -> MatrixFileError:
    k = shape[0]
    return MatrixFileError(
        f"{where}: a {k} x {k} matrix has more than {max_arms} arm{'s' if max_arms > 1 else ''}, "
        "the limit; its winners "
        f"would need about {format_bytes(matrix_bytes(k))} of memory (--max-items {k} "
        "raises the limit)"
    )


def _square(matrix: NDArray[np.float64], where: str) -> NDArray[np.float64]:
    """Check an array read from a binary file: finite entries (the shape is checked before)."""
    bad = np.argwhere(~np.isfinite(matrix))
    if bad.size:
        i, j = bad[0]
        raise MatrixFileError(
            f"{where}: entry ({i}, {j}) is {matrix[i, j]}; every entry must be a finite number"
        )
    return matrix


def _check_shape(shape: tuple[int, ...], where: str, max_arms: int) -> None:
    if len(shape) != 2 or shape[0] != shape[1] or shape[0] == 0:
        raise MatrixFileError(
            f"{where}: expected a square K x K matrix with K >= 1, got shape {shape}"
        )
    if shape[0] > max_arms:
        raise _too_large(where, shape, max_arms)


def _read_npy(stream: BinaryIO, size: int, where: str, max_arms: int) -> NDArray[np.float64]:
    """Parse a ``.npy`` stream of ``size`` bytes; real numeric dtypes, ``max_arms`` at most."""
    start = stream.read(8)
    if not start:
        raise MatrixFileError(f"{where}: is empty; expected a .npy file (as numpy.save writes)")
    if start.startswith(_ZIP_MAGIC):
        raise MatrixFileError(f"{where}: is a zip archive (an .npz file?), not a .npy file")
    if not start.startswith(_NPY_MAGIC[: len(start)]) or len(start) < len(_NPY_MAGIC):
        if start.startswith(_NPY_MAGIC[: len(start)]):
            raise MatrixFileError(f"{where}: corrupt .npy file: it ends inside the signature")
        raise MatrixFileError(
            f"{where}: is not a .npy file: it does not start with the .npy signature "
            "'\\x93NUMPY' that numpy.save writes"
        )
    if len(start) < 8:
        raise MatrixFileError(f"{where}: corrupt .npy file: it ends inside the signature")
    version = (start[6], start[7])
    if version not in ((1, 0), (2, 0)):
        raise MatrixFileError(
            f"{where}: .npy format version {version[0]}.{version[1]} is not supported "
            "(numpy.save writes 1.0 or 2.0 for numeric arrays)"
        )
    reader = (
        np.lib.format.read_array_header_1_0
        if version == (1, 0)
        else np.lib.format.read_array_header_2_0
    )
    try:
        shape, fortran_order, dtype = reader(stream)
    # numpy parses the header with its own literal evaluator and dtype constructor, which
    # raise several exception types on corrupt input; each means "unreadable header".
    except Exception as error:  # noqa: BLE001
        raise MatrixFileError(f"{where}: corrupt .npy header: {error}") from None
    if dtype.hasobject or dtype.kind not in "iuf" or dtype.subdtype is not None:
        raise MatrixFileError(
            f"{where}: holds {_dtype_description(dtype)}; expected a matrix of real numbers "
            "(integer or floating point)"
        )
    if any(not isinstance(size, int) or size < 0 for size in shape):
        raise MatrixFileError(f"{where}: corrupt .npy header: shape {shape}")
    _check_shape(shape, where, max_arms)
    expected = math.prod(shape) * dtype.itemsize
    found = size - stream.tell()
    if found != expected:
        raise MatrixFileError(
            f"{where}: the header announces a {dtype} array of shape {shape} ({expected} "
            f"bytes of data), but {found} bytes follow it; the file is truncated or corrupt"
        )
    data = stream.read(expected)
    if len(data) != expected:
        raise MatrixFileError(f"{where}: the data end after {len(data)} of {expected} bytes")
    flat = np.frombuffer(data, dtype=dtype, count=math.prod(shape))
    return flat.reshape(shape, order="F" if fortran_order else "C").astype(np.float64)


def _dtype_description(dtype: np.dtype) -> str:
    if dtype.hasobject:
        return "Python objects (dtype object, only readable with pickle)"
    names = {"c": "complex numbers", "b": "booleans", "U": "strings", "S": "byte strings"}
    return f"{names.get(dtype.kind, 'non-numeric data')} (dtype {dtype})"


def _read_npz(stream: BinaryIO, path: Path, key: str | None, max_arms: int) -> NDArray[np.float64]:
    """Parse an ``.npz`` file (a zip archive of ``.npy`` members); check a shape first."""
    expected = "expected a .npz file (a zip archive of .npy files, as numpy.savez writes)"
    if not stream.read(1):
        raise MatrixFileError(f"{path}: is empty; {expected}")
    if not zipfile.is_zipfile(stream):
        raise MatrixFileError(f"{path}: is not a zip archive; {expected}")
    # zipfile raises many exception types on a corrupt archive (BadZipFile, zlib.error,
    # EOFError, NotImplementedError, ...); each means the archive cannot be read.
    try:
        archive = zipfile.ZipFile(stream)
        members = {
            info.filename[: -len(".npy")]: info
            for info in archive.infolist()
            if info.filename.endswith(".npy") and not info.is_dir()
        }
    except Exception as error:  # noqa: BLE001
        raise MatrixFileError(f"{path}: corrupt zip archive: {error}") from None
    names = ", ".join(repr(name) for name in members) or "none"
    if key is None:
        if len(members) == 1:
            key = next(iter(members))
        elif "PMat" in members:
            key = "PMat"
        elif not members:
            raise MatrixFileError(f"{path}: holds no arrays (no .npy members); {expected}")
        else:
            raise MatrixFileError(f"{path}: holds several arrays ({names}); choose one with a key")
    if key not in members:
        raise MatrixFileError(f"{path}: no array named {key!r}; it holds {names}")
    where = f"{path}, array {key!r}"
    try:
        with archive.open(members[key]) as member:
            matrix = _read_npy(member, members[key].file_size, where, max_arms)
    except MatrixFileError:
        raise
    except Exception as error:  # noqa: BLE001
        raise MatrixFileError(f"{where}: cannot be extracted: {error}") from None
    return _square(matrix, where)


def _read_text(data: bytes, path: str) -> NDArray[np.float64]:
    """Parse a text matrix by the rules of the module docstring."""
    lines = [
        (number, line.strip())
        for number, line in enumerate(
            split_lines(decode_text(data, path, MatrixFileError)), start=1
        )
        if line.strip() and not line.strip().startswith("#")
    ]
    if not lines:
        raise MatrixFileError(
            f"{path}: no matrix rows found (the file is empty or holds only blank lines and "
            "'#' comments)"
        )
    note = ""  # says which line was skipped, or why the first line was not
    if not any(_is_number(field) for field in _header_fields(lines[0][1])):
        note = f" (line {lines[0][0]} was skipped as a header: none of its fields is a number)"
        lines = lines[1:]
        if not lines:
            raise MatrixFileError(f"{path}: no matrix rows after the header{note}")
    separator = _separator(line for _, line in lines)
    rows = [_parse_row(line, separator, f"{path}:{number}") for number, line in lines]
    numbers = [number for number, _ in lines]
    first = _fields(lines[0][1], separator, f"{path}:{numbers[0]}")[0]
    if not note and len(rows[0]) == 1 and _SIZE.fullmatch(first) and int(first) >= 1:
        if int(first) == len(rows) - 1:
            note = f" (line {numbers[0]} was skipped as the size line)"
            rows, numbers = rows[1:], numbers[1:]
        else:
            note = (
                f" (line {numbers[0]} holds only {first}, but {len(rows) - 1} rows follow, "
                "so it is not read as the size line)"
            )
    width = len(rows[0])
    for row, number in zip(rows, numbers, strict=True):
        if len(row) != width:
            raise MatrixFileError(
                f"{path}:{number}: row has {len(row)} entries, but the row on line "
                f"{numbers[0]} has {width}{note}"
            )
    if len(rows) != width:
        if not note and len(rows) == width + 1:
            note = (
                f" (if line {numbers[0]} is a header of column names, remove it or make every "
                "field non-numeric)"
            )
        raise MatrixFileError(
            f"{path}: expected a square K x K matrix, got {len(rows)} rows of {width} entries{note}"
        )
    return np.array(rows, dtype=np.float64)


def _header_fields(line: str) -> list[str]:
    """Fields of a candidate header: split at ``;`` and ``,`` if it holds either, else at spaces."""
    fields = re.split("[;,]", line) if ";" in line or "," in line else line.split()
    return [field.strip().strip("\"'") for field in fields]


def _is_number(field: str) -> bool:
    return bool(_NUMBER.fullmatch(field) or _NON_FINITE.fullmatch(field))


def _separator(lines) -> str | None:
    """``;`` or ``,`` from the first line holding either (``;`` first), else whitespace."""
    for line in lines:
        if ";" in line:
            return ";"
        if "," in line:
            return ","
    return None


def _split(line: str, separator: str, where: str) -> list[str]:
    """Split a line at ``separator``; a field may be quoted, as in ``"0.5"``."""
    if '"' not in line:
        return [field.strip() for field in line.split(separator)]
    field_pattern = re.compile(
        rf'\s*(?:"(?P<quoted>[^"]*)"|(?P<plain>[^"{separator}]*?))\s*(?P<end>{separator}|$)'
    )
    fields, position = [], 0
    while True:
        match = field_pattern.match(line, position)
        if match is None:
            raise MatrixFileError(
                f"{where}: misplaced or unbalanced quote '\"' after column {position}; a "
                f'quoted entry must be whole, as in "0.5"'
            )
        fields.append(match["quoted"] if match["quoted"] is not None else match["plain"])
        position = match.end()
        if not match["end"]:
            return fields


def _unquote(field: str, where: str) -> str:
    """A whitespace-separated field without its quotes, as in ``"0.5"``."""
    if '"' not in field:
        return field
    if len(field) > 1 and field[0] == field[-1] == '"' and '"' not in field[1:-1]:
        return field[1:-1]
    raise MatrixFileError(
        f"{where}: misplaced or unbalanced quote '\"' in {field!r}; a quoted entry must be "
        'whole, as in "0.5"'
    )


def _parse_row(line: str, separator: str | None, where: str) -> list[float]:
    """The values of one line; ``where`` names the file and line."""
    # Fast path for plain numbers: on these characters, float() accepts exactly _NUMBER
    # (no underscores, no nan or inf, no non-ASCII digits). Anything else, including the
    # ';' dialect with its decimal commas, is read field by field, which names a bad entry.
    if separator != ";" and not _NOT_PLAIN.search(line):
        fields = line.split(separator)
        if separator is not None and len(fields) > 1 and not fields[-1].strip():
            fields.pop()  # one trailing separator
        try:
            values = list(map(float, fields))
        except ValueError:
            values = None
        if values is not None and all(map(math.isfinite, values)):
            return values
    return [
        _entry(field, separator, f"{where}: entry {column}")
        for column, field in enumerate(_fields(line, separator, where), start=1)
    ]


def _fields(line: str, separator: str | None, where: str) -> list[str]:
    """The fields of one line, without quotes and without one trailing separator."""
    if separator is None:
        return [_unquote(field, where) for field in line.split()]
    fields = _split(line, separator, where)
    if len(fields) > 1 and not fields[-1]:
        fields.pop()
    return fields


def _entry(field: str, separator: str | None, where: str) -> float:
    """The value of one field; ``where`` names the file, line and entry."""
    decimal_comma = _DECIMAL_COMMA.fullmatch(field)
    text = f"{decimal_comma[1]}.{decimal_comma[2]}" if decimal_comma and separator == ";" else field
    if _NUMBER.fullmatch(text):
        value = float(text)
        if not math.isfinite(value):
            raise MatrixFileError(f"{where} is {field!r}, too large for a floating-point number")
        return value
    if not field:
        raise MatrixFileError(f"{where} is empty; expected a number")
    if _NON_FINITE.fullmatch(field):
        raise MatrixFileError(f"{where} is {field!r}; every entry must be a finite number")
    found = "whitespace" if separator is None else repr(separator)
    hint = " (a decimal comma is read only when entries are separated by ';')"
    raise MatrixFileError(
        f"{where} is {field!r}, which is not a number; entries are separated by {found} in "
        f"this file{hint if decimal_comma else ''}"
    )
