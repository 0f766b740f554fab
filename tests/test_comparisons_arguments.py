import argparse
import subprocess
import sys

import pytest

from cdbandits.cli import _parser
from cdbandits.comparisons.arguments import (
    count,
    finite_number,
    given_options,
    integer,
    option_conflicts,
    seed,
)


def parse(*argv):
    return _parser().parse_args(["winners", *argv])


def test_only_the_options_on_the_command_line_count_as_given():
    arguments = parse("--pairs", "a.csv", "--ties", "half", "--rankings", "--drop-if", "x=y")
    assert given_options(arguments) == {"pairs", "ties", "rankings", "drop_if"}
    assert arguments.method == "both" and arguments.drop_if == ["x=y"]
    assert given_options(parse("m.csv")) == set()


@pytest.mark.parametrize(
    ("argv", "preflib", "conflict"),
    [
        (["m.csv"], [], None),
        (["m.csv", "--key", "K", "--tol", "0.1", "--max-items", "9"], [], None),
        (["m.csv", "--ties", "drop"], [], "--ties applies to --pairs logs, not to a matrix file"),
        (["m.csv", "--matrix", "rates"], [], "--matrix applies to --pairs logs"),
        (["--pairs", "a.csv", "--json", "--rankings"], [False], None),
        (["--pairs", "a.csv", "--engine", "numpy"], [False], "--engine applies to a matrix file"),
        (["--pairs", "a.csv", "--ties", "drop"], [False], None),
        (["--pairs", "a.soc", "--weight", "n"], [True], "--weight applies to table logs"),
        (["--pairs", "a.soc", "b.csv", "--weight", "n"], [True, False], None),
        (["--pairs", "a.csv", "--unranked", "below"], [False], "--unranked applies to PrefLib"),
        (
            ["--pairs", "a.csv", "--first-always-wins", "--outcome-values", "1,0,t"],
            [False],
            "--first-always-wins leaves no outcome column for --outcome-values",
        ),
        (["--pairs", "a.csv", "--json", "--include-pairs"], [False], None),
        (["--pairs", "a.csv", "--method", "posterior", "--prior", "2,2"], [False], None),
        (["--pairs", "a.csv", "--method", "none", "--resamples", "9"], [False], "--resamples"),
        (
            ["--pairs", "a.csv", "--method", "none", "--intervals", "identified"],
            [False],
            "--intervals applies to the resampling; --method none has none",
        ),
        (
            ["--pairs", "a.csv", "--method", "posterior", "--intervals", "conservative"],
            [False],
            None,
        ),
        (["m.csv", "--intervals", "identified"], [], "--intervals applies to --pairs logs"),
        (
            ["--pairs", "a.csv", "--method", "none", "--confidence", "0.9"],
            [False],
            "--confidence sets the intervals; --method none (without --include-pairs) has none",
        ),
        (
            [
                "--pairs",
                "a.csv",
                "--method",
                "none",
                "--confidence",
                "0.9",
                "--json",
                "--include-pairs",
            ],
            [False],
            None,
        ),
    ],
)
def test_options_of_the_other_input_or_contradicting_another(argv, preflib, conflict):
    found = option_conflicts(parse(*argv), preflib)
    assert found == conflict or (conflict is not None and found.startswith(conflict)), found


@pytest.mark.parametrize(
    ("parse_value", "text", "value"),
    [
        (integer, "12", 12),
        (integer, "1e3", None),
        (integer, "1.0", None),
        (count, "1", 1),
        (count, "0", None),
        (seed, "0", 0),
        (seed, "-1", None),
        (finite_number, "-2.5", -2.5),
        (finite_number, "nan", None),
        (finite_number, "-inf", None),
        (finite_number, "one", None),
    ],
)
def test_numbers_are_parsed_strictly(parse_value, text, value):
    if value is None:
        with pytest.raises(argparse.ArgumentTypeError):
            parse_value(text)
    else:
        assert parse_value(text) == value


def test_building_the_parser_loads_no_reader():
    code = (
        "import sys; from cdbandits.cli import _parser; _parser(); "
        "print(sorted(m for m in ('numpy', 'pandas', 'numba', 'cdbandits.comparisons.logs') "
        "if m in sys.modules))"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert completed.stdout.strip() == "['numpy']", completed.stderr


def _options(parser):
    """Every option of ``winners``, with its help text."""
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return [a for a in commands.choices["winners"]._actions if a.option_strings]


def test_help_states_the_default_of_every_option_that_has_one():
    undocumented = [
        action.option_strings[0]
        for action in _options(_parser())
        if not any(action.default is nothing for nothing in (None, False, argparse.SUPPRESS))
        and "(default: " not in (action.help or "")
    ]
    assert undocumented == []
    choices = [a for a in _options(_parser()) if a.choices and a.default is None]
    # Options whose default depends on the input say so too.
    assert all("(default: " in a.help for a in choices), [a.option_strings for a in choices]


def test_the_matrix_option_explains_both_estimands_and_its_defaults():
    (matrix,) = [a for a in _options(_parser()) if a.option_strings == ["--matrix"]]
    assert matrix.choices == ("rates", "margins") and matrix.default is None
    assert "margins for PrefLib files, rates for table logs" in matrix.help
    assert "the paper's preference matrix" in matrix.help and "maximal lottery" in matrix.help
