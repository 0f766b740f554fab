"""Provenance of a workflow run: what ran, on what, from which code, with which config.

The workflow writes ``results/provenance.json`` once, from Snakemake's ``onsuccess``
handler, after a run that built something has finished. No rule depends on it, so a new
commit or a new start time never makes a rule rerun, and the result files themselves stay
byte-identical between runs (they hold no times or host names; see
:mod:`cdbandits.files`). The record holds:

* ``started_at`` / ``finished_at``: UTC times (ISO 8601) of reading the workflow and of
  the end of the run;
* ``command``: the command line that started the run;
* ``git``: the commit of the checkout and whether tracked files differed from it;
* ``config`` and ``config_sha256``: the validated config (schema defaults filled in) and
  the sha256 of its canonical JSON form, which does not depend on key order;
* ``seeds``: every config entry whose key names a seed, by its dotted path;
* ``packages``: every installed distribution and its version, and ``lock_sha256`` of the
  pinned lock the environment was built from;
* ``machine``: host name, operating system, CPU architecture and count, memory, Python.

Beside it, ``results/run_time.md`` states the run's wall-clock time in one sentence
(:func:`run_time_markdown`), for README.md's generated block.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any

from ..files import to_jsonable, write_json, write_text

__all__ = [
    "build_provenance",
    "canonical_config_json",
    "config_sha256",
    "file_sha256",
    "find_seeds",
    "git_state",
    "installed_packages",
    "machine_info",
    "run_time_markdown",
    "utc_now",
    "write_provenance",
]


def utc_now() -> str:
    """The current UTC time as an ISO 8601 string to the second (``2015-07-03T12:00:00Z``)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def canonical_config_json(config: Mapping[str, Any]) -> str:
    """The config as compact JSON with sorted keys: equal configs give equal text.

    Parameters
    ----------
    config : mapping
        A workflow config (nested mappings, lists, numbers, strings, None).

    Raises
    ------
    TypeError
        If a value cannot be represented in JSON.
    """
    return json.dumps(
        to_jsonable(dict(config)), sort_keys=True, separators=(",", ":"), allow_nan=False
    )


def config_sha256(config: Mapping[str, Any]) -> str:
    """sha256 (hex) of :func:`canonical_config_json`; independent of key order."""
    return hashlib.sha256(canonical_config_json(config).encode("utf-8")).hexdigest()


def find_seeds(config: Mapping[str, Any]) -> dict[str, Any]:
    """Every config entry whose key names a seed (``seed``, ``seeds``, ``*_seed(s)``).

    Parameters
    ----------
    config : mapping
        A nested workflow config.

    Returns
    -------
    dict
        Dotted path of each such entry (``"online.seeds"``) to its value, in sorted order.
    """
    found: dict[str, Any] = {}

    def visit(node: Mapping[str, Any], prefix: str) -> None:
        for key, value in node.items():
            path = f"{prefix}{key}"
            if str(key).lower().rstrip("s").endswith("seed"):
                found[path] = to_jsonable(value)
            elif isinstance(value, Mapping):
                visit(value, f"{path}.")

    visit(config, "")
    return dict(sorted(found.items()))


def _git(repository: Path, *arguments: str) -> str:
    """Output of a read-only git command in ``repository`` (never takes the index lock)."""
    completed = subprocess.run(
        ["git", "-C", str(repository), *arguments],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
    )
    return completed.stdout.strip()


def git_state(repository: str | os.PathLike[str]) -> dict[str, Any]:
    """The commit checked out in ``repository`` and whether tracked files were modified.

    Parameters
    ----------
    repository : path-like
        A folder inside a git working tree (the workflow's source folder).

    Returns
    -------
    dict
        ``commit`` (40 hex digits) and ``dirty`` (True when a tracked file differs from the
        commit; untracked files do not count). When the folder is not in a git working tree
        or git is missing, both are None and ``unavailable`` says why: a run from an
        unpacked archive is still recorded, with its reason.
    """
    folder = Path(repository)
    try:
        commit = _git(folder, "rev-parse", "--verify", "HEAD")
        changes = _git(folder, "status", "--porcelain", "--untracked-files=no")
    except FileNotFoundError:
        return {"commit": None, "dirty": None, "unavailable": "git is not installed"}
    except subprocess.CalledProcessError as error:
        reason = error.stderr.strip() or f"git exited with status {error.returncode}"
        return {"commit": None, "dirty": None, "unavailable": reason}
    return {"commit": commit, "dirty": bool(changes)}


