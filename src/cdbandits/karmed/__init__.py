"""K-armed dueling bandits: the field's algorithms, compiled simulation, exact regret.

Nine algorithms share one interface (:class:`~cdbandits.karmed.base.DuelingBanditAlgorithm`:
hyper-parameters in ``__init__``, ``start(n_arms, rng, horizon)``, ``select()``,
``update(a, b, outcome)``), each with a NumPy implementation that follows its paper's
algorithm box and a numba kernel that plays many rounds at once; both consume the same
random numbers, so they play the same duels on the same seed.

==========================  ===============================================================
identifier                  algorithm
==========================  ===============================================================
``rucb``                    :class:`RUCB` (Zoghi et al., ICML 2014)
``merge_rucb``              :class:`MergeRUCB` (Zoghi et al., WSDM 2015)
``ccb``                     :class:`CCB` (Zoghi et al., NeurIPS 2015)
``rmed1``                   :class:`RMED1` (Komiyama et al., COLT 2015)
``dts``                     :class:`DoubleThompsonSampling` (Wu and Liu, NeurIPS 2016)
``merge_dts``               :class:`MergeDTS` (Li et al., TOIS 2020)
``self_sparring``           :class:`SelfSparring` (Sui et al., UAI 2017)
``sparring_exp3_karmed``    :class:`SparringExp3` (Ailon et al., ICML 2014)
``versatile_db``            :class:`VersatileDB` (Saha and Gaillard, ICML 2022)
==========================  ===============================================================

:func:`~cdbandits.karmed.simulation.simulate` runs one against a preference matrix and
keeps per-arm play counts at checkpoints; :mod:`cdbandits.karmed.regret` turns them into
regret against the von Neumann winner, rd1 in hindsight, Condorcet and Copeland regret.
:data:`~cdbandits.karmed.published.PUBLISHED_RESULTS` lists what the papers report on the
data this project holds.

**Sources.** The algorithms follow the papers' text and are cross-checked against the
authors' public code where it exists (H. Wu's code for RUCB, CCB and D-TS; J. Komiyama's for
RUCB and RMED; C. Li's for MergeRUCB, MergeDTS, Self-Sparring and Sparring EXP3). Every
module's docstring lists the details that are this implementation's choices. The algorithm
numbers and default parameters of MergeRUCB, MergeDTS, Self-Sparring, Sparring EXP3 and
Versatile-DB come from the papers' text and the authors' code, not from the algorithm boxes
of the papers' PDFs, which they have not been compared with.
"""

from .base import DuelingBanditAlgorithm
from .ccb import CCB
from .dts import DoubleThompsonSampling
from .merge_dts import MergeDTS
from .merge_rucb import MergeRUCB
from .published import PUBLISHED_RESULTS, PublishedResult
from .regret import (
    condorcet_regret,
    copeland_regret,
    hindsight_regret,
    regret_table,
    von_neumann_regret,
)
from .rmed import RMED1
from .rucb import RUCB
from .self_sparring import SelfSparring
from .simulation import SimulationResult, geometric_checkpoints, simulate
from .sparring_exp3 import Exp3, SparringExp3
from .versatile_db import VersatileDB

#: Every algorithm class of the package, by identifier.
ALGORITHMS: dict[str, type[DuelingBanditAlgorithm]] = {
    algorithm.name: algorithm
    for algorithm in (
        RUCB,
        MergeRUCB,
        CCB,
        RMED1,
        DoubleThompsonSampling,
        MergeDTS,
        SelfSparring,
        SparringExp3,
        VersatileDB,
    )
}


def make_algorithm(name: str, **parameters: object) -> DuelingBanditAlgorithm:
    """The algorithm ``name`` (an :data:`ALGORITHMS` key) with the given hyper-parameters."""
    try:
        algorithm = ALGORITHMS[name]
    except KeyError:
        raise KeyError(f"unknown algorithm {name!r}; known: {sorted(ALGORITHMS)}") from None
    return algorithm(**parameters)


__all__ = [
    "ALGORITHMS",
    "CCB",
    "PUBLISHED_RESULTS",
    "RMED1",
    "RUCB",
    "DoubleThompsonSampling",
    "DuelingBanditAlgorithm",
    "Exp3",
    "MergeDTS",
    "MergeRUCB",
    "PublishedResult",
    "SelfSparring",
    "SimulationResult",
    "SparringExp3",
    "VersatileDB",
    "condorcet_regret",
    "copeland_regret",
    "geometric_checkpoints",
    "hindsight_regret",
    "make_algorithm",
    "regret_table",
    "simulate",
    "von_neumann_regret",
]
