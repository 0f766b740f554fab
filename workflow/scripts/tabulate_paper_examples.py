from cdbandits.files import write_csv, write_json
from cdbandits.paper_examples import clone_table, examples_summary, five_arm_table
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    five_arm = five_arm_table(solver=snakemake.params.solver)
    clone = clone_table(list(snakemake.params.clone_ks), solver=snakemake.params.solver)
    summary = examples_summary(five_arm, clone)
    log.info("paper's examples reproduced: %s", summary["all_match_paper"])
    write_csv(snakemake.output.five_arm, five_arm)
    write_csv(snakemake.output.clone, clone)
    write_json(
        snakemake.output.summary,
        {**summary, "metadata": run_metadata(snakemake.config["winners"])},
    )
