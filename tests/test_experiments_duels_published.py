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


#: The tuned variants of a run, named otherwise than the paper's configurations.
PAPER_VARIANTS = {
    "mdts": ("merge_dts", {"alpha": 0.262144, "time_offset": 400000, "partition_size": 16}),
    "mrucb": ("merge_rucb", {"alpha": 0.8**6, "time_offset": 4e5, "partition_size": 8}),
    "dts_tuned": ("dts", {"alpha": 0.8**7}),
}
MERGE_DTS_BASELINES = ("mrucb", "dts_tuned", "rmed1", "self_sparring", "sparring_exp3_karmed")


def merge_dts_runs(merge_dts, horizon, names=("mdts", *MERGE_DTS_BASELINES)):
    """The MergeDTS claim's runs on both of its environments, each baseline at 10, 11, 12."""
    values = dict.fromkeys(names[1:], [10.0, 11.0, 12.0]) | {names[0]: merge_dts}
    return pd.concat(
        regret_rows(values, horizon=horizon, environment=environment)
        for environment in ("mslr_navigational", "mslr_perfect")
    )


def merge_dts_row(regret, horizons, variants=PAPER_VARIANTS):
    return published_comparison(regret, horizons, variants).set_index("algorithm").loc["merge_dts"]


def test_the_paper_settings_present_give_a_verdict_from_the_opt_in_run():
    paper = 100_000_000
    better = merge_dts_row(merge_dts_runs([1.0, 2.0, 3.0], paper), (paper,))
    assert better["verdict"] == "reproduced"
    assert better["judged_at"] == (
        "T = 100,000,000, the paper's parameters (mdts, mrucb, dts_tuned), from the opt-in run"
    )
    assert "vs dts_tuned 11.0" in better["our_result"]
    worse = merge_dts_row(merge_dts_runs([30.0, 31.0, 32.0], paper), (paper,))
    assert worse["verdict"] == "not reproduced"


def test_a_shorter_horizon_is_not_run_at_the_papers_settings():
    short = 10_000_000
    row = merge_dts_row(merge_dts_runs([30.0, 31.0, 32.0], short), (short,))
    assert row["verdict"] == "not run at the paper's settings"
    assert row["judged_at"] == "run to T = 10,000,000 < the paper's T = 100,000,000"
    assert row["paper_settings"].startswith(
        "T = 100,000,000; K = 136; merge_dts alpha = 0.262144, time_offset = 400000, "
        "partition_size = 16; merge_rucb alpha = 0.262144"
    )


def test_other_parameters_are_not_run_at_the_papers_settings():
    paper = 100_000_000
    defaults = merge_dts_runs(
        [30.0, 31.0, 32.0],
        paper,
        names=("merge_dts", "merge_rucb", "dts", *MERGE_DTS_BASELINES[2:]),
    )
    row = merge_dts_row(defaults, (paper,))
    assert row["verdict"] == "not run at the paper's settings"
    assert row["judged_at"] == "no run with the paper's parameters of dts, merge_dts, merge_rucb"
    assert "merge_dts T = 100,000,000: 31.0 vs merge_rucb 11.0" in row["our_result"]
    # a variant named like the paper's but with another alpha is not the paper's
    other = {**PAPER_VARIANTS, "mdts": ("merge_dts", {**PAPER_VARIANTS["mdts"][1], "alpha": 1.01})}
    tuned = merge_dts_runs([1.0, 2.0, 3.0], paper)
    row = merge_dts_row(tuned, (paper,), other)
    assert row["verdict"] == "not run at the paper's settings"
    assert row["judged_at"] == "no run with the paper's parameters of merge_dts"


def test_unread_settings_are_judged_at_the_run_and_say_so():
    row = (
        published_comparison(
            rmed_on_arxiv([1.0, 2.0, 3.0], [10.0, 11.0, 12.0], [10.0, 11.0, 12.0]), (1000,)
        )
        .set_index("algorithm")
        .loc["rmed1"]
    )
    assert row["paper_settings"] == "not read"
    assert row["judged_at"] == (
        "T = 1,000, default parameters; the paper's settings could not be read"
    )
