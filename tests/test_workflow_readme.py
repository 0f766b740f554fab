"""The generated blocks of README.md and RESULTS.md (cdbandits.workflow.readme)."""

import re

import pytest
from conftest import REPO_ROOT

from cdbandits.workflow.readme import (
    DOCUMENTS,
    RESULTS_PREFIX,
    ReadmeBlockError,
    block_sources,
    blocks,
    main,
    read_fragments,
    render,
    stale_sources,
)

README = """# Title

Text before.

<!-- begin: results/a.md -->
| old | table |
<!-- end: results/a.md -->

Between.

<!-- begin: results/b.md -->
<!-- end: results/b.md -->
"""

RESULTS = """# Results

<!-- include: results/c.md -->

<!-- begin: benchmarks/speed.md -->
| old speed |
<!-- end: benchmarks/speed.md -->
"""


def test_blocks_are_replaced_and_the_rest_kept():
    rendered = render(README, {"results/a.md": "| new |\n", "results/b.md": "b text"})
    assert rendered == README.replace("| old | table |\n", "| new |\n").replace(
        "<!-- begin: results/b.md -->\n", "<!-- begin: results/b.md -->\nb text\n"
    )
    assert block_sources(rendered) == ["results/a.md", "results/b.md"]
    assert render(rendered, {"results/a.md": "| new |\n", "results/b.md": "b text"}) == rendered


def test_an_include_line_becomes_a_block():
    fragments = {"results/c.md": "| c |\n", "benchmarks/speed.md": "| old speed |\n"}
    assert block_sources(RESULTS) == ["results/c.md", "benchmarks/speed.md"]
    assert [block.content for block in blocks(RESULTS)] == [None, "| old speed |\n"]
    assert stale_sources(RESULTS, fragments) == ["results/c.md"]
    rendered = render(RESULTS, fragments)
    assert rendered == RESULTS.replace(
        "<!-- include: results/c.md -->",
        "<!-- begin: results/c.md -->\n| c |\n<!-- end: results/c.md -->",
    )
    assert stale_sources(rendered, fragments) == []


def test_a_longer_block_does_not_make_the_next_one_stale():
    fragments = {"results/a.md": "| a |\n" * 50, "results/b.md": ""}
    assert stale_sources(README, fragments) == ["results/a.md"]


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
        (
            "<!-- begin: a.md -->\n<!-- include: b.md -->\n<!-- end: a.md -->\n",
            "README.md:2: unmatched marker '<!-- include: b.md -->'",
        ),
        ("x\n<!-- include: ../secret.md -->\n", "README.md:2: block source ../secret.md must"),
        ("<!-- include: /etc/passwd -->\n", "must be a relative path inside the repository"),
    ],
)
def test_malformed_markers_are_named(text, message):
    with pytest.raises(ReadmeBlockError, match=message.replace("(", r"\(")):
        block_sources(text)


def test_missing_fragment_is_named():
    with pytest.raises(ReadmeBlockError, match=r"no content for the blocks of \['results/b.md'\]"):
        render(README, {"results/a.md": ""})


def test_results_come_from_the_results_root_and_tracked_files_from_the_repository(tmp_path):
    checkout, run = tmp_path / "checkout", tmp_path / "run"
    (checkout / "benchmarks").mkdir(parents=True)
    (run / "results").mkdir(parents=True)
    (checkout / "benchmarks/speed.md").write_text("| tracked |\n")
    (run / "results/c.md").write_text("| computed |\n")
    (checkout / "results").mkdir()
    (checkout / "results/c.md").write_text("| a stale copy in the checkout |\n")
    fragments = read_fragments(
        ["results/c.md", "benchmarks/speed.md"], run, checkout / "RESULTS.md"
    )
    assert fragments == {"results/c.md": "| computed |\n", "benchmarks/speed.md": "| tracked |\n"}
    with pytest.raises(ReadmeBlockError, match=r"benchmarks/gone.md.*\(a tracked file\)"):
        read_fragments(["benchmarks/gone.md"], run, checkout / "RESULTS.md")
    with pytest.raises(ReadmeBlockError, match=r"results/gone.md.*run the default workflow"):
        read_fragments(["results/gone.md"], run, checkout / "RESULTS.md")


