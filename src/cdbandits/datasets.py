"""Public data files: where each comes from, its checksum, and fetching it.

Every file is identified by a key in :data:`DATA_FILES` giving its public source (a raw
file at a pinned commit, a member of a pinned package archive, or an official archive), its
sha256 and its place in a *mirror*: a local folder holding verified copies (for machines
without network, tests and CI). :func:`fetch` looks in the mirror first, downloads otherwise,
verifies the checksum either way, and fails with a message naming the file and how to
provide it. Data files are never part of the repository.

A file that is published only inside an archive (the MSLR sample inside the ``rankeval``
sdist on PyPI) has ``archive_member`` set: the archive is downloaded, checked against
``archive_sha256``, and the member extracted and checked against ``sha256``. Whole archives
(MSLR-WEB10K/WEB30K zips) are fetched as files; :func:`extract_member` then unpacks the
chosen fold's file.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .files import atomic_path

__all__ = [
    "DATA_FILES",
    "DataFile",
    "DataUnavailableError",
    "extract_member",
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
    archive_member : str or None
        If set, ``url`` is an archive (``.tar.gz`` or ``.zip``) and the file is this member
        of it; ``sha256`` and ``size`` are the member's.
    archive_sha256 : str or None
        Checksum of the archive at ``url`` (with ``archive_member``).
    """

    key: str
    url: str
    sha256: str
    mirror_path: str
    size: int | None
    license: str
    archive_member: str | None = None
    archive_sha256: str | None = None

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

_RANKEVAL_SDIST = (
    "https://files.pythonhosted.org/packages/79/a7/"
    "436c3492eb252df3a3747fa675e5781bc7c89c56e508ecbaf3b2c79f1e54/rankeval-0.8.2.tar.gz"
)

DATA_FILES.update(
    {
        entry.key: entry
        for entry in (
            *(
                DataFile(
                    key=f"mslr_sample_{part}",
                    url=_RANKEVAL_SDIST,
                    sha256=sha,
                    mirror_path=f"mslr-web-rankeval-5k/msn1.fold1.{part}.5k.txt",
                    size=size,
                    license="MPL-2.0 (rankeval); data: Microsoft Learning to Rank Datasets",
                    archive_member=f"rankeval-0.8.2/rankeval/test/data/msn1.fold1.{part}.5k.txt",
                    archive_sha256=(
                        "c7d71602ab7fe0a0281976c1f0e883cb16431f72e4e946e5fd83790449bb21a9"
                    ),
                )
                for part, sha, size in (
                    (
                        "train",
                        "6d1721de961a35fbaef7085dc5b41e2940f0ddb04bab5f7a8566cf7db4158fa6",
                        5777049,
                    ),
                    (
                        "test",
                        "13d3c638edd23e482c38f4316c2680c938c2eaedbe096970ab30a48e364463d3",
                        5572375,
                    ),
                )
            ),
            DataFile(
                key="mslr_web10k",
                url="https://api.onedrive.com/v1.0/shares/s!AtsMfWUz5l8nbOIoJ6Ks0bEMp78/root/content",
                sha256="2902142ea33f18c59414f654212de5063033b707d5c3939556124b1120d3a0ba",
                mirror_path="mslr-web10k/MSLR-WEB10K.zip",
                size=1234144912,
                license="Microsoft Learning to Rank Datasets (research use)",
            ),
            DataFile(
                key="mslr_web30k",
                url="https://api.onedrive.com/v1.0/shares/s!AtsMfWUz5l8nbXGPBlwD1rnFdBY/root/content",
                sha256="08cb7977e1d5cbdeb57a9a2537a0923dbca6d46a76db9a6afc69e043c85341ae",
                mirror_path="mslr-web30k/MSLR-WEB30K.zip",
                size=3849406307,
                license="Microsoft Learning to Rank Datasets (research use)",
            ),
        )
    }
)


