import json

import pandas as pd

from cdbandits.experiments.duels.readme import capped_horizons, readme_markdown, recommendations
from cdbandits.experiments.duels.settings import DuelsSweep
from cdbandits.experiments.duels.tables import algorithm_labels
from cdbandits.files import write_text
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    sweep = DuelsSweep.from_config(snakemake.params.duels)
    with open(snakemake.input.summary, encoding="utf-8") as stream:
        environments = json.load(stream)["environments"]
    board = pd.read_csv(snakemake.input.leaderboard)
    advice = recommendations(board, environments)
    log.info(
        "recommended: %s", advice[advice["recommended"]][["group", "algorithm"]].to_dict("records")
    )
    write_text(
        snakemake.output.readme,
        readme_markdown(
            advice,
            environments,
            pd.read_csv(snakemake.input.published),
            algorithm_labels({name: t.algorithm for name, t in sweep.tuned.items()}),
            seeds=sweep.seeds,
            horizon=sweep.horizon,
            capped=capped_horizons(board, environments),
        ),
    )
