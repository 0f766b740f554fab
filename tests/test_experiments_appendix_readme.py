"""The account of the appendix in RESULTS.md: every number from the tables, nothing typed."""

import io

import pandas as pd
import pytest
from appendix_helpers import synthetic_counts
from conftest import REPO_ROOT

from cdbandits.experiments.appendix.claims import appendix_claims
from cdbandits.experiments.appendix.k_grid import k_grid_table
from cdbandits.experiments.appendix.readme import appendix_readme
from cdbandits.experiments.appendix.tables import per_k_table


def via_csv(table: pd.DataFrame) -> pd.DataFrame:
    """The table as the workflow's next rule reads it."""
    return pd.read_csv(io.StringIO(table.to_csv(index=False)))


def verification(matrices: int, agreeing: int) -> dict:
    strata = {"no_condorcet": {"matrices": matrices // 2}, "uniform": {"matrices": matrices // 2}}
    return {
        "matrices": matrices,
        "agreeing": agreeing,
        "same_support": agreeing,
        "max_abs_weight_difference": 3.3e-16,
        "agrees_or_resolved": agreeing == matrices,
        "strata": strata,
    }


@pytest.fixture(scope="module")
def readme():
    n = 400_000
    counts = {
        "informational": synthetic_counts("informational", 0, {2: n, 50: n // 4, 136: 0}),
        "perfect": synthetic_counts("perfect", 2000, {2: n, 50: 9 * n // 10, 136: n}),
    }
    claims = appendix_claims(counts, clone_ks=[5], paper_model="informational")
    grid = k_grid_table(counts, paper_model="informational")
    per_k = {model: via_csv(per_k_table(c)) for model, c in counts.items()}
    summaries = {"informational": verification(2000, 2000), "perfect": verification(2000, 1999)}
    text = appendix_readme(
        via_csv(claims),
        via_csv(grid),
        per_k,
        summaries,
        paper_model="informational",
        variant="wins",
        confidence=0.95,
        method="clopper-pearson",
    )
    return text, claims, grid


def test_the_numbers_come_from_the_tables(readme):
    text, claims, grid = readme
    paper = claims[claims["click_model"] == "informational"]
    assert f"{int(paper['holds'].sum())} of {len(paper)} hold" in text
    assert "K in {2, 50, 136}; 400,000 random K-subsets each" in text
    assert "2 click models (informational, perfect): 2,400,000 certified" in text
    for value_text in paper["value_text"]:
        assert value_text.replace("|", "\\|") in text
    assert "perfect: lowest 90.0% at K = 50, 100.0% at K = 136" in text
    assert (
        "informational: 2,000 of 2,000 agree (1,000 uniform, 1,000 without a Condorcet winner)"
        in text
    )
    assert "perfect: 1,999 of 2,000 agree" in text and "**unresolved disagreements**" in text
    assert "nan" not in text and "<NA>" not in text


def test_only_the_papers_click_model_is_tabled(readme):
    text, claims, grid = readme
    table_rows = [line for line in text.splitlines() if line.startswith("| ")]
    paper = set(claims[claims["click_model"] == "informational"]["value_text"])
    other = set(claims[claims["click_model"] == "perfect"]["value_text"]) - paper
    assert other  # e.g. the share with support 5 differs
    assert not any(value in line for value in other for line in table_rows)
    k_grid_rows = [line for line in table_rows if "| informational |" in line]
    assert len(k_grid_rows) == len(grid[grid["click_model"] == "informational"])


def test_results_md_holds_the_workflows_account_between_markers():
    readme = (REPO_ROOT / "RESULTS.md").read_text(encoding="utf-8")
    begin = readme.index("<!-- begin: results/appendix/readme.md -->")
    end = readme.index("<!-- end: results/appendix/readme.md -->")
    block = readme[begin:end]
    assert "| claim | the paper | our reading | our value | holds | why this reading |" in block
    assert "| claim | click model | holds on the full grid |" in block
