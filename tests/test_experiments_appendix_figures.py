"""Figures 1-4: drawn from the workflow's tables, with titles, legends naming every series,
honest bubble areas and the paper's reference lines."""

import numpy as np
import pandas as pd
import pytest
from appendix_helpers import random_skew
from matplotlib.collections import PathCollection

from cdbandits.experiments.appendix import figures
from cdbandits.experiments.appendix.experiments import run_shard
from cdbandits.experiments.appendix.figures import (
    FIGURE_NAMES,
    appendix_figures,
    plot_copeland_loss_bubbles,
    plot_support_sizes,
)
from cdbandits.experiments.appendix.readings import PAPER_SOME_COPELAND, PAPER_SUPPORT_5
from cdbandits.experiments.appendix.sampling import SamplingPlan
from cdbandits.experiments.appendix.tables import distribution_table, summary_tables
from cdbandits.files import save_figure, write_csv


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    folders = {}
    for index, model in enumerate(["navigational", "informational", "built"]):
        P = random_skew(np.random.default_rng(index), 14)
        counts = run_shard(P, SamplingPlan(model, 14, tuple(range(2, 15)), 400, index))
        folder = tmp_path_factory.mktemp(model)
        for name, table in summary_tables(counts).items():
            write_csv(folder / f"{name}.csv", table)
        folders[model] = folder
    return appendix_figures(folders, paper_model="informational")


def legend_texts(figure):
    return [
        text.get_text()
        for axis in figure.axes
        if axis.get_legend() is not None
        for text in axis.get_legend().get_texts()
    ]


def test_every_figure_has_a_title_and_a_legend(drawn, tmp_path):
    assert list(drawn) == list(FIGURE_NAMES)
    for name, figure in drawn.items():
        assert figure._suptitle.get_text().startswith("Fig. "), name
        assert legend_texts(figure), name
        save_figure(figure, tmp_path / f"{name}.png", tmp_path / f"{name}.pdf")
        assert (tmp_path / f"{name}.png").stat().st_size > 0


def test_the_papers_click_model_comes_first_and_is_marked(drawn):
    labels = legend_texts(drawn["fig1_condorcet"])
    assert labels[:3] == ["informational (the paper's)", "built", "navigational"]
    assert "our reading of 'drops rapidly'" in labels[3]
    titles = [axis.get_title() for axis in drawn["fig4_support_size"].axes if axis.get_title()]
    assert titles == ["informational (the paper's)", "built", "navigational"]


def test_fig2_click_models_differ_in_colour_marker_and_line_style(drawn):
    figure = drawn["fig2_copeland_in_support"]
    every, *some = figure.axes
    lines = [line for line in every.get_lines() if line.get_label() in legend_texts(figure)]
    models = [line for line in lines if not line.get_label().startswith(("99.9%", "90%"))]
    assert len(models) == 3
    for attribute in ("get_color", "get_marker", "get_linestyle"):
        assert len({getattr(line, attribute)() for line in models}) == 3, attribute
    # "at least one": one panel per click model, each with the paper's 99.9% line
    assert len(some) == 3
    for axis in some:
        assert PAPER_SOME_COPELAND in [line.get_ydata()[0] for line in axis.get_lines()]


def loss_table(shares: dict[int, float], n: int = 10_000) -> pd.DataFrame:
    rows = [(k, loss, round(share * n), share) for k in (2, 3) for loss, share in shares.items()]
    table = pd.DataFrame(rows, columns=["K", "max_copeland_loss", "count", "fraction"])
    return table.assign(fraction_low=0.0, fraction_high=1.0, fraction_upper_bound=1.0)


def test_fig3_bubble_areas_are_proportional_and_rare_shares_never_look_larger():
    table = loss_table({0: 0.9, 1: 0.09, 2: 0.009, 3: 0.0009, 4: 0.0001})
    figure = plot_copeland_loss_bubbles({"informational": table})
    axis = figure.axes[0]
    bubbles, rare = [c for c in axis.collections if isinstance(c, PathCollection)][:2]
    common = table[table["fraction"] >= figures._RARE_SHARE]
    np.testing.assert_allclose(bubbles.get_sizes(), figures._FULL_AREA * common["fraction"])
    assert len(rare.get_offsets()) == 2 * 3  # losses 2, 3 and 4 at both K
    smallest_bubble = figures._FULL_AREA * figures._RARE_SHARE
    assert (rare.get_sizes() < smallest_bubble).all()
    assert rare.get_paths()[0] != bubbles.get_paths()[0]  # a different marker
    assert any("under 1%" in text for text in legend_texts(figure))


def test_fig4_zoom_draws_upper_bounds_where_nothing_was_seen_and_the_papers_line(tmp_path):
    P = random_skew(np.random.default_rng(8), 9)
    counts = run_shard(P, SamplingPlan("m", 9, (2, 3, 4), 300, 1))
    table = distribution_table(counts, "support_size", include=(5,))
    figure = plot_support_sizes({"m": table}, paper_model="m")
    zoom = figure.axes[1]
    paper = [line for line in zoom.get_lines() if "0.03%" in line.get_label()]
    assert len(paper) == 1 and paper[0].get_ydata()[0] == PAPER_SUPPORT_5
    bounds = [c for c in zoom.collections if "upper bound" in c.get_label()]
    never = table[(table["support_size"] == 5) & (table["count"] == 0)]
    np.testing.assert_allclose(bounds[0].get_offsets()[:, 1], never["fraction_upper_bound"])
    assert zoom.get_ylim()[1] > never["fraction_upper_bound"].max()  # nothing cut off
