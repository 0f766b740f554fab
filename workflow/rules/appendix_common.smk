# Helpers of workflow/rules/appendix.smk (kept apart from the rules, as the linter asks):
# the appendix's config checks, matrix sources, settings and output paths.
from cdbandits.appendix_plots import FIGURE_NAMES as APPENDIX_FIGURE_NAMES  # noqa: E402

APPENDIX = config["appendix"]
APPENDIX_MODELS = APPENDIX["click_models"]
APPENDIX_MODEL_PATTERN = "|".join(APPENDIX_MODELS)
APPENDIX_TABLES = ["per_k", "support_size", "max_copeland_loss"]

if APPENDIX["paper_click_model"] not in APPENDIX_MODELS:
    raise ValueError(
        f"appendix.paper_click_model {APPENDIX['paper_click_model']!r} is not among "
        f"appendix.click_models {APPENDIX_MODELS}"
    )
for _model in APPENDIX_MODELS:
    if _model not in APPENDIX["matrices"]:
        raise ValueError(
            f"appendix.click_models lists {_model!r} but appendix.matrices gives no matrix "
            f"for it (known: {sorted(APPENDIX['matrices'])})"
        )


def appendix_matrix(wildcards):
    """The matrix file of a click model: a fetched data file or a path (e.g. a built matrix)."""
    source = APPENDIX["matrices"][wildcards.click_model]
    return data_path(source) if source in DATA_FILES else source


# The settings that determine which matrices are sampled, how they are solved and counted.
APPENDIX_SAMPLING = {
    "ks": APPENDIX["ks"],
    "samples_per_k": APPENDIX["samples_per_k"],
    "shards": APPENDIX["shards"],
    "copeland_variant": APPENDIX["copeland_variant"],
    "max_restricted": APPENDIX["max_restricted"],
    "solver": APPENDIX["solver"],
    "seed": config["seed"],
}


def appendix_outputs():
    """Everything the appendix builds (for the default target)."""
    return [
        *expand(
            "results/appendix/{click_model}/{table}.csv",
            click_model=APPENDIX_MODELS,
            table=APPENDIX_TABLES,
        ),
        *expand("results/appendix/{click_model}/counts.json", click_model=APPENDIX_MODELS),
        *expand(
            "results/appendix/{click_model}/verification.{ext}",
            click_model=APPENDIX_MODELS,
            ext=["csv", "json"],
        ),
        "results/appendix/claims.csv",
        "results/appendix/claims.md",
        "results/appendix/claims.json",
        *[path for name in APPENDIX_FIGURE_NAMES for path in figure_paths("appendix/figures", name)],
    ]
