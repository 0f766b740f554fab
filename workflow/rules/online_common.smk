# Helpers of workflow/rules/online.smk (kept apart from the rules, as the linter asks): the
# online config parsed and checked once, the parameters of each job, the optional MSLR
# per-query matrices and the library sources.
from cdbandits.experiments.online.figures import FIGURE_NAMES as ONLINE_FIGURE_NAMES  # noqa: E402
from cdbandits.experiments.online.settings import (  # noqa: E402
    ONLINE_TABLES,
    ExactWinnerSettings,
    OnlineSettings,
    OnlineSweep,
)

ONLINE = config["online"]
# A value the schema allows but the code rejects fails here, before any job runs.
try:
    ONLINE_SETTINGS = OnlineSettings.from_config(ONLINE)
except ValueError as _error:
    raise ConfigError(f"config key {_error}") from None


def online_params(keys):
    """The keys of the online section a job reads (changing another does not rerun it)."""
    return {key: ONLINE[key] for key in keys}


ONLINE_SWEEP_PARAMS = online_params(OnlineSweep.CONFIG_KEYS)
ONLINE_WINNER_PARAMS = online_params(ExactWinnerSettings.CONFIG_KEYS)
ONLINE_MSLR = [ONLINE_SETTINGS.mslr_matrices] if ONLINE_SETTINGS.mslr_matrices else []
# The code each job runs (a rule reruns when it changes, and only then).
ONLINE_LIBRARY = {
    room: library(f"experiments.online.{room}", "files", "workflow.jobs")
    for room in ("experiments", "tables", "figures")
}
