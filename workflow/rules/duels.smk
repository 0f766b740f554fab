# The field's K-armed dueling-bandit algorithms (cdbandits.karmed) on preference
# matrices built from real data (MSLR, arXiv, ATP, PrefLib), and next to the contextual ones
# (SparringEXP4.P, explore-then-exploit, CoLSTIM, MaxInP, DBGD) on contextual environments
# (kind: contextual, drawn from the seed; kind: online, the online family's synthetic,
# supervised and MSLR per-query populations and its adaptive adversary), sharded over
# (environment, algorithm, seed); regret against the von Neumann winner (rd1 in hindsight on
# the adversary, which has none), Condorcet and Copeland regret,
# time per round (kept under results/benchmarks/duels/: wall times are the one output that
# differs between runs of one config); the leaderboard, the published-behaviour table, the
# figures, the section of RESULTS.md and the notebook. Target: `duels`.


include: "duels_common.smk"


DUELS_CATEGORY = "Dueling-bandit algorithms on real data"


# The exact winner of a contextual population's policy class, solved once per run (an LP
# over up to thousands of distinct policies); the jobs that draw the instance again check
# its certificate instead.
rule solve_duels_winner:
    input:
        files=duels_environment_files,
        library=DUELS_LIBRARY["environments"],
    output:
        winner="results/duels/winners/{environment}.json",
    params:
        environment=lambda wildcards: DUELS_ENTRIES[wildcards.environment],
        seed=config["seed"],
    wildcard_constraints:
        environment="|".join(DUELS_POPULATION_NAMES),
    log:
        "results/logs/solve_duels_winner/{environment}.log",
    benchmark:
        "results/benchmarks/solve_duels_winner/{environment}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/solve_duels_winner.py"


rule build_duels_environment:
    input:
        data=duels_environment_data,
        files=duels_environment_files,
        winner=duels_environment_winner,
        library=DUELS_LIBRARY["environments"],
    output:
        matrix=report(
            "results/duels/environments/{environment}.csv",
            caption="../report/duels/environment.rst",
            category=DUELS_CATEGORY,
            subcategory="Environments",
        ),
        summary="results/duels/environments/{environment}.json",
    params:
        environment=lambda wildcards: DUELS_ENTRIES[wildcards.environment],
        # contextual environments are drawn from it
        seed=config["seed"],
    wildcard_constraints:
        environment="|".join(DUELS_ENVIRONMENT_NAMES),
    log:
        "results/logs/build_duels_environment/{environment}.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/build_duels_environment.py"


rule run_duels_shard:
    input:
        matrices=expand(
            rules.build_duels_environment.output.matrix, environment=DUELS_ENVIRONMENT_NAMES
        ),
        # the online environments' files, read when a shard builds their instance
        files=sorted({path for paths in DUELS_ENVIRONMENT_FILES.values() for path in paths}),
        winners=expand(rules.solve_duels_winner.output.winner, environment=DUELS_POPULATION_NAMES),
        library=DUELS_LIBRARY["experiments"],
    output:
        regret="results/duels/shards/regret-{shard}.csv",
        # wall times differ from run to run: kept with the benchmark records
        timings="results/benchmarks/duels/shards/timings-{shard}.csv",
    params:
        duels=DUELS_SWEEP_PARAMS,
        seed=config["seed"],
    wildcard_constraints:
        shard=r"\d+",
    log:
        "results/logs/run_duels_shard/shard-{shard}.log",
    benchmark:
        "results/benchmarks/run_duels_shard/shard-{shard}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=DUELS["shard_runtime"],
    conda:
        CONDA_ENV
    script:
        "../scripts/run_duels_shard.py"


rule summarise_duels:
    input:
        regret=expand(rules.run_duels_shard.output.regret, shard=range(DUELS_SWEEP.shards)),
        environments=expand(
            rules.build_duels_environment.output.summary, environment=DUELS_ENVIRONMENT_NAMES
        ),
        library=DUELS_LIBRARY["tables"],
    output:
        regret="results/duels/regret.csv",
        curves="results/duels/curves.csv",
        leaderboard=report(
            "results/duels/leaderboard.csv",
            caption="../report/duels/leaderboard.rst",
            category=DUELS_CATEGORY,
            subcategory="Tables",
        ),
        markdown=report(
            "results/duels/leaderboard.md",
            caption="../report/duels/leaderboard.rst",
            category=DUELS_CATEGORY,
            subcategory="Tables",
        ),
        environments=report(
            "results/duels/environments.csv",
            caption="../report/duels/environments.rst",
            category=DUELS_CATEGORY,
            subcategory="Tables",
        ),
        summary="results/duels/summary.json",
    params:
        duels=DUELS_SWEEP_PARAMS,
        seed=config["seed"],
    log:
        "results/logs/summarise_duels.log",
    benchmark:
        "results/benchmarks/summarise_duels/summarise_duels.tsv"
    threads: 1
    resources:
        mem_mb=3000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/summarise_duels.py"


