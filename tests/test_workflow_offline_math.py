"""TeX in Markdown to MathML for offline notebook pages (cdbandits.workflow.offline_math)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cdbandits.workflow.offline_math import MathConversionError, markdown_with_mathml


def test_inline_and_display_formulas_become_mathml():
    html = markdown_with_mathml(r"Regret $R_T$ and $$\sum_t x_t$$.")
    assert html.startswith(
        'Regret <math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">'
    )
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' in html
    assert "<msub><mi>R</mi><mi>T</mi></msub>" in html and "&#x02211;" in html
    assert "$" not in html


@pytest.mark.parametrize(
    "text",
    [
        "code `$x$` stays",
        "```python\nprice = '$5 and $6'\n```",
        r"escaped \$5 and \$6",
        "a lone $ 5 and 6 $ with spaces",
        "no math at all",
    ],
)
def test_code_escaped_dollars_and_prose_are_left_alone(text):
    assert markdown_with_mathml(text) == text


def test_bad_tex_is_named():
    with pytest.raises(MathConversionError, match=r"the formula \$x\^\$"):
        markdown_with_mathml(r"broken $x^$ here")


@given(st.text(alphabet=st.characters(blacklist_characters="$`\\"), max_size=50))
def test_text_without_math_is_unchanged(text):
    assert markdown_with_mathml(text) == text
