"""The online sweep's summaries (cdbandits.experiments.online.tables)."""

import json
import math
import re

import pandas as pd
import pytest
from online_tiny import SEED, TINY, tiny_sweep

from cdbandits.contextual.bounds import sparring_exp4p_regret_bound
from cdbandits.experiments.online.settings import OnlineSection
from cdbandits.experiments.online.tables import (
    ONLINE_TABLES,
    coverage_markdown,
    exact_winners_table,
    last_decade_markdown,
    last_decade_slopes,
    online_summary,
    overview_markdown,
    summarise_online,
)
from cdbandits.stats import log_log_slope
from cdbandits.workflow.readme import block_sources


@pytest.fixture(scope="module")
def tables():
    runs, curves = tiny_sweep()
    return (
        {"runs": runs, "curves": curves}
        | summarise_online(runs, 0.05, True, SEED)
        | {"last_decade": last_decade_slopes(runs, curves, SEED)}
    )


def test_regret_table_is_the_mean_with_its_interval(tables):
    runs = tables["runs"]
    regret = tables["regret"].set_index(["setting", "algorithm", "horizon"])
    rows = runs[(runs["setting"] == "synthetic_K3_N20") & (runs["algorithm"] == "uniform")]
    at_400 = rows[rows["horizon"] == 400]["regret"]
    assert regret.loc[("synthetic_K3_N20", "uniform", 400), "mean"] == pytest.approx(at_400.mean())
    half = 1.959963984540054 * at_400.std(ddof=1) / math.sqrt(3)
    assert regret.loc[("synthetic_K3_N20", "uniform", 400), "ci_high"] == pytest.approx(
        at_400.mean() + half
    )
    assert set(ONLINE_TABLES) == set(tables)


def test_coverage_and_slopes_follow_their_definitions(tables):
    runs = tables["runs"]
    coverage = tables["coverage"].set_index(["setting", "horizon"])
    bound = sparring_exp4p_regret_bound(400, 3, 20, 0.05)
    assert coverage.loc[("synthetic_K3_N20", 400), "bound"] == pytest.approx(bound.total)
    # Informative: the bound below the smallest ceiling of the horizon's episodes.
    exp4p = runs[runs["algorithm"] == "sparring_exp4p"]
    smallest = exp4p.groupby(["setting", "horizon"])["regret_ceiling"].min()
    assert (coverage["min_ceiling"] == smallest.loc[coverage.index]).all()
    assert (coverage["informative"] == (coverage["bound"] < coverage["min_ceiling"])).all()
    # Coverage is the share of seeds whose regret is under the bound.
    for key, group in exp4p.groupby(["setting", "horizon"]):
        under = (group["regret"] <= coverage.loc[key, "bound"]).mean()
        assert coverage.loc[key, "coverage"] == under
    # At these horizons the bound exceeds T (it cannot fail); what can: SparringEXP4.P
    # learns, its regret at T = 400 on iris is below uniform play's (measured 72.3 vs 84.1).
    regret = tables["regret"].set_index(["setting", "algorithm", "horizon"])["mean"]
    iris = regret.loc["supervised_iris"]
    assert iris.loc[("sparring_exp4p", 400)] < iris.loc[("uniform", 400)] - 5
    slopes = tables["slopes"].set_index(["setting", "algorithm"])
    rows = runs[(runs["setting"] == "synthetic_K3_N20") & (runs["algorithm"] == "uniform")]
    means = rows.groupby("horizon")["regret"].mean()
    assert slopes.loc[("synthetic_K3_N20", "uniform"), "slope"] == pytest.approx(
        log_log_slope(means.index, means.to_numpy())
    )
    assert math.isnan(slopes.loc[("adversarial_K3_N10", "uniform"), "slope"])  # one horizon
    assert set(tables["online_to_batch"]["setting"]) == {
        "synthetic_K3_N20",
        "long_K3_N20",
        "supervised_iris",
    }


def test_coverage_counts_the_seeds_under_the_bound(tables):
    # A bound below every seed's regret must give coverage 0: run the summary on regrets
    # inflated past the bound.
    runs = tables["runs"].copy()
    runs["regret"] = runs["regret"] + 1e6
    inflated = summarise_online(runs, 0.05, True, SEED)["coverage"]
    assert (inflated["coverage"] == 0).all() and not inflated["meets_guarantee"].any()


