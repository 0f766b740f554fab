"""The source files a part of the library runs, for declaring them as workflow inputs.

A rule that calls ``cdbandits.appendix`` also runs every module ``appendix`` imports from the
package, directly or not, and the package's ``__init__``. :func:`source_files` follows
those imports (read from the code, nothing is imported), so the workflow reruns a rule when
any of them changes, and only then.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

__all__ = ["source_files"]

PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def _module_file(root: Path, dotted: str) -> Path:
    """File of a module given by its dotted name inside the package (``""`` = the package)."""
    path = root.joinpath(*dotted.split(".")) if dotted else root
    if path.is_dir():
        return path / "__init__.py"
    module = path.with_suffix(".py")
    if not module.is_file():
        raise FileNotFoundError(f"no module cdbandits.{dotted} at {module}")
    return module


def _dotted_name(root: Path, file: Path) -> str:
    parts = list(file.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def _imported_modules(root: Path, file: Path) -> frozenset[str]:
    """Dotted names (inside the package) of the package modules ``file`` imports.

    Cached: the workflow asks for the sources of about fifty rules, which share most files
    (each parse would otherwise be repeated in every job a cluster starts).
    """
    own = _dotted_name(root, file)
    package = own if file.name == "__init__.py" else own.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"), filename=str(file))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(filter(None, [*base, node.module or ""]))
            elif node.module and (node.module + ".").startswith("cdbandits."):
                target = node.module.removeprefix("cdbandits").lstrip(".")
            else:
                continue
            found.add(target)
            for alias in node.names:  # `from . import module` names submodules
                submodule = ".".join(filter(None, [target, alias.name]))
                path = root.joinpath(*submodule.split("."))
                if path.is_dir() or path.with_suffix(".py").is_file():
                    found.add(submodule)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if (alias.name + ".").startswith("cdbandits."):
                    found.add(alias.name.removeprefix("cdbandits").lstrip("."))
    return frozenset(found)


def source_files(*modules: str, root: Path = PACKAGE_ROOT) -> list[Path]:
    """Every source file run by importing the given modules of the package.

    Parameters
    ----------
    *modules : str
        Dotted module names inside the package, e.g. ``"appendix"``, ``"letor.reader"``;
        a subpackage name (``"letor"``) means the subpackage and all its modules.
    root : pathlib.Path, optional
        The package folder (default: this installed package).

    Returns
    -------
    list of pathlib.Path
        Sorted; always includes the package's ``__init__.py`` and the ``__init__.py`` of
        every subpackage involved, which run on import.

    Raises
    ------
    FileNotFoundError
        If a module does not exist.
    """
    pending = [_module_file(root, "")]
    for module in modules:
        file = _module_file(root, module)
        pending.append(file)
        if file.name == "__init__.py":
            pending.extend(sorted(file.parent.glob("*.py")))
    seen: set[Path] = set()
    while pending:
        file = pending.pop()
        if file in seen:
            continue
        seen.add(file)
        for parent in file.relative_to(root).parents:
            pending.append(root / parent / "__init__.py")
        pending.extend(_module_file(root, name) for name in _imported_modules(root, file))
    return sorted(seen)
