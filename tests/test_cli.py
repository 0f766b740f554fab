import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cdbandits.cli import main
from cdbandits.paper_examples import five_arm_matrix
from cdbandits.winners import CERTIFICATE_TOL, COPELAND_VARIANTS

INFORMATIONAL = "mslr-preference-matrices/nightingal3-duelling-bandits/MSLR_Informational_PMat.npz"


def run_json(capsys, *arguments):
    assert main(["winners", *map(str, arguments), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_informational_matrix_has_no_condorcet_winner_and_a_certified_vnw(capsys, data_mirror):
    result = run_json(capsys, data_mirror / INFORMATIONAL)
    assert result["K"] == 136
    assert result["convention"] == "probability"
    assert result["condorcet"] is None
    vnw = result["von_neumann"]
    assert vnw["support"] == [64, 109, 114]
    assert vnw["exploitability"] >= -CERTIFICATE_TOL
    assert abs(sum(vnw["weights"]) - 1) < 1e-12
    assert {"solver", "status"} <= set(vnw)
    assert set(result["copeland"]) == set(COPELAND_VARIANTS)
    assert result["copeland"]["wins"]["winners"] == [114]
    assert len(result["borda"]["scores"]) == 136
    assert len(result["random_walk"]["distribution"]) == 136


@pytest.mark.parametrize("suffix", [".csv", ".txt", ".npy", ".npz"])
def test_every_format_and_convention(tmp_path, capsys, suffix):
    P = five_arm_matrix()
    Q = (P + 1) / 2
    path = tmp_path / f"five{suffix}"
    if suffix == ".csv":
        np.savetxt(path, P, delimiter=",")
    elif suffix == ".txt":
        np.savetxt(path, Q)
    elif suffix == ".npy":
        np.save(path, P)
    else:
        np.savez(path, Q=Q, P=P)
    extra = ["--key", "Q"] if suffix == ".npz" else []
    result = run_json(capsys, path, *extra)
    assert result["convention"] == ("skew" if suffix in (".csv", ".npy") else "probability")
    assert result["von_neumann"]["support"] == [0, 1, 2]
    assert result["copeland"]["wins"]["winners"] == [3]
    assert result["borda"]["winners"] == [3]


def test_forced_convention_and_text_output(tmp_path, capsys):
    path = tmp_path / "five.npy"
    np.save(path, five_arm_matrix())
    assert main(["winners", str(path), "--convention", "probability"]) == 2
    assert "outside [0, 1]" in capsys.readouterr().err
    assert main(["winners", str(path), "--convention", "skew", "--solver", "HIGHS"]) == 0
    text = capsys.readouterr().out
    assert "Condorcet winner: none" in text
    assert "von Neumann winner: 0: 0.333333, 1: 0.333333, 2: 0.333333" in text
    assert "solver HIGHS" in text


def test_bad_input_exits_with_status_2(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("0.5 0.7\n0.4 0.5\n")
    assert main(["winners", str(path)]) == 2
    assert "sum to" in capsys.readouterr().err
    assert main(["winners", str(tmp_path / "missing.csv")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_installed_command_prints_clean_json_with_a_chatty_solver(tmp_path):
    beside_python = Path(sys.executable).parent / "cdbandits"
    command = str(beside_python) if beside_python.is_file() else shutil.which("cdbandits")
    if command is None:
        pytest.fail("the cdbandits command is not installed")
    path = tmp_path / "five.npy"
    np.save(path, five_arm_matrix())
    completed = subprocess.run(
        [command, "winners", str(path), "--json", "--solver", "HIGHS"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(completed.stdout)["von_neumann"]["solver"] == "HIGHS"
    completed = subprocess.run(
        [sys.executable, "-m", "cdbandits.cli", "winners", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(completed.stdout)["K"] == 5
