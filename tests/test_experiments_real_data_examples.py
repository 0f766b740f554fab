import pytest
from real_data_helpers import write_atp

from cdbandits.experiments.real_data.examples import (
    ExampleRun,
    example_arguments,
    example_markdown,
    run_example,
    worked_examples_markdown,
)
from cdbandits.experiments.real_data.settings import ExampleSettings

SETTINGS = ExampleSettings(
    atp_period="2010s", atp_top=3, trec_dl_topic="952262", resamples=20, seed=5
)


def test_the_atp_example_runs_through_the_command(tmp_path):
    matches = [("Clay", "A", "B", "6-1")] * 6 + [("Clay", "B", "C", "6-1")] * 6
    matches += [("Clay", "A", "C", "6-1")] * 6 + [("Clay", "C", "D", "6-1")]
    path = write_atp(tmp_path / "atp_matches_2010.csv", matches)
    arguments = example_arguments("atp", [path], SETTINGS)
    assert arguments[:2] == ("winners", "--pairs") and "--top" in arguments
    run = run_example(arguments)
    assert "Condorcet winner: A" in run.stdout
    markdown = example_markdown(run)
    assert markdown.startswith("```console\n$ cdbandits winners --pairs atp_matches_2010.csv")
    assert str(tmp_path) not in markdown  # the files as a user names them


def test_a_failing_command_raises_with_its_error(tmp_path):
    missing = tmp_path / "atp_matches_2010.csv"
    with pytest.raises(RuntimeError, match="exited with 2"):
        run_example(example_arguments("atp", [missing], SETTINGS))
    with pytest.raises(ValueError, match="unknown example"):
        example_arguments("chess", [missing], SETTINGS)


def test_several_files_are_one_per_line_and_seasons_a_brace_range():
    run = ExampleRun(("winners", "--pairs", "/x/a.csv", "/y/b.csv", "--top", "3"), 0, "", "")
    assert run.command() == "cdbandits winners --pairs \\\n    a.csv \\\n    b.csv \\\n    --top 3"
    seasons = tuple(f"/d/atp_matches_{year}.csv" for year in (2010, 2011, 2012))
    run = ExampleRun(("winners", "--pairs", *seasons, "--top", "3"), 0, "", "")
    assert run.command() == "cdbandits winners --pairs atp_matches_{2010..2012}.csv --top 3"
    gap = ExampleRun(("winners", "--pairs", seasons[0], seasons[2], "--top", "3"), 0, "", "")
    assert "\\\n    atp_matches_2012.csv" in gap.command()


def test_both_worked_examples_on_the_real_files(data_mirror):
    paths = {
        "atp": [data_mirror / "tennis-atp-sackmann/atp_matches_2019.csv"],
        "trec_dl": [data_mirror / "trec-dl-human-preferences-yan2022/judgments.txt"],
    }
    markdown = worked_examples_markdown(paths, SETTINGS)
    assert markdown.count("```console") == 2
    assert "--context-value 952262 --unobserved drop-items" in markdown
    assert "von Neumann winner of the rates (certified" in markdown
