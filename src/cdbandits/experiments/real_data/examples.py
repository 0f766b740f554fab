"""The README's worked examples of ``cdbandits winners --pairs``, run as a user runs them.

:func:`example_arguments` builds the command line of each example (the ATP results of one
period with ``--preset atp``, the TREC-DL judgments of one topic with ``--preset trec-dl``);
:func:`run_example` runs it through the command's own entry point,
:func:`cdbandits.cli.main`, and captures what it prints: the report on standard output, the
warnings (ties, dropped rows, pairs never compared) on standard error. :func:`example_markdown`
shows both under the command, as a terminal would, for the README to paste verbatim.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .settings import ExampleSettings

__all__ = [
    "EXAMPLES",
    "ExampleRun",
    "example_arguments",
    "example_markdown",
    "run_example",
    "worked_examples_markdown",
]

#: The examples, by name.
EXAMPLES: tuple[str, ...] = ("atp", "trec_dl")


def example_arguments(
    name: str, paths: Sequence[str | os.PathLike[str]], settings: ExampleSettings
) -> tuple[str, ...]:
    """The arguments after ``cdbandits`` of one example.

    Parameters
    ----------
    name : {"atp", "trec_dl"}
    paths : sequence of path-like
        The ATP period's results files, or the TREC-DL judgments.
    settings : ExampleSettings
    """
    files = [str(path) for path in paths]
    common = ("--resamples", str(settings.resamples), "--seed", str(settings.seed))
    if name == "atp":
        return (
            "winners",
            "--pairs",
            *files,
            "--preset",
            "atp",
            "--top",
            str(settings.atp_top),
            "--rankings",
            *common,
        )
    if name == "trec_dl":
        return (
            "winners",
            "--pairs",
            *files,
            "--preset",
            "trec-dl",
            "--context-value",
            settings.trec_dl_topic,
            "--unobserved",
            "drop-items",
            *common,
        )
    raise ValueError(f"unknown example {name!r}; known: {EXAMPLES}")


@dataclass(frozen=True)
class ExampleRun:
    """What one run of the command printed.

    Attributes
    ----------
    arguments : tuple of str
        After ``cdbandits``.
    status : int
        Exit status.
    stdout, stderr : str
    """

    arguments: tuple[str, ...]
    status: int
    stdout: str
    stderr: str

    def command(self) -> str:
        """The command line as run in the folder holding the files (their names only),
        copy-pastable: consecutive seasons ``atp_matches_YYYY.csv`` as the shell's brace
        expansion ``atp_matches_{2010..2019}.csv`` (the same files, in the same order),
        other files one per line after ``--pairs``."""
        pairs = self.arguments.index("--pairs")
        options = [i for i, a in enumerate(self.arguments) if a.startswith("--")]
        end = next(i for i in options if i > pairs)
        files = [Path(path).name for path in self.arguments[pairs + 1 : end]]
        head = shlex.join(["cdbandits", *self.arguments[: pairs + 1]])
        tail = shlex.join(self.arguments[end:])
        seasons = _season_range(files)
        if seasons is not None:
            return f"{head} {seasons} {tail}"
        if len(files) == 1:
            return f"{head} {shlex.quote(files[0])} {tail}"
        return " \\\n    ".join([head, *map(shlex.quote, files), tail])


def _season_range(files: Sequence[str]) -> str | None:
    """``atp_matches_{first..last}.csv`` if ``files`` are two or more consecutive seasons."""
    matches = [re.fullmatch(r"atp_matches_(\d{4})\.csv", name) for name in files]
    if len(files) < 2 or not all(matches):
        return None
    years = [int(match.group(1)) for match in matches if match]
    if years != list(range(years[0], years[0] + len(years))):
        return None
    return f"atp_matches_{{{years[0]}..{years[-1]}}}.csv"


def run_example(arguments: Sequence[str]) -> ExampleRun:
    """Run ``cdbandits <arguments>`` in this process, capturing its output.

    Raises
    ------
    RuntimeError
        If the command exits with a non-zero status (its standard error in the message).
    """
    from ...cli import main

    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = main(list(arguments))
    run = ExampleRun(tuple(arguments), int(status or 0), stdout.getvalue(), stderr.getvalue())
    if run.status != 0:
        raise RuntimeError(
            f"cdbandits {shlex.join(arguments)} exited with {run.status}: {run.stderr}"
        )
    return run


def example_markdown(run: ExampleRun) -> str:
    """The command and what it printed (warnings first, as on a terminal), in a code block."""
    printed = run.stderr + run.stdout
    return f"```console\n$ {run.command()}\n{printed.rstrip()}\n```\n"


#: What each example shows, above its command.
_EXAMPLE_INTROS = {
    "atp": "ATP results of one period (Jeff Sackmann's `atp_matches_YYYY.csv` files as "
    "downloaded, in the current folder), among the players with the most matches:",
    "trec_dl": "The TREC-DL human passage preferences of one topic (Yan et al. 2022, "
    "`judgments.txt` as downloaded), among the passages whose pairs were all compared "
    "(the tournament's finalists):",
}


def worked_examples_markdown(
    paths: Mapping[str, Sequence[str | os.PathLike[str]]], settings: ExampleSettings
) -> str:
    """Every example run and shown (:func:`example_markdown`), each under its introduction.

    Parameters
    ----------
    paths : mapping of str to sequence of path-like
        The files of each example of :data:`EXAMPLES`.
    settings : ExampleSettings
    """
    blocks = []
    for name in EXAMPLES:
        run = run_example(example_arguments(name, paths[name], settings))
        blocks.append(f"{_EXAMPLE_INTROS[name]}\n\n{example_markdown(run)}")
    return "\n".join(blocks)
