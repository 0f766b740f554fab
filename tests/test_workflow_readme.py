"""The README's blocks pasted from the workflow's markdown (cdbandits.workflow.readme)."""

import pytest

from cdbandits.workflow.readme import ReadmeBlockError, block_sources, main, render

README = """# Title

Text before.

<!-- begin: results/a.md -->
| old | table |
<!-- end: results/a.md -->

Between.

<!-- begin: results/b.md -->
<!-- end: results/b.md -->
"""


def test_blocks_are_replaced_and_the_rest_kept():
    rendered = render(README, {"results/a.md": "| new |\n", "results/b.md": "b text"})
    assert rendered == README.replace("| old | table |\n", "| new |\n").replace(
        "<!-- begin: results/b.md -->\n", "<!-- begin: results/b.md -->\nb text\n"
    )
    assert block_sources(rendered) == ["results/a.md", "results/b.md"]
    assert render(rendered, {"results/a.md": "| new |\n", "results/b.md": "b text"}) == rendered


@pytest.mark.parametrize(
    "text, message",
    [
        ("<!-- begin: a.md -->\nx\n", "README.md:1: unmatched marker '<!-- begin: a.md -->'"),
        ("x\n<!-- end: a.md -->\n", "README.md:2: unmatched marker"),
        (
            "<!-- begin: a.md -->\nx\n<!-- end: b.md -->\n",
            "block of a.md ends with the marker of b.md",
        ),
        (
            "<!-- begin: a.md -->\n<!-- begin: b.md -->\n<!-- end: a.md -->\n",
            "README.md:2: unmatched marker '<!-- begin: b.md -->'",
        ),
    ],
)
def test_malformed_markers_are_named(text, message):
    with pytest.raises(ReadmeBlockError, match=message.replace("(", r"\(")):
        block_sources(text)


def test_missing_fragment_is_named():
    with pytest.raises(ReadmeBlockError, match=r"no content for the blocks of \['results/b.md'\]"):
        render(README, {"results/a.md": ""})


def test_check_and_update_from_the_command_line(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(README)
    (tmp_path / "results").mkdir()
    (tmp_path / "results/a.md").write_text("| fresh |\n")
    (tmp_path / "results/b.md").write_text("")
    arguments = ["--readme", str(readme), "--results-root", str(tmp_path)]
    messages = []

    def capture(*args, **kwargs):
        messages.append(" ".join(map(str, args)))

    assert (
        main(["check", *arguments], capture) == 1 and "stale blocks: results/a.md" in messages[-1]
    )
    assert main(["update", *arguments], capture) == 0
    assert "| fresh |" in readme.read_text() and "| old |" not in readme.read_text()
    assert main(["check", *arguments], capture) == 0
    (tmp_path / "results/b.md").unlink()
    assert main(["check", *arguments], capture) == 2 and "results/b.md" in messages[-1]
