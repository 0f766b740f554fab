from cdbandits.experiments.oracle.experiments import run_oracle_shard
from cdbandits.experiments.oracle.jobs import SweepSettings
from cdbandits.files import write_csv
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    experiment, shard = snakemake.wildcards.experiment, int(snakemake.wildcards.shard)
    sweep = SweepSettings.from_config(snakemake.params.oracle, experiment)
    rows = run_oracle_shard(sweep, snakemake.params.seed, shard)
    log.info("%s shard %d: %d rows", experiment, shard, len(rows))
    write_csv(snakemake.output.rows, rows)
