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

Every error is a :class:`MatrixFileError` whose message names the file and the line (text)
or entry (arrays) and says what was expected. The reader only parses; validation of the
preference-matrix conventions is :func:`cdbandits.preference.as_skew`.
"""

from __future__ import annotations

import io
import math
import os
import re
import zipfile
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

__all__ = ["MatrixFileError", "load_matrix"]

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
_NON_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.ASCII | re.IGNORECASE)
_DECIMAL_COMMA = re.compile(r"([+-]?\d+),(\d+(?:[eE][+-]?\d+)?)", re.ASCII)
_NOT_PLAIN = re.compile(r"[^0-9eE+\-., \t]")
_SIZE = re.compile(r"\d+", re.ASCII)
_NPY_MAGIC = b"\x93NUMPY"
_ZIP_MAGIC = b"PK\x03\x04"


class MatrixFileError(ValueError):
    """A matrix file cannot be read; the message names the file and the line or entry."""


def load_matrix(path: str | os.PathLike[str], key: str | None = None) -> NDArray[np.float64]:
    """Read a square matrix of finite numbers from a file (format from the suffix).

    See the module docstring for the formats and the text rules.

    Parameters
    ----------
    path : path-like
        The file.
    key : str, optional
        Array name inside an ``.npz`` file.

    Returns
    -------
    ndarray of float64, shape (K, K), K >= 1

    Raises
    ------
    MatrixFileError
        If the file is missing, not a regular file or unreadable, cannot be parsed, holds
        no unambiguous array, or holds something other than a square matrix of finite
        real numbers; the message names the file and the line or entry.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if key is not None and suffix != ".npz":
        raise MatrixFileError(f"{path}: a key only applies to .npz files")
    data = _read_bytes(path)
    if suffix == ".npy":
        return _square(_read_npy(data, str(path)), str(path))
    if suffix == ".npz":
        return _read_npz(data, path, key)
    return _read_text(data, str(path))


def _read_bytes(path: Path) -> bytes:
    if path.is_dir():
        raise MatrixFileError(f"{path}: is a directory; expected a matrix file")
    if not path.exists():
        raise MatrixFileError(f"{path}: no such file")
    if not path.is_file():
        raise MatrixFileError(f"{path}: is not a regular file; expected a matrix file")
    try:
        return path.read_bytes()
    except OSError as error:
        raise MatrixFileError(f"{path}: cannot read the file: {error.strerror}") from None


def _square(matrix: NDArray[np.float64], where: str) -> NDArray[np.float64]:
    """Check an array read from a binary file: square, K >= 1, finite."""
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] == 0:
        raise MatrixFileError(
            f"{where}: expected a square K x K matrix with K >= 1, got shape {matrix.shape}"
        )
    bad = np.argwhere(~np.isfinite(matrix))
    if bad.size:
        i, j = bad[0]
        raise MatrixFileError(
            f"{where}: entry ({i}, {j}) is {matrix[i, j]}; every entry must be a finite number"
        )
    return matrix


def _read_npy(data: bytes, where: str) -> NDArray[np.float64]:
    """Parse the bytes of a ``.npy`` file; only real numeric dtypes are read."""
    if not data:
        raise MatrixFileError(f"{where}: is empty; expected a .npy file (as numpy.save writes)")
    if data.startswith(_ZIP_MAGIC):
        raise MatrixFileError(f"{where}: is a zip archive (an .npz file?), not a .npy file")
    if not data.startswith(_NPY_MAGIC):
        raise MatrixFileError(
            f"{where}: is not a .npy file: it does not start with the .npy signature "
            "'\\x93NUMPY' that numpy.save writes"
        )
    if len(data) < 8:
        raise MatrixFileError(f"{where}: corrupt .npy file: it ends inside the signature")
    stream = io.BytesIO(data)
    version = (data[6], data[7])
    stream.seek(8)
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
    expected = math.prod(shape) * dtype.itemsize
    found = len(data) - stream.tell()
    if found != expected:
        raise MatrixFileError(
            f"{where}: the header announces a {dtype} array of shape {shape} ({expected} "
            f"bytes of data), but {found} bytes follow it; the file is truncated or corrupt"
        )
    flat = np.frombuffer(data, dtype=dtype, offset=stream.tell(), count=math.prod(shape))
    return flat.reshape(shape, order="F" if fortran_order else "C").astype(np.float64)


def _dtype_description(dtype: np.dtype) -> str:
    if dtype.hasobject:
        return "Python objects (dtype object, only readable with pickle)"
    names = {"c": "complex numbers", "b": "booleans", "U": "strings", "S": "byte strings"}
    return f"{names.get(dtype.kind, 'non-numeric data')} (dtype {dtype})"


def _read_npz(data: bytes, path: Path, key: str | None) -> NDArray[np.float64]:
    """Parse the bytes of an ``.npz`` file (a zip archive of ``.npy`` members)."""
    expected = "expected a .npz file (a zip archive of .npy files, as numpy.savez writes)"
    if not data:
        raise MatrixFileError(f"{path}: is empty; {expected}")
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise MatrixFileError(f"{path}: is not a zip archive; {expected}")
    # zipfile raises many exception types on a corrupt archive (BadZipFile, zlib.error,
    # EOFError, NotImplementedError, ...); each means the archive cannot be read.
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
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
        content = archive.read(members[key])
    except Exception as error:  # noqa: BLE001
        raise MatrixFileError(f"{where}: cannot be extracted: {error}") from None
    return _square(_read_npy(content, where), where)


def _read_text(data: bytes, path: str) -> NDArray[np.float64]:
    """Parse a text matrix by the rules of the module docstring."""
    lines = [
        (number, line.strip())
        for number, line in enumerate(_lines(_decode(data, path)), start=1)
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


def _lines(text: str) -> list[str]:
    """The lines of ``text``, split at ``\\n``, ``\\r\\n`` and ``\\r`` only."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _decode(data: bytes, path: str) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise MatrixFileError(
            f"{path}: is UTF-16 text (it starts with a UTF-16 BOM); save it as UTF-8"
        )
    nul = data.find(b"\0")
    if nul >= 0:
        line = len(_lines(data[:nul].decode("latin-1")))
        raise MatrixFileError(
            f"{path}:{line}: holds a NUL byte; this is a binary file, expected text"
        )
    body = data.removeprefix(b"\xef\xbb\xbf")  # the UTF-8 byte-order mark
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as error:
        lines = _lines(body[: error.start].decode("utf-8"))
        line, column = len(lines), len(lines[-1]) + 1
        raise MatrixFileError(
            f"{path}:{line}: byte 0x{body[error.start]:02X} at column {column} is not UTF-8; "
            "save the file as UTF-8 (comments included)"
        ) from None


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
