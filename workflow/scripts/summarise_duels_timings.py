import pandas as pd

from cdbandits.experiments.duels.figures import plot_time_per_round
from cdbandits.experiments.duels.settings import DuelsSweep
from cdbandits.experiments.duels.tables import combine_duels_shards, timing_table
from cdbandits.files import save_figure, write_csv
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    sweep = DuelsSweep.from_config(snakemake.params.duels)
    runs = combine_duels_shards(
        [pd.read_csv(path) for path in snakemake.input.timings], timings=True
    )
    table = timing_table(runs)
    log.info("%d runs timed", len(runs))
    write_csv(snakemake.output.runs, runs)
    write_csv(snakemake.output.timings, table)
    save_figure(plot_time_per_round(table, sweep.algorithms), *snakemake.output.figure)
