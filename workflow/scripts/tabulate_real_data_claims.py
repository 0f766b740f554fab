from cdbandits.experiments.real_data.tables import (
    cross_dataset_markdown,
    cross_dataset_table,
    read_stacked,
    series_overview,
)
from cdbandits.files import write_csv, write_text
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]):
    wide = cross_dataset_table(read_stacked(snakemake.input.claims))
    write_csv(snakemake.output.table, wide)
    write_text(snakemake.output.markdown, cross_dataset_markdown(wide))
    write_csv(
        snakemake.output.overview,
        series_overview(
            read_stacked(snakemake.input.matrices), read_stacked(snakemake.input.per_k)
        ),
    )
