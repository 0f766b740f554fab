"""Every numba kernel of cdbandits takes at most 12 arguments.

A kernel with more takes arguments that travel together: they go into a NamedTuple (or a
tuple) that says what they are, as :class:`cdbandits.karmed.base.Arena` does.
"""

from __future__ import annotations

import ast

from conftest import REPO_ROOT

SOURCE = REPO_ROOT / "src" / "cdbandits"
MOST_ARGUMENTS = 12


def _is_njit(node: ast.expr) -> bool:
    """Whether ``node`` is ``numba.njit``, ``njit`` or a call of either (with options)."""
    target = node.func if isinstance(node, ast.Call) else node
    return (isinstance(target, ast.Attribute) and target.attr == "njit") or (
        isinstance(target, ast.Name) and target.id == "njit"
    )


def kernel_widths(source: str) -> dict[str, int]:
    """Arguments of each numba kernel of a module: functions decorated by ``njit`` (or by a
    name the module binds to an ``njit(...)`` decorator) and functions passed to one."""
    tree = ast.parse(source)
    decorators = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign) and _is_njit(node.value)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    functions = {
        node.name: node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    compiled = {
        name
        for name, node in functions.items()
        for decorator in node.decorator_list
        if _is_njit(decorator)
        or isinstance(target := getattr(decorator, "func", decorator), ast.Name)
        and target.id in decorators
    }
    compiled |= {  # njit(...)(function)
        argument.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _is_njit(node.func)
        for argument in node.args
        if isinstance(argument, ast.Name) and argument.id in functions
    }
    widths = {}
    for name in compiled:
        arguments = functions[name].args
        widths[name] = len(arguments.posonlyargs) + len(arguments.args) + len(arguments.kwonlyargs)
    return widths


def test_the_width_of_kernels_is_read_in_every_form():
    source = (
        "import numba\nfrom numba import njit\n_kernel = numba.njit(cache=True, _nrt=False)\n"
        "@numba.njit(cache=True)\ndef a(x, y): pass\n"
        "@njit\ndef b(x): pass\n"
        "@_kernel\ndef c(x, y, z): pass\n"
        "def d(*, x, y, z, w): pass\n"
        "d_compiled = numba.njit(cache=True)(d)\n"
        "def plain(a, b, c, d, e, f, g, h, i, j, k, l, m): pass\n"
    )
    assert kernel_widths(source) == {"a": 2, "b": 1, "c": 3, "d": 4}


def test_no_kernel_takes_more_than_twelve_arguments():
    wide = {
        f"{path.relative_to(SOURCE)}:{name}": width
        for path in sorted(SOURCE.rglob("*.py"))
        for name, width in kernel_widths(path.read_text(encoding="utf-8")).items()
        if width > MOST_ARGUMENTS
    }
    assert not wide, f"kernels over {MOST_ARGUMENTS} arguments: {wide}"


def test_the_kernels_are_found():
    counted = sum(len(kernel_widths(path.read_text())) for path in SOURCE.rglob("*.py"))
    assert counted > 100  # the K-armed, linear, contextual, LETOR and solver kernels
