from pathlib import Path

from cdbandits.experiments.duels.environments import read_environment, read_winner
from cdbandits.experiments.duels.experiments import run_duels_shard
from cdbandits.experiments.duels.settings import DuelsSweep
from cdbandits.files import write_csv
from cdbandits.workflow.jobs import log_to_file

with log_to_file(snakemake.log[0]) as log:
    sweep = DuelsSweep.from_config(snakemake.params.duels)
    environments = {Path(path).stem: read_environment(path) for path in snakemake.input.matrices}
    winners = {Path(path).stem: read_winner(path) for path in snakemake.input.winners}
    shard = int(snakemake.wildcards.shard)
    regret, timings = run_duels_shard(sweep, snakemake.params.seed, shard, environments, winners)
    log.info("shard %d: %d runs", shard, len(timings))
    write_csv(snakemake.output.regret, regret)
    write_csv(snakemake.output.timings, timings)
