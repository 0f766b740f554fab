import dataclasses

import pytest

from cdbandits import datasets
from cdbandits.datasets import DATA_FILES, DataUnavailableError, fetch, sha256_of


@pytest.mark.parametrize("key", ["mslr_informational", "mslr_navigational", "mslr_perfect"])
def test_fetch_from_the_data_root_mirror_verifies_checksum(tmp_path, data_mirror, key):
    destination = fetch(key, tmp_path / "out" / DATA_FILES[key].filename, mirror=data_mirror)
    assert sha256_of(destination) == DATA_FILES[key].sha256


def test_fetch_from_a_dataset_folder_mirror(tmp_path, data_mirror):
    folder = data_mirror / "mslr-preference-matrices"
    destination = fetch("mslr_perfect", tmp_path / "perfect.npz", mirror=folder)
    assert destination.is_file()


def test_corrupt_mirror_copy_is_rejected(tmp_path, data_mirror):
    entry = DATA_FILES["mslr_perfect"]
    copy = tmp_path / "mirror" / entry.mirror_path
    copy.parent.mkdir(parents=True)
    copy.write_bytes((data_mirror / entry.mirror_path).read_bytes()[:-1])
    with pytest.raises(
        DataUnavailableError, match=r"MSLR_Perfect_PMat.npz from the mirror .* has sha256"
    ):
        fetch("mslr_perfect", tmp_path / "out.npz", mirror=tmp_path / "mirror")
    assert not (tmp_path / "out.npz").exists()


def test_without_mirror_or_network_the_error_says_how_to_provide_the_file(tmp_path, monkeypatch):
    unreachable = dataclasses.replace(DATA_FILES["mslr_perfect"], url="http://127.0.0.1:9/x.npz")
    monkeypatch.setitem(datasets.DATA_FILES, "mslr_perfect", unreachable)
    with pytest.raises(DataUnavailableError) as error:
        fetch("mslr_perfect", tmp_path / "out.npz", mirror=tmp_path / "no-such-folder", timeout=5)
    message = str(error.value)
    assert "cannot obtain MSLR_Perfect_PMat.npz" in message
    assert "http://127.0.0.1:9/x.npz" in message
    assert "data_mirror" in message
    assert "mslr-preference-matrices/nightingal3-duelling-bandits/MSLR_Perfect_PMat.npz" in message
    assert not (tmp_path / "out.npz").exists()
    assert list(tmp_path.iterdir()) == []


def test_unknown_key():
    with pytest.raises(KeyError, match="unknown data file 'nope'"):
        fetch("nope", "x")