@dataclass(frozen=True)
class _PinnedFolder:
    """A mirror folder whose files are raw files of a GitHub repository at one commit.

    Its files, checksums and sizes are listed in ``data_manifests/<folder>.sha256``
    (``sha256 size path`` per line, path inside the folder).
    """

    folder: str
    raw_root: str
    license: str
    key_prefix: str
    #: Mirror sub-folder -> folder in the repository (the mirror renamed some).
    renamed: tuple[tuple[str, str], ...] = ()

    def entries(self) -> list[DataFile]:
        manifest = Path(__file__).with_name("data_manifests") / f"{self.folder}.sha256"
        rows = [
            line.split(maxsplit=2)
            for line in manifest.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")
        ]
        names = [PurePosixPath(path).name for _, _, path in rows]
        entries = []
        for sha, size, path in rows:
            # Keys from the file name; from the whole path where names repeat (info.txt).
            name = path if names.count(PurePosixPath(path).name) > 1 else PurePosixPath(path).name
            upstream = path
            for mirror_name, repository_name in self.renamed:
                if path.startswith(mirror_name + "/"):
                    upstream = repository_name + path[len(mirror_name) :]
            entries.append(
                DataFile(
                    key=self.key_prefix + _slug(name),
                    url=self.raw_root + urllib.parse.quote(upstream, safe="/"),
                    sha256=sha,
                    mirror_path=f"{self.folder}/{path}",
                    size=int(size),
                    license=self.license,
                )
            )
        return entries


def _slug(path: str) -> str:
    """A key fragment from a file path: lower case, runs of other characters as ``_``."""
    stem = str(PurePosixPath(path).with_suffix("")).lower()
    if PurePosixPath(path).suffix.lower() in (".soc", ".soi", ".toc", ".toi"):
        stem += PurePosixPath(path).suffix.lower()  # PrefLib: 00052-00000001.soc and .soi
    return "_".join(part for part in re.split(r"[^a-z0-9]+", stem) if part)


_GITHUB_RAW = "https://raw.githubusercontent.com/"

#: The real comparison data (see each folder's README in ``../shared/data``):
#: keys ``atp_matches_1990`` ... ``atp_matches_2024``; ``preflib_00006_00000001_toc``,
#: ``preflib_00052_00000001_soi``, ``preflib_00006_skate_info`` ...; ``trec_dl_judgments``,
#: ``trec_dl_questions``, ``trec_dl_set_i`` (qrels) ...; ``pref_arxiv``.
_PINNED_FOLDERS = (
    _PinnedFolder(
        folder="tennis-atp-sackmann",
        raw_root=f"{_GITHUB_RAW}JeffSackmann/tennis_atp/5b6263dc487b4fa4fa35326764bc9b0215042a42/",
        license="CC BY-NC-SA 4.0 (Jeff Sackmann / Tennis Abstract; attribution, non-commercial)",
        key_prefix="",
    ),
    _PinnedFolder(
        folder="preflib-sports",
        raw_root=f"{_GITHUB_RAW}fleverest/PrefLib-Data/e70f12c3f1ee0dfa6f7974618522df0aa4ce9d91/",
        license="GPL-3.0 (PrefLib-Data repository); f1seasons: cite Boehmer & Schaar 2022",
        key_prefix="preflib_",
        renamed=(
            ("00006-skate", "datasets/00006 - skate"),
            ("00052-f1seasons", "datasets/00052 - f1seasons"),
        ),
    ),
    _PinnedFolder(
        folder="trec-dl-human-preferences-yan2022",
        raw_root=f"{_GITHUB_RAW}XinyiYan/duelingBandits/d53279fb5a2ce8ca51617d8d0350211cabeb1820/",
        license="none stated (data released with Yan et al., SIGIR 2022; cite the paper)",
        key_prefix="trec_dl_",
    ),
    _PinnedFolder(
        folder="arxiv-6rankers-yue-joachims",
        raw_root=(
            f"{_GITHUB_RAW}jkomiyama/duelingbanditlib/ee43828c9b6dd298abf4a938eada8cae5b2be0fc/"
            "prefmats/"
        ),
        license="MIT (jkomiyama/duelingbanditlib)",
        key_prefix="",
    ),
)

DATA_FILES.update({entry.key: entry for folder in _PINNED_FOLDERS for entry in folder.entries()})


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


def _download_url(url: str, name: str, temporary: Path, timeout: float) -> None:
    request = urllib.request.Request(url, headers={"User-Agent": "cdbandits"})
    with urllib.request.urlopen(request, timeout=timeout) as response, open(temporary, "wb") as out:
        total = 0
        for chunk in iter(lambda: response.read(_CHUNK), b""):
            out.write(chunk)
            total += len(chunk)
            if total % (256 * _CHUNK) < _CHUNK:
                logger.info("%s: %.0f MB downloaded", name, total / 2**20)


