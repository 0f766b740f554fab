import pandas as pd

from cdbandits.experiments.online.figures import FIGURE_NAMES, online_figures
from cdbandits.experiments.online.settings import ONLINE_TABLES
from cdbandits.files import save_figure
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    tables = {name: pd.read_csv(snakemake.input[name]) for name in ONLINE_TABLES}
    figures = online_figures(tables)
    for name in FIGURE_NAMES:
        save_figure(figures[name], *snakemake.output[name])
        log.info("%s: %s", name, ", ".join(snakemake.output[name]))
