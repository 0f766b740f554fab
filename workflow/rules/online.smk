# Section 5 (issue 5): SparringEXP4.P and baselines on contextual dueling environments,
# sharded over (setting, seed); exact regret against T, the coverage of the bound of
# Theorem sparring-exp4, the online-to-batch epsilon against m, the exact contextual vNWs
# of the small classes, and the figures (also copied to figures/).


include: "online_common.smk"


ONLINE_CATEGORY = "Online regret (SparringEXP4.P)"
# The caption (workflow/report/online/<caption>.rst) of each combined table in the report;
# the raw runs and curves tables stay out of it.
ONLINE_TABLE_CAPTIONS = {
    "regret": "regret_table",
    "slopes": "slopes",
    "coverage": "coverage",
    "online_to_batch": "online_to_batch_table",
}


rule run_online_shard:
    input:
        mslr=ONLINE_MSLR,
        library=ONLINE_LIBRARY,
    output:
        runs="results/online/shards/runs-{shard}.csv",
        curves="results/online/shards/curves-{shard}.csv",
    params:
        online=ONLINE,
        seed=config["seed"],
    wildcard_constraints:
        shard=r"\d+",
    log:
        "results/logs/run_online_shard/shard-{shard}.log",
    threads: 1
    resources:
        mem_mb=3000,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        "../scripts/run_online_shard.py"


rule summarise_online:
    input:
        runs=expand("results/online/shards/runs-{shard}.csv", shard=range(ONLINE["shards"])),
        curves=expand("results/online/shards/curves-{shard}.csv", shard=range(ONLINE["shards"])),
        library=ONLINE_LIBRARY,
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
        summary=report(
            "results/online/summary.json",
            caption="../report/online/summary.rst",
            category=ONLINE_CATEGORY,
            subcategory="Tables",
        ),
    params:
        online=ONLINE,
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


rule solve_contextual_winners:
    input:
        mslr=ONLINE_MSLR,
        library=ONLINE_LIBRARY,
    output:
        table=report(
            "results/online/exact_winners.csv",
            caption="../report/online/exact_winners.rst",
            category=ONLINE_CATEGORY,
            subcategory="Tables",
        ),
    params:
        online=ONLINE,
        seed=config["seed"],
    log:
        "results/logs/solve_contextual_winners.log",
    threads: 1
    resources:
        mem_mb=3000,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        "../scripts/solve_contextual_winners.py"


rule plot_online_figures:
    input:
        **{table: f"results/online/{table}.csv" for table in ONLINE_TABLES},
        library=ONLINE_LIBRARY,
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