def test_summary_and_markdown(tables):
    summary = online_summary(tables, 0.05)
    json.dumps(summary, allow_nan=False)  # undefined slopes become None
    meets = tables["coverage"]["coverage"] >= 0.95
    assert summary["all_bounds_hold"] is bool(meets.all())
    assert summary["settings"]["adversarial_K3_N10"]["regret_slope"]["uniform"] is None
    assert summary["worst_coverage"] == tables["coverage"]["coverage"].min()
    markdown = coverage_markdown(tables["coverage"]).splitlines()
    assert markdown[0].split("|")[1].strip() == "setting" and len(markdown) == 2 + 7


def test_exact_winners_table():
    table = exact_winners_table(OnlineSection.from_config(TINY), SEED).set_index("setting")
    assert list(table.index) == ["synthetic_K3_N20", "long_K3_N20", "supervised_iris"]
    assert (table["value"].abs() < 1e-9).all()
    assert table.loc["supervised_iris", "support_size"] == 1  # accuracy game: a pure winner
    assert table.loc["supervised_iris", "condorcet_context_fraction"] == pytest.approx(1.0)


def cells(line):
    """The cells of a Markdown table row (an escaped pipe stays in its cell)."""
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]


def test_overview_shows_each_setting_at_its_largest_horizon(tables):
    summary = online_summary(tables, 0.05)
    lines = overview_markdown(tables, summary).splitlines()
    assert lines[0].startswith("3 seeds per setting and horizon, δ = 0.05.")
    assert "at every (setting, T): yes (lowest coverage 1.00;" in lines[0]
    header, _, *body = [cells(line) for line in lines[2:]]
    rows = {row[0]: dict(zip(header, row, strict=True)) for row in body}
    assert list(rows) == [
        "synthetic",
        "synthetic, long run",
        "supervised (iris data)",
        "adaptive adversary",
    ]
    long = rows["synthetic, long run"]
    assert (long["K"], long["\\|Π\\|"], long["largest T"]) == ("3", "20", "800")
    regret = tables["regret"].set_index(["setting", "algorithm", "horizon"])["mean"]
    exp4p, uniform = (
        regret[("long_K3_N20", "sparring_exp4p", 800)],
        regret[("long_K3_N20", "uniform", 800)],
    )
    assert long["vs uniform duels"] == f"{exp4p / uniform:.0%}"
    assert float(long["mean regret"]) == pytest.approx(exp4p, rel=5e-3)
    slope = (
        tables["slopes"].set_index(["setting", "algorithm"]).loc[("long_K3_N20", "sparring_exp4p")]
    )
    assert float(long["slope (theory 1/2)"]) == pytest.approx(slope["slope"], abs=5e-3)
    assert rows["adaptive adversary"]["slope (theory 1/2)"] == "n/a"  # one horizon


def test_overview_says_when_a_bound_fails(tables):
    runs = tables["runs"].copy()
    runs["regret"] = runs["regret"] + 1e6
    inflated = {"runs": runs} | summarise_online(runs, 0.05, True, SEED)
    sentence = overview_markdown(inflated, online_summary(inflated, 0.05)).splitlines()[0]
    assert "at every (setting, T): **no** (lowest coverage 0.00;" in sentence


def test_results_md_shows_the_overview_as_written(tables, repo_root):
    # The block of RESULTS.md is results/online/overview.md of a default run, pasted unchanged
    # (cdbandits.workflow.readme): same sentence and same columns as overview_markdown writes.
    readme = (repo_root / "RESULTS.md").read_text(encoding="utf-8")
    source = "results/online/overview.md"
    assert source in block_sources(readme)
    block = readme.split(f"<!-- begin: {source} -->\n", 1)[1].split(f"<!-- end: {source} -->")[0]
    written = overview_markdown(tables, online_summary(tables, 0.05)).rstrip("\n").splitlines()
    pasted = block.rstrip("\n").splitlines()
    assert re.sub(r"\d[\d.,]*", "#", pasted[0]) == re.sub(r"\d[\d.,]*", "#", written[0])
    assert cells(pasted[2]) == cells(written[2])
    columns = len(cells(written[2]))
    assert len(pasted) > 4 and all(len(cells(line)) == columns for line in pasted[2:])


