import pandas as pd

from cdbandits.experiments.online.settings import OnlineSweep
from cdbandits.experiments.online.tables import (
    combine_online_shards,
    coverage_markdown,
    last_decade_markdown,
    last_decade_slopes,
    online_summary,
    overview_markdown,
    summarise_online,
)
from cdbandits.files import write_csv, write_json, write_text
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    sweep = OnlineSweep.from_config(snakemake.params.online)
    runs, curves = combine_online_shards(
        [pd.read_csv(path) for path in snakemake.input.runs],
        [pd.read_csv(path) for path in snakemake.input.curves],
    )
    tables = (
        {"runs": runs, "curves": curves}
        | summarise_online(runs, sweep.delta, sweep.uniform_expert, snakemake.params.seed)
        | {"last_decade": last_decade_slopes(runs, curves, snakemake.params.seed)}
    )
    for name, table in tables.items():
        write_csv(snakemake.output[name], table)
    write_text(snakemake.output.markdown, coverage_markdown(tables["coverage"]))
    write_text(snakemake.output.last_decade_markdown, last_decade_markdown(tables["last_decade"]))
    summary = online_summary(tables, sweep.delta)
    log.info("all bounds hold: %s", summary["all_bounds_hold"])
    write_text(snakemake.output.overview, overview_markdown(tables, summary))
    write_json(
        snakemake.output.summary,
        summary
        | {
            "metadata": run_metadata(
                snakemake.params.online,
                seeds={
                    "seed": snakemake.params.seed,
                    "stream": "online/<setting>/<seed index>/<horizon>",
                },
            )
        },
    )
