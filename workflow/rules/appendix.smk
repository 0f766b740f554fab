# Appendices A and B at the paper's scale (issue 3): random K-ranker sub-matrices of each
# click model's preference matrix, their certified von Neumann winners (batched solver),
# per-K statistics, a verification against the cvxpy reference, the claims table and
# Figures 1-4 (also copied to figures/).


include: "appendix_common.smk"


APPENDIX_CATEGORY = "Appendices A and B"


rule solve_appendix_shard:
    input:
        matrix=appendix_matrix,
        library=library("appendix", "batched", "winners", "preference", "matrix_io", "files", "workflow.jobs"),
    output:
        counts="results/appendix/{click_model}/shards/shard-{shard}.json",
    params:
        sampling=APPENDIX_SAMPLING,
    wildcard_constraints:
        click_model=APPENDIX_MODEL_PATTERN,
        shard=r"\d+",
    log:
        "results/logs/solve_appendix_shard/{click_model}/shard-{shard}.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=20,
    conda:
        CONDA_ENV
    script:
        "../scripts/solve_appendix_shard.py"


rule summarise_appendix:
    input:
        shards=lambda wildcards: expand(
            "results/appendix/{click_model}/shards/shard-{shard}.json",
            click_model=wildcards.click_model,
            shard=range(APPENDIX["shards"]),
        ),
        matrix=appendix_matrix,
        library=library("appendix", "matrix_io", "preference", "files", "workflow.jobs"),
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
        confidence=APPENDIX["confidence"],
        interval=APPENDIX["interval"],
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


rule verify_appendix:
    input:
        matrix=appendix_matrix,
        library=library("appendix", "batched", "winners", "preference", "matrix_io", "files", "workflow.jobs"),
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
        uniform=APPENDIX["verify_uniform"],
        double_oracle=APPENDIX["verify_double_oracle"],
        weight_tol=APPENDIX["verify_weight_tol"],
    wildcard_constraints:
        click_model=APPENDIX_MODEL_PATTERN,
    log:
        "results/logs/verify_appendix/{click_model}.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=60,
    conda:
        CONDA_ENV
    script:
        "../scripts/verify_appendix.py"


rule tabulate_appendix_claims:
    input:
        counts=expand("results/appendix/{click_model}/counts.json", click_model=APPENDIX_MODELS),
        library=library("appendix", "batched", "paper_examples", "winners", "preference", "files", "workflow.jobs"),
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
        paper_click_model=APPENDIX["paper_click_model"],
        clone_ks=config["winners"]["clone_ks"],
        solver=APPENDIX["solver"],
        confidence=APPENDIX["confidence"],
        interval=APPENDIX["interval"],
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


rule plot_appendix_figures:
    input:
        **{
            table: expand(f"results/appendix/{{click_model}}/{table}.csv",
                          click_model=APPENDIX_MODELS)
            for table in APPENDIX_TABLES
        },
        library=library("appendix_plots", "files", "workflow.jobs"),
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
        paper_click_model=APPENDIX["paper_click_model"],
        variant=APPENDIX["copeland_variant"],
        confidence=APPENDIX["confidence"],
        interval=APPENDIX["interval"],
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
