import io
import os
import re
import zipfile

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cdbandits.matrix_io import MatrixFileError, load_matrix

Q = np.array([[0.5, 0.7, 0.2], [0.3, 0.5, 0.6], [0.8, 0.4, 0.5]])
ROWS = "\n".join(",".join(map(str, row)) for row in Q)


def test_formats_round_trip(tmp_path):
    np.save(tmp_path / "m.npy", Q)
    np.savez(tmp_path / "m.npz", PMat=Q, other=np.eye(2))
    np.savez_compressed(tmp_path / "single.npz", anything=Q)
    np.savetxt(tmp_path / "m.txt", Q)
    np.savetxt(tmp_path / "m.csv", Q, delimiter=",")
    np.save(tmp_path / "fortran.npy", np.asfortranarray(Q))
    np.save(tmp_path / "big_endian.npy", Q.astype(">f8"))
    (tmp_path / "named.csv").write_text("a,b,c\n" + ROWS)
    (tmp_path / "dts.txt").write_text("3\n" + "\n".join(" ".join(map(str, r)) for r in Q))
    for path in sorted(tmp_path.iterdir()):
        np.testing.assert_array_equal(load_matrix(path), Q, err_msg=path.name)
    np.testing.assert_array_equal(load_matrix(tmp_path / "m.npz", key="other"), np.eye(2))
    np.save(tmp_path / "ints.npy", np.array([[0, 1], [-1, 0]], dtype=np.int8))
    assert load_matrix(tmp_path / "ints.npy").dtype == np.float64


def test_mergedts_and_dts_files(data_mirror):
    folder = data_mirror / "mslr-preference-matrices"
    perfect = load_matrix(folder / "chang-li-MergeDTS/MSLR-Perfect.txt")
    published = load_matrix(folder / "nightingal3-duelling-bandits/MSLR_Perfect_PMat.npz")
    np.testing.assert_array_equal(perfect, published)
    assert load_matrix(
        folder / "HuasenWu-DuelingBandits/MSLR_Informational_5_Condorcet.txt"
    ).shape == (5, 5)


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("bom.csv", b"\xef\xbb\xbf" + ROWS.encode(), Q),
        ("crlf.csv", ROWS.replace("\n", "\r\n").encode(), Q),
        ("cr.txt", ROWS.replace("\n", "\r").replace(",", " ").encode(), Q),
        ("semicolon.csv", ROWS.replace(",", ";").encode(), Q),
        ("decimal_comma.csv", ROWS.replace(",", ";").replace(".", ",").encode(), Q),
        ("quoted.csv", b'"a","b","c"\n' + re.sub(r"([\d.]+)", r'"\1"', ROWS).encode(), Q),
        ("spaced.csv", ROWS.replace(",", " , ").encode(), Q),
        ("trailing.csv", (ROWS.replace("\n", ",\n") + ",").encode(), Q),
        ("tabs.csv", ROWS.replace(",", "\t").encode(), Q),
        ("comma.txt", ROWS.encode(), Q),
        ("names.csv", b"arm 1, arm 2, arm 3\n" + ROWS.encode(), Q),
        ("comments.csv", b"# a matrix\n\n" + ROWS.replace("\n", "\n# row\n\n").encode(), Q),
        ("zero.csv", b"0\n", [[0.0]]),
        ("zero.txt", b"0", [[0.0]]),
        ("half.csv", b"0.5\n", [[0.5]]),
        ("size_one.txt", b"1\n0\n", [[0.0]]),
        ("exponents.txt", b"5e-1 +.25\n-.25 0.5E0\n", [[0.5, 0.25], [-0.25, 0.5]]),
    ],
)
def test_unambiguous_text_is_accepted(tmp_path, name, content, expected):
    (tmp_path / name).write_bytes(content)
    np.testing.assert_array_equal(load_matrix(tmp_path / name), expected)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (
            "bad.txt",
            "0.5 0.2\n0.8 x\n",
            r"bad.txt:2: entry 2 is 'x', which is not a number; entries are separated by white",
        ),
        ("typo.csv", "0.5,O.7\n0.3,0.5\n", r"typo.csv:1: entry 2 is 'O.7', which is not a number"),
        ("second.csv", "a,b\nc,d\n0.5,0.5\n", r"second.csv:2: entry 1 is 'c', which"),
        ("mixed.csv", "0.5,0.7\n0.3;0.5\n", r"mixed.csv:2: entry 1 is '0.3;0.5', .* by ','"),
        ("spaces.csv", "0.5,0.7\n0.3 0.5\n", r"spaces.csv:2: entry 1 is '0.3 0.5', which"),
        ("comma_decimal.csv", '"0,5","0,7"\n', r"decimal comma is read only when .* by ';'"),
        ("empty_entry.csv", "0.5,,0.7\n", r"empty_entry.csv:1: entry 2 is empty"),
        ("two_trailing.csv", "0.5,0.5,,\n", r"two_trailing.csv:1: entry 3 is empty"),
        ("quote.csv", '"0.5,0.7\n', r"quote.csv:1: misplaced or unbalanced quote"),
        (
            "nan.csv",
            "0.5,NaN\n0.5,0.5\n",
            r"nan.csv:1: entry 2 is 'NaN'; every entry must be a finite number",
        ),
        ("inf.txt", "0.5 -inf\n", r"inf.txt:1: entry 2 is '-inf'"),
        ("huge.txt", "0.5 1e999\n", r"huge.txt:1: entry 2 is '1e999', too large for a floating"),
        ("underscore.txt", "0.5 1_0\n", r"entry 2 is '1_0', which is not a number"),
        ("unicode_digit.txt", "0.5 \u0661\n", r"entry 2 is '\u0661', which is not a number"),
        (
            "ragged.txt",
            "0.5 0.2\n\n0.8\n",
            r"ragged.txt:3: row has 1 entries, but the row on line 1",
        ),
        (
            "rect.csv",
            "0.5,0.2,0.1\n0.8,0.5,0.3\n",
            r"rect.csv: expected a square K x K matrix, got 2",
        ),
        ("empty.csv", "# nothing\n\n", r"empty.csv: no matrix rows found"),
        ("header_only.csv", "a,b\n", r"header_only.csv: no matrix rows after the header"),
        (
            "header_rows.csv",
            "a,b\n0.5,0.5\n",
            r"got 1 rows of 2 entries \(line 1 was skipped as a header",
        ),
        ("column_names.csv", "0,1\n0.5,0.5\n0.5,0.5\n", r"if line 1 is a header of column names"),
        ("wrong_size.txt", "3\n0.5 0.5\n0.5 0.5\n", r"line 1 holds only 3, but 2 rows follow"),
        ("size_then_header.txt", "a\n1\n0\n", r"got 2 rows of 1 entries"),
    ],
)
def test_text_errors_name_file_line_and_what_was_found(tmp_path, name, content, message):
    (tmp_path / name).write_text(content, encoding="utf-8")
    with pytest.raises(MatrixFileError, match=message):
        load_matrix(tmp_path / name)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe0\x00.\x005\x00", r"is UTF-16 text"),
        (b"0.5,0.5\n0.5,\x00\n", r"b.csv:2: holds a NUL byte; this is a binary file"),
        (b"# caf\xe9\n0.5\n", r"b.csv:1: byte 0xE9 at column 6 is not UTF-8"),
        (b"\xef\xbb\xbf0.5\r\n# caf\xe9\n", r"b.csv:2: byte 0xE9 at column 6 is not UTF-8"),
        (b"0.5\n0\xc3\n", r"b.csv:2: byte 0xC3 at column 2 is not UTF-8"),
    ],
)
def test_bytes_that_are_not_utf8_text(tmp_path, content, message):
    (tmp_path / "b.csv").write_bytes(content)
    with pytest.raises(MatrixFileError, match=message):
        load_matrix(tmp_path / "b.csv")


