# Helpers of workflow/rules/online.smk (kept apart from the rules, as the linter asks): the
# parameters of each job, the optional MSLR per-query matrices and the library sources.
from cdbandits.experiments.online.figures import FIGURE_NAMES as ONLINE_FIGURE_NAMES  # noqa: E402
from cdbandits.experiments.online.settings import ExactWinnerSettings, OnlineSweep  # noqa: E402
from cdbandits.experiments.online.tables import ONLINE_TABLES  # noqa: E402

ONLINE = CONFIG.online
ONLINE_SWEEP_PARAMS = config_keys(config["online"], OnlineSweep)
ONLINE_WINNER_PARAMS = config_keys(config["online"], ExactWinnerSettings)
ONLINE_MSLR = [ONLINE.mslr.matrices] if ONLINE.mslr.matrices else []
# The code each job runs (a rule reruns when it changes, and only then).
ONLINE_LIBRARY = {
    room: library(f"experiments.online.{room}", "files", "workflow.jobs")
    for room in ("experiments", "tables", "figures")
}
