# Helpers of workflow/rules/appendix.smk (kept apart from the rules, as the linter asks):
# the appendix's settings, parsed and checked once when the workflow starts, the matrix
# source of each click model, and the config keys each rule passes to its job.
import re  # noqa: E402

from cdbandits.experiments.appendix.figures import FIGURE_NAMES as APPENDIX_FIGURE_NAMES  # noqa: E402
from cdbandits.experiments.appendix.settings import (  # noqa: E402
    MSLR_RANKERS,
    PUBLISHED_MATRIX_ARMS,
    AppendixSettings,
    SettingsError,
)
from cdbandits.matrix_io import load_matrix  # noqa: E402


def appendix_matrix_arms(source):
    """Arms of a matrix source when known before any job runs, else None."""
    if source in PUBLISHED_MATRIX_ARMS:
        return PUBLISHED_MATRIX_ARMS[source]
    if re.fullmatch(r"results/letor/matrices/[a-z0-9]+_[a-z0-9_]+\.npz", source):
        rankers = config["letor"]["rankers"]
        return MSLR_RANKERS if rankers is None else len(rankers)
    if Path(source).is_file():
        try:
            return load_matrix(source).shape[0]
        except (ValueError, OSError):
            return None  # the job that reads it reports what is wrong with the file
    return None


try:
    APPENDIX_SETTINGS = AppendixSettings.from_config(
        config["appendix"],
        config["seed"],
        matrix_arms={
            model: appendix_matrix_arms(source)
            for model, source in config["appendix"]["matrices"].items()
            if model in config["appendix"]["click_models"]
        },
    )
except SettingsError as error:
    sys.exit(f"Config error: {error}")

APPENDIX_MODELS = list(APPENDIX_SETTINGS.click_models)
APPENDIX_MODEL_PATTERN = "|".join(APPENDIX_MODELS)
APPENDIX_PAPER_MODEL = APPENDIX_SETTINGS.paper_click_model

# The config keys each job needs (params pass only these, so a change to another key does
# not rerun the job).
APPENDIX_SAMPLING = APPENDIX_SETTINGS.sampling.to_config()
APPENDIX_COUNTING = APPENDIX_SETTINGS.counting.to_config()
APPENDIX_SOLVER = APPENDIX_SETTINGS.solver.to_config()
APPENDIX_INTERVALS = APPENDIX_SETTINGS.intervals.to_config()
APPENDIX_VERIFICATION = APPENDIX_SETTINGS.verification.to_config()


def appendix_matrix(wildcards):
    """The matrix file of a click model: a fetched data file or a path (e.g. a built matrix)."""
    source = APPENDIX_SETTINGS.matrices[wildcards.click_model]
    return data_path(source) if source in DATA_FILES else source
