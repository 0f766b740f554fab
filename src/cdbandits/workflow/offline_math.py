"""TeX formulas of Markdown turned into MathML, so rendered notebooks need no MathJax.

The HTML pages of the executed notebooks are part of the offline report. nbconvert leaves
``$...$`` for MathJax, fetched from a CDN when the page opens: offline the reader sees raw
TeX. :func:`markdown_with_mathml` replaces every ``$...$`` and ``$$...$$`` of a Markdown text
with MathML (converted by ``latex2mathml``), which browsers render natively, and leaves code
(fenced blocks and inline code spans) and escaped dollars ``\\$`` untouched.
"""

from __future__ import annotations

import re

__all__ = ["MathConversionError", "markdown_with_mathml"]

# Fenced code blocks and inline code spans are kept verbatim; then display math, then
# inline math (a single $ not followed by a space, closed by a $ not preceded by one).
_TOKENS = re.compile(
    r"(?P<fence>^(?P<ticks>```|~~~).*?^(?P=ticks)[ \t]*$)"
    r"|(?P<code>(?P<backticks>`+).+?(?P=backticks))"
    r"|(?P<escaped>\\\$)"
    r"|\$\$(?P<display>.+?)\$\$"
    r"|\$(?P<inline>[^\s$](?:[^$]*?[^\s\\$])?)\$",
    re.MULTILINE | re.DOTALL,
)


class MathConversionError(ValueError):
    """A formula of a notebook's Markdown could not be converted to MathML."""


def _mathml(tex: str, display: str) -> str:
    from latex2mathml.converter import convert

    try:
        return convert(tex.strip(), display=display)
    except Exception as error:  # latex2mathml raises many kinds for bad TeX
        raise MathConversionError(
            f"cannot convert the formula ${tex}$ to MathML: {error}"
        ) from None


def markdown_with_mathml(markdown: str) -> str:
    """``markdown`` with each TeX formula replaced by MathML (display or inline).

    Raises
    ------
    MathConversionError
        If a formula is not valid TeX for the converter (the message quotes it).
    """

    def replace(match: re.Match[str]) -> str:
        if match["display"] is not None:
            return _mathml(match["display"], "block")
        if match["inline"] is not None:
            return _mathml(match["inline"], "inline")
        return match[0]

    return _TOKENS.sub(replace, markdown)
