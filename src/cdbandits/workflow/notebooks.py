"""Executing the result notebooks headless, reproducibly, and rendering them to HTML.

The notebooks under ``notebooks/`` are stored without outputs. Each has one cell tagged
``parameters`` naming the workflow outputs it reads, with defaults that work when the
notebook is opened from ``notebooks/`` in a checkout that has run the workflow. The workflow
executes each one with :func:`execute_notebook` (papermill injects the actual paths after
the ``parameters`` cell), writes the executed copy under ``results/notebooks/`` and renders
it to HTML for the Snakemake report with :func:`export_html`.

Reproducibility: the kernel is always the Python running the workflow (installed kernel
specs are ignored), and :func:`strip_volatile_metadata` removes what changes from one
execution to the next (cell timings, papermill's paths and durations), so the same outputs
give the same executed notebook and HTML, byte for byte.
"""

from __future__ import annotations

import ast
import copy
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import nbformat
import papermill
from jinja2 import DictLoader
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbconvert import HTMLExporter
from traitlets import default

from ..files import atomic_path, to_jsonable, write_text
from .offline_math import markdown_with_mathml

__all__ = [
    "CurrentPythonKernelManager",
    "NotebookFormatError",
    "NotebookParameterError",
    "execute_notebook",
    "export_html",
    "notebook_parameter_names",
    "notebook_title",
    "rule_parameters",
    "strip_volatile_metadata",
]

logger = logging.getLogger(__name__)

#: Cell metadata keys written by papermill and nbclient that hold times or run state.
_VOLATILE_CELL_METADATA = ("execution", "papermill")

#: The lab template without the scripts it loads from a CDN: MathJax (formulas are MathML
#: already), require.js (for widgets, which the notebooks do not use) and Mermaid.
_OFFLINE_TEMPLATE = "offline_lab.html.j2"
_OFFLINE_TEMPLATE_SOURCE = "{%- extends 'index.html.j2' -%}" + "".join(
    f"{{%- block {block} -%}}{{%- endblock {block} -%}}"
    for block in ("html_head_js_mathjax", "html_head_js_requirejs", "html_head_js_mermaidjs")
)

#: Tag of the cell papermill inserts after the ``parameters`` cell.
_INJECTED_TAG = "injected-parameters"


class NotebookFormatError(ValueError):
    """A stored notebook breaks a convention of ``notebooks/`` (no title, no parameters cell)."""


class NotebookParameterError(NotebookFormatError):
    """A notebook's ``parameters`` cell is missing or does not define a passed parameter."""


class CurrentPythonKernelManager(AsyncKernelManager):
    """Start the kernel with this process's Python, whatever kernel specs are installed.

    A ``python3`` kernel spec registered by the user (``~/.local/share/jupyter``) could point
    at another interpreter without this project's packages; an empty list of kernel folders
    leaves only ipykernel's built-in spec, which runs ``sys.executable``.
    """

    @default("kernel_spec_manager")
    def _kernel_spec_manager_default(self) -> KernelSpecManager:
        return KernelSpecManager(kernel_dirs=[])


def _parameters_cell(notebook: nbformat.NotebookNode, path: Path) -> nbformat.NotebookNode:
    """The unique code cell tagged ``parameters``."""
    cells = [
        cell
        for cell in notebook.cells
        if cell.cell_type == "code" and "parameters" in cell.metadata.get("tags", [])
    ]
    if len(cells) != 1:
        raise NotebookParameterError(
            f"{path}: expected exactly one code cell tagged 'parameters', found {len(cells)}"
        )
    return cells[0]


def notebook_parameter_names(path: str | os.PathLike[str]) -> list[str]:
    """Names assigned at the top level of a notebook's ``parameters`` cell, in order.

    Parameters
    ----------
    path : path-like
        A notebook (``.ipynb``).

    Raises
    ------
    NotebookParameterError
        If the notebook has no ``parameters`` cell, or more than one.
    """
    notebook_path = Path(path)
    cell = _parameters_cell(nbformat.read(notebook_path, as_version=4), notebook_path)
    names: list[str] = []
    for statement in ast.parse(cell.source).body:
        targets = statement.targets if isinstance(statement, ast.Assign) else []
        if isinstance(statement, ast.AnnAssign):
            targets = [statement.target]
        names.extend(target.id for target in targets if isinstance(target, ast.Name))
    return names


def notebook_title(notebook: nbformat.NotebookNode) -> str:
    """The text of the first level-1 Markdown heading (``# Title``) of a notebook.

    Raises
    ------
    NotebookFormatError
        If no Markdown cell has a level-1 heading.
    """
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            if line.startswith("# "):
                return line[2:].strip()
    raise NotebookFormatError("the notebook has no level-1 Markdown heading ('# Title')")


def rule_parameters(
    named_values: Mapping[str, Any], exclude: Sequence[str] = ()
) -> dict[str, str | list[str] | Any]:
    """Notebook parameters from a rule's named inputs or params, as plain Python values.

    Snakemake's path objects become ``str`` (lists of them, lists of ``str``); other
    values pass through :func:`cdbandits.files.to_jsonable`.

    Parameters
    ----------
    named_values : mapping
        ``snakemake.input.items()`` or ``snakemake.params.items()`` as a dict.
    exclude : sequence of str
        Names that are not notebook parameters (the notebook itself, library sources).
    """
    parameters: dict[str, Any] = {}
    for name, value in named_values.items():
        if name in exclude:
            continue
        if isinstance(value, str | os.PathLike):
            parameters[name] = os.fspath(value)
        elif isinstance(value, list | tuple) and all(
            isinstance(item, str | os.PathLike) for item in value
        ):
            parameters[name] = [os.fspath(item) for item in value]
        else:
            parameters[name] = to_jsonable(value)
    return parameters


