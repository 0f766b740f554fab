"""Published behaviour against our runs (cdbandits.experiments.duels.published)."""

import pandas as pd
import pytest
from test_experiments_duels_tables import regret_rows

from cdbandits.experiments.duels.published import (
    PUBLISHED_CHECKS,
    VERDICTS,
    published_comparison,
    published_markdown,
)
from cdbandits.experiments.duels.settings import ALGORITHMS
from cdbandits.karmed.published import PUBLISHED_RESULTS


def test_every_published_result_has_one_check():
    checked = [check.algorithm for check in PUBLISHED_CHECKS]
    assert sorted(checked) == sorted(result.algorithm for result in PUBLISHED_RESULTS)
    for check in PUBLISHED_CHECKS:
        assert set(check.compared_with) <= set(ALGORITHMS) - {check.algorithm}
        assert check.environments


def rmed_on_arxiv(rmed, rucb, exp3, horizon=1000):
    return regret_rows(
        {"rmed1": rmed, "rucb": rucb, "sparring_exp3_karmed": exp3},
        horizon=horizon,
        environment="arxiv",
    )


def verdict(regret, algorithm, horizons=(1000,)):
    table = published_comparison(regret, horizons).set_index("algorithm")
    return table.loc[algorithm, "verdict"]


@pytest.mark.parametrize(
    ("rmed", "exp3", "expected"),
    [
        ([1.0, 2.0, 3.0], [10.0, 11.0, 12.0], "reproduced"),
        # differences to RUCB (-1, 0.5, -2): less on average, the interval reaches 0
        ([9.0, 11.5, 10.0], [10.0, 11.0, 12.0], "consistent, not significant"),
        ([30.0, 31.0, 32.0], [10.0, 11.0, 12.0], "not reproduced"),
        # differences to Sparring EXP3 (0.5, -0.5, 0.5): more on average, not significant
        ([9.0, 11.5, 10.0], [8.5, 12.0, 9.5], "inconclusive"),
    ],
)
def test_verdicts_follow_the_paired_differences(rmed, exp3, expected):
    regret = rmed_on_arxiv(rmed, [10.0, 11.0, 12.0], exp3)
    assert verdict(regret, "rmed1") == expected


def test_results_without_a_claim_or_without_runs_say_so():
    regret = pd.concat(
        [
            rmed_on_arxiv([1.0, 2.0, 3.0], [10.0, 11.0, 12.0], [10.0, 11.0, 12.0]),
            regret_rows(
                {"ccb": [1.0, 2.0, 3.0], "rucb": [5.0, 6.0, 7.0]},
                horizon=1000,
                environment="mslr_informational",
            ),
        ]
    )
    table = published_comparison(regret, (1000,)).set_index("algorithm")
    assert table.loc["ccb", "verdict"] == "no claim to compare"
    assert table.loc["merge_rucb", "verdict"] == "not run"
    assert table.loc["merge_rucb", "our_result"] == "not run in this config"
    assert set(table["verdict"]) <= set(VERDICTS)


def test_each_pair_is_compared_at_the_longest_horizon_both_reached():
    long = regret_rows(
        {"rmed1": [1.0, 2.0, 3.0], "rucb": [10.0, 11.0, 12.0]}, horizon=1000, environment="arxiv"
    )
    long.loc[long["round"] == 1, "round"] = 100  # a tenth of the T = 1000 regret at T = 100
    short = regret_rows({"sparring_exp3_karmed": [0.0, 0.1, 0.2]}, horizon=100, environment="arxiv")
    regret = pd.concat([long, short[short["round"] == 100]])
    table = published_comparison(regret, (100, 1000)).set_index("algorithm")
    text = table.loc["rmed1", "our_result"]
    assert "T = 1,000: 2.0 vs rucb 11.0" in text
    assert "T = 100: 0.2 vs sparring_exp3_karmed 0.1" in text
    assert table.loc["rmed1", "verdict"] == "not reproduced"


def test_markdown_has_a_row_per_paper():
    regret = rmed_on_arxiv([1.0, 2.0, 3.0], [10.0, 11.0, 12.0], [10.0, 11.0, 12.0])
    text = published_markdown(published_comparison(regret, (1000,)))
    assert len([line for line in text.splitlines() if line.startswith("| ")]) == 1 + len(
        PUBLISHED_RESULTS
    )
    assert "**reproduced**" in text
