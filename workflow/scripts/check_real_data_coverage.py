from cdbandits.experiments.real_data.coverage import (
    case_log,
    coverage_case,
    coverage_shard,
    shard_replications,
)
from cdbandits.experiments.real_data.settings import CoverageSettings, ExampleSettings
from cdbandits.files import write_csv, write_json
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    settings = CoverageSettings.from_config(snakemake.params.coverage)
    examples = ExampleSettings.from_config(snakemake.params.examples)
    name, shard = snakemake.wildcards.case, int(snakemake.wildcards.shard)
    log_, description = case_log(name, list(snakemake.input.data), examples)
    case = coverage_case(name, log_, description, settings.seed)
    replications = shard_replications(settings, shard)
    log.info("%s, shard %d: %d replications", description, shard, replications)
    write_csv(snakemake.output.table, coverage_shard(case, settings, shard))
    write_json(snakemake.output.case, case.to_dict())
