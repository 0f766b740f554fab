from cdbandits.files import copy_file
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    for source, destination in zip(snakemake.input.figures, snakemake.output.figures, strict=True):
        copy_file(source, destination)
        log.info("%s -> %s", source, destination)
