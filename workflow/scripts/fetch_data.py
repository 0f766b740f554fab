import sys

from cdbandits.datasets import DataUnavailableError, fetch
from cdbandits.workflow.jobs import log_to_file

try:
    with log_to_file(snakemake.log[0]):
        fetch(snakemake.wildcards.key, snakemake.output.data, mirror=snakemake.params.mirror)
except DataUnavailableError as error:
    # The message, not a traceback, on the console: the user has to act on it.
    sys.exit(f"fetch_data_file: {error}")
