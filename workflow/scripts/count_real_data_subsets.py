from cdbandits.experiments.real_data.experiments import run_dataset
from cdbandits.experiments.real_data.settings import SourceSettings, SubsetSettings
from cdbandits.files import write_csv, write_json, write_text
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    sources = SourceSettings.from_config(snakemake.params.sources)
    subsets = SubsetSettings.from_config(snakemake.params.subsets)
    dataset = snakemake.wildcards.dataset
    run = run_dataset(dataset, list(snakemake.input.data), sources, subsets)
    log.info("%s: %d matrices, %d policy notes", dataset, len(run.matrices), len(run.warnings))
    write_csv(snakemake.output.matrices, run.matrices)
    write_json(
        snakemake.output.counts,
        {
            "dataset": dataset,
            "series": [series.to_jsonable() for series in run.series],
            "metadata": run_metadata(
                {"sources": snakemake.params.sources, "subsets": snakemake.params.subsets},
                seeds={"seed": subsets.seed, "stream": "real_data/<data set>/<matrix>"},
            ),
        },
    )
    write_text(snakemake.output.warnings, "".join(f"{note}\n" for note in run.warnings))
