# Real preference data. The appendix statistics on every real data set
# (ATP per period, PrefLib sports elections, TREC-DL per topic, the arXiv matrix), whether
# context matters (ATP by surface and by period), the TREC-DL winners against the
# published best passages, the coverage of the intervals at real sizes, the README's
# worked examples of `cdbandits winners --pairs`, the figures, the README paragraph and
# the notebook. Data come from data.smk (pinned sources, checksums, mirror). Target:
# `real_data`.


include: "real_data_common.smk"


REAL_DATA_CATEGORY = "Real preference data"


rule count_real_data_subsets:
    input:
        data=real_dataset_data,
        library=REAL_DATA_LIBRARY["experiments"],
    output:
        matrices="results/real_data/{dataset}/matrices.csv",
        counts="results/real_data/{dataset}/counts.json",
        warnings="results/real_data/{dataset}/warnings.txt",
    params:
        sources=REAL_DATA_SOURCE_PARAMS,
        subsets=REAL_DATA_SUBSET_PARAMS,
    wildcard_constraints:
        dataset="|".join(REAL_DATA_DATASETS),
    log:
        "results/logs/count_real_data_subsets/{dataset}.log",
    benchmark:
        "results/benchmarks/count_real_data_subsets/{dataset}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        "../scripts/count_real_data_subsets.py"


rule summarise_real_data_dataset:
    input:
        matrices=rules.count_real_data_subsets.output.matrices,
        counts=rules.count_real_data_subsets.output.counts,
        library=REAL_DATA_LIBRARY["tables"],
    output:
        per_k=report(
            "results/real_data/{dataset}/per_k.csv",
            caption="../report/real_data/per_k.rst",
            category=REAL_DATA_CATEGORY,
            subcategory="Tables",
        ),
        support_size="results/real_data/{dataset}/support_size.csv",
        claims=report(
            "results/real_data/{dataset}/claims.csv",
            caption="../report/real_data/claims.rst",
            category=REAL_DATA_CATEGORY,
            subcategory="Tables",
        ),
    params:
        subsets=REAL_DATA_SUBSET_PARAMS,
    wildcard_constraints:
        dataset="|".join(REAL_DATA_DATASETS),
    log:
        "results/logs/summarise_real_data_dataset/{dataset}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/summarise_real_data_dataset.py"


rule tabulate_real_data_claims:
    input:
        matrices=expand(rules.count_real_data_subsets.output.matrices, dataset=REAL_DATASETS),
        per_k=expand(rules.summarise_real_data_dataset.output.per_k, dataset=REAL_DATASETS),
        claims=expand(rules.summarise_real_data_dataset.output.claims, dataset=REAL_DATASETS),
        library=REAL_DATA_LIBRARY["tables"],
    output:
        table="results/real_data/cross_dataset.csv",
        markdown=report(
            "results/real_data/cross_dataset.md",
            caption="../report/real_data/cross_dataset.rst",
            category=REAL_DATA_CATEGORY,
            subcategory="Tables",
        ),
        overview=report(
            "results/real_data/overview.csv",
            caption="../report/real_data/overview.rst",
            category=REAL_DATA_CATEGORY,
            subcategory="Tables",
        ),
    log:
        "results/logs/tabulate_real_data_claims.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/tabulate_real_data_claims.py"


rule measure_real_data_contexts:
    input:
        data=context_data,
        library=REAL_DATA_LIBRARY["contexts"],
    output:
        gain="results/real_data/contexts/{analysis}/gain.csv",
        exploitability="results/real_data/contexts/{analysis}/exploitability.csv",
        lotteries="results/real_data/contexts/{analysis}/lotteries.csv",
        draws="results/real_data/contexts/{analysis}/draws.csv",
    params:
        contexts=REAL_DATA_CONTEXT_PARAMS,
        atp_periods=REAL_DATA_SOURCE_PARAMS["atp_periods"],
    wildcard_constraints:
        analysis="|".join(REAL_DATA_ANALYSES),
    log:
        "results/logs/measure_real_data_contexts/{analysis}.log",
    benchmark:
        "results/benchmarks/measure_real_data_contexts/{analysis}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        "../scripts/measure_real_data_contexts.py"


