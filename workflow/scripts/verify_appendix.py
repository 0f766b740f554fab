from cdbandits.experiments.appendix.experiments import sampled_matrix
from cdbandits.experiments.appendix.settings import (
    SamplingSettings,
    SolverSettings,
    VerificationSettings,
)
from cdbandits.experiments.appendix.verification import (
    verification_picks,
    verification_rng,
    verification_summary,
    verify_against_reference,
)
from cdbandits.files import write_csv, write_json
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    params = snakemake.params
    sampling = SamplingSettings.from_config(params.sampling, "appendix")
    solver = SolverSettings.from_config(params.solver, "appendix")
    verification = VerificationSettings.from_config(params.verification, "appendix")
    model = snakemake.wildcards.click_model
    P, plan = sampled_matrix(snakemake.input.matrix, model, sampling, params.seed)
    picks = verification_picks(
        P,
        plan,
        verification.verify_uniform,
        verification.verify_no_condorcet,
        verification_rng(params.seed, model),
    )
    table = verify_against_reference(
        P,
        plan,
        picks,
        weight_tol=verification.verify_weight_tol,
        solver=solver.solver,
    )
    summary = verification_summary(table, verification.verify_weight_tol)
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
                {**params.sampling, **params.solver, **params.verification, "seed": params.seed},
                seeds={"seed": params.seed, "stream": f"appendix-verification/{model}"},
                matrix=snakemake.input.matrix,
            ),
        },
    )
