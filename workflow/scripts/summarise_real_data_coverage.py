from cdbandits.experiments.real_data.coverage import merge_case_shards
from cdbandits.experiments.real_data.settings import CoverageSettings
from cdbandits.files import write_csv
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]):
    settings = CoverageSettings.from_config(snakemake.params.coverage)
    table, summary = merge_case_shards(list(snakemake.input.tables), settings)
    write_csv(snakemake.output.table, table)
    write_csv(snakemake.output.summary, summary)
