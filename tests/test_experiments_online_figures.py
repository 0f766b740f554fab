"""The online sweep's figures (cdbandits.experiments.online.figures)."""

import matplotlib
import pytest
from matplotlib.collections import PolyCollection
from online_tiny import SEED, tiny_config, tiny_sweep

from cdbandits.experiments.online.experiments import online_settings
from cdbandits.experiments.online.figures import (
    FIGURE_NAMES,
    online_figures,
    setting_kind,
    setting_order,
    setting_title,
    setting_titles,
)
from cdbandits.experiments.online.settings import OnlineSection
from cdbandits.experiments.online.tables import summarise_online
from cdbandits.plotting import ALGORITHM_STYLES


@pytest.fixture(scope="module")
def tables():
    runs, curves = tiny_sweep()
    return {"runs": runs, "curves": curves} | summarise_online(runs, 0.05, True, SEED)


@pytest.fixture(scope="module")
def figures(tables):
    drawn = online_figures(tables)
    for figure in drawn.values():
        figure.canvas.draw()
    yield drawn
    for figure in drawn.values():
        matplotlib.pyplot.close(figure)


def panels(figure):
    return [axis for axis in figure.axes if axis.get_visible()]


def covered_data(axis):
    """The lines and bands of ``axis`` that its legend's box touches (display coordinates)."""
    box = axis.get_legend().get_window_extent()
    artists = [*axis.get_lines(), *(c for c in axis.collections if isinstance(c, PolyCollection))]
    touched = []
    for artist in artists:
        paths = [artist.get_path()] if hasattr(artist, "get_path") else artist.get_paths()
        transform = artist.get_transform()
        if any(path.transformed(transform).intersects_bbox(box) for path in paths):
            touched.append(artist.get_label())
    return touched


def test_panels_are_titled_with_what_the_setting_is(figures, tables):
    titles = [axis.get_title() for axis in panels(figures["regret_vs_horizon"])]
    assert titles == [
        "synthetic\nK = 3 actions, |Π| = 20 policies",
        "synthetic, long run\nK = 3 actions, |Π| = 20 policies",
        "supervised (iris data)\nK = 3 actions, |Π| = 36 policies",
        "adaptive adversary\nK = 3 actions, |Π| = 10 policies",
    ]
    assert [axis.get_title() for axis in panels(figures["regret_curves"])] == titles
    assert set(setting_titles(tables["online_to_batch"]).values()) == {
        axis.get_title() for axis in panels(figures["online_to_batch"])
    }


@pytest.mark.parametrize("name", ["regret_vs_horizon", "online_to_batch"])
def test_panel_legends_cover_no_line_or_band(figures, name):
    for axis in panels(figures[name]):
        assert axis.get_legend() is not None
        assert covered_data(axis) == [], axis.get_title()


def test_the_shared_legend_is_outside_every_panel(figures):
    for name in FIGURE_NAMES:
        figure = figures[name]
        (legend,) = figure.legends
        box = legend.get_window_extent()
        for axis in panels(figure):
            assert not box.overlaps(axis.get_window_extent()), (name, axis.get_title())


def test_algorithms_are_drawn_in_their_shared_style(figures):
    (legend,) = figures["regret_vs_horizon"].legends
    drawn = {
        text.get_text(): handle
        for text, handle in zip(legend.texts, legend.legend_handles, strict=True)
    }
    for algorithm in ("sparring_exp4p", "sparring_exp3", "uniform"):
        style = ALGORITHM_STYLES[algorithm]
        assert drawn[style.label].get_color() == style.colour
        assert drawn[style.label].get_marker() == style.marker
    first = panels(figures["regret_vs_horizon"])[0]
    assert {line.get_color() for line in first.get_lines()} >= {
        ALGORITHM_STYLES[a].colour for a in ("sparring_exp4p", "sparring_exp3", "uniform")
    }
    assert any("bound of Theorem sparring-exp4 (δ = 0.05)" == t.get_text() for t in legend.texts)
    assert len(panels(figures["online_to_batch"])) == 3


def test_settings_are_read_in_order_and_described():
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
    assert setting_kind("long_K3_N100", "synthetic") == "synthetic, long run"
    assert setting_kind("supervised_wine", "supervised") == "supervised (wine data)"
    assert setting_kind("mslr", "mslr") == "MSLR per query"
    assert (
        setting_title("adversarial_K3_N1000", "adversarial", 3, 1000)
        == "adaptive adversary: K = 3 actions, |Π| = 1,000 policies"
    )
    # Every setting the config can make has a description of its own.
    settings = online_settings(
        OnlineSection.from_config(tiny_config(mslr__matrices="per_query.npz"))
    )
    kinds = [setting_kind(s.name, s.environment) for s in settings]
    assert len(set(kinds)) == len(kinds) and not any("_" in kind for kind in kinds)
