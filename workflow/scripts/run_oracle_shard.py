from cdbandits.files import write_csv
from cdbandits.oracle_methods.experiments import run_oracle_shard
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    experiment, shard = snakemake.wildcards.experiment, int(snakemake.wildcards.shard)
    rows = run_oracle_shard(snakemake.params.oracle, snakemake.params.seed, experiment, shard)
    log.info("%s shard %d: %d rows", experiment, shard, len(rows))
    write_csv(snakemake.output.rows, rows)
