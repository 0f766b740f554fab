import json

from cdbandits.files import save_figure, write_csv, write_json, write_text
from cdbandits.letor import PreferenceEstimate
from cdbandits.letor.validation import plot_validation, validate_against_published
from cdbandits.matrix_io import load_matrix
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    params = snakemake.params
    with open(snakemake.input.data_summary, encoding="utf-8") as stream:
        queries = json.load(stream)["queries"]
    built = PreferenceEstimate.load(snakemake.input.built)
    published = load_matrix(snakemake.input.published)
    about = {
        "dataset": snakemake.wildcards.dataset,
        "click_model": snakemake.wildcards.click_model,
        "queries": queries,
        "separation": params.separation,
    }
    validation = validate_against_published(
        built, published, published_name=params.published, **about
    )
    write_csv(snakemake.output.table, validation.table)
    write_json(snakemake.output.summary, validation.summary)
    write_text(snakemake.output.markdown, validation.markdown)
    comparison = validation.comparison
    log.info(
        "pearson %.3f, sign agreement %.3f on %d pairs separated by more than %g",
        comparison.pearson,
        comparison.sign_agreement,
        comparison.n_separated_pairs,
        params.separation,
    )
    save_figure(plot_validation(built, published, **about), *snakemake.output.figure)
