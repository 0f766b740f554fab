import contextlib
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from cdbandits import winners
from cdbandits.cli import main
from cdbandits.paper_examples import five_arm_matrix
from cdbandits.preference import as_skew
from cdbandits.winners import CERTIFICATE_TOL, COPELAND_VARIANTS

INFORMATIONAL = "mslr-preference-matrices/nightingal3-duelling-bandits/MSLR_Informational_PMat.npz"


def run_json(capsys, *arguments):
    assert main(["winners", *map(str, arguments), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_informational_matrix_has_no_condorcet_winner_and_a_certified_vnw(capsys, data_mirror):
    result = run_json(capsys, data_mirror / INFORMATIONAL)
    assert result["K"] == 136
    assert result["convention"] == "probability"
    assert result["condorcet"] is None
    vnw = result["von_neumann"]
    assert vnw["support"] == [64, 109, 114]
    assert vnw["exploitability"] >= -CERTIFICATE_TOL
    assert abs(sum(vnw["weights"]) - 1) < 1e-12
    assert {"solver", "status"} <= set(vnw)
    assert set(result["copeland"]) == set(COPELAND_VARIANTS)
    assert result["copeland"]["wins"]["winners"] == [114]
    assert len(result["borda"]["scores"]) == 136
    assert len(result["random_walk"]["distribution"]) == 136


@pytest.mark.parametrize("suffix", [".csv", ".txt", ".npy", ".npz"])
def test_every_format_and_convention(tmp_path, capsys, suffix):
    P = five_arm_matrix()
    Q = (P + 1) / 2
    path = tmp_path / f"five{suffix}"
    if suffix == ".csv":
        np.savetxt(path, P, delimiter=",")
    elif suffix == ".txt":
        np.savetxt(path, Q)
    elif suffix == ".npy":
        np.save(path, P)
    else:
        np.savez(path, Q=Q, P=P)
    extra = ["--key", "Q"] if suffix == ".npz" else []
    result = run_json(capsys, path, *extra)
    assert result["convention"] == ("skew" if suffix in (".csv", ".npy") else "probability")
    assert result["von_neumann"]["support"] == [0, 1, 2]
    assert result["copeland"]["wins"]["winners"] == [3]
    assert result["borda"]["winners"] == [3]


def test_forced_convention_and_text_output(tmp_path, capsys):
    path = tmp_path / "five.npy"
    np.save(path, five_arm_matrix())
    assert main(["winners", str(path), "--convention", "probability"]) == 2
    assert f"{path}: entry (0, 2) = -0.5 is outside [0, 1]" in capsys.readouterr().err
    assert main(["winners", str(path), "--convention", "skew", "--solver", "HIGHS"]) == 0
    text = capsys.readouterr().out
    assert "Condorcet winner: none" in text
    assert "von Neumann winner: 0: 0.333333, 1: 0.333333, 2: 0.333333" in text
    assert "solver HIGHS" in text


def run(path, *options):
    """``cdbandits winners PATH --json OPTIONS`` in this process.

    Returns the exit status, standard output, standard error and the skew-form matrix the
    command handed to the solver (None if it stopped before). An exception escaping the
    command fails the calling test: the user would have seen a traceback.
    """
    solved = []
    solve = winners.all_winners

    def spy(P, solver=None, engine="compiled"):
        solved.append(np.array(P, copy=True))
        return solve(P, solver=solver, engine=engine)

    out, err = io.StringIO(), io.StringIO()
    with (
        mock.patch.object(winners, "all_winners", spy),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            status = main(["winners", str(path), "--json", *map(str, options)])
        except SystemExit as exit_:
            status = exit_.code
    return status, out.getvalue(), err.getvalue(), (solved[0] if solved else None)


def assert_rejected_naming_the_file(status, err, path):
    assert status == 2, err
    assert err.startswith(f"cdbandits winners: {path}"), err
    assert err.count("\n") == 1, err  # one line, no traceback


Q2 = "0.5,0.75\n0.25,0.5\n"
P2 = np.array([[0.0, 0.5], [-0.5, 0.0]])


def npy_bytes(array, **kwargs) -> bytes:
    stream = io.BytesIO()
    np.save(stream, array, **kwargs)
    return stream.getvalue()


def npz_bytes(compressed=False, **arrays) -> bytes:
    stream = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(stream, **arrays)
    return stream.getvalue()


# Every case of issue 16 ("The command line and the library"): the file, the options, then
# either the matrix that must be solved or the message (after the file name) of exit 2.
ISSUE_CASES = {
    "empty npy": ("m.npy", b"", [], ": is empty; expected a .npy file"),
    "garbage npy": ("m.npy", b"\x00\x01garbage" * 9, [], ": is not a .npy file"),
    "empty npz": ("m.npz", b"", [], ": is empty; expected a .npz file"),
    "garbage npz": ("m.npz", b"garbage" * 9, [], ": is not a zip archive"),
    "zip header and junk": ("m.npz", b"PK\x03\x04" + b"junk" * 9, [], ": is not a zip archive"),
    "object npy": (
        "m.npy",
        npy_bytes(np.array([[0.5]], dtype=object), allow_pickle=True),
        [],
        ": holds Python objects (dtype object, only readable with pickle); expected a matrix",
    ),
    "object npz": (
        "m.npz",
        npz_bytes(PMat=np.array([[0.5]], dtype=object)),
        [],
        ", array 'PMat': holds Python objects",
    ),
    "binary csv": ("m.csv", bytes(range(256)), [], ":1: holds a NUL byte; this is a binary file"),
    "latin-1 comment": (
        "m.csv",
        "# Zoë's matrix\n".encode("latin-1") + Q2.encode(),
        [],
        ":1: byte 0xEB at column 5 is not UTF-8; save the file as UTF-8",
    ),
    "1x1 zero csv": ("m.csv", b"0\n", [], np.zeros((1, 1))),
    "1x1 zero txt": ("m.txt", b"0", [], np.zeros((1, 1))),
    "tol passed on": (
        "m.csv",
        b"0.5,1.05\n-0.05,0.5\n",
        ["--tol", "0.1"],
        np.array([[0, 1], [-1, 0]]),
    ),
    "tol out of range": ("m.csv", b"0.5,1.05\n-0.05,0.5\n", [], ": entry (0, 1) = 1.05 is outside"),
    "complex npy": ("m.npy", npy_bytes(np.array([[0.5 + 0.1j]])), [], ": holds complex numbers"),
    "typo in first row": (
        "m.csv",
        b"0.5,O.7\n0.3,0.5\n",
        [],
        ":1: entry 2 is 'O.7', which is not a number",
    ),
    "utf-8 bom": ("m.csv", b"\xef\xbb\xbf" + Q2.encode(), [], P2),
    "semicolons": ("m.csv", Q2.replace(",", ";").encode(), [], P2),
    "semicolons, decimal commas": ("m.csv", b"0,5;0,75\n0,25;0,5\n", [], P2),
    "quoted": ("m.csv", b'"a","b"\n"0.5","0.75"\n"0.25","0.5"\n', [], P2),
    "trailing commas": ("m.csv", b"0.5,0.75,\n0.25,0.5,\n", [], P2),
    "empty entry": ("m.csv", b"0.5,,0.75\n", [], ":1: entry 2 is empty; expected a number"),
    "unbalanced quote": ("m.csv", b'"0.5,0.75\n', [], ":1: misplaced or unbalanced quote"),
    "decimal comma with commas": (
        "m.csv",
        b'"0,5","0,75"\n',
        [],
        ":1: entry 1 is '0,5', which is not a number; entries are separated by ',' in this file "
        "(a decimal comma is read only when entries are separated by ';')",
    ),
    "nan": ("m.csv", b"0.5,nan\n0.5,0.5\n", [], ":1: entry 2 is 'nan'; every entry must be"),
    "nan npy": ("m.npy", npy_bytes(np.array([[np.nan]])), [], ": entry (0, 0) is nan"),
    "range": ("m.csv", b"0.5,1.2\n-0.2,0.5\n", [], ": entry (0, 1) = 1.2 is outside [0, 1]"),
    "symmetry": ("m.npy", npy_bytes(np.array([[0.5, 0.7], [0.4, 0.5]])), [], ": entries (0, 1)"),
    "diagonal": ("m.txt", b"0.5 0.5\n0.5 0.4\n", [], ": diagonal entry (1, 1) = 0.4; a prob"),
    "header of names": ("m.csv", b"arm a,arm b\n" + Q2.encode(), [], P2),
    "size line": ("m.txt", b"2\n0.5 0.75\n0.25 0.5\n", [], P2),
    "numeric header": (
        "m.csv",
        b"0,1\n" + Q2.encode(),
        [],
        ": expected a square K x K matrix, got 3 rows of 2 entries (if line 1 is a header of "
        "column names, remove it or make every field non-numeric)",
    ),
    "second header": (
        "m.csv",
        b"a,b\nc,d\n" + Q2.encode(),
        [],
        ":2: entry 1 is 'c', which is not a number",
    ),
    "key on a csv": ("m.csv", Q2.encode(), ["--key", "PMat"], ": a key only applies to .npz"),
    "forced convention": (
        "m.csv",
        Q2.encode(),
        ["--convention", "skew"],
        ": diagonal entry (0, 0)",
    ),
}


@pytest.mark.parametrize("case", ISSUE_CASES)
def test_issue_cases(tmp_path, case):
    name, content, options, expected = ISSUE_CASES[case]
    path = tmp_path / name
    path.write_bytes(content)
    status, out, err, P = run(path, *options)
    if isinstance(expected, str):
        assert_rejected_naming_the_file(status, err, path)
        assert err.startswith(f"cdbandits winners: {path}{expected}"), err
        assert P is None and out == ""
    else:
        assert status == 0, err
        np.testing.assert_array_equal(P, expected)
        assert json.loads(out)["K"] == len(expected)


@pytest.mark.parametrize("tol", ["nan", "inf", "-inf", "-1e-9", "0.25", "1", "abc", ""])
def test_invalid_tolerances_exit_2_before_reading(tmp_path, tol):
    path = tmp_path / "m.csv"
    path.write_text(Q2)
    status, out, err, P = run(path, f"--tol={tol}")
    assert status == 2 and P is None and out == ""
    assert "error: argument --tol: " in err and "Traceback" not in err
    assert ("expected a number" if tol in ("abc", "") else "tolerance must be") in err


def test_directory_and_missing_file(tmp_path):
    for path, message in [(tmp_path, "is a directory"), (tmp_path / "no.csv", "no such file")]:
        status, _, err, _ = run(path)
        assert_rejected_naming_the_file(status, err, path)
        assert message in err


def test_command_module_imports_only_the_standard_library():
    """``cdbandits --help`` and argument errors need no numpy, no reader and no solver."""
    code = (
        "import sys, cdbandits; before = set(sys.modules); import cdbandits.cli; "
        "print('\\n'.join(sorted(set(sys.modules) - before)))"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    new = set(completed.stdout.split())
    assert "cdbandits.cli" in new
    outside = {
        name
        for name in new - {"cdbandits.cli"}
        if name.split(".")[0] not in sys.stdlib_module_names
    }
    assert not outside, outside


def test_a_small_matrix_is_solved_without_numba_pandas_or_scipy(tmp_path):
    """The modules a one-matrix command loads: what made it take seconds is left out."""
    path = tmp_path / "five.csv"
    np.savetxt(path, five_arm_matrix(), delimiter=",")
    code = (
        "import sys; from cdbandits.cli import main; status = main(['winners', sys.argv[1]]); "
        "print(status, sorted(name for name in ('numba', 'pandas', 'scipy', 'cvxpy') "
        "if name in sys.modules), file=sys.stderr)"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    assert completed.stderr == "0 []\n"
    assert "von Neumann winner: 0: 0.333333, 1: 0.333333, 2: 0.333333" in completed.stdout
    assert "solver numpy_interior_point" in completed.stdout


@pytest.mark.parametrize("engine", ["compiled", "numpy"])
def test_engine_option_chooses_the_solver_of_the_same_winner(tmp_path, capsys, engine):
    path = tmp_path / "twelve.npy"
    P = np.triu(np.random.default_rng(5).uniform(-1, 1, (12, 12)), 1)
    np.save(path, P - P.T)
    default = run_json(capsys, path)["von_neumann"]
    chosen = run_json(capsys, path, "--engine", engine)["von_neumann"]
    assert default["solver"] == "numpy_interior_point"
    assert chosen["solver"] == ("simplex" if engine == "compiled" else default["solver"])
    assert chosen["support"] == default["support"]
    np.testing.assert_allclose(chosen["weights"], default["weights"], rtol=0, atol=1e-12)
    with pytest.raises(SystemExit) as exit_:
        main(["winners", str(path), "--engine", "fast"])
    assert exit_.value.code == 2 and "invalid choice: 'fast'" in capsys.readouterr().err


# --- property tests: any file content ---------------------------------------------------


@st.composite
def preference_matrices(draw):
    """A valid matrix, K = 1..4, in probability or skew form."""
    k = draw(st.integers(1, 4))
    upper = np.triu(draw(hnp.arrays(np.float64, (k, k), elements=st.floats(-1, 1))), 1)
    skew = upper - upper.T
    if draw(st.booleans()):
        return skew
    probability = np.triu((skew + 1) / 2, 1)
    return probability + np.tril(1 - probability.T, -1) + np.diag(np.full(k, 0.5))


HEADER_NAMES = st.text("abcdgh_ ", min_size=1, max_size=5).filter(str.strip)


@st.composite
def rendered_text(draw, matrix):
    """The text of ``matrix`` in one of the accepted dialects (every number exact)."""
    separator = draw(st.sampled_from([",", ";", " ", "\t", ", ", " ; ", "  "]))
    delimited = separator.strip() in (",", ";")
    number = draw(st.sampled_from([repr, "{:.17g}".format, "{:.17e}".format]))
    quoted = delimited and draw(st.booleans())
    trailing = separator.strip() if delimited and draw(st.booleans()) else ""
    # "0,5" alone is ambiguous (two entries?): a decimal comma needs a ';' in the row
    decimal_comma = separator.strip() == ";" and (len(matrix) > 1 or trailing)
    decimal_comma = decimal_comma and draw(st.booleans())

    def entry(value):
        text = number(float(value))
        text = text.replace(".", ",") if decimal_comma else text
        return f'"{text}"' if quoted else text

    lines = [separator.join(map(entry, row)) + trailing for row in matrix]
    first = draw(st.sampled_from(["none", "header", "size"]))
    if first == "header":
        names = draw(st.lists(HEADER_NAMES, min_size=len(matrix), max_size=len(matrix)))
        lines.insert(0, (separator if delimited else "_").join(names))
    elif first == "size":
        lines.insert(0, str(len(matrix)))
    for _ in range(draw(st.integers(0, 3))):
        position = draw(st.integers(0, len(lines)))
        lines.insert(position, draw(st.sampled_from(["", "   ", "# a comment, 1; 2", "#"])))
    indent = draw(st.sampled_from(["", " ", "\t"]))
    line_end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = line_end.join(indent + line for line in lines)
    text += line_end if draw(st.booleans()) else ""
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + text.encode()


@st.composite
def mutated(draw, content):
    """``content`` after 1-3 random edits: inserted, deleted or replaced bytes, truncation."""
    data = bytearray(content)
    near_misses = st.sampled_from([b"0", b"1", b".", b",", b";", b"\n", b"#", b'"', b"-", b"e"])
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["insert", "delete", "replace", "truncate"]))
        position = draw(st.integers(0, len(data)))
        if kind == "insert":
            data[position:position] = draw(near_misses | st.binary(min_size=1, max_size=3))
        elif kind == "delete":
            del data[position : position + draw(st.integers(1, 4))]
        elif kind == "replace" and position < len(data):
            data[position] = draw(st.integers(0, 255))
        else:
            del data[position:]
    return bytes(data)


def text_contents():
    rendered = preference_matrices().flatmap(rendered_text)
    return st.one_of(
        st.binary(max_size=200),
        st.text(max_size=100).map(str.encode),
        st.text("0123456789.,;-+eE \n\r\t#\"'nafO", max_size=60).map(str.encode),
        rendered,
        rendered.flatmap(mutated),
    )


def reference_text_matrix(content: bytes) -> np.ndarray:
    """The matrix of a text file by the README's rules, written apart from matrix_io."""
    text = content.decode("utf-8-sig")
    lines = [line.strip() for line in io.StringIO(text, newline=None)]
    lines = [line for line in lines if line and not line.startswith("#")]

    def is_number(field):
        if not set(field) <= set("0123456789+-.eE"):
            return False
        try:
            float(field)
        except ValueError:
            return False
        return True

    first = re.split("[;,]", lines[0]) if re.search("[;,]", lines[0]) else lines[0].split()
    header = not any(is_number(field.strip().strip("\"'")) for field in first)
    lines = lines[header:]
    separator = next(
        (";" if ";" in line else "," for line in lines if re.search("[;,]", line)), None
    )
    rows = []
    for line in lines:
        fields = line.split() if separator is None else [f.strip() for f in line.split(separator)]
        if separator and len(fields) > 1 and not fields[-1]:
            fields.pop()
        fields = [f[1:-1] if len(f) > 1 and f[0] == f[-1] == '"' else f for f in fields]
        rows.append([f.replace(",", ".") if separator == ";" else f for f in fields])
    size = rows[0][0] if len(rows[0]) == 1 else ""
    if not header and re.fullmatch("[0-9]+", size) and int(size) == len(rows) - 1 > 0:
        rows = rows[1:]
    return np.array(rows, dtype=np.float64)


def check_file(suffix, content, reference):
    """Run the command on ``content``: it solves the reference matrix or exits 2 naming the file."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"input{suffix}"
        path.write_bytes(content)
        status, out, err, P = run(path)
        event(f"exit status {status}")
        if status == 0:
            np.testing.assert_array_equal(P, as_skew(reference(path)))
            assert json.loads(out)["K"] == len(P)
        else:
            assert_rejected_naming_the_file(status, err, path)
        return status


@pytest.mark.parametrize("suffix", [".csv", ".txt"])
@given(content=text_contents())
def test_any_text_file_is_solved_as_written_or_rejected_naming_the_file(suffix, content):
    check_file(suffix, content, lambda path: reference_text_matrix(path.read_bytes()))


@pytest.mark.parametrize("suffix", [".csv", ".txt"])
@given(data=st.data())
def test_every_accepted_text_dialect_is_solved_exactly(suffix, data):
    matrix = data.draw(preference_matrices())
    content = data.draw(rendered_text(matrix))
    assert check_file(suffix, content, lambda path: matrix) == 0


ARRAY_DTYPES = [
    np.float64, np.float32, np.float16, ">f8", np.int64, np.int8, np.uint8,
    np.complex128, np.bool_, "<U3", np.dtype([("a", "f8")]),
]  # fmt: skip


@st.composite
def arrays_to_save(draw):
    """A valid matrix in a real dtype, or an array of any dtype and shape."""
    if draw(st.booleans()):
        matrix = draw(preference_matrices())
        if draw(st.booleans()):
            matrix = np.asfortranarray(matrix)
        return matrix.astype(draw(st.sampled_from([np.float64, ">f8", np.float32])))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3))
    if draw(st.booleans()):
        return np.full(shape, draw(st.sampled_from([0.5, "a", None])), dtype=object)
    return draw(hnp.arrays(draw(st.sampled_from(ARRAY_DTYPES)), shape))


def maybe_mutated(contents):
    return contents.flatmap(lambda content: st.just(content) | mutated(content))


NPY_CONTENTS = st.one_of(
    st.binary(max_size=300),
    maybe_mutated(arrays_to_save().map(lambda array: npy_bytes(array, allow_pickle=True))),
)


@st.composite
def zip_archives(draw):
    """Zip archives of .npy files (as numpy.savez writes) or of other members."""
    if draw(st.booleans()):
        names = st.sampled_from(["PMat", "Q", "a"])
        arrays = draw(st.dictionaries(names, arrays_to_save(), max_size=3))
        return npz_bytes(compressed=draw(st.booleans()), **arrays)
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w") as archive:
        for name in draw(st.sets(st.sampled_from(["PMat.npy", "x.txt", "d/", "d/a.npy"]))):
            archive.writestr(name, draw(st.binary(max_size=40)))
    return stream.getvalue()


NPZ_CONTENTS = st.one_of(
    st.binary(max_size=300),
    st.binary(max_size=100).map(lambda junk: b"PK\x03\x04" + junk),
    maybe_mutated(arrays_to_save().map(lambda array: npz_bytes(PMat=array))),
    maybe_mutated(zip_archives()),
)


def reference_npz_matrix(path):
    with np.load(path, allow_pickle=False) as archive:
        names = [name for name in archive.files if f"{name}.npy" in archive.zip.namelist()]
        return archive[names[0] if len(names) == 1 else "PMat"]


@given(content=NPY_CONTENTS)
def test_any_npy_file_is_solved_as_numpy_reads_it_or_rejected_naming_the_file(content):
    check_file(".npy", content, lambda path: np.load(path, allow_pickle=False))


@given(content=NPZ_CONTENTS)
def test_any_npz_file_is_solved_as_numpy_reads_it_or_rejected_naming_the_file(content):
    check_file(".npz", content, reference_npz_matrix)


def test_installed_command_prints_clean_json_with_a_chatty_solver(tmp_path):
    beside_python = Path(sys.executable).parent / "cdbandits"
    command = str(beside_python) if beside_python.is_file() else shutil.which("cdbandits")
    if command is None:
        pytest.fail("the cdbandits command is not installed")
    path = tmp_path / "five.npy"
    np.save(path, five_arm_matrix())
    completed = subprocess.run(
        [command, "winners", str(path), "--json", "--solver", "HIGHS"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(completed.stdout)["von_neumann"]["solver"] == "HIGHS"
    completed = subprocess.run(
        [sys.executable, "-m", "cdbandits.cli", "winners", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(completed.stdout)["K"] == 5
    (tmp_path / "empty.npy").write_bytes(b"")
    completed = subprocess.run(
        [command, "winners", str(tmp_path / "empty.npy")], capture_output=True, text=True
    )
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr == f"cdbandits winners: {tmp_path / 'empty.npy'}: is empty; " + (
        "expected a .npy file (as numpy.save writes)\n"
    )


def npy_header(shape):
    stream = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        stream, {"descr": "<f8", "fortran_order": False, "shape": shape}
    )
    return stream.getvalue()


@pytest.mark.parametrize(
    ("name", "content", "options", "message"),
    [
        (
            "bomb.npz",
            npz_bytes(PMat=np.zeros((2500, 2500))),
            [],
            r", array 'PMat': a 2500 x 2500 matrix has more than 2000 arms, the limit; its "
            r"winners would need about [\d.]+ MB of memory \(--max-items 2500 raises the limit\)",
        ),
        ("huge.npy", npy_header((10**5, 10**5)), [], r": a 100000 x 100000 matrix has more"),
        ("small.npy", npy_bytes(np.zeros((3, 3))), ["--max-items", "2"], r": a 3 x 3 matrix"),
        ("m.csv", Q2.encode(), ["--max-items", "1"], r": a 2 x 2 matrix has more than 1 arm,"),
        (
            "m.csv",
            b"# " + b"x" * 70_000 + b"\n" + Q2.encode(),
            ["--max-items", "2"],
            r": 70 kB of text is more than a matrix of at most 2 arms takes \(the limit",
        ),
        ("zero.npy", npy_header((0, 5)), [], r": expected a square K x K matrix with K >= 1"),
        ("m.csv", Q2.encode(), ["--top", "2"], r"--top applies to --pairs logs, not to a matrix"),
        ("m.csv", Q2.encode(), ["--seed", "4"], r"--seed applies to --pairs logs"),
        ("m.csv", Q2.encode(), ["--solver", "NO_SUCH_SOLVER"], r"--solver: 'NO_SUCH_SOLVER' is"),
        ("m.csv", Q2.encode(), ["--max-items", "0"], r"argument --max-items: expected a positive"),
    ],
)
def test_matrix_limits_modes_and_solvers_exit_2(tmp_path, name, content, options, message):
    path = tmp_path / name
    path.write_bytes(content)
    try:
        status, out, err, P = run(path, *options)
    except SystemExit as error:  # argparse
        status, out, err, P = error.code, "", "", None
    assert status == 2 and out == "" and P is None
    assert "Traceback" not in err
    assert re.search(message, err.splitlines()[-1]), err
    assert err.count("\n") == 1 or err.startswith("usage: "), err


def test_matrix_limit_and_mode_messages(tmp_path, capsys):
    path = tmp_path / "bomb.npz"
    path.write_bytes(npz_bytes(PMat=np.zeros((2500, 2500))))
    assert main(["winners", str(path)]) == 2
    assert re.fullmatch(
        f"cdbandits winners: {re.escape(str(path))}, array 'PMat': a 2500 x 2500 matrix has "
        r"more than 2000 arms, the limit; its winners would need about [\d.]+ MB of memory "
        r"\(--max-items 2500 raises the limit\)\n",
        capsys.readouterr().err,
    )
    csv = tmp_path / "m.csv"
    csv.write_text(Q2)
    assert main(["winners", str(csv), "--top", "2"]) == 2
    assert capsys.readouterr().err == (
        "cdbandits winners: --top applies to --pairs logs, not to a matrix file\n"
    )
    assert main(["winners", str(csv), "--solver", "no_such_solver"]) == 2
    assert re.fullmatch(
        r"cdbandits winners: --solver: 'no_such_solver' is not an installed cvxpy solver; "
        r"installed: .*HIGHS.*\n",
        capsys.readouterr().err,
    )


def test_matrix_report_to_a_full_disk_or_a_closed_pipe(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text(Q2)
    command = [sys.executable, "-m", "cdbandits.cli", "winners", str(path), "--json"]
    with open("/dev/full", "w") as full:
        completed = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, text=True)
    assert completed.returncode == 2
    assert completed.stderr == (
        "cdbandits winners: cannot write the report to standard output: No space left on device\n"
    )
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    assert process.stderr.read() == b"" and process.wait() == 1
