"""Atomic, deterministic file writing (cdbandits.files)."""

import json
import os
import stat

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from cdbandits.files import atomic_path, copy_file, save_figure, write_csv, write_json, write_text


def test_atomic_path_leaves_nothing_behind_on_failure(tmp_path):
    target = tmp_path / "deep" / "out.txt"
    with pytest.raises(RuntimeError):
        with atomic_path(target) as temporary:
            temporary.write_text("partial")
            raise RuntimeError("boom")
    assert not target.exists()
    assert list(target.parent.iterdir()) == []


def test_json_is_sorted_and_converts_numpy(tmp_path):
    path = tmp_path / "x.json"
    write_json(path, {"b": np.arange(2), "a": np.float64(0.5), "c": {np.int64(3): np.bool_(True)}})
    assert (
        path.read_text()
        == '{\n  "a": 0.5,\n  "b": [\n    0,\n    1\n  ],\n  "c": {\n    "3": true\n  }\n}\n'
    )
    with pytest.raises(ValueError):
        write_json(path, {"nan": float("nan")})
    assert json.loads(path.read_text())["a"] == 0.5


def test_csv_round_trips_floats_exactly(tmp_path):
    table = pd.DataFrame({"x": [1 / 3, np.pi * 1e-17]})
    write_csv(tmp_path / "t.csv", table)
    assert pd.read_csv(tmp_path / "t.csv")["x"].tolist() == table["x"].tolist()


def test_figures_are_byte_identical_across_saves(tmp_path):
    figure, axes = plt.subplots()
    axes.plot([0, 1], [1, 0])
    save_figure(figure, tmp_path / "a.png", tmp_path / "a.pdf")
    save_figure(figure, tmp_path / "b.png", tmp_path / "b.pdf")
    plt.close(figure)
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_written_files_respect_the_umask(tmp_path, umask):
    previous = os.umask(umask)
    try:
        write_text(tmp_path / "result.txt", "x")
        copy_file(tmp_path / "result.txt", tmp_path / "copy.txt")
    finally:
        os.umask(previous)
    for name in ("result.txt", "copy.txt"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o666 & ~umask


def test_copy_file_copies_bytes(tmp_path):
    (tmp_path / "a.bin").write_bytes(bytes(range(256)))
    copy_file(tmp_path / "a.bin", tmp_path / "deep" / "b.bin")
    assert (tmp_path / "deep" / "b.bin").read_bytes() == bytes(range(256))
