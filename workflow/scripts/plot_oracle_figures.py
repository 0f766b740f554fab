import pandas as pd

from cdbandits.files import save_figure
from cdbandits.oracle_methods.figures import (
    FIGURES,
    plot_convergence,
    plot_explore_first,
    plot_regret,
    plot_scaling,
)
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    figures = {
        "convergence": plot_convergence(pd.read_csv(snakemake.input.solvers)),
        "explore_first": plot_explore_first(pd.read_csv(snakemake.input.explore_first)),
        "regret": plot_regret(pd.read_csv(snakemake.input.regret)),
        "scaling": plot_scaling(pd.read_csv(snakemake.input.scaling)),
    }
    for name in FIGURES:
        save_figure(figures[name], *snakemake.output[name])
        log.info("%s: %s", name, ", ".join(snakemake.output[name]))
