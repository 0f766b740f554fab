from cdbandits.experiments.real_data.examples import worked_examples_markdown
from cdbandits.experiments.real_data.settings import ExampleSettings
from cdbandits.files import write_text
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]):
    settings = ExampleSettings.from_config(snakemake.params.examples)
    paths = {"atp": list(snakemake.input.atp), "trec_dl": [snakemake.input.trec_dl]}
    write_text(snakemake.output.markdown, worked_examples_markdown(paths, settings))