def installed_packages() -> dict[str, str]:
    """Every installed distribution's version, by lower-case name, sorted by name."""
    versions = {
        distribution.metadata["Name"].lower(): distribution.version
        for distribution in importlib_metadata.distributions()
        if distribution.metadata["Name"]
    }
    return dict(sorted(versions.items()))


def _physical_memory_bytes() -> int | None:
    """Total physical memory, where the operating system reports it (POSIX)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def machine_info() -> dict[str, Any]:
    """The machine the run's main process ran on (jobs on a cluster may run elsewhere)."""
    return {
        "hostname": platform.node(),
        "system": platform.system(),
        "release": platform.release(),
        "platform": platform.platform(),
        "architecture": platform.machine(),
        "cpu_count": os.cpu_count(),
        "memory_bytes": _physical_memory_bytes(),
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "python_executable": sys.executable,
    }


def file_sha256(path: str | os.PathLike[str]) -> str | None:
    """sha256 (hex) of a file's bytes, or None when the file does not exist."""
    file = Path(path)
    if not file.is_file():
        return None
    return hashlib.sha256(file.read_bytes()).hexdigest()


def build_provenance(
    config: Mapping[str, Any],
    started_at: str,
    finished_at: str,
    repository: str | os.PathLike[str],
    command: Sequence[str],
) -> dict[str, Any]:
    """The provenance record of one run (see the module docstring for its fields).

    Parameters
    ----------
    config : mapping
        The validated workflow config.
    started_at, finished_at : str
        UTC times of the run's start and end (:func:`utc_now`).
    repository : path-like
        The workflow's source folder (the checkout holding ``Snakefile`` and
        ``envs/requirements.lock``).
    command : sequence of str
        The command line that started the run.
    """
    source = Path(repository)
    return {
        "started_at": started_at,
        "finished_at": finished_at,
        "command": list(command),
        "working_directory": os.getcwd(),
        "git": git_state(source),
        "config": to_jsonable(dict(config)),
        "config_sha256": config_sha256(config),
        "seeds": find_seeds(config),
        "packages": installed_packages(),
        "lock_sha256": file_sha256(source / "envs" / "requirements.lock"),
        "machine": machine_info(),
    }


def run_time_markdown(record: Mapping[str, Any]) -> str:
    """One sentence on a provenance record's wall-clock time, command and machine.

    Parameters
    ----------
    record : mapping
        A record of :func:`build_provenance`.

    Returns
    -------
    str
        Markdown ending in a newline, e.g. ``"The run took 21.4 minutes (...) ..."``.
    """
    started = datetime.fromisoformat(record["started_at"])
    finished = datetime.fromisoformat(record["finished_at"])
    minutes = (finished - started).total_seconds() / 60
    machine = record["machine"]
    memory = machine.get("memory_bytes")
    memory_text = f", {memory / 2**30:.0f} GiB" if memory else ""
    command = " ".join([Path(record["command"][0]).name, *record["command"][1:]])
    return (
        f"The run took {minutes:.1f} minutes (`{command}`, from {record['started_at']} to "
        f"{record['finished_at']}, on {machine['cpu_count']} CPUs{memory_text}; the commit "
        f"and the config are in `results/provenance.json`).\n"
    )


def write_provenance(
    path: str | os.PathLike[str],
    config: Mapping[str, Any],
    started_at: str,
    repository: str | os.PathLike[str],
    command: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Write the provenance record of a run that is finishing now to ``path`` (JSON), and
    :func:`run_time_markdown` to ``run_time.md`` beside it.

    Parameters
    ----------
    path : path-like
        Destination, written atomically (``results/provenance.json`` in the workflow).
    config : mapping
        The validated workflow config.
    started_at : str
        UTC start time of the run (:func:`utc_now` when the workflow was read).
    repository : path-like
        The workflow's source folder.
    command : sequence of str, optional
        The command line; defaults to ``sys.argv``.

    Returns
    -------
    dict
        The record written.
    """
    record = build_provenance(
        config,
        started_at=started_at,
        finished_at=utc_now(),
        repository=repository,
        command=sys.argv if command is None else command,
    )
    write_json(path, record)
    write_text(Path(path).with_name("run_time.md"), run_time_markdown(record))
    return record
