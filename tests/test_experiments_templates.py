"""Markdown prose from jinja2 templates (cdbandits.experiments.templates)."""

import jinja2
import pytest

from cdbandits.experiments.templates import join_words, markdown_template, percent


def test_filters_format_numbers_and_join_words():
    template = markdown_template(
        '{{ total|spec(",") }} matrices, {{ share|percent }}, {{ (100 * x)|spec(".1f") }}%; '
        "{{ names|sentence }}."
    )
    text = template.render(total=1012500, share=0.4551, x=0.12345, names=["a", "b", "c"])
    assert text == "1,012,500 matrices, 46%, 12.3%; a, b and c."
    assert percent(1) == "100%" and join_words([]) == "" and join_words(["a"]) == "a"
    assert join_words(iter(["a", "b"])) == "a and b"


def test_block_tags_take_their_line_and_the_text_keeps_its_last_newline():
    template = markdown_template(
        "Items:\n{% for item in items %}\n* {{ item }}\n{% endfor %}\nEnd.\n"
    )
    assert template.render(items=[1, 2]) == "Items:\n* 1\n* 2\nEnd.\n"
    assert template.render(items=[]) == "Items:\nEnd.\n"


def test_an_undefined_name_is_an_error_not_an_empty_string():
    with pytest.raises(jinja2.UndefinedError, match="total"):
        markdown_template("{{ total }} matrices").render()
