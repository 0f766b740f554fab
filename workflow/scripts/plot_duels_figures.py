import pandas as pd

from cdbandits.experiments.duels.figures import FIGURE_NAMES, duels_figures
from cdbandits.experiments.duels.settings import DuelsSweep
from cdbandits.files import save_figure
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    sweep = DuelsSweep.from_config(snakemake.params.duels)
    figures = duels_figures(
        pd.read_csv(snakemake.input.curves),
        {environment.name: environment.title for environment in sweep.environments},
        sweep.algorithms,
        sweep.seeds,
    )
    for name in FIGURE_NAMES:
        save_figure(figures[name], *snakemake.output[name])
        log.info("%s: %s", name, ", ".join(snakemake.output[name]))
