"""What the command line writes: a report on standard output, messages on standard error.

* :func:`write_report` writes the whole report and flushes it, so that a write error is seen
  (a full disk, a closed standard output) and becomes one line on standard error and exit
  status 2. A reader that closed the pipe early (``cdbandits ... | head -1``) ends the
  command quietly with status 1, as the Python documentation advises for ``SIGPIPE``.
* :func:`finite_json` replaces every NaN or infinity of a report by ``null`` and lists where,
  so the JSON output is standard JSON (which has neither).
* :func:`say` prints one line on standard error, if there is one.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Mapping
from typing import Any

__all__ = ["EXIT_CLOSED_PIPE", "EXIT_INVALID", "finite_json", "json_text", "say", "write_report"]

#: Exit status of invalid input or arguments, and of a report that could not be written.
EXIT_INVALID = 2

#: Exit status when the reader of standard output closed it (the report was not wanted).
EXIT_CLOSED_PIPE = 1


def say(prog: str, message: str) -> None:
    """Print ``prog: message`` on standard error (nothing if standard error is closed)."""
    if sys.stderr is not None:
        try:
            print(f"{prog}: {message}", file=sys.stderr, flush=True)
        except OSError:
            pass


def write_report(prog: str, text: str) -> int:
    """Write ``text`` and a line end to standard output; return the exit status.

    Returns
    -------
    int
        0 when written, :data:`EXIT_CLOSED_PIPE` when the reader closed the pipe,
        :data:`EXIT_INVALID` (with a message on standard error) on any other write error
        or when standard output is closed.
    """
    stream = sys.stdout
    if stream is None:
        say(prog, "standard output is closed; the report cannot be written")
        return EXIT_INVALID
    try:
        stream.write(text + "\n")
        stream.flush()
    except BrokenPipeError:
        _discard(stream)
        return EXIT_CLOSED_PIPE
    except OSError as error:
        _discard(stream)
        say(prog, f"cannot write the report to standard output: {error.strerror or error}")
        return EXIT_INVALID
    return 0


def _discard(stream: Any) -> None:
    """Point standard output at /dev/null, so the exit does not fail flushing what is left."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
    except (OSError, ValueError, AttributeError):  # not a file descriptor: nothing to flush
        pass


def finite_json(value: Any, path: str = "") -> tuple[Any, list[str]]:
    """``value`` with every NaN or infinite float replaced by ``None``, and where they were.

    Returns
    -------
    (value, paths)
        ``paths`` names each replaced entry as ``results[0].rankings[2].borda_score``.
    """
    if isinstance(value, float) and not math.isfinite(value):
        return None, [f"{path or '(top)'} ({value})"]
    if isinstance(value, Mapping):
        result, found = {}, []
        for key, item in value.items():
            result[key], here = finite_json(item, f"{path}.{key}" if path else str(key))
            found += here
        return result, found
    if isinstance(value, list | tuple):
        items, found = [], []
        for index, item in enumerate(value):
            clean, here = finite_json(item, f"{path}[{index}]")
            items.append(clean)
            found += here
        return items, found
    return value, []


def json_text(value: Any) -> str:
    """Indented standard JSON (``allow_nan=False``: pass values through :func:`finite_json`)."""
    return json.dumps(value, indent=2, allow_nan=False)
