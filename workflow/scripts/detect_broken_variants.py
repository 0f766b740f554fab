from cdbandits.experiments.oracle.detection import detect_broken_variants
from cdbandits.experiments.oracle.detection_settings import DetectionSettings
from cdbandits.experiments.oracle.detection_tables import detection_markdown, detection_metadata
from cdbandits.files import write_csv, write_json, write_text
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    oracle, seed = snakemake.params.oracle, snakemake.params.seed
    result = detect_broken_variants(DetectionSettings.from_config(oracle), seed)
    write_csv(snakemake.output.matrix, result.matrix)
    write_csv(snakemake.output.checks, result.checks)
    write_csv(snakemake.output.variants, result.variants)
    write_csv(snakemake.output.control, result.control_checks)
    write_text(snakemake.output.markdown, detection_markdown(result))
    log.info("variants:\n%s", result.variants[["variant", "status"]])
    write_json(
        snakemake.output.metadata, detection_metadata(result, run_metadata(oracle, seeds=seed))
    )
