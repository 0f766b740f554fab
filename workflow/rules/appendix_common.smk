# Helpers of workflow/rules/appendix.smk (kept apart from the rules, as the linter asks):
# the sizes K checked against the matrices known when the workflow starts, the matrix
# source of each click model, and the config keys each rule passes to its job.
import re  # noqa: E402

from cdbandits.experiments.appendix.figures import FIGURE_NAMES as APPENDIX_FIGURE_NAMES  # noqa: E402
from cdbandits.experiments.appendix.settings import (  # noqa: E402
    MSLR_RANKERS,
    PUBLISHED_MATRIX_ARMS,
    CountingSettings,
    IntervalSettings,
    SamplingSettings,
    SolverSettings,
    VerificationSettings,
)
from cdbandits.matrix_io import load_matrix  # noqa: E402


def appendix_matrix_arms(source):
    """Arms of a matrix source when known before any job runs, else None."""
    if source in PUBLISHED_MATRIX_ARMS:
        return PUBLISHED_MATRIX_ARMS[source]
    if re.fullmatch(r"results/letor/matrices/[a-z0-9]+_[a-z0-9_]+\.npz", source):
        rankers = CONFIG.letor.rankers
        return MSLR_RANKERS if rankers is None else len(rankers)
    if Path(source).is_file():
        try:
            return load_matrix(source).shape[0]
        except (ValueError, OSError):
            return None  # the job that reads it reports what is wrong with the file
    return None


APPENDIX = CONFIG.appendix
try:
    APPENDIX.check_matrix_arms(
        {model: appendix_matrix_arms(source) for model, source in APPENDIX.matrices.items()}
    )
except ConfigError as error:
    sys.exit(f"config key {error}")

APPENDIX_MODELS = list(APPENDIX.click_models)
APPENDIX_MODEL_PATTERN = "|".join(APPENDIX_MODELS)
APPENDIX_PAPER_MODEL = APPENDIX.paper_click_model

# The config keys each job needs (params pass only these, so a change to another key does
# not rerun the job).
APPENDIX_SAMPLING = config_keys(config["appendix"], SamplingSettings)
APPENDIX_COUNTING = config_keys(config["appendix"], CountingSettings)
APPENDIX_SOLVER = config_keys(config["appendix"], SolverSettings)
APPENDIX_INTERVALS = config_keys(config["appendix"], IntervalSettings)
APPENDIX_VERIFICATION = config_keys(config["appendix"], VerificationSettings)


def appendix_matrix(wildcards):
    """The matrix file of a click model: a fetched data file or a path (e.g. a built matrix)."""
    source = APPENDIX.matrices[wildcards.click_model]
    return data_path(source) if source in DATA_FILES else source
