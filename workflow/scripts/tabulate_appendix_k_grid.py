from cdbandits.experiments.appendix.counts import read_model_counts
from cdbandits.experiments.appendix.k_grid import k_grid_markdown, k_grid_table
from cdbandits.experiments.appendix.settings import IntervalSettings
from cdbandits.files import write_csv, write_text
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    params = snakemake.params
    intervals = IntervalSettings.from_config(params.intervals, "appendix")
    table = k_grid_table(
        read_model_counts(params.click_models, snakemake.input.counts),
        paper_model=params.paper_click_model,
        confidence=intervals.confidence,
        method=intervals.interval,
    )
    log.info("largest K_max per claim:\n%s", table[["click_model", "claim", "largest_k_max"]])
    write_csv(snakemake.output.table, table)
    write_text(snakemake.output.markdown, k_grid_markdown(table))
