# Section 5: SparringEXP4.P and baselines on contextual dueling environments,
# sharded over (setting, seed); exact regret against T, the coverage of the bound of
# Theorem sparring-exp4, the online-to-batch epsilon against m, the exact contextual vNWs
# of the small classes, the figures and the notebook. Target: `online`.


include: "online_common.smk"


ONLINE_CATEGORY = "Online regret (SparringEXP4.P)"
# The caption (workflow/report/online/<caption>.rst) of each combined table in the report;
# the raw runs and curves tables stay out of it.
ONLINE_TABLE_CAPTIONS = {
    "regret": "regret_table",
    "slopes": "slopes",
    "coverage": "coverage",
    "online_to_batch": "online_to_batch_table",
    "last_decade": "last_decade_table",
}


rule run_online_shard:
    input:
        mslr=ONLINE_MSLR,
        library=ONLINE_LIBRARY["experiments"],
    output:
        runs="results/online/shards/runs-{shard}.csv",
        curves="results/online/shards/curves-{shard}.csv",
    params:
        online=ONLINE_SWEEP_PARAMS,
        seed=config["seed"],
    wildcard_constraints:
        shard=r"\d+",
    log:
        "results/logs/run_online_shard/shard-{shard}.log",
    benchmark:
        "results/benchmarks/run_online_shard/shard-{shard}.tsv"
    threads: 1
    resources:
        mem_mb=3000,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        "../scripts/run_online_shard.py"


rule solve_contextual_winners:
    input:
        mslr=ONLINE_MSLR,
        library=ONLINE_LIBRARY["tables"],
    output:
        table=report(
            "results/online/exact_winners.csv",
            caption="../report/online/exact_winners.rst",
            category=ONLINE_CATEGORY,
            subcategory="Tables",
        ),
    params:
        online=ONLINE_WINNER_PARAMS,
        seed=config["seed"],
    log:
        "results/logs/solve_contextual_winners.log",
    benchmark:
        "results/benchmarks/solve_contextual_winners/solve_contextual_winners.tsv"
    threads: 1
    resources:
        mem_mb=3000,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        "../scripts/solve_contextual_winners.py"


rule summarise_online:
    input:
        runs=expand(rules.run_online_shard.output.runs, shard=range(ONLINE.shards)),
        curves=expand(
            rules.run_online_shard.output.curves, shard=range(ONLINE.shards)
        ),
        library=ONLINE_LIBRARY["tables"],
    output:
        **{
            table: (
                report(
                    f"results/online/{table}.csv",
                    caption=f"../report/online/{ONLINE_TABLE_CAPTIONS[table]}.rst",
                    category=ONLINE_CATEGORY,
                    subcategory="Tables",
                )
                if table in ONLINE_TABLE_CAPTIONS
                else f"results/online/{table}.csv"
            )
            for table in ONLINE_TABLES
        },
        markdown=report(
            "results/online/coverage.md",
            caption="../report/online/coverage.rst",
            category=ONLINE_CATEGORY,
            subcategory="Tables",
        ),
        last_decade_markdown=report(
            "results/online/last_decade.md",
            caption="../report/online/last_decade.rst",
            category=ONLINE_CATEGORY,
            subcategory="Tables",
        ),
        overview=report(
            "results/online/overview.md",
            caption="../report/online/overview.rst",
            category=ONLINE_CATEGORY,
            subcategory="Tables",
        ),
        summary=report(
            "results/online/summary.json",
            caption="../report/online/summary.rst",
            category=ONLINE_CATEGORY,
            subcategory="Tables",
        ),
    params:
        online=ONLINE_SWEEP_PARAMS,
        seed=config["seed"],
    log:
        "results/logs/summarise_online.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/summarise_online.py"


rule plot_online_figures:
    input:
        **{table: rules.summarise_online.output[table] for table in ONLINE_TABLES},
        library=ONLINE_LIBRARY["figures"],
    output:
        **{
            name: report_figure(
                figure_paths("online/figures", name),
                caption=f"../report/online/{name}.rst",
                category=ONLINE_CATEGORY,
                subcategory="Figures",
            )
            for name in ONLINE_FIGURE_NAMES
        },
    log:
        "results/logs/plot_online_figures.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/plot_online_figures.py"


rule execute_online_notebook:
    input:
        notebook=str(NOTEBOOKS / "online_regret.ipynb"),
        regret=rules.summarise_online.output.regret,
        slopes=rules.summarise_online.output.slopes,
        coverage=rules.summarise_online.output.coverage,
        online_to_batch=rules.summarise_online.output.online_to_batch,
        exact_winners=rules.solve_contextual_winners.output.table,
        summary=rules.summarise_online.output.summary,
        figures=[rules.plot_online_figures.output[name][0] for name in ONLINE_FIGURE_NAMES],
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


rule online:
    input:
        rules.summarise_online.output,
        rules.solve_contextual_winners.output,
        rules.plot_online_figures.output,
        rules.execute_online_notebook.output,
