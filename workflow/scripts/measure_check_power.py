from cdbandits.experiments.oracle.detection_settings import DetectionSettings
from cdbandits.experiments.oracle.power import measure_power, power_markdown, power_table
from cdbandits.experiments.oracle.statements import STATEMENTS
from cdbandits.files import write_csv, write_text
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    oracle, seed = snakemake.params.oracle, snakemake.params.seed
    power = measure_power(DetectionSettings.from_config(oracle), seed)
    write_csv(snakemake.output.power, power)
    table = power_table(power)
    write_csv(snakemake.output.table, table)
    names = tuple(statement.name for statement in STATEMENTS)
    write_text(snakemake.output.markdown, power_markdown(power, names))
    log.info("smallest factors detected:\n%s", table)
