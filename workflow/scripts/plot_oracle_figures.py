from cdbandits.experiments.oracle.figures import FIGURE_TABLES, FIGURES, plot_oracle_figures
from cdbandits.experiments.oracle.tables import read_table
from cdbandits.files import save_figure
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    tables = {name: read_table(snakemake.input[name]) for name in FIGURE_TABLES}
    figures = plot_oracle_figures(tables)
    for name in FIGURES:
        save_figure(figures[name], *snakemake.output[name])
        log.info("%s: %s", name, ", ".join(snakemake.output[name]))
