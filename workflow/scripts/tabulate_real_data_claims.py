import pandas as pd

from cdbandits.experiments.real_data.tables import (
    cross_dataset_markdown,
    cross_dataset_table,
    series_overview,
)
from cdbandits.files import write_csv, write_text
from cdbandits.workflow.jobs import log_to_file


def stacked(paths):
    return pd.concat([pd.read_csv(path) for path in paths], ignore_index=True)


with log_to_file(snakemake.log[0]):
    wide = cross_dataset_table(stacked(snakemake.input.claims))
    write_csv(snakemake.output.table, wide)
    write_text(snakemake.output.markdown, cross_dataset_markdown(wide))
    write_csv(
        snakemake.output.overview,
        series_overview(stacked(snakemake.input.matrices), stacked(snakemake.input.per_k)),
    )
