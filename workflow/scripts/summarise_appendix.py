from cdbandits.experiments.appendix.counts import merge_counts, read_counts
from cdbandits.experiments.appendix.experiments import sampled_matrix
from cdbandits.experiments.appendix.settings import IntervalSettings, SamplingSettings
from cdbandits.experiments.appendix.tables import summary_tables
from cdbandits.files import write_csv, write_json
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    params = snakemake.params
    sampling = SamplingSettings.from_config(params.sampling, "appendix")
    intervals = IntervalSettings.from_config(params.intervals, "appendix")
    model = snakemake.wildcards.click_model
    _, plan = sampled_matrix(snakemake.input.matrix, model, sampling, params.seed)
    counts = merge_counts([read_counts(path) for path in snakemake.input.shards])
    counts.check_covers(plan)
    tables = summary_tables(counts, intervals.confidence, intervals.interval)
    for name, table in tables.items():
        write_csv(snakemake.output[name], table)
    totals = counts.totals()
    log.info("%s: %s", model, totals)
    write_json(
        snakemake.output.counts,
        {
            "counts": counts.to_jsonable(),
            "totals": totals,
            "metadata": run_metadata(
                {**params.sampling, **params.intervals, "seed": params.seed},
                seeds={"seed": params.seed},
                matrix=snakemake.input.matrix,
            ),
        },
    )
