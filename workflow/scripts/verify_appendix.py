from cdbandits.appendix import (
    SamplingPlan,
    verification_picks,
    verification_rng,
    verification_summary,
    verify_against_reference,
)
from cdbandits.files import write_csv, write_json
from cdbandits.matrix_io import load_matrix
from cdbandits.preference import as_skew
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    sampling = snakemake.params.sampling
    model = snakemake.wildcards.click_model
    P = as_skew(load_matrix(snakemake.input.matrix), "auto")
    plan = SamplingPlan.build(
        model, P.shape[0], sampling["ks"], sampling["samples_per_k"], sampling["seed"]
    )
    picks = verification_picks(
        P,
        plan,
        snakemake.params.uniform,
        snakemake.params.double_oracle,
        verification_rng(sampling["seed"], model),
        max_restricted=sampling["max_restricted"],
    )
    table = verify_against_reference(
        P,
        plan,
        picks,
        weight_tol=snakemake.params.weight_tol,
        solver=sampling["solver"],
        max_restricted=sampling["max_restricted"],
    )
    summary = verification_summary(table, snakemake.params.weight_tol)
    log.info(
        "%s: batched solver agrees with cvxpy on %d of %d matrices",
        model,
        summary["agreeing"],
        summary["matrices"],
    )
    if not summary["agrees"]:
        log.warning("%s: disagreements %s", model, summary["disagreeing"])
    if not summary["agrees_or_resolved"]:
        log.error("%s: unresolved disagreements with the reference", model)
    write_csv(snakemake.output.table, table)
    write_json(
        snakemake.output.summary,
        {
            **summary,
            "metadata": run_metadata(
                sampling,
                seeds={"seed": sampling["seed"], "stream": f"appendix-verification/{model}"},
                matrix=snakemake.input.matrix,
                uniform=snakemake.params.uniform,
                double_oracle=snakemake.params.double_oracle,
            ),
        },
    )