def test_check_and_update_cover_both_documents_in_one_command(tmp_path):
    readme, results = tmp_path / "README.md", tmp_path / "RESULTS.md"
    readme.write_text(README)
    results.write_text(RESULTS)
    (tmp_path / "results").mkdir()
    (tmp_path / "benchmarks").mkdir()
    for name, text in {
        "results/a.md": "| old | table |\n",
        "results/b.md": "",
        "results/c.md": "| c |\n",
        "benchmarks/speed.md": "| new speed |\n",
    }.items():
        (tmp_path / name).write_text(text)
    arguments = ["--document", str(readme), "--document", str(results)]
    arguments += ["--results-root", str(tmp_path)]
    messages = []

    def capture(*args, **kwargs):
        messages.append(" ".join(map(str, args)))

    assert main(["check", *arguments], capture) == 1
    assert messages[0] == f"{readme}: all 2 blocks match their files"
    assert messages[1] == f"{results}: stale blocks: results/c.md, benchmarks/speed.md"
    assert main(["update", *arguments], capture) == 0
    assert "| new speed |" in results.read_text() and "include:" not in results.read_text()
    assert readme.read_text() == README
    assert main(["check", *arguments], capture) == 0
    (tmp_path / "results/a.md").write_text("| fresh |\n")
    assert main(["check", *arguments], capture) == 1
    assert messages[-2] == f"{readme}: stale blocks: results/a.md"
    (tmp_path / "results/b.md").unlink()
    assert main(["check", *arguments], capture) == 2 and "results/b.md" in messages[-1]


def test_the_repositorys_documents_paste_their_tracked_files_unchanged():
    # The blocks of workflow outputs need a default run (`check` after it); the blocks of
    # tracked files, such as the speed table of benchmarks/, can be checked at any time.
    tracked_blocks = 0
    for document in DOCUMENTS:
        path = REPO_ROOT / document
        text = path.read_text(encoding="utf-8")
        found = blocks(text, str(path))
        assert all(block.content is not None for block in found), "run `update`"
        tracked = [s for s in block_sources(text) if not s.startswith(RESULTS_PREFIX)]
        fragments = {block.source: block.content for block in found}
        fragments |= read_fragments(tracked, REPO_ROOT, path)
        assert stale_sources(text, fragments, str(path)) == []
        tracked_blocks += len(tracked)
    assert tracked_blocks >= 1


def test_the_readme_is_an_entry_point_and_results_md_holds_the_results():
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    results = (REPO_ROOT / "RESULTS.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 300
    # The one block of the README is the default run's measured time.
    assert block_sources(readme) == ["results/run_time.md"]
    assert "benchmarks/von_neumann.md" in block_sources(results)


def anchors(text):
    """The anchors GitHub gives the headings of ``text``."""
    headings = re.findall(r"^#+ (.+)$", re.sub(r"^```.*?^```", "", text, flags=re.M | re.S), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_links_between_the_documents_reach_a_file_and_a_heading_and_figures_exist():
    links = 0
    for document in (*DOCUMENTS, *sorted((REPO_ROOT / "docs").glob("*.md"))):
        text = (REPO_ROOT / document).read_text(encoding="utf-8")
        for target, anchor in re.findall(r"\]\(([\w./-]*\.md)?(?:#([\w-]+))?\)", text):
            path = (REPO_ROOT / document).parent / target if target else REPO_ROOT / document
            assert path.is_file(), f"{document} links to {target}, which does not exist"
            if anchor:
                assert anchor in anchors(path.read_text(encoding="utf-8")), (document, anchor)
            links += 1
        for image in re.findall(r"!\[[^]]*\]\(([^)]+)\)", text):
            assert (REPO_ROOT / image).is_file(), f"{document} shows {image}, which does not exist"
    assert links >= 10
