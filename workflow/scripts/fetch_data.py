from cdbandits.datasets import fetch
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]):
    fetch(snakemake.wildcards.key, snakemake.output.data, mirror=snakemake.params.mirror)
