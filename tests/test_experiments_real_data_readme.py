import pandas as pd

from cdbandits.experiments.real_data.readme import (
    claims_paragraph,
    contexts_paragraph,
    coverage_paragraph,
    readme_markdown,
    trec_dl_paragraph,
)

CLAIMS = pd.DataFrame(
    {
        "series": ["a", "a", "b", "b"],
        "claim": ["c1", "c2", "c1", "c2"],
        "holds": [True, False, True, False],
    }
)
PER_K = pd.DataFrame(
    {
        "series": ["a", "a", "b", "b"],
        "K": [2, 3, 2, 3],
        "matrices": [10, 10, 10, 10],
        "some_copeland_in_support": [10, 10, 9, 8],
        "all_copeland_in_support": [10, 9, 8, 6],
        "max_support_size": [1, 3, 2, 5],
        "fraction_condorcet": [0.9, 0.6, 0.8, 0.3],
    }
)


def test_claims_paragraph_counts_and_ranges_come_from_the_tables():
    text = claims_paragraph(CLAIMS, PER_K)
    assert "On 2 real series (a and b), `c1` hold on every series" in text
    assert "(`c2`) on 0" in text
    assert "85%-100% of the sampled sub-matrices per series (all of them in 70%-95%)" in text
    assert "has 5 items (b)" in text
    assert "on 1 series (b: K = 3), but in most sub-matrices at every K on a," in text
    mixed = CLAIMS.assign(holds=[True, False, False, True])
    assert "none of the paper's 2 claims holds everywhere" in claims_paragraph(mixed, PER_K)


def test_contexts_trec_and_coverage_paragraphs():
    gains = pd.DataFrame(
        [{"analysis": "surface", "contexts": "Clay, Grass", "items": 8, "comparisons": 1234.0,
          "gain": 0.1, "win_probability": 0.55, "gain_low": 0.05, "gain_high": 0.2,
          "pooled_gain": 0.12, "null_median": 0.03, "p_value": 0.004}]
    )  # fmt: skip
    text = contexts_paragraph(gains)
    assert "8 players, 1,234 matches" in text and "55.0% win chance" in text
    assert "p = 0.004: beyond what the noise" in text
    agreement = pd.DataFrame(
        [{"view": v, "published": p, "topics": 50, "has_top": h, "copeland": 0.5,
          "condorcet_exists": 0.2, "support_size": s, "agrees_with_" + q: 0.4}
         for v, s in (("all", 10.0), ("finalists", 2.5))
         for p, q, h in (("Set-I", "Set-II", 0.6), ("Set-II", "Set-I", 0.8))]
    )  # fmt: skip
    text = trec_dl_paragraph(agreement)
    assert "Over 50 topics" in text and "60%-80% of topics" in text
    assert "grows to 10.0 passages" in text and "only 40%-40%" in text
    topics = pd.DataFrame(
        {
            "view": ["finalists"] * 4 + ["all"],
            "Set-II_has_top": [True, True, False, False, False],
            "Set-II_support_probability": [0.9, 0.7, 0.5, 0.3, 0.0],
        }
    )
    why = trec_dl_paragraph(agreement, topics)
    assert "against Set-II, the published passage is in the von Neumann support of 80%" in why
    assert "but only 40% where it is not" in why
    coverage = pd.DataFrame(
        [{"case": "atp", "method": "bootstrap", "target": "weight", "replications": 500,
          "nominal": 0.95, "lowest": 0.91, "passes": False, "mean_width": 0.8}]
    )  # fmt: skip
    text = coverage_paragraph(coverage)
    assert "atp (500 synthetic logs)" in text and "91% (below nominal - tolerance)" in text
    assert "(mean width 0.80)" in text and "do not cover at every item" in text
    assert "cover at every item and size" in coverage_paragraph(coverage.assign(passes=True))
    full = readme_markdown(CLAIMS, PER_K, "| table |\n", gains, agreement, coverage)
    assert full.count("\n\n") == 4 and full.endswith("| table |\n")
    with_figures = readme_markdown(CLAIMS, PER_K, "| t |\n", gains, None, None, ["atp"])
    assert with_figures.endswith("| t |\n\n![atp](figures/real_data_atp.png)\n")
