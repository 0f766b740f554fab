"""Small files that ask for much, and strategies of log and PrefLib contents, for the CLI tests.

:data:`CRAFTED` holds files of at most a megabyte that, read naively, hang or take gigabytes:
``cdbandits winners`` must answer each at once, within a memory limit. The strategies draw
comparison logs and PrefLib files from tricky pieces (numbers out of range, invisible
characters, quotes, other encodings, broken orders).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import strategies as st


def saved(factory: Any, file: tuple[str, bytes, list[str]]) -> tuple[Path, list[str]]:
    """Write a drawn file into a fresh folder of ``factory`` (``tmp_path_factory``).

    Returns its path and the options to read it with.
    """
    name, content, options = file
    path = factory.mktemp("drawn") / name
    path.write_bytes(content)
    return path, options


def _preflib(kind: str, m: int, body: str, names: str = "") -> bytes:
    return f"# DATA TYPE: {kind}\n# NUMBER ALTERNATIVES: {m}\n{names}{body}".encode()


def _full_orders(m: int, voters: int) -> bytes:
    rng = np.random.default_rng(0)
    orders = "".join(f"1: {','.join(map(str, rng.permutation(m) + 1))}\n" for _ in range(voters))
    return _preflib("soc", m, orders)


def _ring(items: int) -> bytes:
    rows = "".join(f"i{i},i{(i + 1) % items},1\n" for i in range(items))
    return ("first,second,outcome\n" + rows).encode()


def _npz_of_zeros(k: int) -> bytes:
    stream = io.BytesIO()
    np.savez_compressed(stream, PMat=np.zeros((k, k)))
    return stream.getvalue()


def _npy_header(shape: tuple[int, ...]) -> bytes:
    stream = io.BytesIO()
    header = {"descr": "<f8", "fortran_order": False, "shape": shape}
    np.lib.format.write_array_header_1_0(stream, header)
    return stream.getvalue()


#: name -> (file name, content, options, exit status): small files asking for much.
CRAFTED = {
    "a million declared alternatives (73 bytes)": (
        "million.soi",
        _preflib("soi", 10**6, "2: 1,2\n1: 2,1\n1: 3,1\n"),
        ["--resamples", "20"],
        0,
    ),
    "declared alternatives nobody ranked (about 400 bytes)": (
        "unranked.soi",
        _preflib(
            "soi",
            100_000,
            "3: 1,2,3\n2: 3,1\n1: 2,1\n",
            "".join(f"# ALTERNATIVE NAME {i}: Same\n" for i in range(1, 12)),
        ),
        ["--resamples", "20"],
        0,
    ),
    "full orders over 5,000 alternatives (72 KB)": ("full.soc", _full_orders(5000, 3), [], 2),
    "20,000 items (about 300 KB)": ("ring.csv", _ring(20_000), [], 2),
    "an .npz of 8,000 x 8,000 zeros (about 500 KB)": ("bomb.npz", _npz_of_zeros(8000), [], 2),
    "an .npy header of 100,000 x 100,000": ("huge.npy", _npy_header((100_000, 100_000)), [], 2),
    "an .npy header with a zero dimension": ("zero.npy", _npy_header((0, 5)), [], 2),
    "weights of 1e308": (
        "weights.csv",
        b"first,second,outcome,n\na,b,1,1e308\nb,a,1,1e308\n",
        ["--weight", "n"],
        2,
    ),
    "a PrefLib count beyond int64": (
        "count.soc",
        _preflib("soc", 2, "99999999999999999999: 1,2\n"),
        [],
        2,
    ),
    "an order of a million commas and spaces (1 MB)": (
        "commas.soi",
        _preflib("soi", 3, "1: 1" + ", " * 500_000 + "x\n"),
        [],
        2,
    ),
    "30,000 alternatives of one name (about 800 KB)": (
        "names.soi",
        _preflib(
            "soi",
            30_000,
            "1: 1,2\n1: 2,3\n",
            "".join(f"# ALTERNATIVE NAME {i}: A\n" for i in range(1, 30_001)),
        ),
        ["--declared-alternatives", "all"],
        2,
    ),
}

_ITEMS = ["a", "b", "c", "d"]
_TRICKY_ITEMS = ["A", "a\u200b", " b ", "é", '"c"', "", "\u00a0a", "a,b"]
_OUTCOMES = ["1", "0", "0.5", "tie", "first", "second"]
_TRICKY_OUTCOMES = ["2", "nan", "", "x"]
_WEIGHTS = ["1", "2", "3", "10"]
_TRICKY_WEIGHTS = ["0", "-1", "2.5", "1e-300", "1e19", "1e308", "inf", "x", "9007199254740993"]
_TRICKY_ENCODINGS = ["latin-1", "utf-16", "cp1252"]


@st.composite
def log_files(draw: st.DrawFn) -> tuple[str, bytes, list[str]]:
    """A comparison log file (name, bytes) and options to read it with.

    A clean log, then in about half of the draws one defect: a tricky field, a missing
    column, another encoding or a NUL byte.
    """
    weighted = draw(st.booleans())
    header = ["first", "second", "outcome"] + (["n"] if weighted else [])
    pairs = [[first, second] for first in _ITEMS for second in _ITEMS if first != second]
    fields = [st.sampled_from(pairs), st.sampled_from(_OUTCOMES)]
    if weighted:
        fields.append(st.sampled_from(_WEIGHTS))
    row = st.tuples(*fields).map(lambda drawn: [*drawn[0], *drawn[1:]])
    rows = draw(st.lists(row, max_size=12))
    defect = draw(st.sampled_from(["none", "none", "none", "field", "header", "encoding", "nul"]))
    if defect == "field" and rows:
        row, column = draw(st.integers(0, len(rows) - 1)), draw(st.integers(0, len(header) - 1))
        tricky = [_TRICKY_ITEMS, _TRICKY_ITEMS, _TRICKY_OUTCOMES, _TRICKY_WEIGHTS][column]
        rows[row][column] = draw(st.sampled_from(tricky))
    if defect == "header":
        header = draw(st.lists(st.sampled_from(["first", "second", "x", "outcome"]), max_size=4))
    separator = draw(st.sampled_from([",", "\t"]))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join(separator.join(row) for row in [header, *rows]) + end
    encoding = "utf-8" if defect != "encoding" else draw(st.sampled_from(_TRICKY_ENCODINGS))
    content = text.encode(encoding, errors="replace")
    if draw(st.booleans()):
        content = b"\xef\xbb\xbf" + content if encoding == "utf-8" else content
    if defect == "nul":
        content = content[: len(content) // 2] + b"\0" + content[len(content) // 2 :]
    name = "log.csv" if separator == "," else "log.tsv"
    return name, content, ["--weight", "n"] if weighted else []


_BROKEN_ORDERS = ["1,,2", "{1,2", "1}", "x", "0", "99999999999999999999", "1,1", "{}", "1 2"]


@st.composite
def _order(draw: st.DrawFn, m: int, strict: bool) -> str:
    """A ranking of some of ``m`` alternatives, tied ones in braces unless ``strict``."""
    ranked = draw(st.permutations(range(1, m + 1)))
    groups, position = [], 0
    while position < len(ranked):
        size = 1 if strict else draw(st.integers(1, 2))
        group = [str(a) for a in ranked[position : position + size]]
        groups.append(group[0] if len(group) == 1 else "{" + ",".join(group) + "}")
        position += size
    return ",".join(groups[: draw(st.integers(1, len(groups)))])


@st.composite
def preflib_files(draw: st.DrawFn) -> tuple[str, bytes, list[str]]:
    """A PrefLib file (name, bytes) and options to read it with.

    A valid election, then in about half of the draws one defect: a broken order or count,
    a wrong header, a name of an undeclared alternative or another encoding.
    """
    kind = draw(st.sampled_from(["soi", "toi", "soc", "toc"]))
    m = draw(st.integers(1, 5))
    strict = kind in ("soc", "soi")
    orders = []
    for _ in range(draw(st.integers(0, 5))):
        order = draw(_order(m, strict))
        if kind in ("soc", "toc"):  # complete orders
            order = ",".join(str(a) for a in draw(st.permutations(range(1, m + 1))))
        orders.append(f"{draw(st.integers(1, 3))}: {order}")
    names = [f"# ALTERNATIVE NAME {i}: {draw(st.sampled_from(_ITEMS))}" for i in range(1, m + 1)]
    header = [f"# DATA TYPE: {kind}", f"# NUMBER ALTERNATIVES: {m}"]
    defect = draw(
        st.sampled_from(["none"] * 4 + ["order", "count", "declared", "type", "name", "encoding"])
    )
    if defect == "order" and orders:
        orders[-1] = f"1: {draw(st.sampled_from(_BROKEN_ORDERS))}"
    if defect == "count" and orders:
        count = draw(st.sampled_from(["0", "-1", "", "99999999999999999999", "x"]))
        orders[-1] = f"{count}: {orders[-1].partition(': ')[2]}"
    if defect == "declared":
        header[1] = f"# NUMBER ALTERNATIVES: {draw(st.sampled_from(['0', 'x', '1000000']))}"
    if defect == "type":
        header[0] = "# DATA TYPE: soc" if kind != "soc" else "# DATA TYPE: toi"
    if defect == "name":
        names.append(f"# ALTERNATIVE NAME {m + 1}: {draw(st.sampled_from(_TRICKY_ITEMS))}")
    text = "\n".join([*header, *names, *orders]) + "\n"
    encoding = "utf-8" if defect != "encoding" else draw(st.sampled_from(_TRICKY_ENCODINGS))
    names_text = text if encoding == "utf-8" else text.replace("a", "é")
    content = names_text.encode(encoding, errors="replace")
    options = draw(
        st.sampled_from(
            [
                [],
                [],
                ["--unranked", "below"],
                ["--declared-alternatives", "all"],
                ["--ties", "drop"],
            ]
        )
    )
    return f"election.{kind}", content, options
