import pandas as pd

from cdbandits.experiments.duels.published import published_comparison, published_markdown
from cdbandits.experiments.duels.settings import DuelsSweep
from cdbandits.files import write_csv, write_text
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    sweep = DuelsSweep.from_config(snakemake.params.duels)
    table = published_comparison(
        pd.read_csv(snakemake.input.regret),
        sweep.leaderboard_horizons,
        {name: (tuned.algorithm, tuned.parameters) for name, tuned in sweep.tuned.items()},
    )
    log.info("verdicts: %s", dict(zip(table["algorithm"], table["verdict"], strict=True)))
    write_csv(snakemake.output.table, table)
    write_text(snakemake.output.markdown, published_markdown(table))
