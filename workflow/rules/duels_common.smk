# Helpers of workflow/rules/duels.smk (kept apart from the rules, as the linter asks): the
# parameters of each job, the data each environment reads and the library sources.
from cdbandits.experiments.duels.figures import FIGURE_NAMES as DUELS_FIGURE_NAMES  # noqa: E402
from cdbandits.experiments.duels.environments import has_population  # noqa: E402
from cdbandits.experiments.duels.settings import DuelsSweep  # noqa: E402

DUELS = config["duels"]
DUELS_SWEEP = CONFIG.duels
DUELS_ENVIRONMENT_NAMES = [environment.name for environment in DUELS_SWEEP.environments]
# The contextual populations, whose exact winner rule solve_duels_winner solves once.
DUELS_POPULATION_NAMES = [
    environment.name for environment in DUELS_SWEEP.environments if has_population(environment)
]
DUELS_ENTRIES = {entry["name"]: entry for entry in DUELS["environments"]}
# The keys of the sweep (the shards and the summaries), not the shards' runtime.
DUELS_SWEEP_PARAMS = config_keys(DUELS, DuelsSweep)
# The code each job runs (a rule reruns when it changes, and only then).
DUELS_LIBRARY = {
    room: library(f"experiments.duels.{room}", "files", "workflow.jobs")
    for room in ("environments", "experiments", "tables", "published", "readme", "figures")
}
DUELS_LIBRARY["timings"] = library(
    "experiments.duels.tables", "experiments.duels.figures", "files", "workflow.jobs"
)


# Files of the workflow an environment reads besides its data (an online mslr environment's
# per-query matrices, made by the letor rules).
DUELS_ENVIRONMENT_FILES = {
    environment.name: list(environment.files) for environment in DUELS_SWEEP.environments
}


def duels_environment_data(wildcards):
    """The fetched data files an environment is built from, in its config order."""
    return [data_path(key) for key in DUELS_ENTRIES[wildcards.environment].get("data", [])]


def duels_environment_files(wildcards):
    """The workflow's files an environment reads besides its data (none for most)."""
    return DUELS_ENVIRONMENT_FILES[wildcards.environment]


def duels_environment_winner(wildcards):
    """The stored exact winner of a contextual population (none for other environments)."""
    if wildcards.environment not in DUELS_POPULATION_NAMES:
        return []
    return expand(rules.solve_duels_winner.output.winner, environment=wildcards.environment)
