# The result notebooks, executed headless on the workflow's outputs, and the description
# of the Snakemake report (envs/venv.sh snakemake --report results/report.html).
#
# One rule per notebook under notebooks/ (the oracle notebook's is in oracle.smk), all running
# workflow/scripts/execute_notebook.py.
# A rule's named inputs, except `notebook` and `library`, and its params are the notebook's
# parameters: they must match the names of the notebook's cell tagged "parameters" exactly
# (cdbandits.workflow.notebooks checks). Outputs: the executed copy and its HTML rendering, which is
# part of the report; both are final outputs (notebook_outputs in common.smk).

report: "../report/workflow.rst"


import mimetypes  # noqa: E402

# The report attaches the built matrices (.npz) as downloads: name their type, which
# Python's table lacks (the report would log a warning and call them text/plain).
mimetypes.add_type("application/octet-stream", ".npz")



# The README's figures, copied to figures/ (tracked) only by a run of the default config
# (final_outputs in common.smk). The oracle scaling figure is left out: it plots timings,
# which differ from run to run.
README_FIGURES = [
    *(path for name in rules.plot_appendix_figures.output.keys() for path in rules.plot_appendix_figures.output[name]),
    *(path for name in rules.plot_online_figures.output.keys() for path in rules.plot_online_figures.output[name]),
    *(
        path
        for name in rules.plot_oracle_figures.output.keys()
        if name != "scaling"
        for path in rules.plot_oracle_figures.output[name]
    ),
    *expand(
        rules.validate_letor_matrix.output.figure,
        dataset=["sample"],
        click_model=["informational"],
    ),
]


rule publish_figures:
    input:
        figures=README_FIGURES,
    output:
        figures=[published_name(path) for path in README_FIGURES],
    log:
        "results/logs/publish_figures.log",
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    conda:
        CONDA_ENV
    script:
        "../scripts/publish_figures.py"
