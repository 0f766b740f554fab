"""A tiny online config section and its sweep, for the tests of cdbandits.experiments.online."""

import copy
from functools import cache

import pandas as pd

from cdbandits.experiments.online.experiments import run_online_shard
from cdbandits.experiments.online.settings import OnlineSection, OnlineSweep
from cdbandits.experiments.online.tables import combine_online_shards

SEED = 11

TINY = {
    "seeds": 3,
    "delta": 0.05,
    "uniform_expert": True,
    "algorithms": ["sparring_exp4p", "sparring_exp3", "uniform"],
    "checkpoints": 4,
    "shards": 2,
    "lp_solver": "HIGHS",
    "lp_max_policies": 100,
    "synthetic": {
        "n_actions": [3],
        "n_policies": [20],
        "n_features": 2,
        "n_contexts": 15,
        "intransitivity": 0.8,
        "horizons": [100, 400],
    },
    "long_horizon": {
        "n_actions": 3,
        "n_policies": 20,
        "horizons": [400, 800],
        "last_decade_checkpoints": 5,
    },
    "supervised": {"dataset": "iris", "margin": 0.6, "n_bins": 2, "horizons": [100, 400]},
    "adversarial": {
        "n_actions": 3,
        "n_policies": 10,
        "n_features": 2,
        "n_contexts": 5,
        "margin": 0.8,
        "horizons": [100],
    },
    "mslr": {"matrices": None, "n_bins": 2, "horizons": [100]},
}


def tiny_config(**changes):
    """A deep copy of TINY with ``section__key=value`` (or ``key=value``) changes."""
    config = copy.deepcopy(TINY)
    for name, value in changes.items():
        section, _, key = name.partition("__")
        if key:
            config[section][key] = value
        else:
            config[section] = value
    return config


@cache
def tiny_sweep() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The combined runs and curves of TINY's two shards (computed once per session)."""
    sweep = OnlineSection.from_config(TINY)
    shards = [run_online_shard(sweep, SEED, shard) for shard in range(sweep.shards)]
    return combine_online_shards([s[0] for s in shards], [s[1] for s in shards])


def in_one_shard(sweep: OnlineSweep) -> OnlineSweep:
    """``sweep`` run as a single shard."""
    return sweep.model_copy(update={"shards": 1})
