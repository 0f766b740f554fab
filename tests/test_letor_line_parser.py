"""The compiled LETOR line parser (cdbandits.letor.line_parser)."""

import numpy as np
import pytest

from cdbandits.letor.line_parser import ERRORS, EXACT_POWERS, parse_block


def parse(text: str, n_features: int = 3):
    buffer = np.frombuffer(text.encode(), dtype=np.uint8)
    capacity = text.count("\n") + 1
    labels = np.empty(capacity, dtype=np.int8)
    qids = np.empty(capacity, dtype=np.int64)
    features = np.empty((capacity, n_features))
    row_lines = np.empty(capacity, dtype=np.int64)
    result = parse_block(buffer, n_features, labels, qids, features, row_lines, EXACT_POWERS)
    rows = result[0]
    return result, labels[:rows], qids[:rows], features[:rows], row_lines[:rows]


def test_lines_comments_and_missing_features():
    text = "2 qid:7 1:0.5 3:-1e-2 # doc a\n\n# only a comment\n0 qid:7 2:3\n"
    (rows, lines, code, _, _), labels, qids, features, row_lines = parse(text)
    assert (rows, lines, code) == (2, 4, 0)
    assert labels.tolist() == [2, 0] and qids.tolist() == [7, 7]
    np.testing.assert_array_equal(features, [[0.5, 0.0, -0.01], [0.0, 3.0, 0.0]])
    assert row_lines.tolist() == [0, 3]


@pytest.mark.parametrize(
    "line, code, column",
    [
        ("x qid:1 1:0.5", 1, 0),
        ("1 q:1 1:0.5", 2, 2),
        ("1 qid:1 a:0.5", 3, 8),
        ("1 qid:1 1:zero", 4, 10),
        ("1 qid:1 4:0.5", 5, 9),  # columns after the parsed token
        ("1 qid:1 2:0.5 1:0.5", 6, 15),
        ("200 qid:1 1:0.5", 7, 3),
    ],
)
def test_each_malformed_line_has_its_code_and_column(line, code, column):
    (_, _, found, error_line, error_column), *_ = parse("0 qid:1 1:1\n" + line + "\n")
    assert found == code and code in ERRORS
    assert error_line == 1
    assert error_column == column