def _download(entry: DataFile, temporary: Path, timeout: float) -> None:
    if entry.archive_member is None:
        _download_url(entry.url, entry.filename, temporary, timeout)
        return
    archive_name = PurePosixPath(urllib.parse.urlparse(entry.url).path).name
    with tempfile.TemporaryDirectory(dir=temporary.parent) as folder:
        archive = Path(folder) / archive_name
        _download_url(entry.url, archive_name, archive, timeout)
        if entry.archive_sha256 is not None:
            actual = sha256_of(archive)
            if actual != entry.archive_sha256:
                raise DataUnavailableError(
                    f"{archive_name} from {entry.url} has sha256 {actual}, expected "
                    f"{entry.archive_sha256}; it is not the pinned archive"
                )
        _extract_exact(archive, entry.archive_member, temporary)


def _extract_exact(archive: Path, member: str, destination: Path) -> None:
    """Copy ``member`` of the tar or zip ``archive`` to ``destination``."""
    if zipfile.is_zipfile(archive):
        with (
            zipfile.ZipFile(archive) as bundle,
            bundle.open(member) as source,
            open(destination, "wb") as out,
        ):
            shutil.copyfileobj(source, out, _CHUNK)
        return
    with tarfile.open(archive, "r:*") as bundle:
        source = bundle.extractfile(member)
        if source is None:
            raise DataUnavailableError(f"{member} in {archive} is not a regular file")
        with source, open(destination, "wb") as out:
            shutil.copyfileobj(source, out, _CHUNK)


def _member_names(archive: Path) -> list[str]:
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as bundle:
            return [info.filename for info in bundle.infolist() if not info.is_dir()]
    with tarfile.open(archive, "r:*") as bundle:
        return [info.name for info in bundle.getmembers() if info.isfile()]


def extract_member(
    archive: str | os.PathLike[str], member_suffix: str, destination: str | os.PathLike[str]
) -> Path:
    """Extract the one member of a zip or tar archive whose path ends with ``member_suffix``.

    Used to unpack one fold file of the MSLR archives (``"Fold1/train.txt"``) without
    depending on the archive's top folder name.

    Parameters
    ----------
    archive : path-like
        A ``.zip`` or (compressed) tar file.
    member_suffix : str
        End of the member's path, matched at a ``/`` boundary.
    destination : path-like
        Where the member is written (atomically).

    Returns
    -------
    pathlib.Path
        ``destination``.

    Raises
    ------
    DataUnavailableError
        If no member or more than one member matches.
    """
    archive = Path(archive)
    suffix = member_suffix.strip("/")
    names = _member_names(archive)
    matches = [name for name in names if name == suffix or name.endswith("/" + suffix)]
    if len(matches) != 1:
        shown = ", ".join(names[:20]) + (" ..." if len(names) > 20 else "")
        raise DataUnavailableError(
            f"{archive} has {len(matches)} members ending with {suffix!r} (need exactly one): "
            f"{matches or shown}"
        )
    with atomic_path(destination) as temporary:
        _extract_exact(archive, matches[0], temporary)
    logger.info("%s: extracted %s to %s", archive.name, matches[0], destination)
    return Path(destination)


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
    except (
        urllib.error.URLError,
        OSError,
        TimeoutError,
        tarfile.TarError,
        zipfile.BadZipFile,
        KeyError,
    ) as error:
        where = ", ".join(str(path) for path in searched) or "no mirror configured"
        origin_hint = (
            f" (sha256 {entry.sha256})"
            if entry.archive_member is None
            else f", extract {entry.archive_member} (sha256 {entry.sha256})"
        )
        raise DataUnavailableError(
            f"cannot obtain {entry.filename} (data file {key!r}): not in the mirror "
            f"(looked at: {where}) and the download from {entry.url} failed ({error}). "
            f"To provide it, download {entry.url}{origin_hint} on a machine with "
            f"network, put it at <folder>/{entry.mirror_path}, and set 'data_mirror' in the "
            f"config (or pass --config data_mirror=<folder>) to that folder."
        ) from error
    logger.info("%s: downloaded and verified", entry.filename)
    return Path(destination)
