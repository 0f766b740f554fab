import pandas as pd

from cdbandits.experiments.real_data.figures import (
    plot_context_gains,
    plot_dataset_statistics,
    plot_trec_dl_agreement,
)
from cdbandits.experiments.real_data.tables import read_stacked
from cdbandits.files import save_figure
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]):
    for dataset, path in zip(snakemake.params.datasets, snakemake.input.per_k, strict=True):
        figure = plot_dataset_statistics(
            dataset, pd.read_csv(path), snakemake.params.confidence, snakemake.params.interval
        )
        save_figure(figure, *snakemake.output[dataset])
    save_figure(
        plot_context_gains(
            read_stacked(snakemake.input.gains), read_stacked(snakemake.input.draws)
        ),
        *snakemake.output.contexts,
    )
    save_figure(
        plot_trec_dl_agreement(pd.read_csv(snakemake.input.agreement)),
        *snakemake.output.trec_dl_agreement,
    )
