from pathlib import Path

from cdbandits.appendix_plots import FIGURE_NAMES, appendix_figures
from cdbandits.files import save_figure
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    params = snakemake.params
    folders = {
        model: Path(path).parent
        for model, path in zip(params.click_models, snakemake.input.per_k, strict=True)
    }
    figures = appendix_figures(
        folders,
        paper_model=params.paper_click_model,
        variant=params.variant,
        confidence=params.confidence,
        interval=params.interval,
    )
    for name in FIGURE_NAMES:
        save_figure(figures[name], *snakemake.output[name])
        log.info("%s: %s", name, ", ".join(snakemake.output[name]))
