from cdbandits.experiments.real_data.settings import TrecComparisonSettings
from cdbandits.experiments.real_data.trec_dl import run_trec_dl_comparison
from cdbandits.files import write_csv
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]):
    settings = TrecComparisonSettings.from_config(snakemake.params.trec_dl)
    topics = snakemake.params.topics
    table, agreement = run_trec_dl_comparison(
        snakemake.input.judgments,
        {name: snakemake.input[name] for name in settings.qrels},
        settings,
        None if topics is None else [str(topic) for topic in topics],
    )
    write_csv(snakemake.output.topics, table)
    write_csv(snakemake.output.agreement, agreement)
