import os
import re

import pytest

from cdbandits.input_files import (
    CONVERT_HINT,
    decode_text,
    decoding_problem,
    path_problem,
    text_lines,
)


class Refused(ValueError):
    pass


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda path: path.write_text("x"), None),
        (lambda path: None, "no such file"),
        (lambda path: path.mkdir(), "is a directory; expected a file"),
        (lambda path: os.mkfifo(path), "is a named pipe (FIFO), not a regular file; save its"),
        (lambda path: path.symlink_to(path.name), "is a symbolic link loop"),
        (lambda path: path.symlink_to("gone"), "is a broken symbolic link (to gone)"),
    ],
)
def test_path_problems_name_what_the_path_is(tmp_path, make, problem):
    path = tmp_path / "input.csv"
    make(path)
    found = path_problem(path)
    assert found == problem or (problem is not None and found.startswith(problem)), found


def test_devices_and_paths_through_files():
    assert path_problem("/dev/null") == "is a device, not a file"
    assert path_problem("/etc/hostname/x") in (
        "a part of the path is not a directory",
        "no such file",  # no /etc/hostname on this system
    )


def test_an_unreadable_file(tmp_path):
    path = tmp_path / "locked.csv"
    path.write_text("x")
    path.chmod(0)
    if os.access(path, os.R_OK):
        pytest.skip("running as a user who can read any file")
    assert path_problem(path) == "permission denied (cannot read it)"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"a\nb", "a\nb"),
        (b"\xef\xbb\xbfa\r\nb", "a\r\nb"),
        (b"\xff\xfea\x00", r"f: is UTF-16 text \(it starts with a UTF-16 byte-order mark\); "),
        (b"\xff\xfe\x00\x00a\x00\x00\x00", r"f: is UTF-32 text"),
        (b"a\nb\x00c", r"f:2: holds a NUL byte; this is a binary file, expected text"),
        ("a\ncafé\n".encode("latin-1"), r"f:2: byte 0xE9 at column 4 is not UTF-8; save the file"),
        (b"\xef\xbb\xbfok\n\xc3", r"f:2: byte 0xC3 at column 1 is not UTF-8"),
    ],
)
def test_decoded_text_or_the_line_and_byte_that_is_not_utf8(data, expected):
    if "f:" not in expected:
        assert decode_text(data, "f", Refused) == expected
        return
    with pytest.raises(Refused, match=expected):
        decode_text(data, "f", Refused)


def test_text_lines_read_utf8_with_or_without_a_bom(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(b"\xef\xbb\xbfone\r\ntwo\n")
    assert list(text_lines(path, Refused)) == ["one\r\n", "two\n"]
    path.write_bytes("one\ntwo \u00e9\n".encode("cp1252"))
    with pytest.raises(Refused, match=re.escape(f"{path}:2: byte 0xE9 at column 5 is not UTF-8")):
        list(text_lines(path, Refused))
    assert decoding_problem(path).endswith(CONVERT_HINT)
    path.write_bytes(b"one\ntw\x00o\n")
    with pytest.raises(Refused, match=re.escape(f"{path}:2: holds a NUL byte")):
        list(text_lines(path, Refused))
    path.write_bytes("x".encode("utf-16"))
    with pytest.raises(Refused, match="is UTF-16 text"):
        list(text_lines(path, Refused))
    with pytest.raises(Refused, match="no such file"):
        list(text_lines(tmp_path / "missing.txt", Refused))
