"""What every workflow job does around its work: log to its rule's log, record run metadata.

The metadata stored beside each result holds nothing that changes between two runs of the
same environment, config and seed (no times, no host names: those go only into
``results/provenance.json``), so outputs stay byte-identical.
"""

from __future__ import annotations

import logging
import os
import platform
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any

from ..files import to_jsonable

__all__ = ["RECORDED_PACKAGES", "log_to_file", "package_versions", "run_metadata"]

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
