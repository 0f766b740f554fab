import json

import numpy as np
import pandas as pd
from real_data_helpers import make_log, transitive

from cdbandits.comparisons.counts import count_pairs
from cdbandits.experiments.real_data.experiments import matrix_summary, subset_counts
from cdbandits.experiments.real_data.settings import SubsetSettings
from cdbandits.experiments.real_data.sources import RealMatrix
from cdbandits.experiments.real_data.tables import (
    cross_dataset_markdown,
    cross_dataset_table,
    read_series_counts,
    series_claims,
    series_overview,
    series_tables,
)

SETTINGS = SubsetSettings(
    samples_per_k=30, ks=(2, 3, 4), resamples=0, confidence=0.95, interval="clopper-pearson", seed=1
)


def counted(matrices, resamples=0):
    settings = SETTINGS.model_copy(update={"resamples": resamples})
    return subset_counts(matrices, settings)


def transitive_real(name="t"):
    return RealMatrix("arxiv", name, "", tuple("abcd"), transitive(4), None)


def test_per_k_shares_of_a_transitive_matrix_and_no_band_without_counts():
    matrices = [transitive_real()]
    tables = series_tables(counted(matrices), pd.DataFrame([matrix_summary(matrices[0])]))
    per_k = tables["per_k"]
    assert (per_k["fraction_condorcet"] == 1).all()
    assert (per_k["source_matrices"] == 1).all() and (per_k["draws"] == 0).all()
    assert per_k["band_fraction_condorcet_low"].isna().all()
    sizes = tables["support_size"]
    assert sizes.loc[sizes["support_size"] == 1, "fraction"].eq(1).all()


def test_the_data_band_comes_from_resampled_counts():
    # a always beats b, c and d; b, c, d beat each other in a cycle, a few times each
    records = [(0, j, 1) for j in (1, 2, 3)] * 5 + [(1, 2, 1), (2, 3, 1), (3, 1, 1)] * 2
    log = make_log("abcd", records)
    matrix = RealMatrix("trec_dl", "1", "", log.items, count_pairs(log).skew_matrix(), log)
    (series,) = counted([matrix], resamples=8)
    per_k = series_tables([series], pd.DataFrame([matrix_summary(matrix)]))["per_k"]
    assert (per_k["draws"] == 8).all()
    low, high = per_k["band_fraction_condorcet_low"], per_k["band_fraction_condorcet_high"]
    assert (low <= high).all() and (high <= 1).all() and not low.isna().any()


def test_claims_and_the_cross_data_set_table():
    claims = series_claims(counted([transitive_real()]))
    assert set(claims["series"]) == {"arxiv"} and claims["draws_holding"].isna().all()
    wide = cross_dataset_table(claims)
    holds = claims.set_index("claim")["holds"]
    for row in wide.itertuples(index=False):
        assert row.holds_on == f"{int(holds[row.claim])} of 1"
    markdown = cross_dataset_markdown(wide)
    assert markdown.count("\n") == len(wide) + 2 and "| arxiv |" in markdown


def test_series_counts_survive_their_json_file(tmp_path):
    series = counted([transitive_real()])
    path = tmp_path / "counts.json"
    path.write_text(json.dumps({"series": [s.to_jsonable() for s in series]}))
    (again,) = read_series_counts(path)
    assert again.point.per_k[3].condorcet == series[0].point.per_k[3].condorcet


def test_overview_counts_matrices_with_a_condorcet_winner():
    cycle = np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]], dtype=float)
    matrices = [transitive_real("a"), RealMatrix("arxiv", "b", "", tuple("xyz"), cycle, None)]
    summary = pd.DataFrame([matrix_summary(m) for m in matrices])
    per_k = series_tables(counted(matrices), summary)["per_k"]
    (row,) = series_overview(summary, per_k).itertuples(index=False)
    assert (row.matrices, row.with_condorcet_winner, row.smallest, row.largest) == (2, 1, 3, 4)
