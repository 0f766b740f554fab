"""The README's result tables, pasted verbatim from the workflow's markdown outputs.

Every table of numbers in ``README.md`` sits between two markers naming the workflow output
it is a copy of::

    <!-- begin: results/online/coverage.md -->
    | setting | ... |
    <!-- end: results/online/coverage.md -->

:func:`render` replaces each block's content with the named file's text, so the README shows
what the workflow computed: after a run of the default config,
``python -m cdbandits.workflow.readme check`` tells whether the README is in step with the
results, and ``update`` pastes them in. (No rule writes README.md itself: a tracked file
rewritten by every run would leave the checkout changed, and the timing tables differ from
run to run.)
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from ..files import write_text

__all__ = ["ReadmeBlockError", "block_sources", "main", "render"]

_BLOCK = re.compile(
    r"^<!-- begin: (?P<source>\S+) -->\n(?P<content>.*?)^<!-- end: (?P<end>\S+) -->$",
    re.MULTILINE | re.DOTALL,
)
_MARKER = re.compile(r"^<!-- (begin|end): (\S+) -->$", re.MULTILINE)
_END_PREFIX = "<!-- end: "


class ReadmeBlockError(ValueError):
    """The README's markers are malformed, or a block names no file that exists."""


def _line_of(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _blocks(text: str, name: str) -> list[re.Match[str]]:
    blocks = list(_BLOCK.finditer(text))
    for block in blocks:
        if block["source"] != block["end"]:
            raise ReadmeBlockError(
                f"{name}:{_line_of(text, block.start())}: block of {block['source']} ends "
                f"with the marker of {block['end']}"
            )
    boundaries = {block.start() for block in blocks} | {
        block.start("end") - len(_END_PREFIX) for block in blocks
    }
    for marker in _MARKER.finditer(text):
        if marker.start() not in boundaries:
            raise ReadmeBlockError(
                f"{name}:{_line_of(text, marker.start())}: unmatched marker {marker[0]!r}"
            )
    return blocks


def block_sources(text: str, name: str = "README.md") -> list[str]:
    """The files named by the README's blocks, in order of appearance (without repeats)."""
    return list(dict.fromkeys(block["source"] for block in _blocks(text, name)))


def render(text: str, fragments: Mapping[str, str], name: str = "README.md") -> str:
    """``text`` with each block's content replaced by the fragment of the file it names.

    Raises
    ------
    ReadmeBlockError
        On unmatched or mismatched markers, or a block whose file is not in ``fragments``.
    """
    missing = [source for source in block_sources(text, name) if source not in fragments]
    if missing:
        raise ReadmeBlockError(f"{name}: no content for the blocks of {missing}")

    def replace(block: re.Match[str]) -> str:
        content = fragments[block["source"]]
        if content and not content.endswith("\n"):
            content += "\n"
        return f"<!-- begin: {block['source']} -->\n{content}<!-- end: {block['source']} -->"

    return _BLOCK.sub(replace, text)


def _read_fragments(sources: Sequence[str], root: Path) -> dict[str, str]:
    fragments = {}
    for source in sources:
        path = root / source
        if not path.is_file():
            raise ReadmeBlockError(
                f"README block names {source}, which does not exist under {root} "
                "(run the default workflow first)"
            )
        fragments[source] = path.read_text(encoding="utf-8")
    return fragments


def main(argv: Sequence[str] | None = None, print_: Callable[..., None] = print) -> int:
    """``python -m cdbandits.workflow.readme {check,update} [--readme F] [--results-root D]``.

    ``check`` exits 1 and names the stale blocks when the README differs from the results;
    ``update`` pastes them in. Exit 2 on malformed markers or missing results.
    """
    parser = argparse.ArgumentParser(prog="python -m cdbandits.workflow.readme")
    parser.add_argument("action", choices=("check", "update"))
    parser.add_argument("--readme", type=Path, default=Path("README.md"))
    parser.add_argument("--results-root", type=Path, default=Path("."))
    arguments = parser.parse_args(argv)
    text = arguments.readme.read_text(encoding="utf-8")
    try:
        sources = block_sources(text, str(arguments.readme))
        rendered = render(
            text, _read_fragments(sources, arguments.results_root), str(arguments.readme)
        )
    except ReadmeBlockError as error:
        print_(f"readme: {error}", file=sys.stderr)
        return 2
    if arguments.action == "update":
        if rendered != text:
            write_text(arguments.readme, rendered)
        print_(f"{arguments.readme}: {len(sources)} blocks from the results")
        return 0
    current = {block["source"]: block["content"] for block in _blocks(text, "README")}
    new = {block["source"]: block["content"] for block in _blocks(rendered, "README")}
    stale = [source for source in sources if current[source] != new[source]]
    if stale:
        print_(f"{arguments.readme}: stale blocks: {', '.join(stale)}", file=sys.stderr)
        return 1
    print_(f"{arguments.readme}: all {len(sources)} blocks match the results")
    return 0


if __name__ == "__main__":
    sys.exit(main())
