"""Opening the files a user names: what is wrong with a path, and text that must be UTF-8.

The readers of matrices (:mod:`cdbandits.matrix_io`), comparison logs
(:mod:`cdbandits.comparisons.logs`) and PrefLib elections (:mod:`cdbandits.comparisons.preflib`)
share these rules, each raising its own error type with the message built here:

* :func:`path_problem` names what a path is when it is not a readable regular file: missing,
  a directory, a device, a named pipe, a socket, a symbolic link loop or a broken link, a
  path through something that is not a directory, or a file without read permission;
* :func:`open_text` opens a text file as UTF-8, with or without a byte-order mark; a UTF-16
  or UTF-32 byte-order mark is refused at once, and :func:`decoding_problem` turns a decoding
  error into the line and byte that are not UTF-8, with the hint to convert the file;
* :func:`text_lines` reads such a file line by line, refusing NUL bytes (binary files);
* :func:`decode_text` does the same for bytes already read.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

__all__ = [
    "CONVERT_HINT",
    "decode_text",
    "decoding_problem",
    "open_text",
    "path_problem",
    "split_lines",
    "text_lines",
]

#: How to turn a file in another encoding into UTF-8.
CONVERT_HINT = (
    "save the file as UTF-8 (e.g. iconv -f cp1252 -t utf-8 FILE > NEW_FILE, with the file's "
    "own encoding for cp1252)"
)

_UTF16_OR_32 = {
    codecs.BOM_UTF32_LE: "UTF-32",
    codecs.BOM_UTF32_BE: "UTF-32",
    codecs.BOM_UTF16_LE: "UTF-16",
    codecs.BOM_UTF16_BE: "UTF-16",
}


def path_problem(path: str | os.PathLike[str]) -> str | None:
    """What keeps ``path`` from being read as a regular file, or ``None`` if nothing does.

    The answer completes ``f"{path}: {answer}"``: ``"no such file"``, ``"is a directory;
    expected a file"``, ``"is a device, not a file"``, ``"is a named pipe (FIFO), not a
    regular file; save its content to a file first"``, ``"is a socket, not a file"``,
    ``"is a symbolic link loop"``, ``"is a broken symbolic link (to ...)"``, ``"a part of the
    path is not a directory"`` or ``"permission denied (cannot read it)"``.
    """
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "is a symbolic link loop"
        if error.errno == errno.ENOTDIR:
            return "a part of the path is not a directory"
        if error.errno == errno.EACCES:
            return "permission denied (cannot reach it)"
        if error.errno == errno.ENAMETOOLONG:
            return "the name is too long"
        if os.path.islink(path):
            return f"is a broken symbolic link (to {os.readlink(path)})"
        if error.errno == errno.ENOENT:
            return "no such file"
        return f"cannot be read: {error.strerror}"
    if stat.S_ISDIR(mode):
        return "is a directory; expected a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a regular file; save its content to a file first"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a file"
    if not stat.S_ISREG(mode):
        return "is not a regular file"
    if not os.access(path, os.R_OK):
        return "permission denied (cannot read it)"
    return None


def _unicode_bom(start: bytes) -> str | None:
    for mark, name in _UTF16_OR_32.items():
        if start.startswith(mark):
            return name
    return None


def open_text(path: str | os.PathLike[str], error: type[Exception]) -> TextIO:
    """Open a regular file as UTF-8 text (a byte-order mark is skipped), line ends as they are.

    Raises
    ------
    error
        With :func:`path_problem`'s message, or when the file starts with a UTF-16 or
        UTF-32 byte-order mark.
    """
    problem = path_problem(path)
    if problem is not None:
        raise error(f"{path}: {problem}")
    try:
        with open(path, "rb") as stream:
            encoding = _unicode_bom(stream.read(4))
        if encoding is not None:
            raise error(
                f"{path}: is {encoding} text (it starts with a {encoding} byte-order mark); "
                f"{CONVERT_HINT}"
            )
        return open(path, encoding="utf-8-sig", newline="")
    except OSError as failure:
        raise error(f"{path}: cannot be read: {failure.strerror}") from None


def decoding_problem(path: str | os.PathLike[str]) -> str:
    """``"PATH:LINE: byte 0xE9 at column C is not UTF-8; ..."`` for a file that failed to decode.

    Reads the file again as bytes, line by line, to find the first bytes that are not UTF-8.
    """
    with open(path, "rb") as stream:
        for number, line in enumerate(stream, start=1):
            if number == 1:
                line = line.removeprefix(codecs.BOM_UTF8)
            try:
                line.decode("utf-8")
            except UnicodeDecodeError as failure:
                column = len(line[: failure.start].decode("utf-8")) + 1
                return (
                    f"{path}:{number}: byte 0x{line[failure.start]:02X} at column {column} is "
                    f"not UTF-8; {CONVERT_HINT}"
                )
    return f"{path}: is not UTF-8 text; {CONVERT_HINT}"


def text_lines(path: str | os.PathLike[str], error: type[Exception]) -> Iterator[str]:
    """The lines of a UTF-8 text file (:func:`open_text`), with their line ends.

    Raises
    ------
    error
        As :func:`open_text`, and naming the line of a NUL byte or of bytes that are not
        UTF-8 (:func:`decoding_problem`).
    """
    stream = open_text(path, error)
    try:
        with stream:
            for number, line in enumerate(stream, start=1):
                if "\0" in line:
                    raise error(
                        f"{path}:{number}: holds a NUL byte; this is a binary file, expected text"
                    )
                yield line
    except UnicodeDecodeError:
        raise error(decoding_problem(path)) from None
    except OSError as failure:
        raise error(f"{path}: cannot be read: {failure.strerror}") from None


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, split at ``\\n``, ``\\r\\n`` and ``\\r`` only."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def decode_text(data: bytes, where: str, error: type[Exception]) -> str:
    """Bytes of a text file as a string: UTF-8, with or without a byte-order mark.

    Raises
    ------
    error
        Naming ``where`` and the line: a UTF-16 or UTF-32 byte-order mark, a NUL byte (a
        binary file) or bytes that are not UTF-8 (with the byte and the hint to convert).
    """
    encoding = _unicode_bom(data[:4])
    if encoding is not None:
        raise error(
            f"{where}: is {encoding} text (it starts with a {encoding} byte-order mark); "
            f"{CONVERT_HINT}"
        )
    nul = data.find(b"\0")
    if nul >= 0:
        line = len(split_lines(data[:nul].decode("latin-1")))
        raise error(f"{where}:{line}: holds a NUL byte; this is a binary file, expected text")
    body = data.removeprefix(codecs.BOM_UTF8)
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as failure:
        lines = split_lines(body[: failure.start].decode("utf-8"))
        line, column = len(lines), len(lines[-1]) + 1
        raise error(
            f"{where}:{line}: byte 0x{body[failure.start]:02X} at column {column} is not UTF-8; "
            f"{CONVERT_HINT}"
        ) from None
