import numpy as np

from cdbandits.comparisons.analysis import AnalysisSettings, analyze_log
from cdbandits.comparisons.records import log_from_counts
from cdbandits.comparisons.report import conventions_line, format_analysis, text_table
from cdbandits.comparisons.settings import CountPolicy


def test_the_conventions_line_names_every_choice():
    line = conventions_line(CountPolicy(matrix="margins", ties="drop", min_comparisons=3), "below")
    assert line.startswith("conventions: matrix: margins (majority margins")
    assert "; ties: drop; unranked (PrefLib): below; unobserved pairs: half; " in line
    assert line.endswith("rare items (< 3 comparisons): keep")
    assert "unranked" not in conventions_line(CountPolicy())
    assert "the paper's preference matrix" in conventions_line(CountPolicy())


def test_text_table_aligns_columns_right():
    table = text_table({"item": ["a", "bbb"], "weight": [0.5, None]}, indent="  ")
    assert table.splitlines() == ["  item weight", "     a 0.5000", "   bbb     NA"]


def test_a_non_unique_winner_gets_the_range_column_and_a_note():
    # a and b tie and both beat c: any mix of a and b is a von Neumann winner.
    log = log_from_counts(["a", "b", "c"], [[0, 2, 3], [2, 0, 3], [0, 0, 0]])
    settings = AnalysisSettings(methods=(), rankings=True)
    text = format_analysis(analyze_log(log, settings, np.random.default_rng(0)), True)
    assert "of the rates (certified" in text and "; NOT unique, see below):" in text
    assert "over all winners" in text and "[0.000, 1.000]" in text
    assert "weight intervals" not in text  # no resampling, no intervals
    assert "Rankings (iterated maximal lotteries" in text
