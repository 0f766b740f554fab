"""Public data files: where each comes from, its checksum, and fetching it.

Every file is identified by a key in :data:`DATA_FILES` giving its public source (a raw
file at a pinned commit, or an official archive), its sha256 and its place in a *mirror*:
a local folder holding verified copies (for machines without network, tests and CI).
:func:`fetch` looks in the mirror first, downloads otherwise, verifies the checksum either
way, and fails with a message naming the file and how to provide it. Data files are never
part of the repository.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from .results import atomic_path

__all__ = [
    "DATA_FILES",
    "DataFile",
    "DataUnavailableError",
    "fetch",
    "mirror_candidates",
    "sha256_of",
]

logger = logging.getLogger(__name__)

_CHUNK = 1 << 20


class DataUnavailableError(RuntimeError):
    """A data file could be neither found in the mirror nor downloaded and verified."""


@dataclass(frozen=True)
class DataFile:
    """One public data file.

    Attributes
    ----------
    key : str
        Identifier used in the workflow (``results/data/<key>/<filename>``).
    url : str
        Public source, pinned (a commit or a fixed archive).
    sha256 : str
        Checksum of the file's bytes.
    mirror_path : str
        Path of the file inside a mirror folder laid out like ``../shared/data``
        (``<dataset folder>/<path inside it>``).
    size : int or None
        Size in bytes, if known (for progress reporting).
    license : str
        License of the source.
    """

    key: str
    url: str
    sha256: str
    mirror_path: str
    size: int | None
    license: str

    @property
    def filename(self) -> str:
        """Base name of the file."""
        return Path(self.mirror_path).name


_NIGHTINGAL3 = (
    "https://raw.githubusercontent.com/nightingal3/duelling-bandits/"
    "da41c471d3c984f0fd2851ae91a573eb7623b234/data/"
)

#: Every data file the workflow can fetch, by key.
DATA_FILES: dict[str, DataFile] = {
    entry.key: entry
    for entry in (
        DataFile(
            key=f"mslr_{model.lower()}",
            url=f"{_NIGHTINGAL3}MSLR_{model}_PMat.npz",
            sha256=sha,
            mirror_path=f"mslr-preference-matrices/nightingal3-duelling-bandits/MSLR_{model}_PMat.npz",
            size=None,
            license="MIT (nightingal3/duelling-bandits)",
        )
        for model, sha in (
            ("Informational", "ef05eca2b7b27f63faaa292b0e88b17311560bf76124693354d953c702b7e9da"),
            ("Navigational", "302f4d88cba0bcace47a0e7a6e5bebdd8961b2ad912db9b682b3f2a9a05c3a94"),
            ("Perfect", "5a8ea50334af26d1efc7c2a9731dc9336d96dbbc3ec8d741509e25b3324b55a5"),
        )
    )
}


def sha256_of(path: str | os.PathLike[str]) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for chunk in iter(lambda: stream.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def mirror_candidates(entry: DataFile, mirror: str | os.PathLike[str]) -> list[Path]:
    """Places where ``entry`` may sit in ``mirror``.

    The mirror may be the data root (``<mirror>/<dataset folder>/...``, as ``../shared/data``)
    or one dataset's folder (``<mirror>/...``, as ``../shared/data/mslr-preference-matrices``).
    """
    root = Path(mirror)
    inside_dataset = Path(*Path(entry.mirror_path).parts[1:])
    return [root / entry.mirror_path, root / inside_dataset]


def _verify(path: Path, entry: DataFile, origin: str) -> None:
    actual = sha256_of(path)
    if actual != entry.sha256:
        raise DataUnavailableError(
            f"{entry.filename} from {origin} has sha256 {actual}, expected {entry.sha256}; "
            "the file is corrupt or not the pinned version. Delete it and fetch again."
        )


def _download(entry: DataFile, temporary: Path, timeout: float) -> None:
    request = urllib.request.Request(entry.url, headers={"User-Agent": "cdbandits"})
    with urllib.request.urlopen(request, timeout=timeout) as response, open(temporary, "wb") as out:
        total = 0
        for chunk in iter(lambda: response.read(_CHUNK), b""):
            out.write(chunk)
            total += len(chunk)
            if total % (256 * _CHUNK) < _CHUNK:
                logger.info("%s: %.0f MB downloaded", entry.filename, total / 2**20)


def fetch(
    key: str,
    destination: str | os.PathLike[str],
    mirror: str | os.PathLike[str] | None = None,
    timeout: float = 60.0,
) -> Path:
    """Provide the data file ``key`` at ``destination``, verified against its sha256.

    Parameters
    ----------
    key : str
        A key of :data:`DATA_FILES`.
    destination : path-like
        Where the verified file is written (atomically).
    mirror : path-like, optional
        A local folder with copies (see :func:`mirror_candidates`), searched first. A mirror
        folder that does not exist is ignored.
    timeout : float, optional
        Seconds before a download attempt gives up waiting for the server.

    Returns
    -------
    pathlib.Path
        ``destination``.

    Raises
    ------
    KeyError
        If ``key`` is unknown.
    DataUnavailableError
        If the file is neither in the mirror nor downloadable, or its checksum is wrong.
    """
    if key not in DATA_FILES:
        raise KeyError(f"unknown data file {key!r}; known: {', '.join(sorted(DATA_FILES))}")
    entry = DATA_FILES[key]
    searched = mirror_candidates(entry, mirror) if mirror is not None else []
    for candidate in searched:
        if candidate.is_file():
            _verify(candidate, entry, f"the mirror ({candidate})")
            with atomic_path(destination) as temporary:
                shutil.copyfile(candidate, temporary)
            logger.info("%s: copied from mirror %s", entry.filename, candidate)
            return Path(destination)
    try:
        with atomic_path(destination) as temporary:
            logger.info("%s: downloading %s", entry.filename, entry.url)
            _download(entry, temporary, timeout)
            _verify(temporary, entry, entry.url)
    except (urllib.error.URLError, OSError, TimeoutError) as error:
        where = ", ".join(str(path) for path in searched) or "no mirror configured"
        raise DataUnavailableError(
            f"cannot obtain {entry.filename} (data file {key!r}): not in the mirror "
            f"(looked at: {where}) and the download from {entry.url} failed ({error}). "
            f"To provide it, download {entry.url} (sha256 {entry.sha256}) on a machine with "
            f"network, put it at <folder>/{entry.mirror_path}, and set 'data_mirror' in the "
            f"config (or pass --config data_mirror=<folder>) to that folder."
        ) from error
    logger.info("%s: downloaded and verified", entry.filename)
    return Path(destination)
