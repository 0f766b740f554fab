"""Captions of the Snakemake report: valid reStructuredText, links only to report entries."""

import re
from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest
from conftest import REPO_ROOT
from docutils.core import publish_parts

CAPTIONS = sorted((REPO_ROOT / "workflow" / "report").rglob("*.rst"))
NOTEBOOK_PAGES = {f"{path.stem}.html" for path in (REPO_ROOT / "notebooks").glob("*.ipynb")}

# What Snakemake passes to a caption's Jinja template (the wildcards our rules use).
SNAKEMAKE = SimpleNamespace(
    wildcards=SimpleNamespace(click_model="informational", dataset="sample"),
    config={"seed": 20150703},
    params={},
)


@pytest.mark.parametrize("path", CAPTIONS, ids=lambda path: str(path.relative_to(REPO_ROOT)))
def test_caption_renders_without_warnings(path: Path):
    source = path.read_text(encoding="utf-8")
    # Snakemake appends a link target for each file in the report; links name notebook pages.
    links = set(re.findall(r"`([^`<>]+)`_", source))
    assert links <= NOTEBOOK_PAGES, f"links to files that are not in the report: {links}"
    targets = "".join(f"\n\n.. _{name}: #" for name in sorted(links))
    text = jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(source + targets)
    publish_parts(
        text.render(snakemake=SNAKEMAKE),
        writer="html",
        settings_overrides={"report_level": 2, "halt_level": 2},
    )
