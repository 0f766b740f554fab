"""The duels section of RESULTS.md (cdbandits.experiments.duels.readme)."""

import pandas as pd
import pytest

from cdbandits.experiments.duels.readme import (
    LARGE_K,
    capped_horizons,
    environment_group,
    readme_markdown,
    recommendations,
)


def summary(title, arms, share, winner=None):
    return {
        "title": title,
        "arms_per_seed": arms,
        "condorcet_share": share,
        "condorcet_winner": winner,
        "subset": False,
    }


ENVIRONMENTS = {
    "small_cw": summary("Small with winner", 6, 1.0, "a"),
    "small_cw_2": summary("Another with winner", 8, 0.75),
    "cycle": summary("Cycle", 10, 0.0),
    "big": summary("Big", LARGE_K, 1.0, "a"),
}


def board_rows(environment, ranking, tied=(), horizon=100):
    """A leaderboard at ``horizon``: ``ranking`` best first, ``tied`` tied with the best."""
    return [
        {
            "environment": environment,
            "horizon": horizon,
            "algorithm": algorithm,
            "rank": rank,
            "tied_with_best": rank == 1 or algorithm in tied,
        }
        for rank, algorithm in enumerate(ranking, start=1)
    ]


@pytest.fixture
def board():
    return pd.DataFrame(
        board_rows("small_cw", ["rmed1", "dts", "rucb"], tied=["dts"])
        + board_rows("small_cw", ["rucb", "dts", "rmed1"], horizon=10)  # not the longest
        + board_rows("small_cw_2", ["dts", "rmed1", "rucb"])
        + board_rows("cycle", ["rucb", "rmed1", "dts"], tied=["rmed1"])
        + board_rows("big", ["self_sparring", "merge_dts"])
    )


def test_groups_by_arms_and_condorcet_share():
    assert environment_group(ENVIRONMENTS["small_cw"]) == "condorcet"
    assert environment_group(ENVIRONMENTS["small_cw_2"]) == "condorcet"
    assert environment_group(summary("x", 4, 0.25)) == "no_condorcet"
    assert environment_group(ENVIRONMENTS["cycle"]) == "no_condorcet"
    assert environment_group(ENVIRONMENTS["big"]) == "large_k"


def test_recommendation_counts_best_or_tied_at_the_longest_horizon(board):
    advice = recommendations(board, ENVIRONMENTS).set_index(["group", "algorithm"])
    # condorcet group: dts best in one, tied in the other; rmed1 best in one only
    assert advice.loc[("condorcet", "dts"), "best_or_tied"] == 2
    assert advice.loc[("condorcet", "rmed1"), "best_or_tied"] == 1
    assert advice.loc[("condorcet", "rucb"), "best_or_tied"] == 0
    assert advice.loc[("condorcet", "dts"), "mean_rank"] == pytest.approx(1.5)
    assert advice.loc[("condorcet", "dts"), "recommended"]
    assert not advice.loc[("condorcet", "rmed1"), "recommended"]
    # a tie on best_or_tied goes to the lower mean rank
    assert advice.loc[("no_condorcet", "rucb"), "recommended"]
    assert advice.loc[("large_k", "self_sparring"), "recommended"]
    assert advice["recommended"].sum() == 3


def test_algorithms_equal_on_both_counts_are_recommended_together(board):
    # on "cycle" rmed1 is tied with rucb; a second cycle where rmed1 is best evens them out
    extra = pd.DataFrame(board_rows("cycle_2", ["rmed1", "rucb", "dts"], tied=["rucb"]))
    environments = ENVIRONMENTS | {"cycle_2": summary("Cycle 2", 10, 0.0)}
    advice = recommendations(pd.concat([board, extra]), environments)
    chosen = advice[advice["recommended"] & (advice["group"] == "no_condorcet")]
    assert set(chosen["algorithm"]) == {"rmed1", "rucb"}
    text = readme_markdown(
        advice,
        environments,
        pd.DataFrame(columns=["algorithm", "verdict", "judged_at"]),
        {a: a for a in advice["algorithm"]},
        seeds=2,
        horizon=100,
    )
    assert "use **rmed1** or **rucb**, best or tied in 2 of 2" in text or (
        "use **rucb** or **rmed1**, best or tied in 2 of 2" in text
    )


