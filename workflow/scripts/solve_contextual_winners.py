from cdbandits.experiments.online.settings import ExactWinnerSettings
from cdbandits.experiments.online.tables import exact_winners_table
from cdbandits.files import write_csv
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    winners = ExactWinnerSettings.from_config(snakemake.params.online)
    table = exact_winners_table(winners, snakemake.params.seed)
    log.info("exact contextual vNWs:\n%s", table.to_string(index=False))
    write_csv(snakemake.output.table, table)
