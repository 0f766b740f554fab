from cdbandits.experiments.oracle.detection import (
    DetectionSettings,
    detect_broken_variants,
    detection_markdown,
    detection_metadata,
)
from cdbandits.files import write_csv, write_json, write_text
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    oracle, seed = snakemake.params.oracle, snakemake.params.seed
    result = detect_broken_variants(DetectionSettings.from_config(oracle), seed)
    write_csv(snakemake.output.matrix, result.matrix)
    write_csv(snakemake.output.checks, result.checks)
    write_text(snakemake.output.markdown, detection_markdown(result))
    log.info("checks:\n%s", result.checks[["statement", "informative", "power"]])
    write_json(
        snakemake.output.metadata, detection_metadata(result, run_metadata(oracle, seeds=seed))
    )
