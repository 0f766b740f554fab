"""The product explains its choices, never its history (git keeps the history).

Code, docstrings, rule comments, report captions, schema descriptions, notebooks, configs and
the documents are read as they stand by someone who picks the project up: a note about an
issue number, a stop of the work, a reading "revised" or an approach "tried earlier" tells
that reader nothing about the current choice. References to other projects' issues (an
upstream bug a workaround exists for) are explanations, and allowed.
"""

import re

import pytest
from conftest import REPO_ROOT

#: What the product is: every file under these paths.
PRODUCT = (
    "src",
    "workflow",
    "notebooks",
    "config",
    "docs",
    "Snakefile",
    "README.md",
    "RESULTS.md",
)

#: Wording that narrates the project's history, each with what it stands for.
HISTORY = {
    "an issue number of this project": re.compile(r"(?<!upstream )\bissue ?#?\d+", re.I),
    "a stop of the work": re.compile(r"\bthis stop\b", re.I),
    "a review": re.compile(r"\bafter review\b", re.I),
    "an earlier state": re.compile(r"\b(?:earlier|previously)\b", re.I),
    "what was tried": re.compile(r"\btried\b", re.I),
    "a revision": re.compile(r"\brevised\b(?! simplex)", re.I),
    "a change of state": re.compile(r"\b(?:is|are) now\b", re.I),
    "how the code was written": re.compile(r"\bwhen this (?:package|module|code) was written\b"),
    "a specification outside the repository": re.compile(r"\bSPEC\b"),
}


def product_files():
    for name in PRODUCT:
        path = REPO_ROOT / name
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        for file in files:
            if "__pycache__" in file.parts:
                continue
            try:
                yield file, file.read_text(encoding="utf-8")
            except UnicodeDecodeError:  # figures and other binary files
                continue


def history_mentions(text):
    """``(line number, what, line)`` of every history wording in ``text``."""
    return [
        (number, what, line.strip())
        for number, line in enumerate(text.splitlines(), start=1)
        for what, pattern in HISTORY.items()
        if pattern.search(line)
    ]


@pytest.mark.parametrize(
    "line, what",
    [
        ("# Sections 6-8 (issue 6): explore-then-exploit", "an issue number of this project"),
        ("Issue 13: the field's K-armed algorithms", "an issue number of this project"),
        ("moved K = 500 (this stop) from 1.5x to 2.7x", "a stop of the work"),
        ("Two were changed after review", "a review"),
        ("deciding each arm by LPs was tried earlier", "what was tried"),
        ("revised (issue 16): the reading", "a revision"),
        ("runs of earlier code took 23 minutes", "an earlier state"),
        ("and is now checked as at most one point", "a change of state"),
        ("The search tools available when this package was written", "how the code was written"),
        ("as SPEC section 10 states it", "a specification outside the repository"),
    ],
)
def test_each_kind_of_history_is_recognised(line, what):
    assert what in [found for _, found, _ in history_mentions(line)]


@pytest.mark.parametrize(
    "line",
    [
        "the outputs of the first task (upstream issue #447); array mode",
        "A compiled dense revised simplex method for max c @ v",
        "[snakemake-executor-plugin-slurm#447]: https://github.com/snakemake/x/issues/447",
        "spec = LOG_PRESETS[arguments.preset]",
        "a job squeue no longer lists is taken as still queued",
    ],
)
def test_upstream_references_and_ordinary_words_are_not_history(line):
    assert history_mentions(line) == []


def test_the_product_narrates_no_history():
    found = [
        f"{file.relative_to(REPO_ROOT)}:{number}: {what}: {line}"
        for file, text in product_files()
        for number, what, line in history_mentions(text)
    ]
    assert not found, "history in the product (say why, not when):\n" + "\n".join(found)
