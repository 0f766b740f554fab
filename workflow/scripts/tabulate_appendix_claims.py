from cdbandits.experiments.appendix.claims import appendix_claims, claims_markdown
from cdbandits.experiments.appendix.counts import read_model_counts
from cdbandits.experiments.appendix.settings import IntervalSettings
from cdbandits.files import write_csv, write_json, write_text
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    params = snakemake.params
    intervals = IntervalSettings.from_config(params.intervals, "appendix")
    counts = read_model_counts(params.click_models, snakemake.input.counts)
    claims = appendix_claims(
        counts,
        params.clone_ks,
        paper_model=params.paper_click_model,
        confidence=intervals.confidence,
        method=intervals.interval,
        solver=params.solver,
    )
    failing = claims.loc[~claims["holds"].astype(bool), ["click_model", "claim"]]
    log.info(
        "%d of %d claims hold; failing: %s",
        len(claims) - len(failing),
        len(claims),
        failing.to_dict("records"),
    )
    write_csv(snakemake.output.table, claims)
    write_text(snakemake.output.markdown, claims_markdown(claims))
    write_json(
        snakemake.output.summary,
        {
            "claims": len(claims),
            "holding": int(claims["holds"].astype(bool).sum()),
            "failing": failing.to_dict("records"),
            "metadata": run_metadata(
                {
                    "click_models": params.click_models,
                    "paper_click_model": params.paper_click_model,
                    "clone_ks": params.clone_ks,
                    "solver": params.solver,
                    **params.intervals,
                }
            ),
        },
    )
