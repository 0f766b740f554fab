# Sections 6-8: explore-then-exploit with a classification oracle. Sharded sweeps
# of the bound checks (explore-first, solvers, regret, learned oracles), the time/memory
# scaling against SparringEXP4.P, the paper-wide bound table (joined with the Section 5
# coverage table), the figures (also copied to figures/) and the notebook. Target: `oracle`.


include: "oracle_common.smk"


ORACLE_CATEGORY = "Oracle methods and bounds"


rule run_oracle_shard:
    input:
        library=oracle_library("experiments"),
    output:
        rows="results/oracle/shards/{experiment}-{shard}.csv",
    params:
        oracle=oracle_sweep_config,
        seed=config["seed"],
    wildcard_constraints:
        experiment="|".join(ORACLE_EXPERIMENTS),
        shard=r"\d+",
    log:
        "results/logs/run_oracle_shard/{experiment}-{shard}.log",
    benchmark:
        "results/benchmarks/run_oracle_shard/{experiment}-{shard}.tsv"
    threads: 1
    resources:
        mem_mb=oracle_shard_resource("mem_mb", 2000),
        runtime=oracle_shard_resource("runtime", ORACLE["shard_runtime"]),
    conda:
        CONDA_ENV
    script:
        "../scripts/run_oracle_shard.py"


# Wall-clock and memory measurements: the job takes two threads so that no other job of a
# two-core run competes with it.
rule measure_oracle_scaling:
    input:
        library=oracle_library("scaling"),
    output:
        table=report(
            oracle_table("scaling"),
            caption="../report/oracle/scaling.rst",
            category=ORACLE_CATEGORY,
            subcategory="Tables",
        ),
        metadata="results/oracle/scaling.json",
    params:
        oracle=config_subset(ORACLE, ScalingSettings.KEYS),
        seed=config["seed"],
    log:
        "results/logs/measure_oracle_scaling.log",
    benchmark:
        "results/benchmarks/measure_oracle_scaling.tsv"
    threads: 2
    resources:
        mem_mb=4000,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        "../scripts/measure_oracle_scaling.py"


# Power of the bound checks: the correct implementation and every broken variant of
# cdbandits.experiments.oracle.broken_variants through the checks of the bound table.
rule detect_broken_variants:
    input:
        library=oracle_library("detection_tables"),
    output:
        matrix=report(
            oracle_table("detection"),
            caption="../report/oracle/detection.rst",
            category=ORACLE_CATEGORY,
            subcategory="Bounds",
        ),
        checks=oracle_table("detection_checks"),
        variants=oracle_table("detection_variants"),
        control=oracle_table("detection_control"),
        markdown="results/oracle/detection.md",
        metadata="results/oracle/detection.json",
    params:
        oracle=config_subset(ORACLE, DetectionSettings.KEYS),
        seed=config["seed"],
    log:
        "results/logs/detect_broken_variants.log",
    benchmark:
        "results/benchmarks/detect_broken_variants.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=detection_runtime,
    conda:
        CONDA_ENV
    script:
        "../scripts/detect_broken_variants.py"


# Power as a curve: parameters of the correct implementation scaled by 2, 5, 10 and 100
# through the detection's checks (cdbandits.experiments.oracle.power).
rule measure_check_power:
    input:
        library=oracle_library("power"),
    output:
        power=oracle_table("power"),
        table=oracle_table("power_table"),
        markdown=report(
            "results/oracle/power.md",
            caption="../report/oracle/power_table.rst",
            category=ORACLE_CATEGORY,
            subcategory="Bounds",
        ),
    params:
        oracle=config_subset(ORACLE, DetectionSettings.KEYS),
        seed=config["seed"],
    log:
        "results/logs/measure_check_power.log",
    benchmark:
        "results/benchmarks/measure_check_power.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=detection_runtime,
    conda:
        CONDA_ENV
    script:
        "../scripts/measure_check_power.py"


