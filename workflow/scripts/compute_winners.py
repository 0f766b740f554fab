from cdbandits.files import write_csv, write_json, write_text
from cdbandits.matrix_io import load_matrix
from cdbandits.preference import as_skew
from cdbandits.winners import all_winners, winners_markdown, winners_table
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    details = {}
    for name, path in zip(snakemake.params.names, snakemake.input.matrices, strict=True):
        details[name] = all_winners(as_skew(load_matrix(path)), solver=snakemake.params.solver)
        log.info("%s: von Neumann support %s", name, details[name]["von_neumann"]["support"])
    write_csv(snakemake.output.table, winners_table(details))
    write_text(snakemake.output.markdown, winners_markdown(details))
    write_json(
        snakemake.output.details,
        {"matrices": details, "metadata": run_metadata(snakemake.config["winners"])},
    )
