"""Writing files: atomic text, tables and JSON, deterministic figures.

Every file the library and the workflow write goes through these functions so that

* nothing is half-written: a file appears under its final name only once complete;
* the same config and seed give the same bytes: JSON keys are sorted and figures carry no
  creation dates.

Run metadata and rule logs are in :mod:`cdbandits.workflow.jobs`.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "atomic_path",
    "copy_file",
    "save_figure",
    "to_jsonable",
    "write_csv",
    "write_json",
    "write_text",
]


def _process_umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it to ``path`` on success.

    On an exception the temporary file is removed and ``path`` is left untouched. The final
    file gets the permissions of a newly created file (``0o666`` less the umask), not the
    private ``0o600`` of a temporary file, so others can read results on a shared system.

    Parameters
    ----------
    path : path-like
        Final destination. Its parent directory is created if missing.
    """
    final = Path(path)
    final.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{final.name}.", dir=final.parent)
    os.close(handle)
    try:
        yield Path(temporary)
        os.chmod(temporary, 0o666 & ~_process_umask())
        os.replace(temporary, final)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically (UTF-8)."""
    with atomic_path(path) as temporary:
        temporary.write_text(text, encoding="utf-8")


def copy_file(source: str | os.PathLike[str], destination: str | os.PathLike[str]) -> None:
    """Copy ``source``'s bytes to ``destination`` atomically."""
    with atomic_path(destination) as temporary:
        shutil.copyfile(source, temporary)


def to_jsonable(value: Any) -> Any:
    """Convert numpy scalars and arrays, paths, tuples and mappings into plain JSON values."""
    if isinstance(value, Mapping):
        return {str(key): to_jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value) if isinstance(value, set | frozenset) else value
        return [to_jsonable(item) for item in items]
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return value


def write_json(path: str | os.PathLike[str], payload: Any) -> None:
    """Write ``payload`` as indented JSON with sorted keys, atomically."""
    text = json.dumps(to_jsonable(payload), indent=2, sort_keys=True, allow_nan=False)
    write_text(path, text + "\n")


def write_csv(path: str | os.PathLike[str], table: Any, **to_csv_options: Any) -> None:
    """Write a pandas DataFrame as CSV atomically (no index unless asked for).

    Floats are written with ``repr`` precision, so a table read back is bit-identical.
    """
    options = {"index": False, "lineterminator": "\n"} | to_csv_options
    with atomic_path(path) as temporary:
        table.to_csv(temporary, **options)


def save_figure(figure: Any, *paths: str | os.PathLike[str]) -> None:
    """Save a matplotlib figure to each path (format from the suffix), atomically.

    Creation dates and software tags are left out so that reruns give identical bytes.
    """
    for path in paths:
        suffix = Path(path).suffix.lower().lstrip(".")
        if suffix == "pdf":
            meta: dict[str, Any] = {"CreationDate": None, "ModDate": None, "Producer": None}
        else:
            meta = {"Software": None}
        with atomic_path(path) as temporary:
            figure.savefig(temporary, format=suffix, metadata=meta, bbox_inches="tight")