rule compare_real_data_trec_dl:
    input:
        judgments=data_path(TREC_DL_JUDGMENTS_KEY),
        **REAL_DATA_QRELS,
        library=REAL_DATA_LIBRARY["trec_dl"],
    output:
        topics=report(
            "results/real_data/trec_dl_qrels/topics.csv",
            caption="../report/real_data/trec_dl_topics.rst",
            category=REAL_DATA_CATEGORY,
            subcategory="Tables",
        ),
        agreement=report(
            "results/real_data/trec_dl_qrels/agreement.csv",
            caption="../report/real_data/trec_dl_agreement.rst",
            category=REAL_DATA_CATEGORY,
            subcategory="Tables",
        ),
    params:
        trec_dl=REAL_DATA_TREC_DL_PARAMS,
        topics=REAL_DATA_SOURCE_PARAMS["trec_dl_topics"],
    log:
        "results/logs/compare_real_data_trec_dl.log",
    benchmark:
        "results/benchmarks/compare_real_data_trec_dl/compare_real_data_trec_dl.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        "../scripts/compare_real_data_trec_dl.py"


rule check_real_data_coverage:
    input:
        data=coverage_data,
        library=REAL_DATA_LIBRARY["coverage"],
    output:
        table="results/real_data/coverage/shards/{case}-{shard}.csv",
        case="results/real_data/coverage/shards/{case}-{shard}.json",
    params:
        coverage=REAL_DATA_COVERAGE_PARAMS,
        examples=REAL_DATA_EXAMPLE_PARAMS,
    wildcard_constraints:
        shard=r"\d+",
    log:
        "results/logs/check_real_data_coverage/{case}-{shard}.log",
    benchmark:
        "results/benchmarks/check_real_data_coverage/{case}-{shard}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        "../scripts/check_real_data_coverage.py"


rule summarise_real_data_coverage:
    input:
        tables=expand(
            rules.check_real_data_coverage.output.table,
            case=REAL_DATA_CASES,
            shard=REAL_DATA_SHARDS,
        ),
        library=REAL_DATA_LIBRARY["coverage"],
    output:
        table="results/real_data/coverage/coverage.csv",
        summary=report(
            "results/real_data/coverage/summary.csv",
            caption="../report/real_data/coverage.rst",
            category=REAL_DATA_CATEGORY,
            subcategory="Tables",
        ),
    params:
        coverage=REAL_DATA_COVERAGE_PARAMS,
    log:
        "results/logs/summarise_real_data_coverage.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/summarise_real_data_coverage.py"


rule run_real_data_examples:
    input:
        atp=period_data(REAL_DATA.examples.atp_period),
        trec_dl=data_path(TREC_DL_JUDGMENTS_KEY),
        library=REAL_DATA_LIBRARY["examples"],
    output:
        markdown=report(
            "results/real_data/worked_example.md",
            caption="../report/real_data/worked_example.rst",
            category=REAL_DATA_CATEGORY,
            subcategory="Tables",
        ),
    params:
        examples=REAL_DATA_EXAMPLE_PARAMS,
    log:
        "results/logs/run_real_data_examples.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/run_real_data_examples.py"


