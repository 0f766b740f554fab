import numpy as np
import pytest

from cdbandits.matrix_io import MatrixFileError, load_matrix

Q = np.array([[0.5, 0.7, 0.2], [0.3, 0.5, 0.6], [0.8, 0.4, 0.5]])


def test_formats_round_trip(tmp_path):
    np.save(tmp_path / "m.npy", Q)
    np.savez(tmp_path / "m.npz", PMat=Q, other=np.eye(2))
    np.savez(tmp_path / "single.npz", anything=Q)
    np.savetxt(tmp_path / "m.txt", Q)
    np.savetxt(tmp_path / "m.csv", Q, delimiter=",")
    (tmp_path / "named.csv").write_text("a,b,c\n" + "\n".join(",".join(map(str, r)) for r in Q))
    (tmp_path / "dts.txt").write_text("3\n" + "\n".join(" ".join(map(str, r)) for r in Q))
    for name in ("m.npy", "m.npz", "single.npz", "m.txt", "m.csv", "named.csv", "dts.txt"):
        np.testing.assert_array_equal(load_matrix(tmp_path / name), Q, err_msg=name)
    np.testing.assert_array_equal(load_matrix(tmp_path / "m.npz", key="other"), np.eye(2))


def test_mergedts_and_dts_files(data_mirror):
    folder = data_mirror / "mslr-preference-matrices"
    perfect = load_matrix(folder / "chang-li-MergeDTS/MSLR-Perfect.txt")
    published = load_matrix(folder / "nightingal3-duelling-bandits/MSLR_Perfect_PMat.npz")
    np.testing.assert_array_equal(perfect, published)
    assert load_matrix(
        folder / "HuasenWu-DuelingBandits/MSLR_Informational_5_Condorcet.txt"
    ).shape == (5, 5)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bad.txt", "0.5 0.2\n0.8 x\n", r"bad.txt:2: cannot read 'x' as a number"),
        (
            "ragged.txt",
            "0.5 0.2\n\n0.8\n",
            r"ragged.txt:3: row has 1 entries, but the first row has 2",
        ),
        (
            "rect.csv",
            "0.5,0.2,0.1\n0.8,0.5,0.3\n",
            r"expected a square K x K matrix, got shape \(2, 3\)",
        ),
        ("empty.csv", "# nothing\n", "no numeric rows found"),
    ],
)
def test_text_errors_name_file_and_line(tmp_path, name, content, message):
    (tmp_path / name).write_text(content)
    with pytest.raises(MatrixFileError, match=message):
        load_matrix(tmp_path / name)


def test_npz_errors(tmp_path):
    np.savez(tmp_path / "two.npz", a=Q, b=Q)
    with pytest.raises(MatrixFileError, match="holds several arrays"):
        load_matrix(tmp_path / "two.npz")
    with pytest.raises(MatrixFileError, match="no array named 'c'"):
        load_matrix(tmp_path / "two.npz", key="c")
    np.save(tmp_path / "m.npy", Q)
    with pytest.raises(MatrixFileError, match="only applies to .npz"):
        load_matrix(tmp_path / "m.npy", key="a")
    with pytest.raises(FileNotFoundError, match="no such file"):
        load_matrix(tmp_path / "missing.npy")
