# Helpers of workflow/rules/real_data.smk (kept apart from the rules, as the linter asks): the
# parameters of each job, the data files each job reads (fetched by data.smk from their
# pinned sources, or the mirror) and the library sources.
from cdbandits.experiments.real_data.contexts import ANALYSES as REAL_DATA_ANALYSES  # noqa: E402
from cdbandits.experiments.real_data.settings import (  # noqa: E402
    DATASETS as REAL_DATA_DATASETS,
    TREC_DL_QRELS,
    SourceSettings,
)
from cdbandits.experiments.real_data.sources import (  # noqa: E402
    ARXIV_KEY,
    PREFLIB_COLLECTIONS,
    TREC_DL_JUDGMENTS_KEY,
    atp_key,
    preflib_keys,
)

REAL_DATA = CONFIG.real_data
# Each job's keys: an analysis's section with the family's interval keys and the seed.
_REAL_DATA_RAW = config["real_data"]
_REAL_DATA_SHARED = {"confidence": _REAL_DATA_RAW["confidence"], "seed": config["seed"]}
REAL_DATA_SOURCE_PARAMS = config_keys(_REAL_DATA_RAW, SourceSettings)
REAL_DATA_SUBSET_PARAMS = {
    **_REAL_DATA_RAW["subsets"], **_REAL_DATA_SHARED, "interval": _REAL_DATA_RAW["interval"]
}
REAL_DATA_CONTEXT_PARAMS = {**_REAL_DATA_RAW["contexts"], **_REAL_DATA_SHARED}
REAL_DATA_TREC_DL_PARAMS = {**_REAL_DATA_RAW["trec_dl"], **_REAL_DATA_SHARED}
REAL_DATA_COVERAGE_PARAMS = {**_REAL_DATA_RAW["coverage"], **_REAL_DATA_SHARED}
REAL_DATA_EXAMPLE_PARAMS = {**_REAL_DATA_RAW["examples"], "seed": config["seed"]}
REAL_DATASETS = list(REAL_DATA.datasets)
REAL_DATA_CASES = list(REAL_DATA.coverage.cases)
REAL_DATA_SHARDS = range(REAL_DATA.coverage.shards)


def atp_data(seasons):
    """The ATP results files of these seasons."""
    return [data_path(atp_key(season)) for season in seasons]


def period_data(*periods):
    """The ATP results files of the named periods of real_data.atp_periods."""
    return atp_data(sorted({s for name in periods for s in REAL_DATA.period_seasons(name)}))


def real_dataset_data(wildcards):
    """The data files of one data set of the subset statistics."""
    dataset = wildcards.dataset
    if dataset == "atp":
        return period_data(*REAL_DATA.atp_periods)
    if dataset in PREFLIB_COLLECTIONS:
        keys = preflib_keys(dataset, REAL_DATA.max_elections)
        return [data_path(key) for key in keys]
    if dataset == "trec_dl":
        return [data_path(TREC_DL_JUDGMENTS_KEY)]
    return [data_path(ARXIV_KEY)]


def context_data(wildcards):
    """The ATP results files of one context analysis."""
    contexts = REAL_DATA.contexts
    if wildcards.analysis == "surface":
        first, last = contexts.surface_seasons
        return atp_data(range(first, last + 1))
    return period_data(*contexts.periods)


def coverage_data(wildcards):
    """The real log a coverage case takes its size from."""
    if wildcards.case == "atp":
        return period_data(REAL_DATA.examples.atp_period)
    return [data_path(TREC_DL_JUDGMENTS_KEY)]


REAL_DATA_QRELS = {
    name: data_path(TREC_DL_QRELS[name]) for name in REAL_DATA.trec_dl.qrels
}
# The code each job runs (a rule reruns when it changes, and only then).
REAL_DATA_LIBRARY = {
    room: library(f"experiments.real_data.{room}", "files", "workflow.jobs")
    for room in (
        "experiments",
        "tables",
        "contexts",
        "trec_dl",
        "coverage",
        "examples",
        "figures",
        "readme",
    )
}
REAL_DATA_LIBRARY["examples"] += library("cli")
# The plotting and README scripts read the stacked tables with the tables module.
for _room in ("figures", "readme"):
    REAL_DATA_LIBRARY[_room] += library("experiments.real_data.tables")
