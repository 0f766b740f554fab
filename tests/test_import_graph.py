"""The modules and packages of cdbandits import each other without a cycle.

Every import is read from the source (``ast``), wherever it stands: at the top, inside a
function, under ``TYPE_CHECKING``. A cycle, even one only a function-local import closes,
means two modules cannot be understood (or moved) one without the other.
"""

from __future__ import annotations

import ast
import graphlib
from collections.abc import Iterable, Mapping
from pathlib import Path

from conftest import REPO_ROOT

SOURCE = REPO_ROOT / "src" / "cdbandits"


def module_name(path: Path, root: Path) -> str:
    """Dotted name of the module at ``path`` (a package is its ``__init__.py``)."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, name: str, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that the module ``name`` at ``path`` imports.

    ``from package import name`` imports the submodule ``package.name`` when there is one,
    else the package itself.
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            submodules = [f"{base}.{alias.name}" for alias in node.names]
            targets = [target for target in submodules if target in modules]
            if len(targets) < len(submodules):  # names defined in the module ``base``
                targets.append(base)
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target:
                found.add(target)
    found.discard(name)
    return found


def module_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package at ``root`` mapped to the modules of it that it imports."""
    paths = {module_name(path, root): path for path in sorted(root.rglob("*.py"))}
    modules = set(paths)
    return {name: imported_modules(path, name, modules) for name, path in paths.items()}


def package_of(module: str, packages: set[str], top: str) -> str:
    """The package ``module`` belongs to; a module directly under ``top`` is its own node.

    The top package holds independent modules (winners, preference, plotting, ...), not one
    unit, so each of them stands for itself.
    """
    if module in packages:
        return module
    parent = module.rpartition(".")[0]
    return module if parent == top else parent


def package_graph(modules: Mapping[str, Iterable[str]], packages: set[str]) -> dict[str, set[str]]:
    """The module graph contracted to packages (edges between different packages only)."""
    top = min(packages, key=len)
    graph: dict[str, set[str]] = {}
    for module, targets in modules.items():
        source = package_of(module, packages, top)
        edges = graph.setdefault(source, set())
        edges.update(package_of(target, packages, top) for target in targets)
        edges.discard(source)
    return graph


def cycle(graph: Mapping[str, Iterable[str]]) -> list[str] | None:
    """One cycle of ``graph`` (its nodes, the first repeated at the end), or None."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return list(error.args[1])
    return None


def packages_under(root: Path) -> set[str]:
    return {module_name(path, root) for path in root.rglob("__init__.py")}


def test_modules_import_without_cycle():
    found = cycle(module_graph(SOURCE))
    assert found is None, "import cycle: " + " -> ".join(found)


def test_packages_import_without_cycle():
    graph = package_graph(module_graph(SOURCE), packages_under(SOURCE))
    found = cycle(graph)
    assert found is None, "package import cycle: " + " -> ".join(found)


def write_package(root: Path, files: Mapping[str, str]) -> Path:
    """A package ``pkg`` under ``root`` with the given modules (relative path: source)."""
    for relative, source in files.items():
        path = root / "pkg" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return root / "pkg"


def test_a_function_local_import_closes_a_module_cycle(tmp_path):
    package = write_package(
        tmp_path,
        {
            "__init__.py": "",
            "low.py": "def f():\n    from .high import g\n    return g\n",
            "high.py": "from .low import f\n",
        },
    )
    graph = module_graph(package)
    assert graph["pkg.low"] == {"pkg.high"} and graph["pkg.high"] == {"pkg.low"}
    assert set(cycle(graph)) == {"pkg.low", "pkg.high"}


def test_an_import_under_type_checking_counts(tmp_path):
    package = write_package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n",
            "b.py": "from . import a\n",
        },
    )
    assert cycle(module_graph(package)) is not None


def test_from_package_import_resolves_to_the_submodule_or_the_package(tmp_path):
    package = write_package(
        tmp_path,
        {
            "__init__.py": "VALUE = 1\n",
            "sub/__init__.py": "",
            "sub/leaf.py": "from .. import VALUE\nfrom ..sub import other\nimport pkg.sub\n",
            "sub/other.py": "",
        },
    )
    assert module_graph(package)["pkg.sub.leaf"] == {"pkg", "pkg.sub.other", "pkg.sub"}


def test_packages_in_a_cycle_whose_modules_are_not(tmp_path):
    package = write_package(
        tmp_path,
        {
            "__init__.py": "",
            "one/__init__.py": "",
            "one/x.py": "from ..two.y import Y\n",
            "one/w.py": "",
            "two/__init__.py": "",
            "two/y.py": "Y = 1\n",
            "two/z.py": "from ..one.w import *\n",
            "top.py": "from .one import x\n",
        },
    )
    modules = module_graph(package)
    assert cycle(modules) is None
    graph = package_graph(modules, packages_under(package))
    assert graph["pkg.top"] == {"pkg.one"}
    assert set(cycle(graph)) == {"pkg.one", "pkg.two"}
