from cdbandits.experiments.online.experiments import run_online_shard
from cdbandits.experiments.online.settings import OnlineSweep
from cdbandits.files import write_csv
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    sweep = OnlineSweep.from_config(snakemake.params.online)
    shard = int(snakemake.wildcards.shard)
    runs, curves = run_online_shard(sweep, snakemake.params.seed, shard)
    log.info("shard %d: %d episodes", shard, len(runs))
    write_csv(snakemake.output.runs, runs)
    write_csv(snakemake.output.curves, curves)
