"""The LETOR reader on the real MSLR sample and on malformed files."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from cdbandits.letor import LetorData, LetorFormatError, concatenate, read_letor, read_letor_files

SAMPLE = "mslr-web-rankeval-5k/msn1.fold1.{part}.5k.txt"


@pytest.fixture(scope="module")
def train_file(data_mirror: Path) -> Path:
    return data_mirror / SAMPLE.format(part="train")


@pytest.fixture(scope="module")
def test_file(data_mirror: Path) -> Path:
    return data_mirror / SAMPLE.format(part="test")


def _python_parse(line: str, n_features: int = 136) -> tuple[int, int, np.ndarray]:
    tokens = line.split()
    features = np.zeros(n_features)
    for token in tokens[2:]:
        index, value = token.split(":")
        features[int(index) - 1] = float(value)
    return int(tokens[0]), int(tokens[1].split(":")[1]), features


def test_sample_matches_its_readme(train_file: Path, test_file: Path):
    # README: 43 queries per file, labels 2792/1458/665/55/30 (train), 2847/1442/579/98/34.
    train = read_letor(train_file, last_query="flag")
    test = read_letor(test_file, last_query="flag")
    assert (train.n_queries, train.n_documents, train.n_features) == (43, 5000, 136)
    assert (test.n_queries, test.n_documents) == (43, 5000)
    assert np.bincount(train.labels).tolist() == [2792, 1458, 665, 55, 30]
    assert np.bincount(test.labels).tolist() == [2847, 1442, 579, 98, 34]
    assert (train.qids[0], train.qids[1], train.qids[-1]) == (1, 16, 631)
    assert (test.qids[0], test.qids[-1]) == (13, 643)
    assert train.documents_per_query[-1] == 45 and test.documents_per_query[-1] == 26
    assert train.truncated_qids.tolist() == [631]
    assert train.truncated.tolist() == [False] * 42 + [True]


def test_values_equal_python_float_parsing(train_file: Path):
    data = read_letor(train_file)
    with open(train_file, encoding="ascii") as stream:
        lines = [next(stream) for _ in range(300)]
    for row, line in enumerate(lines):
        label, qid, features = _python_parse(line)
        assert data.labels[row] == label
        np.testing.assert_array_equal(data.features[row], features)
    assert data.qids[0] == 1


def test_block_boundaries_do_not_change_the_result(train_file: Path):
    whole = read_letor(train_file)
    blocks = read_letor(train_file, block_bytes=7_777)
    np.testing.assert_array_equal(whole.features, blocks.features)
    np.testing.assert_array_equal(whole.labels, blocks.labels)
    np.testing.assert_array_equal(whole.query_offsets, blocks.query_offsets)


def test_drop_removes_the_truncated_last_query_with_a_warning(train_file: Path, caplog):
    with caplog.at_level(logging.WARNING, logger="cdbandits"):
        data = read_letor(train_file, last_query="drop")
    assert data.n_queries == 42 and data.n_documents == 5000 - 45
    assert 631 not in data.qids and data.truncated_qids.size == 0
    assert "dropped the last query, qid 631 (45 lines)" in caplog.text


def test_complete_keeps_every_query_unflagged(train_file: Path):
    data = read_letor(train_file)
    assert data.n_queries == 43 and data.truncated_qids.size == 0


def test_sparse_lines_comments_crlf_and_blank_lines(tmp_path: Path):
    path = tmp_path / "sparse.txt"
    path.write_bytes(
        b"2 qid:7 1:0.5 3:-2e-3 # docid = a\r\n"
        b"\r\n"
        b"0 qid:7 2:1.25E2\r\n"
        b"# a comment line\n"
        b"1 qid:9\t4:+7 5:.5\n"
        b"3 qid:9 1:1"
    )
    data = read_letor(path, n_features=5)
    assert data.qids.tolist() == [7, 9]
    assert data.labels.tolist() == [2, 0, 1, 3]
    np.testing.assert_array_equal(
        data.features,
        [[0.5, 0, -0.002, 0, 0], [0, 125.0, 0, 0, 0], [0, 0, 0, 7.0, 0.5], [1.0, 0, 0, 0, 0]],
    )


GOOD = "1 qid:3 1:0.5 2:1\n0 qid:3 1:0.25 2:2\n"


@pytest.mark.parametrize(
    ("bad_line", "reason"),
    [
        ("x qid:3 1:0.5 2:1", "the relevance label is not an integer"),
        ("1 3 1:0.5 2:1", "expected 'qid:<integer>'"),
        ("1 qid:3 1:0.5 2:abc", "a feature value is not a finite decimal number"),
        ("1 qid:3 1:0.5 2:nan", "a feature value is not a finite decimal number"),
        ("1 qid:3 1:0.5 3:1", "a feature index is outside 1..n_features"),
        ("1 qid:3 2:0.5 1:1", "feature indices must increase strictly"),
        ("1 qid:3 1:0.5 x:1", "a feature must look like '<index>:<value>'"),
        ("1 qid:3 1:0.52:1", "a feature value is not a finite decimal number"),
        ("300 qid:3 1:0.5", "the relevance label is outside 0..127"),
    ],
)
def test_malformed_line_names_file_and_line(tmp_path: Path, bad_line: str, reason: str):
    path = tmp_path / "bad.txt"
    path.write_text(GOOD + bad_line + "\n" + GOOD)
    with pytest.raises(LetorFormatError) as error:
        read_letor(path, n_features=2)
    message = str(error.value)
    assert message.startswith(f"{path}:3: malformed LETOR line, {reason}")
    assert repr(bad_line) in message


def test_malformed_line_number_counts_across_blocks(tmp_path: Path):
    path = tmp_path / "long.txt"
    lines = ["1 qid:1 1:0.5 2:1"] * 999 + ["1 qid:1 1:0.5 2:?"]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LetorFormatError, match=r"long.txt:1000: malformed LETOR line"):
        read_letor(path, n_features=2, block_bytes=100)


def test_file_cut_mid_line_gets_a_hint(tmp_path: Path):
    path = tmp_path / "cut.txt"
    path.write_text(GOOD + "1 qid:3 1:0.5 2:")
    with pytest.raises(LetorFormatError, match=r"cut.txt:3: .*the file may have been cut"):
        read_letor(path, n_features=2)


def test_non_contiguous_query_is_an_error(tmp_path: Path):
    path = tmp_path / "split.txt"
    path.write_text("1 qid:3 1:1\n1 qid:4 1:1\n0 qid:3 1:2\n")
    with pytest.raises(LetorFormatError, match=r"split.txt:3: qid 3 appears again .* line 1"):
        read_letor(path, n_features=1)


def test_empty_file_is_an_error(tmp_path: Path):
    path = tmp_path / "empty.txt"
    path.write_text("# only a comment\n\n")
    with pytest.raises(LetorFormatError, match="no document lines"):
        read_letor(path)


def test_concatenate_and_query_means(tmp_path: Path):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("1 qid:1 1:1 2:2\n0 qid:1 1:3 2:4\n")
    second.write_text("2 qid:2 1:5 2:6\n")
    data = concatenate([read_letor(first, n_features=2), read_letor(second, n_features=2)])
    assert data.query_offsets.tolist() == [0, 2, 3]
    np.testing.assert_array_equal(data.query_means(), [[2.0, 3.0], [5.0, 6.0]])
    assert data.sources == ("a.txt", "b.txt")
    with pytest.raises(ValueError, match="qid 1 occurs in more than one"):
        concatenate([read_letor(first, n_features=2), read_letor(first, n_features=2)])


def test_cache_round_trip(tmp_path: Path, train_file: Path):
    cache = tmp_path / "cache.npz"
    data = read_letor_files([train_file], last_query="flag", cache=cache)
    assert cache.is_file()
    again = read_letor_files([train_file], last_query="flag", cache=cache)
    loaded = LetorData.load(cache)
    for other in (again, loaded):
        np.testing.assert_array_equal(other.features, data.features)
        np.testing.assert_array_equal(other.qids, data.qids)
        np.testing.assert_array_equal(other.truncated_qids, [631])
        assert other.sources == ("msn1.fold1.train.5k.txt",)
