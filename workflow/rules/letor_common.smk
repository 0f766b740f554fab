# Helpers of workflow/rules/letor.smk (kept apart from the rules, as the linter asks): the
# LETOR section of the config, input files and output paths.
LETOR = config["letor"]
LETOR_ARCHIVES = {"web10k": "mslr_web10k", "web30k": "mslr_web30k"}
LETOR_DATASET_PATTERN = "sample|web10k|web30k"
LETOR_MODEL_PATTERN = "[a-z][a-z0-9_]*"

# The settings that determine a simulated matrix (recorded in its summary).
LETOR_SIMULATION = {
    "method": LETOR["method"],
    "credit_ties": LETOR["credit_ties"],
    "tau": LETOR["tau"],
    "list_length": LETOR["list_length"],
    "custom_click_models": LETOR["custom_click_models"],
}


def letor_files(wildcards):
    """The LETOR text files of a dataset: the sample's two files or the chosen fold's parts."""
    if wildcards.dataset == "sample":
        return [data_path("mslr_sample_train"), data_path("mslr_sample_test")]
    return [
        f"results/letor/raw/{wildcards.dataset}/{LETOR['fold']}/{part}.txt"
        for part in LETOR["parts"]
    ]


def letor_last_query(wildcards):
    """The sample files are excerpts whose last query is cut; full folds are complete."""
    return LETOR["sample_last_query"] if wildcards.dataset == "sample" else "complete"


def letor_memory_mb(wildcards):
    """Features (float64) plus four int16 ranking tables per document, with headroom."""
    return {"sample": 2000, "web10k": 8000, "web30k": 16000}[wildcards.dataset]


def letor_runtime(comparisons_per_pair, tasks):
    """Minutes for a simulation at a conservative 2e5 comparisons per second, plus margin."""

    def runtime(wildcards):
        return 10 + int(tasks(wildcards) * comparisons_per_pair / 2e5 / 60)

    return runtime


def letor_pairs(wildcards):
    """Ranker pairs of the aggregate matrix."""
    n_rankers = 136 if LETOR["rankers"] is None else len(LETOR["rankers"])
    return n_rankers * (n_rankers - 1) // 2


def letor_per_query_tasks(wildcards):
    """Query-pair tasks of the per-query rule (all queries of a dataset, for the estimate)."""
    n_rankers = len(LETOR["per_query"]["rankers"])
    queries = {"sample": 86, "web10k": 10_000, "web30k": 31_531}[wildcards.dataset]
    return queries * n_rankers * (n_rankers - 1) // 2


def letor_outputs():
    """Everything the LETOR rules build for the configured datasets and click models."""
    datasets = LETOR["datasets"]
    validation = LETOR["validation"]["click_models"]
    return [
        *expand("results/letor/data/{dataset}.json", dataset=datasets),
        *expand(
            "results/letor/matrices/{dataset}_{click_model}.{ext}",
            dataset=datasets,
            click_model=LETOR["click_models"],
            ext=["npz", "json"],
        ),
        *expand(
            "results/letor/per_query/{dataset}_{click_model}.{ext}",
            dataset=datasets,
            click_model=LETOR["per_query"]["click_models"],
            ext=["npz", "json"],
        ),
        *expand(
            "results/letor/validation/{dataset}_{click_model}.{ext}",
            dataset=datasets,
            click_model=validation,
            ext=["csv", "json"],
        ),
        *[
            path
            for dataset in datasets
            for click_model in validation
            for path in figure_paths("letor/validation", f"{dataset}_{click_model}")
        ],
    ]
