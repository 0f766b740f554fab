# Appendices A and B at the paper's scale: random K-ranker sub-matrices of each
# click model's preference matrix, their certified von Neumann winners (batched solver),
# a verification against the cvxpy reference, per-K statistics, the claims table and its
# K-grid sensitivity, the account of RESULTS.md (results/appendix/readme.md), Figures 1-4 and
# the notebook. Library: cdbandits.experiments.appendix.


include: "appendix_common.smk"


APPENDIX_CATEGORY = "Appendices A and B"


rule solve_appendix_shard:
    input:
        matrix=appendix_matrix,
        library=library("experiments.appendix.experiments", "files", "workflow.jobs"),
    output:
        counts="results/appendix/{click_model}/shards/shard-{shard}.json",
    params:
        sampling=APPENDIX_SAMPLING,
        seed=config["seed"],
        counting=APPENDIX_COUNTING,
    wildcard_constraints:
        click_model=APPENDIX_MODEL_PATTERN,
        shard=r"\d+",
    log:
        "results/logs/solve_appendix_shard/{click_model}/shard-{shard}.log",
    benchmark:
        "results/benchmarks/solve_appendix_shard/{click_model}/shard-{shard}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=20,
    conda:
        CONDA_ENV
    script:
        "../scripts/solve_appendix_shard.py"


rule verify_appendix:
    input:
        matrix=appendix_matrix,
        library=library("experiments.appendix.verification", "experiments.appendix.experiments", "files", "workflow.jobs"),
    output:
        table=report(
            "results/appendix/{click_model}/verification.csv",
            caption="../report/appendix/verification.rst",
            category=APPENDIX_CATEGORY,
            subcategory="{click_model}",
        ),
        summary=report(
            "results/appendix/{click_model}/verification.json",
            caption="../report/appendix/verification.rst",
            category=APPENDIX_CATEGORY,
            subcategory="{click_model}",
        ),
    params:
        sampling=APPENDIX_SAMPLING,
        seed=config["seed"],
        solver=APPENDIX_SOLVER,
        verification=APPENDIX_VERIFICATION,
    wildcard_constraints:
        click_model=APPENDIX_MODEL_PATTERN,
    log:
        "results/logs/verify_appendix/{click_model}.log",
    benchmark:
        "results/benchmarks/verify_appendix/{click_model}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=60,
    conda:
        CONDA_ENV
    script:
        "../scripts/verify_appendix.py"


rule summarise_appendix:
    input:
        shards=lambda wildcards: expand(
            rules.solve_appendix_shard.output.counts,
            click_model=wildcards.click_model,
            shard=range(APPENDIX_COUNTING["shards"]),
        ),
        matrix=appendix_matrix,
        library=library("experiments.appendix.tables", "experiments.appendix.experiments", "files", "workflow.jobs"),
    output:
        per_k=report(
            "results/appendix/{click_model}/per_k.csv",
            caption="../report/appendix/per_k.rst",
            category=APPENDIX_CATEGORY,
            subcategory="{click_model}",
        ),
        support_size=report(
            "results/appendix/{click_model}/support_size.csv",
            caption="../report/appendix/support_size.rst",
            category=APPENDIX_CATEGORY,
            subcategory="{click_model}",
        ),
        max_copeland_loss=report(
            "results/appendix/{click_model}/max_copeland_loss.csv",
            caption="../report/appendix/max_copeland_loss.rst",
            category=APPENDIX_CATEGORY,
            subcategory="{click_model}",
        ),
        counts=report(
            "results/appendix/{click_model}/counts.json",
            caption="../report/appendix/counts.rst",
            category=APPENDIX_CATEGORY,
            subcategory="{click_model}",
        ),
    params:
        sampling=APPENDIX_SAMPLING,
        seed=config["seed"],
        intervals=APPENDIX_INTERVALS,
    wildcard_constraints:
        click_model=APPENDIX_MODEL_PATTERN,
    log:
        "results/logs/summarise_appendix/{click_model}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/summarise_appendix.py"


rule tabulate_appendix_claims:
    input:
        counts=expand(rules.summarise_appendix.output.counts, click_model=APPENDIX_MODELS),
        library=library("experiments.appendix.claims", "files", "workflow.jobs"),
    output:
        table=report(
            "results/appendix/claims.csv",
            caption="../report/appendix/claims.rst",
            category=APPENDIX_CATEGORY,
            subcategory="Claims",
        ),
        markdown=report(
            "results/appendix/claims.md",
            caption="../report/appendix/claims.rst",
            category=APPENDIX_CATEGORY,
            subcategory="Claims",
        ),
        summary=report(
            "results/appendix/claims.json",
            caption="../report/appendix/claims.rst",
            category=APPENDIX_CATEGORY,
            subcategory="Claims",
        ),
    params:
        click_models=APPENDIX_MODELS,
        paper_click_model=APPENDIX_PAPER_MODEL,
        clone_ks=config["winners"]["clone_ks"],
        solver=APPENDIX_SOLVER["solver"],
        intervals=APPENDIX_INTERVALS,
    log:
        "results/logs/tabulate_appendix_claims.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/tabulate_appendix_claims.py"


