import pandas as pd

from cdbandits.experiments.online.figures import FIGURE_NAMES, online_figures
from cdbandits.files import save_figure
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    # the rule's named inputs are the tables of ONLINE_TABLES and the library sources
    tables = {
        name: pd.read_csv(path) for name, path in snakemake.input.items() if name != "library"
    }
    figures = online_figures(tables)
    for name in FIGURE_NAMES:
        save_figure(figures[name], *snakemake.output[name])
        log.info("%s: %s", name, ", ".join(snakemake.output[name]))
