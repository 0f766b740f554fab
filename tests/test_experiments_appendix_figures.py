"""Figures 1-4: drawn from the workflow's tables, with titles and legends naming every series."""

import numpy as np
import pytest
from appendix_helpers import random_skew

from cdbandits.experiments.appendix.experiments import run_shard
from cdbandits.experiments.appendix.figures import FIGURE_NAMES, appendix_figures
from cdbandits.experiments.appendix.sampling import SamplingPlan
from cdbandits.experiments.appendix.tables import distribution_table, per_k_table
from cdbandits.files import save_figure, write_csv


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    folders = {}
    for index, model in enumerate(["navigational", "informational"]):
        P = random_skew(np.random.default_rng(index), 14)
        counts = run_shard(P, SamplingPlan(model, 14, tuple(range(2, 15)), 400, index))
        folder = tmp_path_factory.mktemp(model)
        write_csv(folder / "per_k.csv", per_k_table(counts))
        for name in ("support_size", "max_copeland_loss"):
            write_csv(folder / f"{name}.csv", distribution_table(counts, name))
        folders[model] = folder
    return appendix_figures(folders, paper_model="informational")


def legend_texts(figure):
    return [
        text.get_text()
        for axis in figure.axes
        if axis.get_legend() is not None
        for text in axis.get_legend().get_texts()
    ]


def test_every_figure_has_a_title_and_a_legend(figures, tmp_path):
    assert list(figures) == list(FIGURE_NAMES)
    for name, figure in figures.items():
        assert figure._suptitle.get_text().startswith("Fig. "), name
        assert legend_texts(figure), name
        save_figure(figure, tmp_path / f"{name}.png", tmp_path / f"{name}.pdf")
        assert (tmp_path / f"{name}.png").stat().st_size > 0


def test_the_papers_click_model_comes_first_and_is_marked(figures):
    labels = legend_texts(figures["fig1_condorcet"])
    assert labels == ["informational (the paper's)", "navigational"]
    panel_titles = [
        axis.get_title() for axis in figures["fig4_support_size"].axes if axis.get_title()
    ]
    assert panel_titles == ["informational (the paper's)", "navigational"]
