# Helpers of workflow/rules/online.smk (kept apart from the rules, as the linter asks): the
# online config, the optional MSLR per-query matrices and the output paths.
from cdbandits.contextual.experiments import FIGURE_NAMES as ONLINE_FIGURE_NAMES  # noqa: E402
from cdbandits.contextual.experiments import ONLINE_TABLES  # noqa: E402

ONLINE = config["online"]
ONLINE_MSLR = [ONLINE["mslr"]["matrices"]] if ONLINE["mslr"]["matrices"] else []
ONLINE_LIBRARY = library("contextual", "preference", "winners", "files", "workflow.jobs")


def online_outputs():
    """Everything the online sweeps build (for the default target)."""
    return [
        *(f"results/online/{table}.csv" for table in ONLINE_TABLES),
        "results/online/coverage.md",
        "results/online/summary.json",
        "results/online/exact_winners.csv",
        *(path for name in ONLINE_FIGURE_NAMES for path in figure_paths("online/figures", name)),
    ]