rule summarise_oracle:
    input:
        **{
            experiment: expand(
                rules.run_oracle_shard.output.rows,
                experiment=experiment,
                shard=range(ORACLE["shards"]),
            )
            for experiment in ORACLE_EXPERIMENTS
        },
        scaling=rules.measure_oracle_scaling.output.table,
        online=rules.summarise_online.output.coverage,
        detection=rules.detect_broken_variants.output.matrix,
        detection_control=rules.detect_broken_variants.output.control,
        library=oracle_library("tables"),
    output:
        **{
            experiment: report(
                oracle_table(experiment),
                caption="../report/oracle/experiment_tables.rst",
                category=ORACLE_CATEGORY,
                subcategory="Tables",
            )
            for experiment in ORACLE_EXPERIMENTS
        },
        **{
            name: report(
                oracle_table(name),
                caption=f"../report/oracle/{name}.rst",
                category=ORACLE_CATEGORY,
                subcategory="Bounds" if name.startswith("bound") else "Tables",
            )
            for name in ORACLE_SUMMARY_TABLES
        },
        markdown=report(
            "results/oracle/bound_table.md",
            caption="../report/oracle/bound_table.rst",
            category=ORACLE_CATEGORY,
            subcategory="Bounds",
        ),
        crossovers_markdown=report(
            "results/oracle/crossovers.md",
            caption="../report/oracle/crossovers.rst",
            category=ORACLE_CATEGORY,
            subcategory="Tables",
        ),
        summary=report(
            "results/oracle/summary.json",
            caption="../report/oracle/summary.rst",
            category=ORACLE_CATEGORY,
            subcategory="Tables",
        ),
    params:
        oracle=config_subset(ORACLE, SummarySettings.KEYS),
        seed=config["seed"],
    log:
        "results/logs/summarise_oracle.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/summarise_oracle.py"


rule plot_oracle_figures:
    input:
        explore_first=rules.summarise_oracle.output.explore_first,
        solvers=rules.summarise_oracle.output.solvers,
        regret=rules.summarise_oracle.output.regret,
        scaling=rules.measure_oracle_scaling.output.table,
        power=rules.measure_check_power.output.power,
        library=oracle_library("figures") + oracle_library("tables"),
    output:
        **{
            name: report_figure(
                figure_paths("oracle/figures", name),
                caption=f"../report/oracle/{name}.rst",
                category=ORACLE_CATEGORY,
                subcategory="Figures",
            )
            for name in ORACLE_FIGURE_NAMES
        },
    log:
        "results/logs/plot_oracle_figures.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/plot_oracle_figures.py"


# The notebook's named inputs (except `notebook` and `library`) are its parameters
# (report.smk explains).
rule execute_oracle_notebook:
    input:
        notebook=str(ORACLE_NOTEBOOK),
        bound_table=rules.summarise_oracle.output.bound_table,
        bound_detail=rules.summarise_oracle.output.bound_detail,
        theory=rules.summarise_oracle.output.theory,
        learned_summary=rules.summarise_oracle.output.learned_summary,
        scaling=rules.measure_oracle_scaling.output.table,
        crossovers=rules.summarise_oracle.output.crossovers,
        summary=rules.summarise_oracle.output.summary,
        figures=[rules.plot_oracle_figures.output[name][0] for name in ORACLE_FIGURE_NAMES],
        library=library("workflow.notebooks", "files", "workflow.jobs"),
    output:
        notebook="results/notebooks/oracle_methods_and_bounds.ipynb",
        html=report(
            "results/notebooks/oracle_methods_and_bounds.html",
            caption="../report/notebooks/oracle_methods_and_bounds.rst",
            category="Notebooks",
        ),
    log:
        "results/logs/notebooks/oracle_methods_and_bounds.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    conda:
        CONDA_ENV
    script:
        "../scripts/execute_notebook.py"


rule oracle:
    input:
        rules.measure_oracle_scaling.output,
        rules.detect_broken_variants.output,
        rules.measure_check_power.output,
        rules.summarise_oracle.output,
        rules.plot_oracle_figures.output,
        rules.execute_oracle_notebook.output,
