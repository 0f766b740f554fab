# The description of the Snakemake report (envs/venv.sh snakemake --report results/report.html)
# and the copy of the figures of RESULTS.md to figures/. Each family's notebook rule sits at the end
# of its own rules file, before the family's target rule; every notebook runs
# workflow/scripts/execute_notebook.py, and its rule's named inputs (except `notebook` and
# `library`) and params must match the notebook's cell tagged "parameters"
# (cdbandits.workflow.notebooks checks).

report: "../report/workflow.rst"


import mimetypes  # noqa: E402

# The report attaches the built matrices (.npz) as downloads: name their type, which
# Python's table lacks (the report would log a warning and call them text/plain).
mimetypes.add_type("application/octet-stream", ".npz")



# The figures of RESULTS.md, copied to figures/ (tracked) only by a run of the default config
# (rule all in the Snakefile). The oracle scaling figure is left out: it plots timings,
# which differ from run to run.
PUBLISHED_FIGURES = [
    *figure_files(rules.plot_appendix_figures),
    *figure_files(rules.plot_online_figures),
    *figure_files(rules.plot_oracle_figures, leave_out={"scaling"}),
    *figure_files(rules.plot_real_data_figures),
    *figure_files(rules.plot_duels_figures),
    *expand(
        rules.validate_letor_matrix.output.figure,
        dataset=["sample"],
        click_model=["informational"],
    ),
]


rule publish_figures:
    input:
        figures=PUBLISHED_FIGURES,
    output:
        figures=[published_name(path) for path in PUBLISHED_FIGURES],
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
