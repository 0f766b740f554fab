"""Data files inside archives: the MSLR sample in the rankeval sdist, MSLR fold zips."""

from __future__ import annotations

import dataclasses
import tarfile
import zipfile
from pathlib import Path

import pytest

from cdbandits import datasets
from cdbandits.datasets import DATA_FILES, DataUnavailableError, extract_member, fetch, sha256_of


@pytest.mark.parametrize("key", ["mslr_sample_train", "mslr_sample_test"])
def test_sample_from_the_mirror(tmp_path: Path, data_mirror: Path, key: str):
    destination = fetch(key, tmp_path / DATA_FILES[key].filename, mirror=data_mirror)
    assert sha256_of(destination) == DATA_FILES[key].sha256
    assert destination.stat().st_size == DATA_FILES[key].size


def test_archive_entries_are_pinned():
    for key in ("mslr_web10k", "mslr_web30k"):
        assert DATA_FILES[key].mirror_path.endswith(".zip") and DATA_FILES[key].size > 10**9
    sample = DATA_FILES["mslr_sample_train"]
    assert sample.url.startswith("https://files.pythonhosted.org/") and sample.url.endswith(
        "rankeval-0.8.2.tar.gz"
    )
    assert sample.archive_member == "rankeval-0.8.2/rankeval/test/data/msn1.fold1.train.5k.txt"


def _tarball(tmp_path: Path, member: str, payload: bytes) -> Path:
    source = tmp_path / "payload.txt"
    source.write_bytes(payload)
    archive = tmp_path / "package-1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as bundle:
        bundle.add(source, arcname=member)
    return archive


def test_download_extracts_and_verifies_the_member(tmp_path: Path, monkeypatch):
    payload = b"1 qid:1 1:0.5\n"
    archive = _tarball(tmp_path, "package-1.0/data/file.txt", payload)
    (tmp_path / "payload.txt").write_bytes(payload)
    entry = dataclasses.replace(
        DATA_FILES["mslr_sample_train"],
        url=archive.as_uri(),
        sha256=sha256_of(tmp_path / "payload.txt"),
        archive_member="package-1.0/data/file.txt",
        archive_sha256=sha256_of(archive),
    )
    monkeypatch.setitem(datasets.DATA_FILES, "mslr_sample_train", entry)
    destination = fetch("mslr_sample_train", tmp_path / "out" / "file.txt")
    assert destination.read_bytes() == payload
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == ["file.txt"]


def test_download_with_a_wrong_archive_checksum_fails(tmp_path: Path, monkeypatch):
    archive = _tarball(tmp_path, "package-1.0/data/file.txt", b"x\n")
    entry = dataclasses.replace(
        DATA_FILES["mslr_sample_train"],
        url=archive.as_uri(),
        archive_member="package-1.0/data/file.txt",
        archive_sha256="0" * 64,
    )
    monkeypatch.setitem(datasets.DATA_FILES, "mslr_sample_train", entry)
    with pytest.raises(
        DataUnavailableError, match="package-1.0.tar.gz .* is not the pinned archive"
    ):
        fetch("mslr_sample_train", tmp_path / "out" / "file.txt")
    assert not (tmp_path / "out" / "file.txt").exists()


def test_extract_member_by_suffix_from_a_zip(tmp_path: Path):
    archive = tmp_path / "MSLR.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("Fold1/train.txt", "train 1\n")
        bundle.writestr("Fold1/vali.txt", "vali 1\n")
        bundle.writestr("Fold2/train.txt", "train 2\n")
    destination = extract_member(archive, "Fold2/train.txt", tmp_path / "fold2" / "train.txt")
    assert destination.read_text() == "train 2\n"
    with pytest.raises(DataUnavailableError, match="has 2 members ending with 'train.txt'"):
        extract_member(archive, "train.txt", tmp_path / "x.txt")
    with pytest.raises(DataUnavailableError, match="has 0 members ending with 'Fold3/test.txt'"):
        extract_member(archive, "Fold3/test.txt", tmp_path / "x.txt")
    assert not (tmp_path / "x.txt").exists()
