import numpy as np
import pytest
from real_data_helpers import write_atp

from cdbandits.comparisons.records import ComparisonLogError
from cdbandits.comparisons.settings import CountPolicy
from cdbandits.experiments.real_data.sources import (
    arxiv_matrix,
    atp_log,
    atp_matrices,
    preflib_keys,
    read_qrels,
    resampled_matrices,
    season_of,
)

MATCHES = [
    ("Clay", "A", "B", "6-1 6-1"),
    ("Clay", "A", "B", "6-1 6-1"),
    ("Grass", "B", "A", "6-4 6-4"),
    ("Hard", "A", "C", "W/O"),
    ("", "C", "B", "6-3 6-3"),
]


def test_atp_log_drops_walkovers_and_reads_surfaces(tmp_path):
    path = write_atp(tmp_path / "atp_matches_2010.csv", MATCHES)
    with pytest.warns(UserWarning):
        plain = atp_log([path])
    assert plain.n_comparisons == 4  # the walkover is not a match
    with pytest.warns(UserWarning):
        surfaces = atp_log([path], context="surface")
    assert sorted(surfaces.contexts) == ["Clay", "Grass"]  # no surface: dropped


def test_period_context_needs_exactly_one_period(tmp_path):
    path = write_atp(tmp_path / "atp_matches_2010.csv", MATCHES[:2])
    log = atp_log([path], context="period", periods={"2010s": (2010, 2019)})
    assert log.contexts == ("2010s",)
    with pytest.raises(ComparisonLogError, match="atp_matches_2010.csv: season 2010 lies in 0"):
        atp_log([path], context="period", periods={"2000s": (2000, 2009)})
    with pytest.raises(ComparisonLogError, match="not an ATP results file"):
        season_of(tmp_path / "matches.csv")


def test_atp_matrices_keep_the_top_players(tmp_path):
    paths = [
        write_atp(tmp_path / "atp_matches_2010.csv", MATCHES[:3]),
        write_atp(tmp_path / "atp_matches_2011.csv", [("Hard", "A", "C", "6-0 6-0")]),
    ]
    (matrix,) = atp_matrices(paths, {"early": (2010, 2011)}, 2, CountPolicy())
    assert matrix.items == ("A", "B")
    # A beat B twice and lost once: P[A, B] = 2 * 2/3 - 1
    assert matrix.matrix[0, 1] == pytest.approx(1 / 3)
    np.testing.assert_allclose(matrix.matrix, -matrix.matrix.T)
    with pytest.raises(ComparisonLogError, match="no ATP results file for \\[2012\\]"):
        atp_matrices(paths, {"late": (2011, 2012)}, 2, CountPolicy())


def test_read_qrels_keeps_relevant_passages_and_names_bad_lines(tmp_path):
    path = tmp_path / "Set-I.qrels"
    path.write_text("1 Q0 p1 1\n1 Q0 p2 0\n2 Q0 p3 2\n\n", encoding="utf-8")
    assert read_qrels(path) == {"1": ("p1",), "2": ("p3",)}
    path.write_text("1 Q0 p1 1\n1 p2 0\n", encoding="utf-8")
    with pytest.raises(ComparisonLogError, match="Set-I.qrels:2: expected"):
        read_qrels(path)


def test_preflib_keys_take_the_first_elections():
    keys = preflib_keys("skate", 3)
    assert len(keys) == 3 and keys == sorted(keys)
    assert all(key.startswith("preflib_00006_") for key in keys)


def test_resampled_matrices_are_skew_and_centred_on_the_counts(tmp_path):
    path = write_atp(tmp_path / "atp_matches_2010.csv", [("Clay", "A", "B", "6-1")] * 30)
    (matrix,) = atp_matrices([path], {"p": (2010, 2010)}, 2, CountPolicy())
    draws = resampled_matrices(matrix, 200, np.random.default_rng(0))
    assert draws.shape == (200, 2, 2)
    np.testing.assert_allclose(draws, -np.swapaxes(draws, 1, 2))
    # Beta(31, 1) posterior of Pr(A beats B): mean 31/32, so P = 2q - 1 has mean 30/32
    assert draws[:, 0, 1].mean() == pytest.approx(30 / 32, abs=0.01)


def test_the_published_arxiv_matrix_has_no_counts(data_mirror):
    matrix = arxiv_matrix(data_mirror / "arxiv-6rankers-yue-joachims/pref_arxiv.txt")
    assert matrix.k == 6 and matrix.log is None
    np.testing.assert_allclose(matrix.matrix, -matrix.matrix.T, atol=1e-9)
    with pytest.raises(ValueError, match="no counts"):
        resampled_matrices(matrix, 2, np.random.default_rng(0))
