from cdbandits.experiments.oracle.jobs import SummarySettings
from cdbandits.experiments.oracle.settings import EXPERIMENTS
from cdbandits.experiments.oracle.tables import read_table, summarise_oracle
from cdbandits.files import write_csv, write_json, write_text
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    oracle, seed = snakemake.params.oracle, snakemake.params.seed
    summary = summarise_oracle(
        {name: [read_table(path) for path in snakemake.input[name]] for name in EXPERIMENTS},
        read_table(snakemake.input.scaling),
        read_table(snakemake.input.online),
        SummarySettings.from_config(oracle),
        seed,
        read_table(snakemake.input.detection) if "detection" in snakemake.input.keys() else None,
        (
            read_table(snakemake.input.detection_control)
            if "detection_control" in snakemake.input.keys()
            else None
        ),
    )
    for name, table in summary.tables.items():
        write_csv(snakemake.output[name], table)
    write_text(snakemake.output.markdown, summary.bound_markdown)
    write_text(snakemake.output.crossovers_markdown, summary.scaling_markdown)
    bounds = summary.tables["bound_table"]
    log.info("bound table:\n%s", bounds[["statement", "coverage", "empirical_rate"]])
    write_json(snakemake.output.summary, summary.overview(run_metadata(oracle, seeds=seed)))