def test_readme_text_takes_its_numbers_from_the_tables(board):
    advice = recommendations(board, ENVIRONMENTS)
    published = pd.DataFrame(
        {"algorithm": ["rmed1"], "verdict": ["reproduced"], "judged_at": ["T = 1,000"]}
    )
    labels = {a: a.upper() for a in ["dts", "rmed1", "rucb", "self_sparring", "merge_dts"]}
    text = readme_markdown(
        advice,
        ENVIRONMENTS,
        published,
        labels,
        seeds=20,
        horizon=1000,
        capped={"dts": {"Big": 10}},
    )
    condorcet_line = next(line for line in text.splitlines() if "Condorcet winner exists" in line)
    assert "use **DTS**, best or tied in 2 of 2 environments (mean rank 1.5)" in condorcet_line
    assert "RMED1 (1/2)" in condorcet_line
    assert "(Small with winner; Another with winner)" in condorcet_line
    assert "use **SELF_SPARRING**" in text and "use **RUCB**" in text
    assert "* RMED1: **reproduced** (T = 1,000)." in text
    assert "5 K-armed dueling-bandit algorithms" in text and "20 seeds" in text
    assert "(DTS to T = 10 on Big)" in text


def test_capped_horizons_name_the_algorithm_and_the_environment(board):
    assert capped_horizons(board, ENVIRONMENTS) == {}
    extra = pd.DataFrame(board_rows("big", ["merge_rucb"], horizon=10))
    small = pd.DataFrame(board_rows("cycle", ["ccb"], horizon=10))
    capped = capped_horizons(pd.concat([board, extra, small]), ENVIRONMENTS)
    assert capped == {
        "merge_rucb": {ENVIRONMENTS["big"]["title"]: 10},
        "ccb": {ENVIRONMENTS["cycle"]["title"]: 10},
    }


def text_with(board, environments, extra_rows):
    """The text of ``board`` and ``extra_rows`` (upper-case labels, nothing published)."""
    advice = recommendations(pd.concat([board, pd.DataFrame(extra_rows)]), environments)
    labels = {a: a.upper() for a in advice["algorithm"]}
    published = pd.DataFrame(columns=["algorithm", "verdict", "judged_at"])
    return readme_markdown(advice, environments, published, labels, seeds=20, horizon=1000)


def test_the_contextual_group_says_which_algorithm_to_use_when_context_matters(board):
    contextual = summary("Linear contexts", 5, 0.0) | {"contextual": {"horizon": 500}}
    environments = ENVIRONMENTS | {"linear": contextual}
    text = text_with(
        board,
        environments,
        board_rows("linear", ["maxinp", "colstim", "sparring_exp4p", "dts", "rucb"], ["colstim"]),
    )
    line = next(line for line in text.splitlines() if "Context matters" in line)
    assert "(Linear contexts): use **MAXINP**, best or tied in 1 of 1" in line
    assert "Also best or tied: COLSTIM (1/1)" in line
    assert "SPARRING_EXP4P (mean rank 3.0)" in line
    assert "blind to the context, is DTS (mean rank 4.0, best or tied in 0 of 1)" in line
    assert "5 K-armed dueling-bandit algorithms" in text and "and 3 contextual ones" in text
    assert "on 4 preference matrices" in text and "(T = 500)" in text
    assert "not measured by this comparison" not in text
    # without a contextual environment the text says the comparison is not made
    plain = text_with(board, ENVIRONMENTS, [])
    assert "not measured by this comparison" in plain


def test_the_adversary_has_its_own_group_ranked_by_hindsight(board):
    adversary = summary("Adversary", 3, 0.0) | {
        "contextual": {"adversary": "counter-play", "horizon": 500}
    }
    environments = ENVIRONMENTS | {"adv": adversary}
    assert environment_group(adversary) == "adversarial"
    text = text_with(
        board, environments, board_rows("adv", ["self_sparring", "sparring_exp4p", "colstim"])
    )
    line = next(line for line in text.splitlines() if "An adaptive adversary" in line)
    assert "ranked by rd1 in hindsight" in line and "(Adversary): use **SELF_SPARRING**" in line
    assert "SPARRING_EXP4P (mean rank 2.0)" in line
    assert "on 4 preference matrices" in text
    assert "(rd1 in hindsight on the adaptive adversary, which has none)" in text
    assert "Context matters" not in text and "not measured by this comparison" not in text
