from cdbandits.experiments.oracle.jobs import ScalingSettings
from cdbandits.experiments.oracle.scaling import scaling_table
from cdbandits.files import write_csv, write_json
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    oracle, seed = snakemake.params.oracle, snakemake.params.seed
    table = scaling_table(ScalingSettings.from_config(oracle), seed)
    log.info("%d measurements", len(table))
    write_csv(snakemake.output.table, table)
    write_json(snakemake.output.metadata, run_metadata(oracle["scaling"], seeds=seed))