rule plot_real_data_figures:
    input:
        per_k=expand(rules.summarise_real_data_dataset.output.per_k, dataset=REAL_DATASETS),
        gains=expand(rules.measure_real_data_contexts.output.gain, analysis=REAL_DATA_ANALYSES),
        draws=expand(rules.measure_real_data_contexts.output.draws, analysis=REAL_DATA_ANALYSES),
        agreement=rules.compare_real_data_trec_dl.output.agreement,
        library=REAL_DATA_LIBRARY["figures"],
    output:
        **{
            dataset: report_figure(
                figure_paths("real_data/figures", dataset),
                caption="../report/real_data/dataset_figure.rst",
                category=REAL_DATA_CATEGORY,
                subcategory="Figures",
            )
            for dataset in REAL_DATASETS
        },
        contexts=report_figure(
            figure_paths("real_data/figures", "contexts"),
            caption="../report/real_data/contexts.rst",
            category=REAL_DATA_CATEGORY,
            subcategory="Figures",
        ),
        trec_dl_agreement=report_figure(
            figure_paths("real_data/figures", "trec_dl_agreement"),
            caption="../report/real_data/trec_dl_agreement.rst",
            category=REAL_DATA_CATEGORY,
            subcategory="Figures",
        ),
    params:
        datasets=REAL_DATASETS,
        confidence=REAL_DATA_SUBSET_PARAMS["confidence"],
        interval=REAL_DATA_SUBSET_PARAMS["interval"],
    log:
        "results/logs/plot_real_data_figures.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/plot_real_data_figures.py"


rule write_real_data_readme:
    input:
        per_k=rules.tabulate_real_data_claims.input.per_k,
        claims=rules.tabulate_real_data_claims.input.claims,
        cross_dataset=rules.tabulate_real_data_claims.output.markdown,
        gains=rules.plot_real_data_figures.input.gains,
        agreement=rules.compare_real_data_trec_dl.output.agreement,
        topics=rules.compare_real_data_trec_dl.output.topics,
        coverage=rules.summarise_real_data_coverage.output.summary,
        library=REAL_DATA_LIBRARY["readme"],
    output:
        readme=report(
            "results/real_data/readme.md",
            caption="../report/real_data/readme.rst",
            category=REAL_DATA_CATEGORY,
            subcategory="Tables",
        ),
    params:
        figures=[*REAL_DATASETS, "contexts", "trec_dl_agreement"],
    log:
        "results/logs/write_real_data_readme.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    conda:
        CONDA_ENV
    script:
        "../scripts/write_real_data_readme.py"


rule execute_real_data_notebook:
    input:
        notebook=str(NOTEBOOKS / "real_data.ipynb"),
        overview=rules.tabulate_real_data_claims.output.overview,
        cross_dataset=rules.tabulate_real_data_claims.output.table,
        gain_surface=expand(rules.measure_real_data_contexts.output.gain, analysis="surface")[0],
        gain_period=expand(rules.measure_real_data_contexts.output.gain, analysis="period")[0],
        trec_dl_agreement=rules.compare_real_data_trec_dl.output.agreement,
        trec_dl_topics=rules.compare_real_data_trec_dl.output.topics,
        coverage=rules.summarise_real_data_coverage.output.summary,
        worked_example=rules.run_real_data_examples.output.markdown,
        readme=rules.write_real_data_readme.output.readme,
        figures=[rules.plot_real_data_figures.output[name][0] for name in [*REAL_DATASETS, "contexts", "trec_dl_agreement"]],
        library=library("workflow.notebooks", "files", "workflow.jobs"),
    output:
        notebook="results/notebooks/real_data.ipynb",
        html=report(
            "results/notebooks/real_data.html",
            caption="../report/notebooks/real_data.rst",
            category=NOTEBOOK_CATEGORY,
        ),
    log:
        "results/logs/notebooks/real_data.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    conda:
        CONDA_ENV
    script:
        "../scripts/execute_notebook.py"


rule real_data:
    input:
        expand(rules.summarise_real_data_dataset.output, dataset=REAL_DATASETS),
        rules.tabulate_real_data_claims.output,
        expand(rules.measure_real_data_contexts.output, analysis=REAL_DATA_ANALYSES),
        rules.compare_real_data_trec_dl.output,
        rules.summarise_real_data_coverage.output,
        rules.run_real_data_examples.output,
        rules.plot_real_data_figures.output,
        rules.write_real_data_readme.output,
        rules.execute_real_data_notebook.output,
