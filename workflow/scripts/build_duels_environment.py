from cdbandits.experiments.duels.environments import (
    build_environment,
    environment_instance,
    environment_summary,
    read_winner,
    write_environment,
)
from cdbandits.experiments.duels.settings import DuelsEnvironment
from cdbandits.files import write_json
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    environment = DuelsEnvironment.from_config(
        snakemake.params.environment, f"duels.environments ({snakemake.wildcards.environment})"
    )
    # a contextual population's exact winner, solved by rule solve_duels_winner (checked here)
    winner = read_winner(snakemake.input.winner[0]) if snakemake.input.winner else None
    instance = environment_instance(environment, snakemake.params.seed, winner)
    matrix, names = build_environment(environment, list(snakemake.input.data), instance)
    summary = environment_summary(environment, matrix, names, instance)
    log.info(
        "%s: K = %d, Condorcet winner %s", environment.name, len(names), summary["condorcet_winner"]
    )
    write_environment(snakemake.output.matrix, matrix, names)
    write_json(snakemake.output.summary, summary)
