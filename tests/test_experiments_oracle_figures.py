"""Every figure draws from the tables of a tiny sweep (and from an empty scaling table)."""

import pandas as pd
import pytest
from test_experiments_oracle_experiments import TINY, run_shards
from test_experiments_oracle_power import synthetic_power

from cdbandits.experiments.oracle.figures import (
    plot_convergence,
    plot_explore_first,
    plot_oracle_figures,
    plot_regret,
    plot_scaling,
)
from cdbandits.experiments.oracle.tables import combine_experiment_shards
from cdbandits.plotting import ALGORITHM_STYLES, LEGEND_SIZE

#: Two repeats of two methods at two class sizes.
SCALING = pd.DataFrame(
    {
        "method": ["fpl", "sparring_exp4p"] * 4,
        "n_policies": [10, 10, 100, 100] * 2,
        "repeat": [0] * 4 + [1] * 4,
        "seconds": [1.0, 0.5, 1.1, 5.0, 1.2, 0.6, 1.0, 6.0],
        "peak_mb": [1.0, 0.5, 1.0, 5.0, 1.0, 0.5, 1.0, 5.0],
    }
)


@pytest.fixture(scope="module")
def tables():
    one = {**TINY, "shards": 1}
    return {
        e: combine_experiment_shards(run_shards(one, e, seed=5), e)
        for e in ("explore_first", "solvers", "regret")
    }


def test_figures_draw(tables):
    for figure in (
        plot_convergence(tables["solvers"]),
        plot_explore_first(tables["explore_first"]),
        plot_regret(tables["regret"]),
        plot_scaling(pd.DataFrame(columns=["method", "n_policies", "seconds", "peak_mb"])),
        plot_scaling(SCALING),
    ):
        assert figure.axes and all(axis.get_xscale() == "log" for axis in figure.axes)


def legends_of(figure):
    return [axis.get_legend() for axis in figure.axes if axis.get_legend() is not None]


def test_legends_are_readable_and_hide_no_curve(tables):
    figures = plot_oracle_figures({**tables, "scaling": SCALING, "power": synthetic_power()})
    for name, figure in figures.items():
        legends = legends_of(figure)
        assert legends, name
        renderer = figure.canvas.get_renderer()
        for legend in legends:
            assert {text.get_fontsize() for text in legend.get_texts()} == {LEGEND_SIZE}, name
            # Under its panel: the legend's box lies below the axes' box.
            axes_box = legend.axes.get_window_extent(renderer)
            assert legend.get_window_extent(renderer).y1 <= axes_box.y0, name
        assert figure.texts[0].get_text(), f"{name} has no title"


def test_every_algorithm_has_its_shared_colour(tables):
    regret = plot_oracle_figures({**tables, "scaling": SCALING, "power": synthetic_power()})[
        "regret"
    ]
    colours = {line.get_label(): line.get_color() for line in regret.axes[0].get_lines()}
    for algorithm in ("sparring_exp4p", "explore_exploit_fpl", "explore_exploit_lp"):
        style = ALGORITHM_STYLES[algorithm]
        assert colours[style.label] == style.colour