rule summarise_duels_timings:
    input:
        timings=expand(rules.run_duels_shard.output.timings, shard=range(DUELS_SWEEP.shards)),
        library=DUELS_LIBRARY["timings"],
    output:
        runs="results/benchmarks/duels/runs.csv",
        timings=report(
            "results/benchmarks/duels/timings.csv",
            caption="../report/duels/timings.rst",
            category=DUELS_CATEGORY,
            subcategory="Time per round",
        ),
        figure=report_figure(
            [f"results/benchmarks/duels/time_per_round.{ext}" for ext in FIGURE_FORMATS],
            caption="../report/duels/time_per_round.rst",
            category=DUELS_CATEGORY,
            subcategory="Time per round",
        ),
    params:
        duels=DUELS_SWEEP_PARAMS,
    log:
        "results/logs/summarise_duels_timings.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/summarise_duels_timings.py"


rule tabulate_duels_published:
    input:
        regret=rules.summarise_duels.output.regret,
        library=DUELS_LIBRARY["published"],
    output:
        table=report(
            "results/duels/published.csv",
            caption="../report/duels/published.rst",
            category=DUELS_CATEGORY,
            subcategory="Tables",
        ),
        markdown="results/duels/published.md",
    params:
        duels=DUELS_SWEEP_PARAMS,
    log:
        "results/logs/tabulate_duels_published.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/tabulate_duels_published.py"


rule plot_duels_figures:
    input:
        curves=rules.summarise_duels.output.curves,
        library=DUELS_LIBRARY["figures"],
    output:
        **{
            name: report_figure(
                figure_paths("duels/figures", name),
                caption=f"../report/duels/{name}.rst",
                category=DUELS_CATEGORY,
                subcategory="Figures",
            )
            for name in DUELS_FIGURE_NAMES
        },
    params:
        duels=DUELS_SWEEP_PARAMS,
    log:
        "results/logs/plot_duels_figures.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/plot_duels_figures.py"


rule write_duels_readme:
    input:
        leaderboard=rules.summarise_duels.output.leaderboard,
        summary=rules.summarise_duels.output.summary,
        published=rules.tabulate_duels_published.output.table,
        library=DUELS_LIBRARY["readme"],
    output:
        readme=report(
            "results/duels/readme.md",
            caption="../report/duels/readme.rst",
            category=DUELS_CATEGORY,
            subcategory="Tables",
        ),
    params:
        duels=DUELS_SWEEP_PARAMS,
    log:
        "results/logs/write_duels_readme.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    conda:
        CONDA_ENV
    script:
        "../scripts/write_duels_readme.py"


rule execute_duels_notebook:
    input:
        notebook=str(NOTEBOOKS / "duels.ipynb"),
        leaderboard=rules.summarise_duels.output.leaderboard,
        leaderboard_markdown=rules.summarise_duels.output.markdown,
        environments=rules.summarise_duels.output.environments,
        published=rules.tabulate_duels_published.output.markdown,
        readme=rules.write_duels_readme.output.readme,
        figures=[rules.plot_duels_figures.output[name][0] for name in DUELS_FIGURE_NAMES],
        library=library("workflow.notebooks", "files", "workflow.jobs"),
    output:
        notebook="results/notebooks/duels.ipynb",
        html=report(
            "results/notebooks/duels.html",
            caption="../report/notebooks/duels.rst",
            category=NOTEBOOK_CATEGORY,
        ),
    log:
        "results/logs/notebooks/duels.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    conda:
        CONDA_ENV
    script:
        "../scripts/execute_notebook.py"


rule duels:
    input:
        rules.summarise_duels.output,
        rules.summarise_duels_timings.output,
        rules.tabulate_duels_published.output,
        rules.plot_duels_figures.output,
        rules.write_duels_readme.output,
        rules.execute_duels_notebook.output,
