import numpy as np
import pandas as pd
from real_data_helpers import transitive

from cdbandits.experiments.real_data.experiments import matrix_summary, subset_counts
from cdbandits.experiments.real_data.figures import (
    plot_context_gains,
    plot_dataset_statistics,
    plot_trec_dl_agreement,
)
from cdbandits.experiments.real_data.settings import SubsetSettings
from cdbandits.experiments.real_data.sources import RealMatrix
from cdbandits.experiments.real_data.tables import series_tables


def labels(figure):
    return [t.get_text() for legend in figure.legends for t in legend.get_texts()]


def test_a_data_set_figure_has_a_line_per_series_and_says_it_has_no_band():
    settings = SubsetSettings(
        samples_per_k=20, ks=(2, 3, 4), resamples=0, confidence=0.95, interval="wilson", seed=1
    )
    matrices = [
        RealMatrix("atp", name, "", tuple("abcd"), transitive(4), None) for name in ("x", "y")
    ]
    summary = pd.DataFrame([matrix_summary(m) for m in matrices])
    per_k = series_tables(subset_counts(matrices, settings), summary)["per_k"]
    figure = plot_dataset_statistics("atp", per_k, 0.95, "wilson")
    assert "ATP tennis" in figure._suptitle.get_text()
    assert labels(figure) == [
        "atp x, all",
        "atp x, at least one",
        "atp y, all",
        "atp y, at least one",
    ]
    assert any("No data band" in t.get_text() for t in figure.texts)
    condorcet = figure.axes[0].lines[0]
    np.testing.assert_allclose(condorcet.get_ydata(), 1.0)


def test_context_gain_panels_mark_the_observed_gain():
    gains = pd.DataFrame(
        [
            {"analysis": "surface", "contexts": "Clay, Grass", "items": 4, "gain": 0.2,
             "p_value": 0.01},
            {"analysis": "period", "contexts": "1990s, 2000s", "items": 4, "gain": 0.05,
             "p_value": 0.5},
        ]
    )  # fmt: skip
    rng = np.random.default_rng(0)
    draws = pd.concat(
        pd.DataFrame({"analysis": a, "kind": k, "gain": rng.random(30) / 4})
        for a in ("surface", "period")
        for k in ("bootstrap", "permutation")
    )
    figure = plot_context_gains(gains, draws)
    assert len(figure.axes) == 2
    assert labels(figure) == [
        "bootstrap (comparisons resampled per context)",
        "null: context labels shuffled",
        "observed gain",
    ]
    assert "observed gain 0.200, p = 0.010" in figure.axes[0].get_title()


def test_trec_dl_bars_per_view_and_published_set():
    rows = [
        {"view": v, "published": p, "topics": 50, "in_support": 0.5, "has_top": 0.6,
         "copeland": 0.7, "condorcet": 0.1, "condorcet_exists": 0.2}
        for v in ("all", "finalists") for p in ("Set-I", "Set-II")
    ]  # fmt: skip
    figure = plot_trec_dl_agreement(pd.DataFrame(rows))
    assert len(figure.axes) == 2
    heights = sorted(round(bar.get_height(), 3) for bar in figure.axes[1].patches)
    assert heights == sorted([0.5, 0.6, 0.7, 0.1, 0.2] * 2)
