"""The generated blocks of README.md and RESULTS.md, pasted verbatim from the files they name.

Every table or paragraph of numbers in the project's Markdown documents sits between two
markers naming the file it is a copy of::

    <!-- begin: results/online/coverage.md -->
    | setting | ... |
    <!-- end: results/online/coverage.md -->

A source under ``results/`` is a workflow output, read under the results root; any other
source is a tracked file (such as ``benchmarks/von_neumann.md``), read next to the
document. To add a block, write one line where it belongs::

    <!-- include: results/oracle/power.md -->

and ``update`` replaces it with the block and its content. After a run of the default
config, ``python -m cdbandits.workflow.readme check`` tells whether every block of both
documents is in step with its file, and ``update`` pastes them in. (No rule writes the
documents: a tracked file rewritten by every run would leave the checkout changed, and the
timing tables differ from run to run.)
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..files import write_text

__all__ = [
    "DOCUMENTS",
    "RESULTS_PREFIX",
    "Block",
    "ReadmeBlockError",
    "block_sources",
    "blocks",
    "main",
    "read_fragments",
    "render",
    "stale_sources",
]

#: The documents ``check`` and ``update`` read by default.
DOCUMENTS = (Path("README.md"), Path("RESULTS.md"))

#: Sources under this folder are workflow outputs; the others are tracked files.
RESULTS_PREFIX = "results/"

_BLOCK = re.compile(
    r"^<!-- begin: (?P<source>\S+) -->\n(?P<content>.*?)^<!-- end: (?P<end>\S+) -->$"
    r"|^<!-- include: (?P<include>\S+) -->$",
    re.MULTILINE | re.DOTALL,
)
_MARKER = re.compile(r"^<!-- (begin|end|include): (\S+) -->$", re.MULTILINE)


class ReadmeBlockError(ValueError):
    """A document's markers are malformed, or a block names no file that exists."""


@dataclass(frozen=True)
class Block:
    """One generated block of a document: the file it copies and what it shows.

    ``content`` is ``None`` for an include line that ``update`` has not yet expanded.
    """

    source: str
    content: str | None
    start: int
    end: int


def _line_of(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def blocks(text: str, name: str = "README.md") -> list[Block]:
    """The blocks and include lines of ``text``, in order.

    Raises
    ------
    ReadmeBlockError
        On a block whose end marker names another file, or a marker outside any block.
    """
    found, covered = [], set()
    for match in _BLOCK.finditer(text):
        where = f"{name}:{_line_of(text, match.start())}"
        if match["include"] is not None:
            found.append(Block(match["include"], None, match.start(), match.end()))
        elif match["source"] != match["end"]:
            raise ReadmeBlockError(
                f"{where}: block of {match['source']} ends with the marker of {match['end']}"
            )
        else:
            found.append(Block(match["source"], match["content"], match.start(), match.end()))
        covered |= {match.start(), match.end() - len(match[0].rsplit("\n", 1)[-1])}
    for marker in _MARKER.finditer(text):
        if marker.start() not in covered:
            raise ReadmeBlockError(
                f"{name}:{_line_of(text, marker.start())}: unmatched marker {marker[0]!r}"
            )
    for block in found:
        path = PurePosixPath(block.source)
        if path.is_absolute() or ".." in path.parts:
            raise ReadmeBlockError(
                f"{name}:{_line_of(text, block.start)}: block source {block.source} must be a "
                "relative path inside the repository"
            )
    return found


def block_sources(text: str, name: str = "README.md") -> list[str]:
    """The files named by the document's blocks, in order of appearance (without repeats)."""
    return list(dict.fromkeys(block.source for block in blocks(text, name)))


def _pasted(source: str, content: str) -> str:
    if content and not content.endswith("\n"):
        content += "\n"
    return f"<!-- begin: {source} -->\n{content}<!-- end: {source} -->"


def render(text: str, fragments: Mapping[str, str], name: str = "README.md") -> str:
    """``text`` with each block (and include line) holding the fragment of the file it names.

    Raises
    ------
    ReadmeBlockError
        On malformed markers (:func:`blocks`), or a block whose file is not in ``fragments``.
    """
    found = blocks(text, name)
    missing = list(dict.fromkeys(b.source for b in found if b.source not in fragments))
    if missing:
        raise ReadmeBlockError(f"{name}: no content for the blocks of {missing}")
    pieces, position = [], 0
    for block in found:
        pieces += [text[position : block.start], _pasted(block.source, fragments[block.source])]
        position = block.end
    return "".join([*pieces, text[position:]])


def stale_sources(text: str, fragments: Mapping[str, str], name: str = "README.md") -> list[str]:
    """The sources whose block in ``text`` differs from what :func:`render` pastes (an
    include line not yet expanded counts as stale)."""
    current = blocks(text, name)
    pasted = blocks(render(text, fragments, name), name)
    return list(
        dict.fromkeys(
            block.source
            for block, fresh in zip(current, pasted, strict=True)
            if block.content != fresh.content
        )
    )


def read_fragments(sources: Sequence[str], results_root: Path, document: Path) -> dict[str, str]:
    """The text of each source: under ``results_root`` for ``results/...``, else the tracked
    file next to ``document``."""
    fragments = {}
    for source in sources:
        tracked = not source.startswith(RESULTS_PREFIX)
        path = (document.parent if tracked else results_root) / source
        if not path.is_file():
            hint = "a tracked file" if tracked else "run the default workflow first"
            raise ReadmeBlockError(f"{document} names {source}, but {path} does not exist ({hint})")
        fragments[source] = path.read_text(encoding="utf-8")
    return fragments


def main(argv: Sequence[str] | None = None, print_: Callable[..., None] = print) -> int:
    """``python -m cdbandits.workflow.readme {check,update} [--document F ...]
    [--results-root D]``.

    ``check`` exits 1 and names the stale blocks of every document when one differs from its
    files; ``update`` pastes them in. Exit 2 on malformed markers or missing files.
    """
    parser = argparse.ArgumentParser(prog="python -m cdbandits.workflow.readme")
    parser.add_argument("action", choices=("check", "update"))
    parser.add_argument(
        "--document",
        type=Path,
        action="append",
        help="a Markdown file with blocks (repeat; default: README.md and RESULTS.md)",
    )
    parser.add_argument(
        "--results-root", type=Path, default=Path("."), help="the folder holding results/"
    )
    arguments = parser.parse_args(argv)
    stale_anywhere = False
    for document in arguments.document or DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        try:
            sources = block_sources(text, str(document))
            fragments = read_fragments(sources, arguments.results_root, document)
            rendered = render(text, fragments, str(document))
        except ReadmeBlockError as error:
            print_(f"readme: {error}", file=sys.stderr)
            return 2
        if arguments.action == "update":
            if rendered != text:
                write_text(document, rendered)
            print_(f"{document}: {len(sources)} blocks pasted")
            continue
        stale = stale_sources(text, fragments, str(document))
        if stale:
            print_(f"{document}: stale blocks: {', '.join(stale)}", file=sys.stderr)
            stale_anywhere = True
        else:
            print_(f"{document}: all {len(sources)} blocks match their files")
    return 1 if stale_anywhere else 0


if __name__ == "__main__":
    sys.exit(main())
