"""The result notebooks: stored clean, parameterised, executed reproducibly.

That the default run executes every notebook: tests/test_workflow.py."""

import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
from conftest import REPO_ROOT
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
from papermill import PapermillExecutionError

from cdbandits.workflow.notebooks import (
    NotebookFormatError,
    NotebookParameterError,
    execute_notebook,
    export_html,
    notebook_parameter_names,
    notebook_title,
    rule_parameters,
    strip_volatile_metadata,
)

STORED_NOTEBOOKS = sorted((REPO_ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert STORED_NOTEBOOKS


@pytest.mark.parametrize("path", STORED_NOTEBOOKS, ids=lambda path: path.name)
def test_stored_notebook_has_no_outputs_a_title_and_one_parameters_cell(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:80]
    assert notebook_title(notebook)
    assert notebook_parameter_names(path)
    assert notebook.metadata["kernelspec"]["name"] == "python3"


def tiny_notebook(path: Path, body: str = "print(f'{count} x {label}')") -> Path:
    notebook = new_notebook(
        cells=[
            new_markdown_cell("# A tiny notebook\n\nFor the tests."),
            new_code_cell("count = 1\nlabel: str = 'default'"),
            new_code_cell(body),
        ]
    )
    notebook.cells[1].metadata["tags"] = ["parameters"]
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(notebook, path)
    return path


def test_parameter_names_are_read_from_the_tagged_cell(tmp_path):
    assert notebook_parameter_names(tiny_notebook(tmp_path / "t.ipynb")) == ["count", "label"]


def test_a_notebook_without_a_parameters_cell_is_rejected(tmp_path):
    path = tmp_path / "bare.ipynb"
    nbformat.write(new_notebook(cells=[new_code_cell("x = 1")]), path)
    with pytest.raises(NotebookParameterError, match="exactly one code cell tagged 'parameters'"):
        notebook_parameter_names(path)


def test_a_notebook_without_a_title_is_rejected():
    with pytest.raises(NotebookFormatError, match="no level-1 Markdown heading"):
        notebook_title(new_notebook(cells=[new_markdown_cell("## only a subsection")]))


def test_rule_parameters_turn_paths_into_strings_and_skip_excluded_names():
    named = {
        "notebook": "n.ipynb",
        "table": Path("results/t.csv"),
        "matrices": [Path("a.npz"), "b.npz"],
        "names": ("x", "y"),
        "k": 3,
    }
    assert rule_parameters(named, exclude=("notebook",)) == {
        "table": "results/t.csv",
        "matrices": ["a.npz", "b.npz"],
        "names": ["x", "y"],
        "k": 3,
    }


@pytest.mark.parametrize(
    ("parameters", "message"),
    [
        ({"count": 2}, r"defined but not passed: \['label'\]"),
        ({"count": 2, "label": "a", "extra": 1}, r"not defined there: \['extra'\]"),
    ],
)
def test_parameters_must_match_the_parameters_cell(tmp_path, parameters, message):
    template = tiny_notebook(tmp_path / "t.ipynb")
    with pytest.raises(NotebookParameterError, match=message):
        execute_notebook(template, tmp_path / "out.ipynb", parameters)
    assert not (tmp_path / "out.ipynb").exists()


def test_execution_is_reproducible_and_rendered(tmp_path):
    template = tiny_notebook(tmp_path / "t.ipynb")
    parameters = {"count": 3, "label": "duels"}
    first = execute_notebook(template, tmp_path / "first.ipynb", parameters)
    execute_notebook(template, tmp_path / "second.ipynb", parameters)
    assert (tmp_path / "first.ipynb").read_bytes() == (tmp_path / "second.ipynb").read_bytes()
    assert first.cells[-1].outputs[0]["text"] == "3 x duels\n"
    for cell in first.cells:
        assert "execution" not in cell.metadata and "papermill" not in cell.metadata
    assert first.metadata["papermill"] == {"parameters": parameters}
    export_html(first, tmp_path / "first.html")
    html = (tmp_path / "first.html").read_text()
    assert "<title>A tiny notebook</title>" in html and "3 x duels" in html


def test_rendered_pages_need_no_network(tmp_path):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("# Offline\n\nA context $x_t$ and a class $\\Pi$."),
        nbformat.v4.new_code_cell(
            "from IPython.display import Markdown\nMarkdown('regret $R_T$')",
            outputs=[
                nbformat.v4.new_output(
                    "execute_result", data={"text/markdown": "regret $R_T$"}, execution_count=1
                )
            ],
        ),
    ]
    export_html(notebook, tmp_path / "page.html")
    html = (tmp_path / "page.html").read_text()
    assert "mathjax" not in html.lower() and "cdnjs" not in html
    assert not re.search(r"""(src=|import\()["']https?:""", html), "the page loads a script"
    # Whole MathML elements (not tags emptied one by one), in cells and in Markdown outputs.
    assert "<msub><mi>x</mi><mi>t</mi></msub>" in html
    assert "<msub><mi>R</mi><mi>T</mi></msub>" in html
    assert "$" not in html.split("<body", 1)[1].replace("$R_T$", "")


def test_the_kernel_is_the_python_running_the_workflow(tmp_path, monkeypatch):
    # A registered "python3" kernel spec pointing elsewhere must not be used.
    spec = tmp_path / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [
                    "/nonexistent/python",
                    "-m",
                    "ipykernel_launcher",
                    "-f",
                    "{connection_file}",
                ],
                "display_name": "elsewhere",
                "language": "python",
            }
        )
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    template = tiny_notebook(tmp_path / "t.ipynb", body="import sys\nprint(sys.executable)")
    executed = execute_notebook(template, tmp_path / "out.ipynb", {"count": 1, "label": "x"})
    assert executed.cells[-1].outputs[0]["text"].strip() == sys.executable


def test_a_failing_cell_fails_loudly_and_writes_nothing(tmp_path):
    template = tiny_notebook(tmp_path / "t.ipynb", body="raise RuntimeError('broken result')")
    with pytest.raises(PapermillExecutionError, match="broken result"):
        execute_notebook(template, tmp_path / "out.ipynb", {"count": 1, "label": "x"})
    assert not (tmp_path / "out.ipynb").exists()


def test_strip_volatile_metadata_keeps_only_the_injected_parameters():
    notebook = new_notebook(cells=[new_code_cell("x = 1"), new_code_cell("x = 2")])
    notebook.cells[0].metadata.update(
        execution={"iopub.execute_input": "2015-07-03T00:00:00Z"},
        papermill={"duration": 1.0},
        tags=["keep"],
    )
    notebook.cells[1].metadata["tags"] = ["injected-parameters"]
    notebook.metadata["papermill"] = {
        "parameters": {"x": 1},
        "start_time": "now",
        "input_path": "/a",
    }
    strip_volatile_metadata(notebook)
    assert notebook.cells[0].metadata == {"tags": ["keep"]}
    assert notebook.cells[1].id == "injected-parameters"
    assert notebook.metadata["papermill"] == {"parameters": {"x": 1}}
    nbformat.validate(notebook)
