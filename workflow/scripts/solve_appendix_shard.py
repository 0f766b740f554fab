from cdbandits.experiments.appendix.experiments import run_shard, sampled_matrix
from cdbandits.experiments.appendix.settings import CountingSettings, SamplingSettings
from cdbandits.files import write_json
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    params = snakemake.params
    sampling = SamplingSettings.from_config(params.sampling, "appendix")
    counting = CountingSettings.from_config(params.counting, "appendix")
    model, shard = snakemake.wildcards.click_model, int(snakemake.wildcards.shard)
    P, plan = sampled_matrix(snakemake.input.matrix, model, sampling, params.seed)
    counts = run_shard(
        P,
        plan,
        shard,
        counting.shards,
        variant=counting.copeland_variant,
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
                {**params.sampling, **params.counting, "seed": params.seed},
                seeds={"seed": params.seed, "stream": f"appendix/{model}/<K>/<block>"},
                matrix=snakemake.input.matrix,
                shard=shard,
            ),
        },
    )
