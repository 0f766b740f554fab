# Sections 6-8 (issue 6): explore-then-exploit with a classification oracle. Sharded sweeps
# of the bound checks (explore-first, solvers, regret, learned oracles), the time/memory
# scaling against SparringEXP4.P, the paper-wide bound table (joined with the Section 5
# coverage table) and the figures (also copied to figures/).


include: "oracle_common.smk"


ORACLE_CATEGORY = "Oracle methods and bounds"


rule run_oracle_shard:
    input:
        library=ORACLE_LIBRARY,
    output:
        rows="results/oracle/shards/{experiment}-{shard}.csv",
    params:
        oracle=ORACLE,
        seed=config["seed"],
    wildcard_constraints:
        experiment="|".join(ORACLE_EXPERIMENTS),
        shard=r"\d+",
    log:
        "results/logs/run_oracle_shard/{experiment}-{shard}.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        "../scripts/run_oracle_shard.py"


# Wall-clock and memory measurements: the job takes two threads so that no other job of a
# two-core run competes with it.
rule measure_oracle_scaling:
    input:
        library=ORACLE_LIBRARY,
    output:
        table=report(
            oracle_table("scaling"),
            caption="../report/oracle/scaling.rst",
            category=ORACLE_CATEGORY,
            subcategory="Tables",
        ),
        metadata="results/oracle/scaling.json",
    params:
        scaling=ORACLE["scaling"],
        delta=ORACLE["delta"],
        seed=config["seed"],
    log:
        "results/logs/measure_oracle_scaling.log",
    threads: 2
    resources:
        mem_mb=4000,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        "../scripts/measure_oracle_scaling.py"


rule summarise_oracle:
    input:
        **{experiment: oracle_shards(experiment) for experiment in ORACLE_EXPERIMENTS},
        scaling=oracle_table("scaling"),
        online="results/online/coverage.csv",
        library=ORACLE_LIBRARY,
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
        summary=report(
            "results/oracle/summary.json",
            caption="../report/oracle/summary.rst",
            category=ORACLE_CATEGORY,
            subcategory="Tables",
        ),
    params:
        oracle=ORACLE,
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
        explore_first=oracle_table("explore_first"),
        solvers=oracle_table("solvers"),
        regret=oracle_table("regret"),
        scaling=oracle_table("scaling"),
        library=ORACLE_LIBRARY,
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
