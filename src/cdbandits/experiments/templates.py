"""Markdown prose from jinja2 templates, for the families' accounts in RESULTS.md.

A family's ``readme.py`` computes the numbers from its tables and renders them through one
template written as the Markdown it produces. The templates live in the modules as string
constants, so the workflow's code dependencies (:mod:`cdbandits.workflow.code_dependencies`)
see an edit of a template as an edit of the module. Inside a template a backslash at the end
of a line joins it to the next (Python's string continuation), so a paragraph of one output
line is written on several source lines.

Filters beside jinja2's own: ``spec`` applies a Python format specification
(``{{ total|spec(",") }}`` gives ``1,234``), ``percent`` a share as a whole percentage
(``0.456`` gives ``46%``), ``sentence`` joins a list as "a, b and c".
"""

from __future__ import annotations

from collections.abc import Iterable

import jinja2

__all__ = ["join_words", "markdown_template", "percent"]


def percent(share: float) -> str:
    """A share as a whole percentage: ``0.456`` gives ``"46%"``."""
    return f"{100 * share:.0f}%"


def join_words(words: Iterable[str]) -> str:
    """``["a", "b", "c"]`` as ``"a, b and c"`` (one word alone, none as ``""``)."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


_ENVIRONMENT = jinja2.Environment(
    autoescape=False,
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
)
_ENVIRONMENT.filters.update(spec=format, percent=percent, sentence=join_words)


def markdown_template(source: str) -> jinja2.Template:
    """The template of ``source`` (block tags take their line's newline and indentation
    with them; an undefined name is an error, never an empty string)."""
    return _ENVIRONMENT.from_string(source)
