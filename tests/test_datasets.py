import dataclasses
import re

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


# The real comparison data of issue 14: pinned raw GitHub files listed in data_manifests/.
PINNED_FOLDERS = {
    "tennis-atp-sackmann": "JeffSackmann/tennis_atp",
    "preflib-sports": "fleverest/PrefLib-Data",
    "trec-dl-human-preferences-yan2022": "XinyiYan/duelingBandits",
    "arxiv-6rankers-yue-joachims": "jkomiyama/duelingbanditlib",
}
PINNED_KEYS = sorted(
    key for key, entry in DATA_FILES.items() if entry.mirror_path.split("/")[0] in PINNED_FOLDERS
)


@pytest.mark.parametrize("key", PINNED_KEYS)
def test_every_pinned_file_is_in_the_mirror_with_its_checksum_and_size(data_mirror, key):
    entry = DATA_FILES[key]
    copy = data_mirror / entry.mirror_path
    assert copy.is_file(), f"{key}: {copy} missing"
    assert copy.stat().st_size == entry.size
    assert sha256_of(copy) == entry.sha256


@pytest.mark.parametrize("folder", sorted(PINNED_FOLDERS))
def test_pinned_urls_name_the_repository_and_commit_of_the_folder_readme(data_mirror, folder):
    readme = (data_mirror / folder / "README.md").read_text(encoding="utf-8")
    commits = set(re.findall(r"commit ([0-9a-f]{40})", readme))
    assert len(commits) == 1, f"{folder}/README.md should name one commit, names {commits}"
    (commit,) = commits
    prefix = f"https://raw.githubusercontent.com/{PINNED_FOLDERS[folder]}/{commit}/"
    entries = [e for e in DATA_FILES.values() if e.mirror_path.startswith(folder + "/")]
    assert entries
    assert all(entry.url.startswith(prefix) for entry in entries)


def test_the_registry_covers_the_files_the_comparison_studies_need(data_mirror):
    by_path = {entry.mirror_path: key for key, entry in DATA_FILES.items()}
    expected = [f"tennis-atp-sackmann/atp_matches_{year}.csv" for year in range(1990, 2025)]
    for pattern in ("00006-skate/*.?o?", "00052-f1seasons/*.so?", "*/info.txt"):
        expected += [
            str(path.relative_to(data_mirror))
            for path in sorted((data_mirror / "preflib-sports").glob(pattern))
        ]
    expected += [
        f"trec-dl-human-preferences-yan2022/{name}"
        for name in (
            "judgments.txt",
            "questions.tsv",
            "Set-I.qrels",
            "Set-II.qrels",
            "Set-III.qrels",
            "Combined-I+II.qrels",
            "Combined-I+II+III.qrels",
        )
    ]
    expected.append("arxiv-6rankers-yue-joachims/pref_arxiv.txt")
    missing = [path for path in expected if path not in by_path]
    assert not missing
    # skate: 20 .soc + 28 .toc; f1seasons: 69 .soi (the README says 70) + 67 .soc; 2 info.txt
    assert len(expected) == 35 + (20 + 28) + (69 + 67) + 2 + 7 + 1
    assert by_path["tennis-atp-sackmann/atp_matches_2019.csv"] == "atp_matches_2019"
    assert by_path["preflib-sports/00052-f1seasons/00052-00000001.soi"] == (
        "preflib_00052_00000001_soi"
    )
    assert by_path["trec-dl-human-preferences-yan2022/Set-II.qrels"] == "trec_dl_set_ii"


def test_a_pinned_file_is_fetched_from_the_mirror(tmp_path, data_mirror):
    destination = fetch("trec_dl_judgments", tmp_path / "judgments.txt", mirror=data_mirror)
    assert sha256_of(destination) == DATA_FILES["trec_dl_judgments"].sha256
    spaced = DATA_FILES["preflib_00006_00000001_toc"].url
    assert "/datasets/00006%20-%20skate/00006-00000001.toc" in spaced
