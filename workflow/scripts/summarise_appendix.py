from cdbandits.appendix import (
    SamplingPlan,
    distribution_table,
    merge_counts,
    per_k_table,
    read_counts,
)
from cdbandits.files import write_csv, write_json
from cdbandits.matrix_io import load_matrix
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    sampling = snakemake.params.sampling
    model = snakemake.wildcards.click_model
    n_arms = load_matrix(snakemake.input.matrix).shape[0]
    plan = SamplingPlan.build(
        model, n_arms, sampling["ks"], sampling["samples_per_k"], sampling["seed"]
    )
    counts = merge_counts([read_counts(path) for path in snakemake.input.shards])
    counts.check_covers(plan)
    intervals = {"confidence": snakemake.params.confidence, "method": snakemake.params.interval}
    per_k = per_k_table(counts, **intervals)
    write_csv(snakemake.output.per_k, per_k)
    for name in ("support_size", "max_copeland_loss"):
        write_csv(snakemake.output[name], distribution_table(counts, name, **intervals))
    totals = counts.totals()
    log.info("%s: %s", model, totals)
    write_json(
        snakemake.output.counts,
        {
            "counts": counts.to_jsonable(),
            "totals": totals,
            "metadata": run_metadata(
                {**sampling, **intervals},
                seeds={"seed": sampling["seed"]},
                matrix=snakemake.input.matrix,
            ),
        },
    )
