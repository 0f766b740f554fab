# Preference matrices regenerated from learning-to-rank data: the MSLR sample (or,
# opt-in, a fold of MSLR-WEB10K/WEB30K) is read, every feature ranker is compared with
# every other by Probabilistic Interleave under simulated cascade clicks, and the aggregate
# matrix (results/letor/matrices/<dataset>_<click model>.npz, key PMat, probability form:
# usable as appendix.matrices.<model>), per-query matrices of K rankers with the query
# contexts (results/letor/per_query/) and a comparison with the published matrix
# (results/letor/validation/, figures/letor_validation_*) are built. Run them alone with
# `snakemake letor`.


include: "letor_common.smk"


LETOR_CATEGORY = "Matrices from learning-to-rank data"


rule unpack_letor_fold:
    input:
        archive=lambda wildcards: data_path(LETOR_ARCHIVES[wildcards.dataset]),
        library=library("datasets", "files", "workflow.jobs"),
    output:
        text=temp("results/letor/raw/{dataset}/{fold}/{part}.txt"),
    wildcard_constraints:
        dataset="web10k|web30k",
        part="train|vali|test",
    log:
        "results/logs/unpack_letor_fold/{dataset}/{fold}/{part}.log",
    threads: 1
    resources:
        mem_mb=500,
        runtime=20,
    conda:
        CONDA_ENV
    script:
        "../scripts/unpack_letor_fold.py"


rule read_letor_dataset:
    input:
        files=letor_files,
        library=library("letor", "files", "workflow.jobs"),
    output:
        data="results/letor/data/{dataset}.npz",
        summary=report(
            "results/letor/data/{dataset}.json",
            caption="../report/letor/data_summary.rst",
            category=LETOR_CATEGORY,
            subcategory="Data read",
        ),
    params:
        n_features=LETOR["n_features"],
        last_query=letor_last_query,
    wildcard_constraints:
        dataset=LETOR_DATASET_PATTERN,
    log:
        "results/logs/read_letor_dataset/{dataset}.log",
    threads: 1
    resources:
        mem_mb=letor_memory_mb,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        "../scripts/read_letor_dataset.py"


rule build_letor_matrix:
    input:
        data="results/letor/data/{dataset}.npz",
        library=library("letor", "preference", "files", "workflow.jobs"),
    output:
        matrix=report(
            "results/letor/matrices/{dataset}_{click_model}.npz",
            caption="../report/letor/matrix.rst",
            category=LETOR_CATEGORY,
            subcategory="Aggregate matrices",
        ),
        summary=report(
            "results/letor/matrices/{dataset}_{click_model}.json",
            caption="../report/letor/matrix.rst",
            category=LETOR_CATEGORY,
            subcategory="Aggregate matrices",
        ),
    params:
        seed=config["seed"],
        rankers=LETOR["rankers"],
        comparisons_per_pair=LETOR["comparisons_per_pair"],
        custom_click_models=LETOR["custom_click_models"],
        method=LETOR["method"],
        credit_ties=LETOR["credit_ties"],
        tau=LETOR["tau"],
        list_length=LETOR["list_length"],
        settings=LETOR_SIMULATION
        | {"rankers": LETOR["rankers"], "comparisons_per_pair": LETOR["comparisons_per_pair"]},
    wildcard_constraints:
        dataset=LETOR_DATASET_PATTERN,
        click_model=LETOR_MODEL_PATTERN,
    benchmark:
        "results/benchmarks/build_letor_matrix/{dataset}_{click_model}.tsv"
    log:
        "results/logs/build_letor_matrix/{dataset}_{click_model}.log",
    threads: LETOR["threads"]
    resources:
        mem_mb=letor_memory_mb,
        runtime=letor_runtime(LETOR["comparisons_per_pair"], letor_pairs),
    conda:
        CONDA_ENV
    script:
        "../scripts/build_letor_matrix.py"


