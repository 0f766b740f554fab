from cdbandits.files import write_json
from cdbandits.letor import LetorData, click_model, estimate_per_query_matrices
from cdbandits.randomness import named_generator
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]):
    params = snakemake.params
    dataset, model_name = snakemake.wildcards.dataset, snakemake.wildcards.click_model
    data = LetorData.load(snakemake.input.data)
    model = click_model(model_name, params.custom_click_models)
    stream = ("letor-per-query", dataset, model_name)
    result = estimate_per_query_matrices(
        data,
        params.rankers,
        model,
        params.comparisons_per_pair,
        named_generator(params.seed, *stream),
        method=params.method,
        credit_ties=params.credit_ties,
        tau=params.tau,
        list_length=params.list_length,
        threads=snakemake.threads,
    )
    result.save(snakemake.output.matrices)
    write_json(
        snakemake.output.summary,
        run_metadata(
            params.settings,
            seeds={"seed": params.seed, "stream": list(stream)},
            dataset=dataset,
            click_model={"name": model.name, "click": model.click, "stop": model.stop},
            queries=int(result.qids.size),
            truncated_queries=int(result.truncated.sum()),
            rankers=result.rankers,
            comparisons_per_pair_per_query=result.comparisons_per_pair,
            standard_error_bound=result.standard_error_bound,
            estimate=(
                "Monte Carlo: each entry averages comparisons_per_pair comparisons on its query"
            ),
        ),
    )
