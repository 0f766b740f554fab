from pathlib import Path

import pandas as pd

from cdbandits.experiments.real_data.readme import readme_markdown
from cdbandits.experiments.real_data.tables import read_stacked
from cdbandits.files import write_text
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]):
    markdown = readme_markdown(
        claims=read_stacked(snakemake.input.claims),
        per_k=read_stacked(snakemake.input.per_k),
        cross_dataset=Path(snakemake.input.cross_dataset).read_text(encoding="utf-8"),
        gains=read_stacked(snakemake.input.gains),
        agreement=pd.read_csv(snakemake.input.agreement),
        coverage=pd.read_csv(snakemake.input.coverage),
        figures=snakemake.params.figures,
        topics=pd.read_csv(snakemake.input.topics),
    )
    write_text(snakemake.output.readme, markdown)
