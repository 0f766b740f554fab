"""The online sweep's figures (cdbandits.experiments.online.figures)."""

import matplotlib
import pytest
from online_tiny import SEED, tiny_sweep

from cdbandits.experiments.online import FIGURE_NAMES, online_figures, summarise_online
from cdbandits.experiments.online.figures import setting_order
from cdbandits.plotting import ALGORITHM_STYLES


@pytest.fixture(scope="module")
def figures():
    runs, curves = tiny_sweep()
    tables = {"runs": runs, "curves": curves} | summarise_online(runs, 0.05, True, SEED)
    drawn = online_figures(tables)
    yield drawn
    for figure in drawn.values():
        matplotlib.pyplot.close(figure)


def test_settings_are_drawn_in_reading_order():
    names = ["mslr", "adversarial_K3_N10", "synthetic_K5_N100", "long_K3_N100"]
    names += ["synthetic_K3_N1000", "supervised_wine", "synthetic_K3_N100"]
    assert setting_order(names) == [
        "synthetic_K3_N100",
        "synthetic_K3_N1000",
        "synthetic_K5_N100",
        "long_K3_N100",
        "supervised_wine",
        "adversarial_K3_N10",
        "mslr",
    ]


def test_one_panel_per_setting_with_the_algorithms_styles(figures):
    assert set(figures) == set(FIGURE_NAMES)
    visible = [axis for axis in figures["regret_vs_horizon"].axes if axis.get_visible()]
    assert len(visible) == 4
    first = visible[0]
    colours = {line.get_label().split(" (")[0]: line.get_color() for line in first.get_lines()}
    for algorithm in ("sparring_exp4p", "sparring_exp3", "uniform"):
        style = ALGORITHM_STYLES[algorithm]
        assert colours[style.label.split(" (")[0]] == style.colour
    assert len([a for a in figures["online_to_batch"].axes if a.get_visible()]) == 3
