"""The code stays lint-clean and formatted (ruff, configured in pyproject.toml)."""

import subprocess
import sys

from conftest import REPO_ROOT

CHECKED = ["src", "tests", "workflow/scripts", "benchmarks"]


def ruff(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *arguments, *CHECKED],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
    )


def test_ruff_check_is_clean():
    completed = ruff("check")
    assert completed.returncode == 0, completed.stdout


def test_ruff_format_is_applied():
    completed = ruff("format", "--check")
    assert completed.returncode == 0, completed.stdout
