"""The shared plotting style (cdbandits.plotting)."""

import pytest

from cdbandits.plotting import (
    ALGORITHM_STYLES,
    SERIES_STYLES,
    algorithm_style,
    panel_grid,
    series_styles,
    title_and_caption,
)


def test_every_algorithm_has_a_distinct_label():
    labels = [style.label for style in ALGORITHM_STYLES.values()]
    assert len(labels) == len(set(labels))


def test_unknown_algorithm_names_the_known_ones():
    with pytest.raises(KeyError, match="sparring_exp4p"):
        algorithm_style("no_such_algorithm")


def test_panel_grid_hides_unused_panels():
    figure, axes = panel_grid(4, columns=3)
    assert len(axes) == 4 and len(figure.axes) == 6
    assert [axis.get_visible() for axis in figure.axes] == [True] * 4 + [False] * 2
    title_and_caption(figure, "Title", ["line one", "line two"])
    assert [text.get_text() for text in figure.texts] == ["Title", "line one\nline two"]
    with pytest.raises(ValueError, match="at least one panel"):
        panel_grid(0)


def test_click_models_keep_their_style_and_others_get_distinct_ones():
    from cdbandits.plotting import CLICK_MODEL_STYLES, click_model_styles

    styles = click_model_styles(["perfect", "built_a", "informational", "built_b"])
    assert styles["perfect"] == CLICK_MODEL_STYLES["perfect"]
    assert styles["informational"] == CLICK_MODEL_STYLES["informational"]
    assert len({(s.colour, s.marker, s.linestyle) for s in styles.values()}) == 4
    many = click_model_styles([f"model_{i}" for i in range(7)])
    assert len(many) == 7


def test_series_styles_are_distinct_and_run_out_loudly():
    styles = series_styles([f"s{i}" for i in range(len(SERIES_STYLES))])
    assert len({style.colour for style in styles.values()}) == len(SERIES_STYLES)
    assert len({style.marker for style in styles.values()}) == len(SERIES_STYLES)
    with pytest.raises(ValueError, match="distinct styles"):
        series_styles([f"s{i}" for i in range(len(SERIES_STYLES) + 1)])
