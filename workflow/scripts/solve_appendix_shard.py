from cdbandits.appendix import SamplingPlan, run_shard
from cdbandits.files import write_json
from cdbandits.matrix_io import load_matrix
from cdbandits.preference import as_skew
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    sampling = snakemake.params.sampling
    model, shard = snakemake.wildcards.click_model, int(snakemake.wildcards.shard)
    P = as_skew(load_matrix(snakemake.input.matrix), "auto")
    plan = SamplingPlan.build(
        model, P.shape[0], sampling["ks"], sampling["samples_per_k"], sampling["seed"]
    )
    counts = run_shard(
        P,
        plan,
        shard,
        sampling["shards"],
        variant=sampling["copeland_variant"],
        max_restricted=sampling["max_restricted"],
        fallback_solver=sampling["solver"],
        threads=snakemake.threads,
    )
    log.info(
        "%s shard %d: paths %s",
        model,
        shard,
        {k: c.methods for k, c in counts.per_k.items() if c.methods["interior_point"]}
        or "simplex or Condorcet shortcut only",
    )
    write_json(
        snakemake.output.counts,
        {
            "counts": counts.to_jsonable(),
            "metadata": run_metadata(
                sampling,
                seeds={"seed": sampling["seed"], "stream": f"appendix/{model}/<K>/<block>"},
                matrix=snakemake.input.matrix,
                shard=shard,
            ),
        },
    )
