# Helpers of workflow/rules/oracle.smk (kept apart from the rules, as the linter asks): the
# oracle config, the library files the rules depend on, and the output paths.
from cdbandits.oracle_methods.experiments import EXPERIMENTS as ORACLE_EXPERIMENTS  # noqa: E402
from cdbandits.oracle_methods.figures import FIGURES as ORACLE_FIGURE_NAMES  # noqa: E402

ORACLE = config["oracle"]
ORACLE_LIBRARY = library("oracle_methods", "contextual", "preference", "winners", "files", "workflow.jobs")
ORACLE_SUMMARY_TABLES = (
    "bound_table",
    "bound_detail",
    "crossovers",
    "learned_summary",
    "theory",
)


def oracle_shards(experiment):
    """The shard tables of one experiment."""
    return [f"results/oracle/shards/{experiment}-{shard}.csv" for shard in range(ORACLE["shards"])]


def oracle_table(name):
    """Where a combined or summary table of the oracle sweeps goes."""
    return f"results/oracle/{name}.csv"


def oracle_outputs():
    """Everything the oracle sweeps build (for the default target)."""
    return [
        *(oracle_table(name) for name in (*ORACLE_EXPERIMENTS, *ORACLE_SUMMARY_TABLES, "scaling")),
        "results/oracle/bound_table.md",
        "results/oracle/summary.json",
        *(path for name in ORACLE_FIGURE_NAMES for path in figure_paths("oracle/figures", name)),
    ]
