"""Summaries of the duels sweep (cdbandits.experiments.duels.tables)."""

import numpy as np
import pandas as pd
import pytest

from cdbandits.experiments.duels.tables import (
    combine_duels_shards,
    environments_table,
    leaderboard,
    leaderboard_markdown,
    regret_curves,
    timing_table,
    with_condorcet_shares,
)
from cdbandits.stats import mean_with_interval

#: Regret at T = 10 per seed: B is far worse than A in every seed; C equals A on average.
AT_10 = {"A": [1.0, 2.0, 3.0], "B": [10.0, 11.0, 12.0], "C": [1.5, 2.5, 2.0]}


def regret_rows(values, horizon=10, environment="env", condorcet=True):
    rows = []
    for algorithm, per_seed in values.items():
        for seed, value in enumerate(per_seed):
            for round_, share in ((1, 0.1), (horizon, 1.0)):
                rows.append(
                    {
                        "environment": environment,
                        "algorithm": algorithm,
                        "seed": seed,
                        "n_arms": 4,
                        "horizon": horizon,
                        "round": round_,
                        "von_neumann": share * value,
                        "hindsight": share * value,
                        "condorcet": share * value / 2 if condorcet else np.nan,
                        "copeland": share * value / 4,
                    }
                )
    return pd.DataFrame(rows)


@pytest.fixture
def regret():
    return regret_rows(AT_10)


def test_leaderboard_ranks_and_ties_by_paired_differences(regret):
    board = leaderboard(regret, [1, 10]).set_index(["horizon", "algorithm"])
    final = board.loc[10]
    assert final.loc["A", "rank"] == 1 and final.loc["C", "rank"] == 2
    assert final.loc["B", "rank"] == 3
    assert (final["best"] == "A").all()
    # C - A = (0.5, 0.5, -1): mean 0, its interval reaches 0; B - A = 9 in every seed
    assert final.loc["C", "tied_with_best"] and not final.loc["B", "tied_with_best"]
    expected = mean_with_interval(np.array(AT_10["C"]) - np.array(AT_10["A"]))
    assert final.loc["C", "difference_low"] == pytest.approx(expected["ci_low"])
    assert final.loc["A", "von_neumann"] == pytest.approx(2.0)
    assert final.loc["A", "condorcet"] == pytest.approx(1.0)
    assert final.loc["B", "copeland"] == pytest.approx(11 / 4)


def test_unpaired_intervals_would_call_b_tied_but_paired_do_not():
    # B - A is 1 in every seed while both vary a lot between seeds
    values = {"A": [1.0, 20.0, 40.0], "B": [2.0, 21.0, 41.0]}
    final = leaderboard(regret_rows(values), [10])
    b = final[final["algorithm"] == "B"].iloc[0]
    assert b["von_neumann_low"] < final[final["algorithm"] == "A"].iloc[0]["von_neumann_high"]
    assert not b["tied_with_best"]


def test_algorithms_absent_at_a_horizon_are_left_out():
    regret = pd.concat([regret_rows(AT_10), regret_rows({"D": [0.1, 0.1, 0.2]}, horizon=5)])
    board = leaderboard(regret, [5, 10])
    assert set(board[board["horizon"] == 10]["algorithm"]) == {"A", "B", "C"}
    assert set(board[board["horizon"] == 5]["algorithm"]) == {"D"}


def test_curves_are_means_with_intervals_and_skip_undefined_measures():
    regret = regret_rows(AT_10, condorcet=False)
    curves = regret_curves(regret)
    assert set(curves["metric"]) == {"von_neumann", "copeland"}
    row = curves[
        (curves["algorithm"] == "B") & (curves["round"] == 10) & (curves["metric"] == "von_neumann")
    ].iloc[0]
    expected = mean_with_interval(AT_10["B"])
    assert (row["mean"], row["ci_low"], row["n_seeds"]) == pytest.approx(
        (expected["mean"], expected["ci_low"], 3)
    )


def test_combining_shards_does_not_depend_on_their_order(regret):
    timings = pd.DataFrame(
        {
            "environment": "env",
            "algorithm": ["A", "B"],
            "seed": 0,
            "n_arms": 4,
            "horizon": 10,
            "seconds": [0.1, 0.2],
            "seconds_per_round": [0.01, 0.02],
        }
    )
    halves = [regret.iloc[::2], regret.iloc[1::2]]
    pd.testing.assert_frame_equal(combine_duels_shards(halves), combine_duels_shards(halves[::-1]))
    pd.testing.assert_frame_equal(
        combine_duels_shards([timings.iloc[:1], timings.iloc[1:]], timings=True),
        combine_duels_shards([timings.iloc[1:], timings.iloc[:1]], timings=True),
    )


def test_timing_table_reports_median_and_range():
    timings = pd.DataFrame(
        {
            "environment": "env",
            "algorithm": "A",
            "seed": range(5),
            "n_arms": 4,
            "horizon": 10,
            "seconds": 0.0,
            "seconds_per_round": [1e-6, 2e-6, 3e-6, 4e-6, 10e-6],
        }
    )
    row = timing_table(timings).iloc[0]
    assert row["microseconds_per_round"] == pytest.approx(3.0)
    assert (row["microseconds_per_round_min"], row["microseconds_per_round_max"]) == pytest.approx(
        (1.0, 10.0)
    )
    assert row["duels_per_second"] == pytest.approx(1 / 3e-6) and row["runs"] == 5


