from cdbandits.files import write_json
from cdbandits.letor import LetorData, click_model, estimate_preference_matrix
from cdbandits.randomness import named_generator
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    params = snakemake.params
    dataset, model_name = snakemake.wildcards.dataset, snakemake.wildcards.click_model
    data = LetorData.load(snakemake.input.data)
    model = click_model(model_name, params.custom_click_models)
    stream = ("letor-matrix", dataset, model_name)
    estimate = estimate_preference_matrix(
        data,
        model,
        params.comparisons_per_pair,
        named_generator(params.seed, *stream),
        rankers=params.rankers,
        method=params.method,
        credit_ties=params.credit_ties,
        tau=params.tau,
        list_length=params.list_length,
        threads=snakemake.threads,
    )
    estimate.save(snakemake.output.matrix)
    log.info("tie rate %.4f", estimate.tie_rate)
    write_json(
        snakemake.output.summary,
        run_metadata(
            params.settings,
            seeds={"seed": params.seed, "stream": list(stream)},
            dataset=dataset,
            click_model={"name": model.name, "click": model.click, "stop": model.stop},
            queries=data.n_queries,
            rankers=estimate.rankers,
            comparisons_per_pair=estimate.comparisons_per_pair,
            tie_rate=estimate.tie_rate,
        ),
    )
