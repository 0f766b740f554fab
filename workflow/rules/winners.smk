rule tabulate_paper_examples:
    input:
        library=library("examples", "winners", "preference", "results"),
    output:
        five_arm="results/examples/five_arm.csv",
        clone="results/examples/clone_copeland.csv",
        summary="results/examples/examples.json",
    params:
        clone_ks=config["winners"]["clone_ks"],
        solver=config["winners"]["solver"],
    log:
        "results/logs/tabulate_paper_examples.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/tabulate_paper_examples.py"


rule compute_full_matrix_winners:
    input:
        matrices=[data_path(key) for key in config["winners"]["matrices"]],
        library=library("winners", "preference", "matrix_io", "results"),
    output:
        table="results/winners/full_matrices.csv",
        details="results/winners/full_matrices.json",
    params:
        names=config["winners"]["matrices"],
        solver=config["winners"]["solver"],
    log:
        "results/logs/compute_full_matrix_winners.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/compute_winners.py"