def npy_bytes(array, **kwargs) -> bytes:
    stream = io.BytesIO()
    np.save(stream, array, **kwargs)
    return stream.getvalue()


VALID_NPY = npy_bytes(Q)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", r"m.npy: is empty; expected a .npy file"),
        (b"garbage\n", r"m.npy: is not a .npy file: it does not start with the .npy signature"),
        (b"PK\x03\x04junk", r"m.npy: is a zip archive \(an .npz file\?\), not a .npy file"),
        (b"\x93NUMPY", r"m.npy: corrupt .npy file: it ends inside the signature"),
        (b"\x93NUMPY\x03\x00", r"m.npy: .npy format version 3.0 is not supported"),
        (VALID_NPY[:12], r"m.npy: corrupt .npy header"),
        (VALID_NPY[:-1], r"announces a float64 array of shape \(3, 3\) \(72 bytes.*but 71 bytes"),
        (VALID_NPY + b"\0", r"but 73 bytes follow it"),
        (npy_bytes(np.array([[1]], dtype=object), allow_pickle=True), r"Python objects"),
        (
            npy_bytes(Q + 0j),
            r"holds complex numbers \(dtype complex128\); expected a matrix of real",
        ),
        (npy_bytes(Q > 0.5), r"holds booleans \(dtype bool\)"),
        (npy_bytes(Q.astype(str)), r"holds strings \(dtype <U\d+\)"),
        (npy_bytes(np.zeros(2, dtype=[("a", "f8")])), r"holds non-numeric data"),
        (
            npy_bytes(np.zeros((2, 3))),
            r"m.npy: expected a square K x K matrix with K >= 1, got shape",
        ),
        (npy_bytes(np.zeros((0, 0))), r"got shape \(0, 0\)"),
        (npy_bytes(np.zeros((2, 2, 2))), r"got shape \(2, 2, 2\)"),
        (npy_bytes(np.array([[0.5, np.nan], [0.5, 0.5]])), r"m.npy: entry \(0, 1\) is nan"),
    ],
)
def test_npy_errors(tmp_path, content, message):
    (tmp_path / "m.npy").write_bytes(content)
    with pytest.raises(MatrixFileError, match=message):
        load_matrix(tmp_path / "m.npy")


