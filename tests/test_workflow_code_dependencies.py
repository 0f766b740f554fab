"""Which library files a rule runs (cdbandits.workflow.code_dependencies)."""

from pathlib import Path

import pytest

from cdbandits.workflow.code_dependencies import source_files


def write(root: Path, relative: str, text: str = "") -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def package(tmp_path):
    root = tmp_path / "pkg"
    write(root, "__init__.py", "from .base import VALUE\n")
    write(root, "base.py", "VALUE = 1\n")
    write(root, "solver.py", "from .base import VALUE\nimport numpy\n")
    write(root, "unused.py", "")
    write(root, "family/__init__.py", "")
    write(root, "family/runs.py", "from ..solver import VALUE\nfrom . import tables\n")
    write(root, "family/tables.py", "from cdbandits.base import VALUE\n")
    return root


def names(paths, root):
    return sorted(str(path.relative_to(root)) for path in paths)


def test_imports_are_followed_through_relative_and_absolute_forms(package):
    assert names(source_files("family.runs", root=package), package) == [
        "__init__.py",
        "base.py",
        "family/__init__.py",
        "family/runs.py",
        "family/tables.py",
        "solver.py",
    ]


def test_a_subpackage_stands_for_all_its_modules(package):
    assert "family/tables.py" in names(source_files("family", root=package), package)
    assert "unused.py" not in names(source_files("family", root=package), package)


def test_unknown_module_is_named(package):
    with pytest.raises(FileNotFoundError, match="no module cdbandits.nothing"):
        source_files("nothing", root=package)


def test_the_real_package_resolves_every_rule_module():
    files = source_files("experiments", "workflow.jobs", "files")
    assert any(path.name == "shards.py" for path in files)
    assert all(path.suffix == ".py" and path.is_file() for path in files)
