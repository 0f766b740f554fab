from cdbandits.contextual.experiments import exact_winners_table
from cdbandits.files import write_csv
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    online = snakemake.params.online
    table = exact_winners_table(online, snakemake.params.seed, online["mslr"]["matrices"])
    log.info("exact contextual vNWs:\n%s", table.to_string(index=False))
    write_csv(snakemake.output.table, table)
