"""The published-results table of the linear algorithms: complete and honest about evidence."""

from cdbandits.karmed.published import EVIDENCE
from cdbandits.linear_duels import ALGORITHMS, PUBLISHED_RESULTS


def test_one_row_per_algorithm_and_no_unread_numbers():
    assert {row.algorithm for row in PUBLISHED_RESULTS} == set(ALGORITHMS) | {"dbgd"}
    for row in PUBLISHED_RESULTS:
        assert row.evidence in EVIDENCE
        assert row.datasets == ()  # no paper reports on data we hold
        assert row.reported_value is None
        assert (row.claim is None) == (row.evidence == "not-read")
