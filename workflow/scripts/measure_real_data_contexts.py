from cdbandits.experiments.real_data.contexts import draws_table, run_context_analysis
from cdbandits.experiments.real_data.settings import ContextSettings
from cdbandits.files import write_csv
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    settings = ContextSettings.from_config(snakemake.params.contexts)
    periods = {name: tuple(seasons) for name, seasons in snakemake.params.atp_periods.items()}
    gain = run_context_analysis(
        list(snakemake.input.data), snakemake.wildcards.analysis, settings, periods
    )
    log.info("%s: gain %.4f, p = %.3f", gain.name, gain.gain, gain.p_value)
    write_csv(snakemake.output.gain, gain.summary_table())
    write_csv(snakemake.output.exploitability, gain.exploitability_table())
    write_csv(snakemake.output.lotteries, gain.lottery_table())
    write_csv(snakemake.output.draws, draws_table(gain))
