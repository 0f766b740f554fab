import pandas as pd

from cdbandits.files import write_csv, write_json
from cdbandits.oracle_methods.scaling import SCALING_METHODS, measure
from cdbandits.workflow.jobs import log_to_file, run_metadata

with log_to_file(snakemake.log[0]) as log:
    scaling = snakemake.params.scaling
    config = dict(scaling) | {"delta": snakemake.params.delta}
    rows = []
    for repeat in range(int(scaling["repeats"])):
        for class_size in scaling["class_sizes"]:
            for method in SCALING_METHODS:
                result = measure(method, config, int(class_size), snakemake.params.seed)
                rows.append(result | {"repeat": repeat})
                log.info("%s", rows[-1])
    columns = [
        "method",
        "n_policies",
        "repeat",
        "seconds",
        "peak_mb",
        "peak_reset",
        "exploitability",
    ]
    write_csv(snakemake.output.table, pd.DataFrame(rows, columns=columns))
    write_json(snakemake.output.metadata, run_metadata(scaling, seeds=snakemake.params.seed))