def test_condorcet_shares_count_the_runs_with_a_winner():
    regret = pd.concat(
        [
            regret_rows({"A": [1.0, 2.0]}, environment="e"),
            regret_rows({"A": [1.0]}, condorcet=False, environment="e"),
        ]
    )
    shares = with_condorcet_shares({"e": {"title": "E"}}, regret)
    assert shares["e"]["condorcet_share"] == pytest.approx(2 / 3)


def test_markdown_marks_best_ties_and_missing_horizons():
    regret = pd.concat([regret_rows(AT_10), regret_rows({"D": [5.0, 5.0, 6.0]}, horizon=5)])
    board = leaderboard(regret, [5, 10])
    summary = {
        "title": "An environment",
        "condorcet_winner": None,
        "condorcet_share": 0.0,
        "arms_per_seed": 4,
        "subset": False,
    }
    text = leaderboard_markdown(board, {"env": summary}, {"A": "Algo A"})
    lines = {
        line.split("|")[1].strip(): line for line in text.splitlines() if line.startswith("| ")
    }
    assert "**2.0 [" in lines["Algo A"]
    assert lines["C"].rstrip(" |").endswith("≈")
    assert "≈" not in lines["B"]
    assert lines["D"].split("|")[3].strip() == "-"  # D was not run to T = 10
    assert "no Condorcet winner" in text and "### An environment" in text


def test_markdown_describes_a_contextual_environment_from_its_summary():
    board = leaderboard(regret_rows(AT_10), [10])
    context = {
        "n_contexts": 50,
        "n_policies": 200,
        "distinct_policies": 180,
        "winner_policies": 2,
        "context_free_best": 0.26,
        "winner_best_share": 0.82,
    }
    summary = {
        "title": "Linear contexts",
        "condorcet_winner": "action 0",
        "condorcet_share": 0.0,
        "arms_per_seed": 5,
        "n_arms": 5,
        "subset": False,
        "contextual": context,
    }
    text = leaderboard_markdown(board, {"env": summary}, {})
    assert "K = 5 actions in each of 50 contexts, 200 linear argmax policies" in text
    assert "no action is best in more than 26% of the contexts" in text
    assert "(support: 2 of 180 distinct policies)" in text and "probability 0.82" in text
    assert "Condorcet winner" not in text.split("### Linear contexts")[1]


def adversarial_rows(values):
    """Rows of an environment without a von Neumann winner: only rd1 in hindsight."""
    rows = regret_rows(values, environment="adv", condorcet=False)
    rows[["von_neumann", "copeland"]] = np.nan
    return rows


def test_an_environment_without_a_winner_is_ranked_by_hindsight_and_says_so(regret):
    both = pd.concat([regret, adversarial_rows({"A": [9.0, 8.0, 7.0], "B": [1.0, 1.0, 2.0]})])
    board = leaderboard(both, [10])
    adversarial = board[board["environment"] == "adv"].set_index("algorithm")
    assert (adversarial["measure"] == "hindsight").all()
    assert adversarial.loc["B", "rank"] == 1 and adversarial.loc["A", "rank"] == 2
    assert adversarial.loc["A", "hindsight"] == pytest.approx(8.0)
    assert adversarial["von_neumann"].isna().all()
    assert not adversarial.loc["A", "tied_with_best"]
    # the other environment's rows are those of a leaderboard without the adversary
    alone = leaderboard(regret, [10])
    other = board[board["environment"] == "env"].reset_index(drop=True)
    pd.testing.assert_frame_equal(other, alone)
    assert (other["measure"] == "von_neumann").all() and other["hindsight"].isna().all()
    # curves: hindsight rows for the adversary only
    curves = regret_curves(both)
    assert set(curves[curves["environment"] == "adv"]["metric"]) == {"hindsight"}
    assert "hindsight" not in set(curves[curves["environment"] == "env"]["metric"])


def test_markdown_and_environments_table_describe_the_adversary():
    board = leaderboard(adversarial_rows({"A": [9.0, 8.0, 7.0], "B": [1.0, 1.0, 2.0]}), [10])
    context = {"adversary": "counter-play", "margin": 0.8, "n_contexts": 50, "n_policies": 100,
               "policy_class": "random linear argmax policies", "distinct_policies": 97,
               "von_neumann_winner": None, "measure": "hindsight"}  # fmt: skip
    summary = {"title": "Adversary", "kind": "online", "condorcet_winner": None,
               "condorcet_share": 0.0, "arms_per_seed": 3, "n_arms": 3, "subset": False,
               "von_neumann_support": {}, "copeland_winners": [],
               "contextual": context}  # fmt: skip
    text = leaderboard_markdown(board, {"adv": summary}, {})
    assert "shows rd1 in hindsight (against the best policy of the class in hindsight)" in text
    section = text.split("### Adversary")[1]
    assert "margin 0.8" in section and "no von Neumann winner" in section
    assert (
        "100 random linear argmax policies" in section and "Ranked by rd1 in hindsight" in section
    )
    assert "| B | **1.3 [" in section
    row = environments_table({"adv": summary}).iloc[0]
    assert row["von_neumann_support"].startswith("none: K = 3 actions")
    assert "margin 0.8" in row["von_neumann_support"]
