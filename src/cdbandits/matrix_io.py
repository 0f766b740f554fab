"""Reading a user's preference matrix from CSV, whitespace text, ``.npy`` or ``.npz``.

* ``.npy``: one 2-D array.
* ``.npz``: the array under ``key``; without a key, the only array in the file, or ``PMat``
  (the name used by the published MSLR matrices).
* ``.csv``: comma-separated numbers, one row per line; a first line of non-numbers is read
  as a header of arm names and skipped.
* anything else (``.txt``, ``.dat``, ...): whitespace-separated numbers as written by
  ``numpy.savetxt`` (the MergeDTS files). A first line holding only the integer K followed
  by K rows (the Double Thompson Sampling files) is read as a size header.

Blank lines and lines starting with ``#`` are skipped. The reader only parses; validation
of the preference-matrix conventions is :func:`cdbandits.preference.as_skew`.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

__all__ = ["MatrixFileError", "load_matrix"]


class MatrixFileError(ValueError):
    """A matrix file cannot be read; the message names the file and line."""


def _parse_text(path: Path, delimiter: str | None) -> NDArray[np.float64]:
    rows: list[list[float]] = []
    line_numbers: list[int] = []
    with open(path, encoding="utf-8") as stream:
        for number, line in enumerate(stream, start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            fields = [field.strip() for field in text.split(delimiter)]
            try:
                rows.append([float(field) for field in fields])
            except ValueError:
                if delimiter == "," and not rows:
                    continue  # header of arm names
                bad = next(field for field in fields if not _is_number(field))
                raise MatrixFileError(f"{path}:{number}: cannot read {bad!r} as a number") from None
            line_numbers.append(number)
    if not rows:
        raise MatrixFileError(f"{path}: no numeric rows found")
    if len(rows[0]) == 1 and rows[0][0].is_integer() and int(rows[0][0]) == len(rows) - 1:
        rows, line_numbers = rows[1:], line_numbers[1:]
    width = len(rows[0])
    for row, number in zip(rows, line_numbers, strict=True):
        if len(row) != width:
            raise MatrixFileError(
                f"{path}:{number}: row has {len(row)} entries, but the first row has {width}"
            )
    return np.array(rows, dtype=np.float64)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def load_matrix(path: str | os.PathLike[str], key: str | None = None) -> NDArray[np.float64]:
    """Read a square matrix from a file (format from the suffix, see the module docstring).

    Parameters
    ----------
    path : path-like
        The file.
    key : str, optional
        Array name inside an ``.npz`` file.

    Returns
    -------
    ndarray of float64, shape (K, K)

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    MatrixFileError
        If the file cannot be parsed, holds no unambiguous array, or the array is not
        square; the message names the file (and line for text files).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if key is not None and suffix != ".npz":
        raise MatrixFileError(f"{path}: --key only applies to .npz files")
    if suffix == ".npy":
        matrix = np.load(path, allow_pickle=False)
    elif suffix == ".npz":
        with np.load(path, allow_pickle=False) as archive:
            names = list(archive.files)
            if key is None:
                if len(names) == 1:
                    key = names[0]
                elif "PMat" in names:
                    key = "PMat"
                else:
                    raise MatrixFileError(
                        f"{path}: holds several arrays ({', '.join(names)}); choose one with a key"
                    )
            if key not in names:
                raise MatrixFileError(
                    f"{path}: no array named {key!r}; it holds {', '.join(names)}"
                )
            matrix = archive[key]
    elif suffix == ".csv":
        matrix = _parse_text(path, ",")
    else:
        matrix = _parse_text(path, None)
    matrix = np.asarray(matrix)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise MatrixFileError(f"{path}: expected a square K x K matrix, got shape {matrix.shape}")
    if not np.issubdtype(matrix.dtype, np.number):
        raise MatrixFileError(f"{path}: expected numbers, got dtype {matrix.dtype}")
    return matrix.astype(np.float64)
