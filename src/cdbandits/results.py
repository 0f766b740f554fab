"""Writing results: atomic tables, JSON with run metadata, deterministic figures, logs.

Every output of the workflow goes through these functions so that

* nothing is half-written: a file appears under its final name only once complete;
* the same config and seed give the same bytes: JSON keys are sorted, figures carry no
  creation dates, and metadata holds no timestamps or host names (those go only into
  ``results/provenance.json``).
"""

from __future__ import annotations

import json
import logging
import os
import platform
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "RECORDED_PACKAGES",
    "atomic_path",
    "log_to_file",
    "package_versions",
    "run_metadata",
    "save_figure",
    "to_jsonable",
    "write_csv",
    "write_json",
    "write_text",
]

#: Packages whose versions are recorded in every metadata file.
RECORDED_PACKAGES = (
    "cdbandits",
    "numpy",
    "scipy",
    "cvxpy",
    "clarabel",
    "highspy",
    "numba",
    "pandas",
    "pyarrow",
    "matplotlib",
    "scikit-learn",
    "snakemake",
)


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it to ``path`` on success.

    On an exception the temporary file is removed and ``path`` is left untouched.

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
        os.replace(temporary, final)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically (UTF-8)."""
    with atomic_path(path) as temporary:
        temporary.write_text(text, encoding="utf-8")


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


def package_versions(packages: tuple[str, ...] = RECORDED_PACKAGES) -> dict[str, str | None]:
    """Installed versions of ``packages`` (``None`` for a package that is not installed)."""
    versions: dict[str, str | None] = {}
    for name in packages:
        try:
            versions[name] = importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def run_metadata(
    config: Mapping[str, Any] | None = None, seeds: Any = None, **extra: Any
) -> dict[str, Any]:
    """Metadata to store beside a result: versions, Python, the config and seeds.

    Contains nothing that changes between two runs of the same environment, config and seed
    (no times, no host names), so outputs stay byte-identical.
    """
    return {
        "python": platform.python_version(),
        "packages": package_versions(),
        "config": to_jsonable(dict(config or {})),
        "seeds": to_jsonable(seeds),
        **to_jsonable(extra),
    }


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


@contextmanager
def log_to_file(path: str | os.PathLike[str] | None) -> Iterator[logging.Logger]:
    """Send the ``cdbandits`` logger (INFO and up) to ``path`` for the duration of a block.

    Workflow scripts wrap their work in this so each rule's ``log:`` file tells what it did;
    an exception is logged with its traceback before it propagates.
    """
    logger = logging.getLogger("cdbandits")
    handler: logging.Handler
    if path is None:
        handler = logging.StreamHandler()
    else:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(path, mode="w", encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    previous_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield logger
    except BaseException:
        logger.exception("failed")
        raise
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous_level)
        handler.close()
