import json
import re
import subprocess
import sys

import pytest

from cdbandits import cli as main_cli
from cdbandits.comparisons import analysis
from cdbandits.winners import CertificationError

CYCLE = "first,second,outcome\n" + (
    "r,s,1\n" * 6
    + "s,r,1\n" * 2
    + "s,p,1\n" * 6
    + "p,s,1\n" * 2
    + "p,r,1\n" * 6
    + "r,p,1\n" * 2
    + "r,x,1\n" * 4
    + "p,x,1\n" * 4
    + "s,x,1\n" * 4
    + "x,s,1\n"
)


def run(capsys, *argv):
    """``cdbandits winners --pairs ...`` through the main command line, as users run it."""
    status = main_cli.main(["winners", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def cycle_log(tmp_path):
    path = tmp_path / "cycle.csv"
    path.write_text(CYCLE)
    return path


def test_text_report_of_a_small_log(capsys, cycle_log):
    status, out, err = run(capsys, "--pairs", str(cycle_log), "--resamples", "100", "--rankings")
    assert status == 0, err
    assert "cycle.csv: 37 records, 4 items" in out
    assert "== 4 items, 37 comparisons, 6 of 6 pairs compared ==" in out
    assert "von Neumann winner (certified" in out
    assert "bootstrap: in support" in out and "posterior: 95% interval" in out
    assert "no single item beats this lottery with probability above" in out
    assert "Condorcet winner: none" in out
    assert "maximal_lottery_rank" in out
    assert err == ""


def test_json_report_goes_alone_to_stdout(capsys, cycle_log):
    status, out, err = run(
        capsys,
        "--pairs",
        str(cycle_log),
        "--resamples",
        "50",
        "--json",
        "--method",
        "posterior",
        "--seed",
        "3",
    )
    assert status == 0, err
    report = json.loads(out)
    assert report["seed"] == 3 and report["settings"]["methods"] == ["posterior"]
    (result,) = report["results"]
    assert set(result["uncertainty"]) == {"posterior"}
    assert sum(result["von_neumann"]["weights"].values()) == pytest.approx(1.0)
    assert {row["item"] for row in result["uncertainty"]["posterior"]["items"]} == set("rspx")


def test_same_seed_same_output(capsys, cycle_log):
    first = run(capsys, "--pairs", str(cycle_log), "--resamples", "30", "--json")[1]
    assert run(capsys, "--pairs", str(cycle_log), "--resamples", "30", "--json")[1] == first


def test_contexts_are_reported_one_by_one_or_as_chosen(capsys, tmp_path):
    path = tmp_path / "topics.txt"
    path.write_text("t1 a b a\nt1 b c b\nt1 c a a\nt2 x y y\nt2 y x y\n")
    common = [
        "--pairs",
        str(path),
        "--names",
        "topic,first,second,winner",
        "--winner",
        "winner",
        "--context",
        "topic",
        "--resamples",
        "20",
    ]
    status, out, err = run(capsys, *common, "--json")
    assert status == 0, err
    assert [r["context"] for r in json.loads(out)["results"]] == ["t1", "t2"]
    status, out, _ = run(capsys, *common, "--context-value", "t2")
    assert status == 0 and "== context t2: 2 items, 2 comparisons" in out and "t1" not in out


def test_warnings_go_to_stderr_and_into_the_json(capsys, tmp_path):
    path = tmp_path / "sparse.csv"
    path.write_text("first,second,outcome\na,b,1\nb,c,tie\nb,a,0\n")
    status, out, err = run(capsys, "--pairs", str(path), "--resamples", "10", "--json")
    assert status == 0
    assert "cdbandits winners: warning: 1 of 3 comparisons are ties" in err
    assert "1 of 3 pairs of items were never compared" in err
    assert any("never compared" in w for w in json.loads(out)["warnings"])


@pytest.mark.parametrize(
    ("content", "options", "message"),
    [
        ("first,second,outcome\na,b,1\na,b,x\n", [], r"bad.csv:3: column 'outcome': outcome 'x'"),
        ("a,b\n1,2\n", [], "no column 'first', 'second', 'outcome'"),
        ("first,second,outcome\na,b,1\n", ["--outcome-values", "1,0"], "three comma-separated"),
        ("first,second,outcome\na,b,1\n", ["--drop-if", "nonsense"], "--drop-if needs COL=REGEX"),
        ("first,second,outcome\na,b,1\n", ["--context-value", "z"], "no context column"),
        ("first,second,outcome\na,b,1\n", ["--prior", "1"], "--prior needs two positive"),
        ("first,second,outcome\na,b,1\n", ["--confidence", "2"], "confidence must lie in"),
        ("first,second,outcome\na,b,1\n", ["--ties", "error", "--top", "0"], "top must be"),
    ],
)
def test_bad_input_exits_2_with_a_message(capsys, tmp_path, content, options, message):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    status, out, err = run(capsys, "--pairs", str(path), "--resamples", "5", *options)
    assert status == 2
    assert out == ""
    assert err.startswith("cdbandits winners: ") and "Traceback" not in err
    assert re.search(message, err), err


def test_missing_file_exits_2(capsys, tmp_path):
    status, _, err = run(capsys, "--pairs", str(tmp_path / "none.csv"))
    assert status == 2 and "none.csv: no such file" in err


def test_solver_failure_exits_3(capsys, cycle_log, monkeypatch):
    def fail(*args, **kwargs):
        raise CertificationError("could not be certified")

    monkeypatch.setattr(analysis, "analyze_contexts", fail)
    status, _, err = run(capsys, "--pairs", str(cycle_log))
    assert status == 3 and "could not be certified" in err


def test_preflib_files_one_context_each(capsys, data_mirror):
    skate = data_mirror / "preflib-sports/00006-skate"
    files = [str(skate / "00006-00000003.soc"), str(skate / "00006-00000001.toc")]
    status, out, err = run(
        capsys, "--pairs", *files, "--context-per-file", "--resamples", "20", "--json"
    )
    assert status == 0, err
    results = json.loads(out)["results"]
    assert [r["context"] for r in results] == ["00006-00000003.soc", "00006-00000001.toc"]
    assert results[1]["condorcet_winner"] == "Alexei Yagudin"
    assert "3 of 3915 comparisons are ties" in err


def test_atp_as_a_new_user_runs_it(capsys, data_mirror):
    files = [str(data_mirror / f"tennis-atp-sackmann/atp_matches_{y}.csv") for y in (2018, 2019)]
    status, out, err = run(
        capsys, "--pairs", *files, "--preset", "atp", "--top", "10", "--resamples", "100", "--json"
    )
    assert status == 0, err
    report = json.loads(out)
    assert "2 files: dropped 35 of 5703 rows whose 'score' matches" in report["warnings"][0]
    (result,) = report["results"]
    assert result["K"] == 10 and "Novak Djokovic" in result["items"]
    bootstrap = result["uncertainty"]["bootstrap"]
    assert 0 <= bootstrap["condorcet_exists"] <= 1
    assert bootstrap["exploitability"]["upper_bound"] >= 0


def test_trec_dl_one_topic_as_a_new_user_runs_it(capsys, data_mirror):
    judgments = str(data_mirror / "trec-dl-human-preferences-yan2022/judgments.txt")
    status, out, err = run(
        capsys,
        "--pairs",
        judgments,
        "--preset",
        "trec-dl",
        "--context-value",
        "253263",
        "--resamples",
        "50",
    )
    assert status == 0, err
    assert "judgments.txt: 11681 records, 1570 items" in out
    assert "== context 253263: 5 items, 30 comparisons, 10 of 10 pairs compared ==" in out


def test_the_winners_command_takes_a_log_or_a_matrix_not_both(tmp_path, capsys):
    path = tmp_path / "cycle.csv"
    path.write_text(CYCLE)
    arguments = main_cli._parser().parse_args(["winners", "--pairs", str(path), "--top", "5"])
    assert arguments.pairs == [str(path)] and arguments.path is None
    assert main_cli.main(["winners", str(path), "--pairs", str(path)]) == 2
    assert "not both" in capsys.readouterr().err
    assert main_cli.main(["winners"]) == 2
    assert "give a matrix file or --pairs LOG" in capsys.readouterr().err


def test_module_entry_point(tmp_path):
    path = tmp_path / "cycle.csv"
    path.write_text(CYCLE)
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "cdbandits.comparisons.cli",
            "--pairs",
            str(path),
            "--json",
            "--resamples",
            "20",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["results"][0]["K"] == 4


def test_building_the_parser_loads_no_solver_and_no_pandas():
    code = (
        "import sys, argparse, cdbandits.comparisons.arguments as a; "
        "a.add_pairs_arguments(argparse.ArgumentParser()); "
        "print(sorted(m for m in ('numba', 'pandas', 'scipy', 'cvxpy', 'cdbandits.batched') "
        "if m in sys.modules))"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "[]"
