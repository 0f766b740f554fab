# The result notebooks, executed headless on the workflow's outputs, and the description
# of the Snakemake report (envs/venv.sh snakemake --report results/report.html).
#
# One rule per notebook under notebooks/ (the oracle notebook's is in oracle.smk), all running
# workflow/scripts/execute_notebook.py.
# A rule's named inputs, except `notebook` and `library`, and its params are the notebook's
# parameters: they must match the names of the notebook's cell tagged "parameters" exactly
# (cdbandits.workflow.notebooks checks). Outputs: the executed copy and its HTML rendering, which is
# part of the report; both are final outputs (notebook_outputs in common.smk).

report: "../report/workflow.rst"


import mimetypes  # noqa: E402

# The report attaches the built matrices (.npz) as downloads: name their type, which
# Python's table lacks (the report would log a warning and call them text/plain).
mimetypes.add_type("application/octet-stream", ".npz")

NOTEBOOKS = Path(workflow.basedir) / "notebooks"
NOTEBOOK_CATEGORY = "Notebooks"


rule execute_examples_notebook:
    input:
        notebook=str(NOTEBOOKS / "examples_and_full_matrices.ipynb"),
        five_arm="results/examples/five_arm.csv",
        clone_copeland="results/examples/clone_copeland.csv",
        examples_summary="results/examples/examples.json",
        winners_table="results/winners/full_matrices.csv",
        winners_details="results/winners/full_matrices.json",
        matrices=[data_path(key) for key in config["winners"]["matrices"]],
        library=library(
            "workflow.notebooks", "paper_examples", "winners", "preference", "matrix_io", "files", "workflow.jobs"
        ),
    output:
        notebook="results/notebooks/examples_and_full_matrices.ipynb",
        html=report(
            "results/notebooks/examples_and_full_matrices.html",
            caption="../report/notebooks/examples_and_full_matrices.rst",
            category=NOTEBOOK_CATEGORY,
        ),
    params:
        matrix_names=config["winners"]["matrices"],
    log:
        "results/logs/notebooks/examples_and_full_matrices.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    conda:
        CONDA_ENV
    script:
        "../scripts/execute_notebook.py"


rule execute_appendix_notebook:
    input:
        notebook=str(NOTEBOOKS / "appendix_statistics.ipynb"),
        per_k=expand("results/appendix/{click_model}/per_k.csv", click_model=APPENDIX_MODELS),
        support_size=expand(
            "results/appendix/{click_model}/support_size.csv", click_model=APPENDIX_MODELS
        ),
        max_copeland_loss=expand(
            "results/appendix/{click_model}/max_copeland_loss.csv", click_model=APPENDIX_MODELS
        ),
        verification=expand(
            "results/appendix/{click_model}/verification.json", click_model=APPENDIX_MODELS
        ),
        claims="results/appendix/claims.csv",
        figures=[figure_paths("appendix/figures", name)[0] for name in APPENDIX_FIGURE_NAMES],
        library=library("workflow.notebooks", "files", "workflow.jobs"),
    output:
        notebook="results/notebooks/appendix_statistics.ipynb",
        html=report(
            "results/notebooks/appendix_statistics.html",
            caption="../report/notebooks/appendix_statistics.rst",
            category=NOTEBOOK_CATEGORY,
        ),
    params:
        click_models=APPENDIX_MODELS,
        paper_click_model=APPENDIX["paper_click_model"],
    log:
        "results/logs/notebooks/appendix_statistics.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    conda:
        CONDA_ENV
    script:
        "../scripts/execute_notebook.py"


rule execute_letor_notebook:
    input:
        notebook=str(NOTEBOOKS / "mslr_pipeline_validation.ipynb"),
        data_summaries=expand("results/letor/data/{dataset}.json", dataset=LETOR["datasets"]),
        matrices=expand(
            "results/letor/matrices/{dataset}_{click_model}.npz",
            dataset=LETOR["datasets"],
            click_model=LETOR["click_models"],
        ),
        matrix_summaries=expand(
            "results/letor/matrices/{dataset}_{click_model}.json",
            dataset=LETOR["datasets"],
            click_model=LETOR["click_models"],
        ),
        per_query=expand(
            "results/letor/per_query/{dataset}_{click_model}.npz",
            dataset=LETOR["datasets"],
            click_model=LETOR["per_query"]["click_models"],
        ),
        per_query_summaries=expand(
            "results/letor/per_query/{dataset}_{click_model}.json",
            dataset=LETOR["datasets"],
            click_model=LETOR["per_query"]["click_models"],
        ),
        validation_tables=expand(
            "results/letor/validation/{dataset}_{click_model}.csv",
            dataset=LETOR["datasets"],
            click_model=LETOR["validation"]["click_models"],
        ),
        validation_summaries=expand(
            "results/letor/validation/{dataset}_{click_model}.json",
            dataset=LETOR["datasets"],
            click_model=LETOR["validation"]["click_models"],
        ),
        validation_figures=[
            figure_paths("letor/validation", f"{dataset}_{click_model}")[0]
            for dataset in LETOR["datasets"]
            for click_model in LETOR["validation"]["click_models"]
        ],
        library=library("workflow.notebooks", "files", "workflow.jobs"),
    output:
        notebook="results/notebooks/mslr_pipeline_validation.ipynb",
        html=report(
            "results/notebooks/mslr_pipeline_validation.html",
            caption="../report/notebooks/mslr_pipeline_validation.rst",
            category=NOTEBOOK_CATEGORY,
        ),
    log:
        "results/logs/notebooks/mslr_pipeline_validation.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    conda:
        CONDA_ENV
    script:
        "../scripts/execute_notebook.py"


rule execute_online_notebook:
    input:
        notebook=str(NOTEBOOKS / "online_regret.ipynb"),
        regret="results/online/regret.csv",
        slopes="results/online/slopes.csv",
        coverage="results/online/coverage.csv",
        online_to_batch="results/online/online_to_batch.csv",
        exact_winners="results/online/exact_winners.csv",
        summary="results/online/summary.json",
        figures=[figure_paths("online/figures", name)[0] for name in ONLINE_FIGURE_NAMES],
        library=library("workflow.notebooks", "files", "workflow.jobs"),
    output:
        notebook="results/notebooks/online_regret.ipynb",
        html=report(
            "results/notebooks/online_regret.html",
            caption="../report/notebooks/online_regret.rst",
            category=NOTEBOOK_CATEGORY,
        ),
    log:
        "results/logs/notebooks/online_regret.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    conda:
        CONDA_ENV
    script:
        "../scripts/execute_notebook.py"


# The README's figures, copied to figures/ (tracked) only by a run of the default config
# (final_outputs in common.smk). The oracle scaling figure is left out: it plots timings,
# which differ from run to run.
README_FIGURES = [
    *(path for name in rules.plot_appendix_figures.output.keys() for path in rules.plot_appendix_figures.output[name]),
    *(path for name in rules.plot_online_figures.output.keys() for path in rules.plot_online_figures.output[name]),
    *(
        path
        for name in rules.plot_oracle_figures.output.keys()
        if name != "scaling"
        for path in rules.plot_oracle_figures.output[name]
    ),
    *expand(
        rules.validate_letor_matrix.output.figure,
        dataset=["sample"],
        click_model=["informational"],
    ),
]


rule publish_figures:
    input:
        figures=README_FIGURES,
    output:
        figures=[published_name(path) for path in README_FIGURES],
    log:
        "results/logs/publish_figures.log",
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    conda:
        CONDA_ENV
    script:
        "../scripts/publish_figures.py"
