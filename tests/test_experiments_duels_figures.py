"""The duels figures (cdbandits.experiments.duels.figures)."""

import matplotlib
import pandas as pd
import pytest

from cdbandits.experiments.duels.figures import FIGURE_NAMES, duels_figures, plot_time_per_round
from cdbandits.files import save_figure
from cdbandits.plotting import ALGORITHM_STYLES

ALGORITHMS = ("rucb", "self_sparring", "dts")
TITLES = {"one": "First environment", "two": "Second environment"}


def curves():
    rows = []
    for environment in TITLES:
        for algorithm in ALGORITHMS:
            # dts stops at 10 on "two", as a capped algorithm does
            rounds = (1, 10) if environment == "two" and algorithm == "dts" else (1, 10, 100)
            for round_ in rounds:
                for metric in ("von_neumann", "copeland"):
                    rows.append(
                        {
                            "environment": environment,
                            "algorithm": algorithm,
                            "round": round_,
                            "metric": metric,
                            "mean": round_ / 2,
                            "ci_low": round_ / 3,
                            "ci_high": round_,
                            "n_seeds": 3,
                        }
                    )
    return pd.DataFrame(rows)


def timings():
    return pd.DataFrame(
        [
            {
                "environment": environment,
                "algorithm": algorithm,
                "n_arms": arms,
                "horizon": 100,
                "runs": 3,
                "microseconds_per_round": 2.0,
                "microseconds_per_round_min": 1.0,
                "microseconds_per_round_max": 3.0,
                "duels_per_second": 5e5,
            }
            for environment, arms in (("one", 6), ("two", 20))
            for algorithm in ALGORITHMS
        ]
    )


@pytest.fixture(scope="module")
def figures():
    drawn = duels_figures(curves(), TITLES, ALGORITHMS, seeds=3)
    drawn["time_per_round"] = plot_time_per_round(timings(), ALGORITHMS)
    yield drawn
    for figure in drawn.values():
        matplotlib.pyplot.close(figure)


def legend_labels(figure):
    legends = [*figure.legends, *(a.get_legend() for a in figure.axes if a.get_legend())]
    return {text.get_text() for legend in legends for text in legend.get_texts()}


def test_every_figure_is_drawn(figures):
    assert set(figures) == {*FIGURE_NAMES, "time_per_round"}


@pytest.mark.parametrize("name", ["von_neumann_regret", "copeland_regret"])
def test_regret_figures_have_a_panel_per_environment_and_a_full_legend(figures, name):
    figure = figures[name]
    panels = [axis for axis in figure.axes if axis.get_visible()]
    assert [axis.get_title() for axis in panels] == list(TITLES.values())
    assert legend_labels(figure) == {ALGORITHM_STYLES[a].label for a in ALGORITHMS}
    assert figure._suptitle.get_text()
    for axis in panels:
        assert axis.get_xscale() == "log" and axis.get_ylabel()
    # one line per algorithm; the capped one stops at its horizon
    lines = {line.get_color(): line for line in panels[1].get_lines()}
    assert max(lines[ALGORITHM_STYLES["dts"].colour].get_xdata()) == 10
    assert max(lines[ALGORITHM_STYLES["rucb"].colour].get_xdata()) == 100


def test_time_figure_has_a_line_per_algorithm(figures):
    (axis,) = [axis for axis in figures["time_per_round"].axes if axis.get_visible()]
    assert legend_labels(figures["time_per_round"]) == {
        ALGORITHM_STYLES[a].label for a in ALGORITHMS
    }
    assert axis.get_xlabel() == "number of arms K"


def test_figures_save_as_png_and_pdf(figures, tmp_path):
    paths = [tmp_path / "f.png", tmp_path / "f.pdf"]
    save_figure(figures["von_neumann_regret"], *paths)
    assert all(path.stat().st_size > 1000 for path in paths)


def test_an_environment_without_a_winner_gets_a_hindsight_panel_labelled_so():
    table = curves()
    adversary = table[(table["environment"] == "two") & (table["metric"] == "von_neumann")]
    adversary = adversary.assign(environment="adv", metric="hindsight")
    titles = TITLES | {"adv": "Adversary"}
    drawn = duels_figures(pd.concat([table, adversary]), titles, ALGORITHMS, seeds=3)
    try:
        panels = [axis for axis in drawn["von_neumann_regret"].axes if axis.get_visible()]
        assert [axis.get_title() for axis in panels[:2]] == list(TITLES.values())
        assert panels[2].get_title() == "Adversary\n(no von Neumann winner: rd1 in hindsight)"
        assert panels[2].get_ylabel() == "cumulative regret in hindsight (eq. rd1)"
        assert panels[0].get_ylabel() == "cumulative regret (skew units, eq. rd1)"
        assert len(panels[2].get_lines()) == len(ALGORITHMS)
        caption = " ".join(text.get_text() for text in drawn["von_neumann_regret"].texts)
        assert "best policy of the class in hindsight" in caption
        # the Copeland figure has no such panel
        copeland = [a for a in drawn["copeland_regret"].axes if a.get_visible()]
        assert [axis.get_title() for axis in copeland] == list(TITLES.values())
    finally:
        for figure in drawn.values():
            matplotlib.pyplot.close(figure)


def test_a_long_environment_title_is_wrapped_so_panels_do_not_overlap():
    long_title = "Contextual: linear utilities, 5 actions in 50 contexts, 200 policies"
    figure = duels_figures(
        curves(), {"one": long_title, "two": "Second environment"}, ALGORITHMS, seeds=3
    )["von_neumann_regret"]
    title = figure.axes[0].get_title()
    assert title.replace("\n", " ") == long_title
    assert max(len(line) for line in title.splitlines()) <= 45
    assert figure._suptitle.get_text().startswith("Regret against the von Neumann winner")
    matplotlib.pyplot.close(figure)