def strip_volatile_metadata(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Remove execution times, run paths and random ids so equal outputs give equal files.

    Drops each cell's ``execution`` (nbclient's timestamps) and ``papermill`` (timings,
    status) metadata, and from the notebook's ``papermill`` metadata everything except the
    ``parameters`` that were injected; gives the cell papermill injects (tagged
    ``injected-parameters``, created with a random id) the fixed id
    ``injected-parameters``. Works in place.

    Returns
    -------
    nbformat.NotebookNode
        The same notebook, for chaining.
    """
    for cell in notebook.cells:
        for key in _VOLATILE_CELL_METADATA:
            cell.metadata.pop(key, None)
        if _INJECTED_TAG in cell.metadata.get("tags", []):
            cell["id"] = _INJECTED_TAG
    papermill = notebook.metadata.get("papermill")
    if papermill is not None:
        notebook.metadata["papermill"] = {"parameters": papermill.get("parameters", {})}
    return notebook


def execute_notebook(
    template: str | os.PathLike[str],
    executed: str | os.PathLike[str],
    parameters: Mapping[str, Any],
    timeout_seconds: int = 1800,
) -> nbformat.NotebookNode:
    """Run a notebook top to bottom with ``parameters`` and write the executed copy.

    The kernel runs in the current working directory (the workflow's), so relative paths in
    ``parameters`` resolve as they do for the rules.

    Parameters
    ----------
    template : path-like
        The stored notebook (without outputs), with one cell tagged ``parameters``.
    executed : path-like
        Where the executed notebook is written (atomically, only if every cell succeeded).
    parameters : mapping
        A value for every name of the ``parameters`` cell (strings, numbers, lists,
        mappings); the cell's defaults are for interactive use only.
    timeout_seconds : int
        Longest time one cell may run.

    Returns
    -------
    nbformat.NotebookNode
        The executed notebook, volatile metadata stripped.

    Raises
    ------
    NotebookParameterError
        If ``parameters`` and the names of the ``parameters`` cell differ.
    papermill.PapermillExecutionError
        If a cell raises; the message names the cell and the error.
    """
    declared = notebook_parameter_names(template)
    unknown = sorted(set(parameters) - set(declared))
    missing = [name for name in declared if name not in parameters]
    if unknown or missing:
        raise NotebookParameterError(
            f"{template}: its 'parameters' cell defines {declared}; passed parameters "
            f"not defined there: {unknown}; defined but not passed: {missing}"
        )
    logger.info("executing %s with parameters %s", template, dict(parameters))
    notebook = papermill.execute_notebook(
        os.fspath(template),
        None,
        parameters=to_jsonable(dict(parameters)),
        kernel_name="python3",
        kernel_manager_class=CurrentPythonKernelManager,
        progress_bar=False,
        log_output=False,
        execution_timeout=timeout_seconds,
        cwd=None,
    )
    strip_volatile_metadata(notebook)
    with atomic_path(executed) as temporary:
        nbformat.write(notebook, temporary)
    logger.info("wrote the executed notebook to %s", executed)
    return notebook


def export_html(
    notebook: nbformat.NotebookNode | str | os.PathLike[str], html: str | os.PathLike[str]
) -> None:
    """Render an executed notebook to one HTML page (figures embedded), atomically.

    The page's title is the notebook's first level-1 heading (:func:`notebook_title`).
    The page needs no network: figures are embedded, and the TeX formulas of Markdown cells
    are converted to MathML (:func:`~cdbandits.workflow.offline_math.markdown_with_mathml`),
    which browsers render natively, so the page loads no MathJax.

    Parameters
    ----------
    notebook : NotebookNode or path-like
        The executed notebook, or its path.
    html : path-like
        Destination ``.html`` file.
    """
    node = (
        notebook
        if isinstance(notebook, nbformat.NotebookNode)
        else nbformat.read(Path(notebook), as_version=4)
    )
    node = copy.deepcopy(node)
    for cell in node.cells:
        if cell.cell_type == "markdown":
            cell.source = markdown_with_mathml(cell.source)
        for output in cell.get("outputs", []):
            if "text/markdown" in output.get("data", {}):
                output.data["text/markdown"] = markdown_with_mathml(output.data["text/markdown"])
    exporter = HTMLExporter(
        template_name="lab",
        # Figures are cell outputs, embedded as data already. Embedding Markdown images
        # would run every inline HTML tag through BeautifulSoup on its own, which closes
        # each MathML tag empty.
        embed_images=False,
        extra_loaders=[DictLoader({_OFFLINE_TEMPLATE: _OFFLINE_TEMPLATE_SOURCE})],
        template_file=_OFFLINE_TEMPLATE,
    )
    resources = {"metadata": {"name": notebook_title(node)}}
    body, _ = exporter.from_notebook_node(node, resources=resources)
    write_text(html, body)
    logger.info("rendered %s", html)
