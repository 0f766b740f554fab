import json

import numpy as np

from cdbandits.files import save_figure, write_csv, write_json, write_text
from cdbandits.letor import PreferenceEstimate, compare_matrices, comparison_table, plot_comparison
from cdbandits.letor.validation import comparison_summary_markdown
from cdbandits.matrix_io import load_matrix
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    params = snakemake.params
    dataset, model_name = snakemake.wildcards.dataset, snakemake.wildcards.click_model
    with open(snakemake.input.data_summary, encoding="utf-8") as stream:
        queries = json.load(stream)["queries"]
    built = PreferenceEstimate.load(snakemake.input.built)
    rankers = built.rankers
    published = load_matrix(snakemake.input.published)[np.ix_(rankers, rankers)]
    comparison = compare_matrices(built.probability, published, params.separation)
    table = comparison_table(built.probability, published)
    write_csv(snakemake.output.table, table)
    caveat = (
        f"The built matrix comes from {queries} queries of {dataset}; the published one was "
        "estimated on the full MSLR data set. A small sample of queries cannot reproduce it "
        "entry by entry: per-query preferences vary, so other queries give another matrix "
        "whatever the number of comparisons. The agreement measures how much of the "
        "published matrix comes from behaviour of the rankers common to all queries."
    )
    winners_as_features = comparison.as_dict()
    for key in ("built_condorcet_winner", "published_condorcet_winner"):
        if winners_as_features[key] is not None:
            winners_as_features[key] = int(rankers[winners_as_features[key]])
    for key in ("built_copeland_winners", "published_copeland_winners"):
        winners_as_features[key] = [int(rankers[arm]) for arm in winners_as_features[key]]
    write_json(
        snakemake.output.summary,
        {
            "dataset": dataset,
            "click_model": model_name,
            "queries": queries,
            "comparisons_per_pair": built.comparisons_per_pair,
            "credit_ties": built.credit_ties,
            "published": params.published,
            **winners_as_features,
            "rankers": rankers,
            "caveat": caveat,
        },
    )
    write_text(
        snakemake.output.markdown,
        comparison_summary_markdown(
            comparison,
            click_model=model_name,
            dataset=dataset,
            queries=queries,
            method=built.method,
            comparisons_per_pair=built.comparisons_per_pair,
            rankers=rankers,
        ),
    )
    log.info(
        "pearson %.3f, sign agreement %.3f on %d pairs separated by more than %g",
        comparison.pearson,
        comparison.sign_agreement,
        comparison.n_separated_pairs,
        params.separation,
    )
    figure = plot_comparison(
        built.probability,
        published,
        title=(
            f"{model_name} matrix built from {queries} {dataset} queries "
            f"({built.comparisons_per_pair} comparisons/pair, {built.credit_ties} credit ties) "
            "vs the published one (full MSLR; a sample cannot reproduce it entry by entry)"
        ),
        separation=params.separation,
    )
    save_figure(figure, *snakemake.output.figure)
