# Helpers shared by every rules file: config validation, library paths, data paths.
import os
import sys
from pathlib import Path

import yaml

from snakemake.utils import validate

# snakemake's validate checks no string formats, so jsonschema's optional IRI format checker is
# never used; importing it compiles 38 grammars (1.4 s), paid again in every job a cluster runs.
sys.modules.setdefault("rfc3987_syntax", None)

# Jobs import the library from this checkout, also inside conda environments.
SRC = Path(workflow.basedir) / "src"
os.environ.update(PYTHONPATH=str(SRC))
sys.path.insert(0, str(SRC))

from cdbandits.datasets import DATA_FILES  # noqa: E402
from cdbandits.experiments.config_model import ConfigError  # noqa: E402
from cdbandits.workflow.config import WorkflowConfig  # noqa: E402
from cdbandits.workflow.config_errors import config_error_message  # noqa: E402


# The schema (generated from the config models) fills in the defaults; the models then check
# the rules across keys. Either stops the workflow before any job runs, with one line naming
# the key of a value the code cannot run with.
try:
    validate(config, schema="../schemas/config.schema.yaml")
except Exception as error:
    message = config_error_message(error)
    if message is None:
        raise
    sys.exit(message)
try:
    CONFIG = WorkflowConfig.from_config(config)
except ConfigError as error:
    sys.exit(f"config key {error}")
from cdbandits.workflow.code_dependencies import source_files  # noqa: E402

CONDA_ENV = "../../envs/cdbandits.yaml"

# The result notebooks (each family's rules execute its own) and their report category.
NOTEBOOKS = Path(workflow.basedir) / "notebooks"
NOTEBOOK_CATEGORY = "Notebooks"


def config_keys(section, model):
    """The keys of a config section (a mapping) that ``model`` reads, with their values: what
    a job gets (a change to another key does not rerun it)."""
    return {key: section[key] for key in model.model_fields if key in section}


def library(*modules):
    """Source files run by the named cdbandits modules (their imports followed), as inputs.

    Declared as inputs so that editing any of them reruns the rule. A subpackage name
    ("letor") stands for all its modules.
    """
    return [str(path) for path in source_files(*modules, root=SRC / "cdbandits")]


def data_path(key):
    """Where the fetch rule puts the verified data file `key` of cdbandits.datasets."""
    return f"results/data/{key}/{DATA_FILES[key].filename}"


FIGURE_FORMATS = ("png", "pdf")


def figure_paths(folder, name):
    """A figure's files, ``results/<folder>/<name>.png`` and ``.pdf`` (the PNG first)."""
    return [f"results/{folder}/{name}.{ext}" for ext in FIGURE_FORMATS]


def is_default_config():
    """Whether this run's config is the default one (config/config.yaml, schema defaults).

    Only such a run publishes the figures of RESULTS.md to figures/, so a run of any other config
    leaves the tracked figures alone. Where the data come from (data_mirror) does not count.
    """
    default = yaml.safe_load((Path(workflow.basedir) / "config" / "config.yaml").read_text())
    validate(default, schema=str(Path(workflow.basedir) / "workflow/schemas/config.schema.yaml"))
    ignored = {"data_mirror"}
    return {k: v for k, v in default.items() if k not in ignored} == {
        k: v for k, v in config.items() if k not in ignored
    }


def published_name(path):
    """Where the tracked copy of a figure goes: figures/<family>_<...>_<name>.<ext>."""
    parts = [part for part in Path(path).parts[1:] if part != "figures"]
    return "figures/" + "_".join(parts)


def report_figure(paths, caption, category, subcategory=None):
    """A figure's output paths with the first (the PNG) flagged for the report.

    The other paths (the PDF) stay plain outputs, so the report shows each figure once. `caption` is relative to the rules file, as in report().
    """
    first, *rest = paths
    # (Not at the start of a line: Snakemake's parser would read `report` as its keyword.)
    flagged = report(first, caption=caption, category=category, subcategory=subcategory)
    return [flagged, *rest]


def figure_files(rule, leave_out=()):
    """Every file of a plotting rule's named figure outputs, except those named in leave_out."""
    return [
        path
        for name in rule.output.keys()
        if name not in leave_out
        for path in rule.output[name]
    ]
