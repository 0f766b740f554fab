"""The table of published results is well-formed and points at data the mirror holds."""

import dataclasses

from cdbandits.karmed import ALGORITHMS, PUBLISHED_RESULTS
from cdbandits.karmed.published import EVIDENCE, PublishedResult


def test_every_row_is_well_formed():
    assert PUBLISHED_RESULTS and all(isinstance(row, PublishedResult) for row in PUBLISHED_RESULTS)
    keys = [(row.paper, row.algorithm) for row in PUBLISHED_RESULTS]
    assert len(keys) == len(set(keys))
    for row in PUBLISHED_RESULTS:
        assert row.algorithm in ALGORITHMS, row.algorithm
        assert row.evidence in EVIDENCE
        assert row.source.startswith("https://"), row.source
        assert row.paper and row.location and row.dataset_evidence and row.note
        assert set(row.compared_with) <= set(ALGORITHMS)
        # a claim exists exactly when something was read; numbers only with a claim
        assert (row.claim is None) == (row.evidence == "not-read"), row.algorithm
        if row.claim is None:
            assert row.reported_value is None
        for number in (row.n_arms, row.horizon, row.runs):
            assert number is None or (isinstance(number, int) and number > 0)
        assert row.datasets and all(isinstance(path, str) for path in row.datasets)


def test_rows_are_frozen():
    row = PUBLISHED_RESULTS[0]
    try:
        row.claim = "changed"
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("PublishedResult must be frozen")


def test_every_dataset_is_in_the_data_mirror(data_mirror):
    for row in PUBLISHED_RESULTS:
        for path in row.datasets:
            assert (data_mirror / path).is_file(), f"{row.algorithm}: {path} not in {data_mirror}"