def test_last_decade_slope_is_fitted_on_the_curve_from_a_tenth_of_t(tables):
    curves = tables["curves"]
    table = tables["last_decade"].set_index(["setting", "algorithm"])
    assert len(table) == 4 * 3  # every setting and algorithm
    row = table.loc[("long_K3_N20", "sparring_exp4p")]
    # The long run's curves get TINY's 5 extra checkpoints from 80 to 800, beside the 4
    # log-spaced ones from 10 (10, 43, 186, 800).
    at_800 = curves[(curves["setting"] == "long_K3_N20") & (curves["horizon"] == 800)]
    window = sorted(r for r in at_800["rounds"].unique() if r >= 80)
    assert window == [80, 142, 186, 253, 450, 800] and row["n_checkpoints"] == 6
    exp4p = at_800[(at_800["algorithm"] == "sparring_exp4p") & (at_800["rounds"] >= 80)]
    means = exp4p.groupby("rounds")["regret"].mean()
    assert row["slope"] == pytest.approx(log_log_slope(means.index, means.to_numpy()))
    assert row["slope_ci_low"] <= row["slope"] <= row["slope_ci_high"]
    assert (row["horizon"], row["window_start"], row["n_seeds"]) == (800, 80, 3)
    assert row["theory_slope"] == 0.5
    assert row["theory_in_interval"] == (row["slope_ci_low"] <= 0.5 <= row["slope_ci_high"])
    assert math.isnan(table.loc[("long_K3_N20", "uniform"), "theory_slope"])
    # The synthetic setting has no extra ones: 10, 34, 117, 400; two in [40, 400].
    assert table.loc[("synthetic_K3_N20", "uniform"), "n_checkpoints"] == 2
    summary = online_summary(tables, 0.05)["settings"]["long_K3_N20"]
    assert summary["last_decade_regret_slope"]["sparring_exp4p"]["slope"] == row["slope"]


def test_the_tiny_config_writes_the_last_decade_table(tables):
    lines = last_decade_markdown(tables["last_decade"]).splitlines()
    row = (
        tables["last_decade"]
        .set_index(["setting", "algorithm"])
        .loc[("long_K3_N20", "sparring_exp4p")]
    )
    assert lines[0].startswith("Log-log slope of the mean regret against the rounds within")
    assert "Long run (K = 3, |Π| = 20): over the last decade of T = 800 (80 → 800" in lines[0]
    assert "; the theory's rate, 1/2, lies " in lines[0]
    header, _, *body = [cells(line) for line in lines[2:]]
    assert "slope, last decade" in header and "95% interval" in header
    rows = {row[header.index("algorithm")]: dict(zip(header, row, strict=True)) for row in body}
    assert list(rows) == ["SparringEXP4.P", "sparring EXP3 (no context)", "uniform duels"]
    exp4p = rows["SparringEXP4.P"]
    assert float(exp4p["slope, last decade"]) == pytest.approx(row["slope"], abs=5e-3)
    assert (exp4p["theory"], rows["uniform duels"]["theory"]) == ("1/2", "—")
    without_long = tables["last_decade"][tables["last_decade"]["setting"] != "long_K3_N20"]
    assert last_decade_markdown(without_long).startswith("No long run in this configuration")


@pytest.mark.parametrize(
    ("low", "high", "verdict"),
    [
        (0.9, 1.1, "outside the interval (below it)"),  # a linear curve
        (0.2, 0.3, "outside the interval (above it)"),
        (0.45, 0.55, "inside the interval"),
    ],
)
def test_the_sentence_says_whether_one_half_is_in_the_interval(tables, low, high, verdict):
    table = tables["last_decade"].copy()
    exp4p = (table["setting"] == "long_K3_N20") & (table["algorithm"] == "sparring_exp4p")
    table.loc[exp4p, ["slope", "slope_ci_low", "slope_ci_high"]] = [(low + high) / 2, low, high]
    assert f"; the theory's rate, 1/2, lies {verdict}." in last_decade_markdown(table)


def test_a_bound_below_t_but_not_below_every_episodes_ceiling_is_not_informative():
    horizon = 200_000
    bound = sparring_exp4p_regret_bound(horizon, 3, 20, 0.05).total
    assert bound < horizon
    # Two settings alike but for one episode's ceiling, under the bound in the second.
    runs = pd.DataFrame(
        [
            {
                "setting": setting, "environment": "synthetic", "n_actions": 3,
                "n_policies": 20, "n_contexts": 15, "algorithm": "sparring_exp4p",
                "seed": seed, "horizon": t, "regret": 0.01 * t,
                "regret_ceiling": 0.9 * bound if (setting, seed, t) == ("b", 1, horizon) else t,
                "epsilon": math.nan,
            }
            for setting in ("a", "b") for seed in range(3) for t in (horizon // 10, horizon)
        ]
    )  # fmt: skip
    coverage = summarise_online(runs, 0.05, True, SEED)["coverage"]
    coverage = coverage.set_index(["setting", "horizon"])
    assert coverage.loc[("a", horizon), "informative"]
    assert not coverage.loc[("b", horizon), "informative"]
    assert coverage.loc[("b", horizon), "min_ceiling"] == pytest.approx(0.9 * bound)
