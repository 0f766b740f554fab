import json

import pandas as pd

from cdbandits.experiments.duels.settings import DuelsSweep
from cdbandits.experiments.duels.tables import (
    algorithm_labels,
    combine_duels_shards,
    leaderboard_markdown,
    summarise_duels,
)
from cdbandits.files import write_csv, write_json, write_text
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    sweep = DuelsSweep.from_config(snakemake.params.duels)
    regret = combine_duels_shards([pd.read_csv(path) for path in snakemake.input.regret])
    environments = {}
    for path in snakemake.input.environments:
        with open(path, encoding="utf-8") as stream:
            summary = json.load(stream)
        environments[summary["environment"]] = summary
    tables = summarise_duels(regret, environments, sweep.leaderboard_horizons)
    log.info("%d checkpoint rows, %d leaderboard rows", len(regret), len(tables["leaderboard"]))
    write_csv(snakemake.output.regret, regret)
    for name in ("curves", "leaderboard", "environments"):
        write_csv(snakemake.output[name], tables[name])
    labels = algorithm_labels({name: t.algorithm for name, t in sweep.tuned.items()})
    write_text(
        snakemake.output.markdown,
        leaderboard_markdown(tables["leaderboard"], tables["summaries"], labels),
    )
    write_json(
        snakemake.output.summary,
        {
            "environments": tables["summaries"],
            "metadata": run_metadata(
                snakemake.params.duels,
                seeds={
                    "seed": snakemake.params.seed,
                    "stream": "duels/<environment>/<seed index> (subsets: .../subset)",
                },
            ),
        },
    )
