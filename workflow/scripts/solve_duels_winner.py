from cdbandits.experiments.duels.environments import environment_instance, write_winner
from cdbandits.experiments.duels.settings import DuelsEnvironment
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    environment = DuelsEnvironment.from_config(
        snakemake.params.environment, f"duels.environments ({snakemake.wildcards.environment})"
    )
    instance = environment_instance(environment, snakemake.params.seed)
    log.info(
        "%s: exact winner over %d distinct policies, support %d, exploitability %.3g (%s)",
        environment.name,
        instance.winner.distinct_policies,
        instance.winner.support.size,
        instance.winner.winner.exploitability,
        instance.winner.winner.solver,
    )
    write_winner(snakemake.output.winner, instance)
