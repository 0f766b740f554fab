from pathlib import Path

from cdbandits.experiments.appendix.figures import FIGURE_NAMES, appendix_figures
from cdbandits.experiments.appendix.settings import IntervalSettings
from cdbandits.files import save_figure
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    params = snakemake.params
    intervals = IntervalSettings.from_config(params.intervals, "appendix")
    folders = {
        model: Path(path).parent
        for model, path in zip(params.click_models, snakemake.input.per_k, strict=True)
    }
    figures = appendix_figures(
        folders,
        paper_model=params.paper_click_model,
        variant=params.variant,
        confidence=intervals.confidence,
        interval=intervals.interval,
    )
    for name in FIGURE_NAMES:
        save_figure(figures[name], *snakemake.output[name])
        log.info("%s: %s", name, ", ".join(snakemake.output[name]))
