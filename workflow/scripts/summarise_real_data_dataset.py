import pandas as pd

from cdbandits.experiments.real_data.settings import SubsetSettings
from cdbandits.experiments.real_data.tables import read_series_counts, series_claims, series_tables
from cdbandits.files import write_csv
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]):
    subsets = SubsetSettings.from_config(snakemake.params.subsets)
    series = read_series_counts(snakemake.input.counts)
    matrices = pd.read_csv(snakemake.input.matrices)
    tables = series_tables(series, matrices, subsets.confidence, subsets.interval)
    write_csv(snakemake.output.per_k, tables["per_k"])
    write_csv(snakemake.output.support_size, tables["support_size"])
    write_csv(snakemake.output.claims, series_claims(series, subsets.confidence, subsets.interval))
