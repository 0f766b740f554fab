from cdbandits.datasets import extract_member
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]):
    extract_member(
        snakemake.input.archive,
        f"{snakemake.wildcards.fold}/{snakemake.wildcards.part}.txt",
        snakemake.output.text,
    )