rule build_letor_per_query:
    input:
        data="results/letor/data/{dataset}.npz",
        library=library("letor", "preference", "files", "workflow.jobs"),
    output:
        matrices="results/letor/per_query/{dataset}_{click_model}.npz",
        summary=report(
            "results/letor/per_query/{dataset}_{click_model}.json",
            caption="../report/letor/per_query.rst",
            category=LETOR_CATEGORY,
            subcategory="Per-query matrices",
        ),
    params:
        seed=config["seed"],
        rankers=LETOR["per_query"]["rankers"],
        comparisons_per_pair=LETOR["per_query"]["comparisons_per_pair"],
        custom_click_models=LETOR["custom_click_models"],
        method=LETOR["method"],
        credit_ties=LETOR["credit_ties"],
        tau=LETOR["tau"],
        list_length=LETOR["list_length"],
        settings=LETOR_SIMULATION | LETOR["per_query"],
    wildcard_constraints:
        dataset=LETOR_DATASET_PATTERN,
        click_model=LETOR_MODEL_PATTERN,
    benchmark:
        "results/benchmarks/build_letor_per_query/{dataset}_{click_model}.tsv"
    log:
        "results/logs/build_letor_per_query/{dataset}_{click_model}.log",
    threads: LETOR["threads"]
    resources:
        mem_mb=letor_memory_mb,
        runtime=letor_runtime(LETOR["per_query"]["comparisons_per_pair"], letor_per_query_tasks),
    conda:
        CONDA_ENV
    script:
        "../scripts/build_letor_per_query.py"


rule validate_letor_matrix:
    input:
        built="results/letor/matrices/{dataset}_{click_model}.npz",
        data_summary="results/letor/data/{dataset}.json",
        published=lambda wildcards: data_path(f"mslr_{wildcards.click_model}"),
        library=library("letor", "matrix_io", "preference", "winners", "files", "workflow.jobs"),
    output:
        table=report(
            "results/letor/validation/{dataset}_{click_model}.csv",
            caption="../report/letor/validation_table.rst",
            category=LETOR_CATEGORY,
            subcategory="Validation against the published matrices",
        ),
        summary=report(
            "results/letor/validation/{dataset}_{click_model}.json",
            caption="../report/letor/validation_table.rst",
            category=LETOR_CATEGORY,
            subcategory="Validation against the published matrices",
        ),
        markdown="results/letor/validation/{dataset}_{click_model}.md",
        figure=report_figure(
            figure_paths("letor/validation", "{dataset}_{click_model}"),
            caption="../report/letor/validation_figure.rst",
            category=LETOR_CATEGORY,
            subcategory="Validation against the published matrices",
        ),
    params:
        separation=LETOR["validation"]["separation"],
        published=lambda wildcards: f"mslr_{wildcards.click_model}",
    wildcard_constraints:
        dataset=LETOR_DATASET_PATTERN,
        click_model="perfect|navigational|informational",
    log:
        "results/logs/validate_letor_matrix/{dataset}_{click_model}.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/validate_letor_matrix.py"


rule execute_letor_notebook:
    input:
        notebook=str(NOTEBOOKS / "mslr_pipeline_validation.ipynb"),
        data_summaries=expand(rules.read_letor_dataset.output.summary, dataset=LETOR["datasets"]),
        matrices=expand(
            rules.build_letor_matrix.output.matrix,
            dataset=LETOR["datasets"],
            click_model=LETOR["click_models"],
        ),
        matrix_summaries=expand(
            rules.build_letor_matrix.output.summary,
            dataset=LETOR["datasets"],
            click_model=LETOR["click_models"],
        ),
        per_query=expand(
            rules.build_letor_per_query.output.matrices,
            dataset=LETOR["datasets"],
            click_model=LETOR["per_query"]["click_models"],
        ),
        per_query_summaries=expand(
            rules.build_letor_per_query.output.summary,
            dataset=LETOR["datasets"],
            click_model=LETOR["per_query"]["click_models"],
        ),
        validation_tables=expand(
            rules.validate_letor_matrix.output.table,
            dataset=LETOR["datasets"],
            click_model=LETOR["validation"]["click_models"],
        ),
        validation_summaries=expand(
            rules.validate_letor_matrix.output.summary,
            dataset=LETOR["datasets"],
            click_model=LETOR["validation"]["click_models"],
        ),
        validation_figures=expand(
            rules.validate_letor_matrix.output.figure[0],
            dataset=LETOR["datasets"],
            click_model=LETOR["validation"]["click_models"],
        ),
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


rule letor:
    input:
        letor_outputs(),
        rules.execute_letor_notebook.output,
