# Helpers of workflow/rules/oracle.smk (kept apart from the rules, as the linter asks): the
# keys each job gets, the library files the rules depend on.
import math  # noqa: E402

from cdbandits.experiments.oracle.detection_settings import DetectionSettings  # noqa: E402
from cdbandits.experiments.oracle.figures import FIGURES as ORACLE_FIGURE_NAMES  # noqa: E402
from cdbandits.experiments.oracle.jobs import (  # noqa: E402
    ScalingSettings,
    SummarySettings,
    SweepSettings,
    config_subset,
)
from cdbandits.experiments.oracle.settings import EXPERIMENTS as ORACLE_EXPERIMENTS  # noqa: E402

ORACLE = config["oracle"]

ORACLE_NOTEBOOK = Path(workflow.basedir) / "notebooks" / "oracle_methods_and_bounds.ipynb"
ORACLE_SUMMARY_TABLES = (
    "bound_table",
    "bound_detail",
    "crossovers",
    "learned_summary",
    "theory",
)


def oracle_library(module):
    """Source files a job of cdbandits.experiments.oracle.<module> runs (imports followed)."""
    return library(f"experiments.oracle.{module}", "files", "workflow.jobs")


def oracle_sweep_config(wildcards):
    """The keys of the oracle config one sweep's shards read (SweepSettings.keys)."""
    return config_subset(ORACLE, SweepSettings.keys(wildcards.experiment))


def oracle_shard_resource(name, default):
    """A shard's resource ``name``: oracle.shard_resources of its sweep, else ``default``."""

    def resource(wildcards):
        return ORACLE.get("shard_resources", {}).get(wildcards.experiment, {}).get(name, default)

    return resource


def detection_runtime(wildcards):
    """Minutes asked for the detection's jobs: 20 per 12 seeds (oracle.detection.seeds)."""
    return 20 * math.ceil(ORACLE["detection"]["seeds"] / 12)


def oracle_table(name):
    """Where a combined or summary table of the oracle sweeps goes."""
    return f"results/oracle/{name}.csv"
