import json

import pandas as pd

from cdbandits.experiments.appendix.readme import appendix_readme
from cdbandits.experiments.appendix.settings import IntervalSettings
from cdbandits.files import write_text
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    params = snakemake.params
    intervals = IntervalSettings.from_config(params.intervals, "appendix")
    models = params.click_models
    per_k = {m: pd.read_csv(path) for m, path in zip(models, snakemake.input.per_k, strict=True)}
    verification = {}
    for model, path in zip(models, snakemake.input.verification, strict=True):
        with open(path, encoding="utf-8") as stream:
            verification[model] = json.load(stream)
    text = appendix_readme(
        pd.read_csv(snakemake.input.claims),
        pd.read_csv(snakemake.input.k_grid),
        per_k,
        verification,
        paper_model=params.paper_click_model,
        variant=params.variant,
        confidence=intervals.confidence,
        method=intervals.interval,
    )
    write_text(snakemake.output.readme, text)
    log.info("%s: %d lines", snakemake.output.readme, text.count("\n"))