rule tabulate_appendix_k_grid:
    input:
        counts=rules.tabulate_appendix_claims.input.counts,
        library=library("experiments.appendix.k_grid", "files", "workflow.jobs"),
    output:
        table=report(
            "results/appendix/k_grid.csv",
            caption="../report/appendix/k_grid.rst",
            category=APPENDIX_CATEGORY,
            subcategory="Claims",
        ),
        markdown=report(
            "results/appendix/k_grid.md",
            caption="../report/appendix/k_grid.rst",
            category=APPENDIX_CATEGORY,
            subcategory="Claims",
        ),
    params:
        click_models=APPENDIX_MODELS,
        paper_click_model=APPENDIX_PAPER_MODEL,
        intervals=APPENDIX_INTERVALS,
    log:
        "results/logs/tabulate_appendix_k_grid.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/tabulate_appendix_k_grid.py"


rule write_appendix_readme:
    input:
        claims=rules.tabulate_appendix_claims.output.table,
        k_grid=rules.tabulate_appendix_k_grid.output.table,
        per_k=expand(rules.summarise_appendix.output.per_k, click_model=APPENDIX_MODELS),
        verification=expand(rules.verify_appendix.output.summary, click_model=APPENDIX_MODELS),
        library=library("experiments.appendix.readme", "files", "workflow.jobs"),
    output:
        readme=report(
            "results/appendix/readme.md",
            caption="../report/appendix/readme.rst",
            category=APPENDIX_CATEGORY,
            subcategory="Claims",
        ),
    params:
        click_models=APPENDIX_MODELS,
        paper_click_model=APPENDIX_PAPER_MODEL,
        variant=APPENDIX_COUNTING["copeland_variant"],
        intervals=APPENDIX_INTERVALS,
    log:
        "results/logs/write_appendix_readme.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    conda:
        CONDA_ENV
    script:
        "../scripts/write_appendix_readme.py"


rule plot_appendix_figures:
    input:
        per_k=expand(rules.summarise_appendix.output.per_k, click_model=APPENDIX_MODELS),
        support_size=expand(
            rules.summarise_appendix.output.support_size, click_model=APPENDIX_MODELS
        ),
        max_copeland_loss=expand(
            rules.summarise_appendix.output.max_copeland_loss, click_model=APPENDIX_MODELS
        ),
        library=library("experiments.appendix.figures", "files", "workflow.jobs"),
    output:
        **{
            name: report_figure(
                figure_paths("appendix/figures", name),
                caption=f"../report/appendix/{name}.rst",
                category=APPENDIX_CATEGORY,
                subcategory="Figures 1-4",
            )
            for name in APPENDIX_FIGURE_NAMES
        },
    params:
        click_models=APPENDIX_MODELS,
        paper_click_model=APPENDIX_PAPER_MODEL,
        variant=APPENDIX_COUNTING["copeland_variant"],
        intervals=APPENDIX_INTERVALS,
    log:
        "results/logs/plot_appendix_figures.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/plot_appendix_figures.py"


rule execute_appendix_notebook:
    input:
        notebook=str(Path(workflow.basedir) / "notebooks" / "appendix_statistics.ipynb"),
        per_k=rules.plot_appendix_figures.input.per_k,
        support_size=rules.plot_appendix_figures.input.support_size,
        max_copeland_loss=rules.plot_appendix_figures.input.max_copeland_loss,
        verification=expand(rules.verify_appendix.output.summary, click_model=APPENDIX_MODELS),
        claims=rules.tabulate_appendix_claims.output.table,
        k_grid=rules.tabulate_appendix_k_grid.output.table,
        figures=[rules.plot_appendix_figures.output[name][0] for name in APPENDIX_FIGURE_NAMES],
        library=library("workflow.notebooks", "files", "workflow.jobs"),
    output:
        notebook="results/notebooks/appendix_statistics.ipynb",
        html=report(
            "results/notebooks/appendix_statistics.html",
            caption="../report/notebooks/appendix_statistics.rst",
            category="Notebooks",
        ),
    params:
        click_models=APPENDIX_MODELS,
        paper_click_model=APPENDIX_PAPER_MODEL,
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


# Everything the appendix builds.
rule appendix:
    input:
        expand(rules.summarise_appendix.output, click_model=APPENDIX_MODELS),
        expand(rules.verify_appendix.output, click_model=APPENDIX_MODELS),
        rules.tabulate_appendix_claims.output,
        rules.tabulate_appendix_k_grid.output,
        rules.write_appendix_readme.output,
        rules.plot_appendix_figures.output,
        rules.execute_appendix_notebook.output,