def test_npz_errors(tmp_path):
    np.savez(tmp_path / "two.npz", a=Q, b=Q)
    with pytest.raises(MatrixFileError, match="holds several arrays"):
        load_matrix(tmp_path / "two.npz")
    with pytest.raises(MatrixFileError, match="no array named 'c'; it holds 'a', 'b'"):
        load_matrix(tmp_path / "two.npz", key="c")
    np.save(tmp_path / "m.npy", Q)
    with pytest.raises(MatrixFileError, match="a key only applies to .npz files"):
        load_matrix(tmp_path / "m.npy", key="a")
    cases = {
        b"": "is empty; expected a .npz file",
        b"PK\x03\x04" + b"junk" * 10: "is not a zip archive",
        VALID_NPY: "is not a zip archive",
    }
    for content, message in cases.items():
        (tmp_path / "bad.npz").write_bytes(content)
        with pytest.raises(MatrixFileError, match=f"bad.npz: {message}"):
            load_matrix(tmp_path / "bad.npz")
    with zipfile.ZipFile(tmp_path / "text.npz", "w") as archive:
        archive.writestr("notes.txt", "hello")
    with pytest.raises(MatrixFileError, match=r"text.npz: holds no arrays \(no .npy members\)"):
        load_matrix(tmp_path / "text.npz")
    np.savez(tmp_path / "objects.npz", PMat=np.array([[1]], dtype=object))
    with pytest.raises(MatrixFileError, match="objects.npz, array 'PMat': holds Python objects"):
        load_matrix(tmp_path / "objects.npz")


def test_corrupt_npz_member(tmp_path):
    np.savez_compressed(tmp_path / "m.npz", PMat=Q)
    content = bytearray((tmp_path / "m.npz").read_bytes())
    with zipfile.ZipFile(tmp_path / "m.npz") as archive:
        member = archive.getinfo("PMat.npy")
    # the local file header: 30 bytes, with the name and extra-field lengths at 26 and 28
    name_length, extra_length = np.frombuffer(content, "<u2", 2, member.header_offset + 26)
    data_start = member.header_offset + 30 + int(name_length) + int(extra_length)
    content[data_start + member.compress_size // 2] ^= 0xFF
    (tmp_path / "m.npz").write_bytes(bytes(content))
    with pytest.raises(MatrixFileError, match=r"m.npz, array 'PMat': cannot be extracted"):
        load_matrix(tmp_path / "m.npz")


def test_paths_that_are_not_readable_files(tmp_path):
    with pytest.raises(MatrixFileError, match="missing.npy: no such file"):
        load_matrix(tmp_path / "missing.npy")
    (tmp_path / "folder.csv").mkdir()
    with pytest.raises(MatrixFileError, match="folder.csv: is a directory; expected a file"):
        load_matrix(tmp_path / "folder.csv")
    os.mkfifo(tmp_path / "pipe.csv")
    with pytest.raises(
        MatrixFileError, match=r"pipe.csv: is a named pipe \(FIFO\), not a regular file"
    ):
        load_matrix(tmp_path / "pipe.csv")
    locked = tmp_path / "locked.csv"
    locked.write_text("0\n")
    locked.chmod(0)
    if os.access(locked, os.R_OK):
        pytest.skip("running as a user who can read any file")
    with pytest.raises(MatrixFileError, match=r"locked.csv: permission denied \(cannot read it\)"):
        load_matrix(locked)


def test_a_compressed_array_is_refused_by_its_header_before_it_is_inflated(tmp_path):
    import tracemalloc

    stream = io.BytesIO()
    np.savez_compressed(stream, PMat=np.zeros((3000, 3000)))  # 72 MB inflated, 70 kB stored
    (tmp_path / "big.npz").write_bytes(stream.getvalue())
    tracemalloc.start()
    try:
        with pytest.raises(MatrixFileError, match=r"a 3000 x 3000 matrix has more than 2000 arms"):
            load_matrix(tmp_path / "big.npz")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20  # never read the 72 MB
    assert load_matrix(tmp_path / "big.npz", max_arms=3000).shape == (3000, 3000)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("m.npy", b"", "is empty"),
        ("m.csv", b"0.5,0.5,0.5\n" * 3, r"a 3 x 3 matrix has more than 2 arms"),
        ("m.csv", b"#" * 70_000, r"kB of text is more than a matrix of at most 2 arms takes"),
    ],
)
def test_the_arm_limit_of_every_format(tmp_path, name, content, message):
    (tmp_path / name).write_bytes(content)
    with pytest.raises(MatrixFileError, match=message):
        load_matrix(tmp_path / name, max_arms=2)


@given(content=st.binary(max_size=300), suffix=st.sampled_from([".csv", ".npy", ".npz"]))
def test_any_bytes_give_a_matrix_or_the_readers_own_error(tmp_path_factory, content, suffix):
    path = tmp_path_factory.mktemp("bytes") / f"m{suffix}"
    path.write_bytes(content)
    try:
        matrix = load_matrix(path)
    except MatrixFileError as error:
        assert str(error).startswith(str(path))
    else:
        assert matrix.ndim == 2 and matrix.shape[0] == matrix.shape[1] >= 1
