import numpy as np
import pandas as pd
import pytest
from real_data_helpers import make_log

from cdbandits.experiments.real_data.coverage import (
    case_log,
    coverage_case,
    coverage_shard,
    merge_case_shards,
    shard_replications,
)
from cdbandits.experiments.real_data.settings import CoverageSettings, ExampleSettings

SETTINGS = CoverageSettings(
    cases=("atp",), replications=30, resamples=20, shards=2, confidence=0.9, tolerance=0.05, seed=11
)


def small_case():
    records = [(0, 1, 1)] * 6 + [(1, 0, 1)] * 4 + [(1, 2, 1)] * 7 + [(2, 1, 1)] * 3
    records += [(2, 0, 1)] * 6 + [(0, 2, 1)] * 4
    return coverage_case("atp", make_log("abc", records), "three players", 11)


def test_the_case_truth_is_a_skew_matrix_of_the_log_size():
    case = small_case()
    np.testing.assert_allclose(case.matrix, -case.matrix.T)
    assert case.comparisons_per_pair == 10 and case.k == 3
    assert case.to_dict()["items"] == 3


def test_shard_replications_add_up():
    settings = CoverageSettings(replications=11, shards=3, confidence=0.95, seed=1)
    assert [shard_replications(settings, s) for s in range(3)] == [4, 4, 3]
    with pytest.raises(ValueError, match="shard 3"):
        shard_replications(settings, 3)


def test_shards_add_up_to_the_replications(tmp_path):
    case = small_case()
    paths = []
    for shard in range(SETTINGS.shards):
        table = coverage_shard(case, SETTINGS, shard)
        assert (table["case"] == "atp").all()
        paths.append(tmp_path / f"atp-{shard}.csv")
        table.to_csv(paths[-1], index=False)
    merged, summary = merge_case_shards(paths, SETTINGS)
    assert (merged["replications"] == SETTINGS.replications).all()
    shards = pd.concat([pd.read_csv(p) for p in paths])
    assert merged["covered"].sum() == shards["covered"].sum()
    assert set(summary["method"]) == {"bootstrap", "posterior", "binomial"}
    assert (summary["passes"] == (summary["lowest"] >= 0.9 - 0.05)).all()


def test_the_shards_draw_different_logs():
    case = small_case()
    first, second = (coverage_shard(case, SETTINGS, s)["covered"] for s in range(2))
    assert not first.equals(second)


def test_case_logs_of_the_real_data(data_mirror):
    examples = ExampleSettings(
        atp_period="2010s", atp_top=4, trec_dl_topic="952262", resamples=10, seed=1
    )
    atp = [data_mirror / f"tennis-atp-sackmann/atp_matches_{y}.csv" for y in (2010, 2011)]
    with pytest.warns(UserWarning):
        log, description = case_log("atp", atp, examples)
    assert len(log.items) == 4 and "top 4 players" in description
    judgments = [data_mirror / "trec-dl-human-preferences-yan2022/judgments.txt"]
    with pytest.warns(UserWarning):
        log, description = case_log("trec_dl", judgments, examples)
    assert "952262" in description and len(log.items) >= 2
    with pytest.raises(ValueError, match="unknown coverage case"):
        case_log("chess", atp, examples)
