EXAMPLES_CATEGORY = "Worked examples (Appendix B)"
WINNERS_CATEGORY = "Published MSLR matrices"


rule tabulate_paper_examples:
    input:
        library=library("paper_examples", "winners", "preference", "files", "workflow.jobs"),
    output:
        five_arm=report(
            "results/examples/five_arm.csv",
            caption="../report/examples/five_arm.rst",
            category=EXAMPLES_CATEGORY,
        ),
        clone=report(
            "results/examples/clone_copeland.csv",
            caption="../report/examples/clone_copeland.rst",
            category=EXAMPLES_CATEGORY,
        ),
        summary=report(
            "results/examples/examples.json",
            caption="../report/examples/examples_json.rst",
            category=EXAMPLES_CATEGORY,
        ),
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
        library=library("winners", "preference", "matrix_io", "files", "workflow.jobs"),
    output:
        table=report(
            "results/winners/full_matrices.csv",
            caption="../report/winners/full_matrices_csv.rst",
            category=WINNERS_CATEGORY,
        ),
        markdown="results/winners/full_matrices.md",
        details=report(
            "results/winners/full_matrices.json",
            caption="../report/winners/full_matrices_json.rst",
            category=WINNERS_CATEGORY,
        ),
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


rule execute_examples_notebook:
    input:
        notebook=str(NOTEBOOKS / "examples_and_full_matrices.ipynb"),
        five_arm=rules.tabulate_paper_examples.output.five_arm,
        clone_copeland=rules.tabulate_paper_examples.output.clone,
        examples_summary=rules.tabulate_paper_examples.output.summary,
        winners_table=rules.compute_full_matrix_winners.output.table,
        winners_details=rules.compute_full_matrix_winners.output.details,
        matrices=rules.compute_full_matrix_winners.input.matrices,
        library=library(
            "workflow.notebooks",
            "paper_examples",
            "winners",
            "preference",
            "matrix_io",
            "files",
            "workflow.jobs",
        ),
    output:
        notebook="results/notebooks/examples_and_full_matrices.ipynb",
        html=report(
            "results/notebooks/examples_and_full_matrices.html",
            caption="../report/notebooks/examples_and_full_matrices.rst",
            category=NOTEBOOK_CATEGORY,
        ),
    params:
        matrix_names=config["winners"]["matrices"],
    log:
        "results/logs/notebooks/examples_and_full_matrices.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    conda:
        CONDA_ENV
    script:
        "../scripts/execute_notebook.py"


rule winners:
    input:
        rules.tabulate_paper_examples.output,
        rules.compute_full_matrix_winners.output,
        rules.execute_examples_notebook.output,
