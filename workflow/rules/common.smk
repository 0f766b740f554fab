# Helpers shared by every rules file: config validation, library paths, data paths.
import os
import sys
from pathlib import Path

from snakemake.utils import validate


validate(config, schema="../schemas/config.schema.yaml")

# Jobs import the library from this checkout, also inside conda environments.
SRC = Path(workflow.basedir) / "src"
os.environ.update(PYTHONPATH=str(SRC))
sys.path.insert(0, str(SRC))

from cdbandits.datasets import DATA_FILES  # noqa: E402

CONDA_ENV = "../../envs/cdbandits.yaml"


def library(*modules):
    """Source files of the named cdbandits modules, declared as inputs so edits rerun a rule.

    A module name may name a subpackage folder ("letor"), which stands for all its files.
    """
    package = SRC / "cdbandits"
    paths = [package / "__init__.py"]
    for module in modules:
        folder = package / module
        if folder.is_dir():
            paths.extend(sorted(folder.glob("*.py")))
        else:
            paths.append(package / f"{module}.py")
    return [str(path) for path in paths]


def data_path(key):
    """Where the fetch rule puts the verified data file `key` of cdbandits.datasets."""
    return f"results/data/{key}/{DATA_FILES[key].filename}"


def final_outputs():
    """Everything the default target builds."""
    return [
        "results/examples/five_arm.csv",
        "results/examples/clone_copeland.csv",
        "results/examples/examples.json",
        "results/winners/full_matrices.csv",
        "results/winners/full_matrices.json",
    ]
