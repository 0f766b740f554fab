"""The preference matrices of the duels environments, built from the fetched public data.

:func:`build_environment` turns the data files of one
:class:`~cdbandits.experiments.duels.settings.DuelsEnvironment` into a probability-form
matrix ``Q[i, j] = Pr(i beats j)`` with arm names:

* ``"matrix"``: the file as published (:func:`cdbandits.matrix_io.load_matrix`), arms
  named ``ranker 0`` ...; a subset environment keeps the whole matrix here and draws its
  arms per seed (:func:`subset_arms`);
* ``"atp"``: the match results (:data:`cdbandits.comparisons.LOG_PRESETS` ``"atp"``:
  walkovers dropped), counted (:func:`cdbandits.comparisons.count_pairs`); the players with
  the most wins (ties by name) and ``Q[i, j]`` their share of the matches between them.
  Every pair must have met: a pair that never did stops the build with its names;
* ``"preflib"``: ``Q[i, j]`` the share of the voters ranking ``i`` above ``j`` among those
  ranking both (:func:`cdbandits.comparisons.pairwise_margins`), 1/2 for a pair no voter
  ranks;
* ``"contextual"`` and ``"online"``: no data file; the context-averaged matrix of the
  environment (drawn from the master seed, or the online family's instance;
  :mod:`.contextual`), actions named ``action 0`` ...; the adaptive adversary, which has
  no fixed matrix, stands in with its ``P_t`` in a context not yet played
  (:func:`~.adversarial.opening_probabilities`).

:func:`environment_instance` draws a contextual environment once from the master seed;
:func:`write_winner` / :func:`read_winner` store the exact winner of a population's policy
class (its weights and certificate, :func:`~.contextual.winner_record`) so that the jobs
that draw the same instance again check it instead of solving the LP again;
:func:`environment_summary` describes the matrix (Condorcet winner, von Neumann winner,
Copeland winners) for the tables; for the adaptive adversary there are none, and the
summary says what the adversary is instead (:func:`~.adversarial.adversarial_summary`).
:func:`write_environment` / :func:`read_environment` store it as a CSV with the names as
header and index.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ...comparisons.counts import count_pairs
from ...comparisons.logs import LOG_PRESETS, read_logs
from ...comparisons.preflib import pairwise_margins, read_preflib
from ...files import write_csv, write_json
from ...matrix_io import load_matrix
from ...preference import Convention as MatrixConvention
from ...preference import as_skew
from ...randomness import named_generator
from ...winners import condorcet_winner, copeland_winners, von_neumann_winner
from .adversarial import (
    AdversarialInstance,
    adversarial_summary,
    build_adversarial_instance,
    opening_probabilities,
)
from .contextual import (
    ContextualInstance,
    build_contextual_instance,
    context_averaged_probabilities,
    contextual_summary,
    winner_record,
)
from .settings import DuelsEnvironment

__all__ = [
    "PreferenceEnvironment",
    "build_environment",
    "environment_instance",
    "environment_summary",
    "has_population",
    "read_environment",
    "read_winner",
    "subset_arms",
    "write_environment",
    "write_winner",
]

PreferenceEnvironment = tuple[NDArray[np.float64], tuple[str, ...]]

InstanceT = TypeVar("InstanceT", ContextualInstance, AdversarialInstance)


def _probability(
    matrix: NDArray[np.float64], convention: MatrixConvention | Literal["auto"] = "auto"
) -> NDArray[np.float64]:
    return (as_skew(matrix, convention) + 1.0) / 2.0


def _atp_matrix(paths: Sequence[str | os.PathLike[str]], players: int) -> PreferenceEnvironment:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dropped walkovers are documented above
        counts = count_pairs(read_logs(list(paths), LOG_PRESETS["atp"]))
    if players > len(counts.items):
        raise ValueError(
            f"players = {players} exceeds the {len(counts.items)} players in the files"
        )
    names = np.asarray(counts.items, dtype=object)
    order = np.lexsort((names, -counts.wins.sum(axis=1)))[:players]
    wins = counts.wins[np.ix_(order, order)]
    matches = wins + wins.T
    np.fill_diagonal(matches, 1.0)
    if (matches == 0).any():
        i, j = np.argwhere(matches == 0)[0]
        raise ValueError(
            f"{names[order[i]]} and {names[order[j]]} never met in these files; "
            "choose fewer players or more years"
        )
    q = wins / matches
    np.fill_diagonal(q, 0.5)
    return q, tuple(str(name) for name in names[order])


def _preflib_matrix(path: str | os.PathLike[str]) -> PreferenceEnvironment:
    election = read_preflib(path)
    above = pairwise_margins(election).astype(np.float64)
    voters = above + above.T
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.where(voters > 0, above / voters, 0.5)
    np.fill_diagonal(q, 0.5)
    return q, election.alternatives


def has_population(environment: DuelsEnvironment) -> bool:
    """Whether ``environment`` is a contextual population with an exact winner (contextual
    or online, not the adaptive adversary)."""
    return environment.contextual and not environment.adversarial


def environment_instance(
    environment: DuelsEnvironment, seed: int, winner: Mapping[str, Any] | None = None
) -> ContextualInstance | AdversarialInstance | None:
    """The instance a contextual environment is drawn as from the master ``seed``.

    :func:`~.contextual.build_contextual_instance`, or
    :func:`~.adversarial.build_adversarial_instance` for the adaptive adversary; None for a
    K-armed environment, which is its matrix. Built once and handed to
    :func:`build_environment` and :func:`environment_summary`. Building it solves the exact
    winner of the policy class, unless ``winner`` (:func:`read_winner`) holds it: then its
    certificate is checked on the instance (:func:`~.contextual.stored_winner`).
    """
    if not environment.contextual:
        return None
    if environment.adversarial:
        return build_adversarial_instance(environment, seed)
    return build_contextual_instance(environment, seed, winner)


def build_environment(
    environment: DuelsEnvironment,
    paths: Sequence[str | os.PathLike[str]],
    instance: ContextualInstance | AdversarialInstance | None = None,
) -> PreferenceEnvironment:
    """The probability matrix and arm names of ``environment`` from its data ``paths``.

    ``paths`` are the fetched files of ``environment.data``, in that order. A contextual
    environment reads none: its matrix is the context-averaged one of its ``instance``
    (:func:`environment_instance`), which the K-armed algorithms meet (:mod:`.contextual`).
    """
    if len(paths) != len(environment.data):
        raise ValueError(
            f"environment {environment.name!r} reads {len(environment.data)} files; "
            f"got {len(paths)}"
        )
    if environment.adversarial:
        q = opening_probabilities(_instance_of(environment, instance, AdversarialInstance))
        return q, tuple(f"action {i}" for i in range(q.shape[0]))
    if environment.contextual:
        q = context_averaged_probabilities(_instance_of(environment, instance, ContextualInstance))
        return q, tuple(f"action {i}" for i in range(q.shape[0]))
    if environment.kind == "matrix":
        q = _probability(load_matrix(paths[0]))
        if environment.arms is not None and environment.arms > q.shape[0]:
            raise ValueError(
                f"environment {environment.name!r}: arms = {environment.arms} exceeds the "
                f"{q.shape[0]} arms of {Path(paths[0]).name}"
            )
        return q, tuple(f"ranker {i}" for i in range(q.shape[0]))
    if environment.kind == "atp":
        assert environment.players is not None  # the settings require it
        return _atp_matrix(paths, environment.players)
    return _preflib_matrix(paths[0])


def subset_arms(
    environment: DuelsEnvironment, n_arms: int, seed: int, seed_index: int
) -> NDArray[np.int64]:
    """The arms a seed plays on: all, or ``environment.arms`` of them drawn for that seed.

    The draw (sorted, without replacement) comes from the stream
    ``duels/<environment>/<seed index>/subset`` and is the same for every algorithm.
    """
    if environment.arms is None:
        return np.arange(n_arms, dtype=np.int64)
    rng = named_generator(seed, "duels", environment.name, seed_index, "subset")
    return np.sort(rng.choice(n_arms, size=environment.arms, replace=False)).astype(np.int64)


def _instance_of(
    environment: DuelsEnvironment,
    instance: ContextualInstance | AdversarialInstance | None,
    kind: type[InstanceT],
) -> InstanceT:
    if not isinstance(instance, kind):
        raise ValueError(
            f"the contextual environment {environment.name!r} needs its {kind.__name__} "
            f"(environment_instance(environment, seed)); got {type(instance).__name__}"
        )
    return instance


def environment_summary(
    environment: DuelsEnvironment,
    matrix: NDArray[np.float64],
    names: Sequence[str],
    instance: ContextualInstance | AdversarialInstance | None = None,
) -> dict[str, Any]:
    """What the tables say about an environment: K, its winners, where it comes from.

    For a contextual environment (its ``instance``: :func:`environment_instance`) the
    winners are those of the context-averaged matrix, and
    :func:`~.contextual.contextual_summary` is added under ``contextual``. The adaptive
    adversary has no winners (its matrix moves with the learner):
    :func:`~.adversarial.adversarial_summary` goes under ``contextual``.
    """
    if environment.adversarial:
        adversary = _instance_of(environment, instance, AdversarialInstance)
        return {
            "environment": environment.name,
            "title": environment.title,
            "kind": environment.kind,
            "data": [],
            "n_arms": adversary.n_actions,
            "arms_per_seed": adversary.n_actions,
            "subset": False,
            "condorcet_winner": None,
            "von_neumann_support": {},
            "copeland_winners": [],
            "contextual": adversarial_summary(adversary) | {"horizon": environment.horizon},
        }
    skew = as_skew(matrix, "probability")
    winner = condorcet_winner(skew)
    vnw = von_neumann_winner(skew)
    support = np.flatnonzero(vnw.weights > 1e-9)
    contextual = None
    if environment.contextual:
        contextual = contextual_summary(_instance_of(environment, instance, ContextualInstance)) | {
            "horizon": environment.horizon
        }
    return {
        "environment": environment.name,
        "title": environment.title,
        "kind": environment.kind,
        "data": list(environment.data),
        "n_arms": int(matrix.shape[0]),
        "arms_per_seed": environment.arms or int(matrix.shape[0]),
        "subset": environment.arms is not None,
        "condorcet_winner": None if winner is None else names[winner],
        "von_neumann_support": {names[i]: float(vnw.weights[i]) for i in support},
        "copeland_winners": [names[i] for i in copeland_winners(skew)],
        "contextual": contextual,
    }


def write_environment(
    path: str | os.PathLike[str], matrix: NDArray[np.float64], names: Sequence[str]
) -> None:
    """The matrix as CSV, arm names as header and first column."""
    write_csv(
        path,
        pd.DataFrame(matrix, index=list(names), columns=list(names)),
        index=True,
        index_label="arm",
    )


def write_winner(path: str | os.PathLike[str], instance: ContextualInstance) -> None:
    """The exact winner of ``instance`` as JSON (:func:`~.contextual.winner_record`)."""
    write_json(path, winner_record(instance.winner))


def read_winner(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The record :func:`write_winner` wrote; raises, naming the file, unless it has every
    field. Its fit to an instance is checked when the instance is built with it."""
    with open(path, encoding="utf-8") as handle:
        try:
            record = json.load(handle)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not JSON ({error})") from None
    fields = {"support", "weights", "n_policies", "distinct_policies", "solver", "status"}
    if not isinstance(record, dict) or not fields <= set(record):
        raise ValueError(f"{path}: a winner record needs the fields {sorted(fields)}")
    return record


def read_environment(path: str | os.PathLike[str]) -> PreferenceEnvironment:
    """The matrix and names :func:`write_environment` wrote, as stored.

    Raises unless the names of the rows and columns agree and the matrix is a valid
    probability-form preference matrix (:func:`cdbandits.preference.as_skew`).
    """
    table = pd.read_csv(path, index_col=0)
    if list(table.index.astype(str)) != list(table.columns):
        raise ValueError(f"{path}: the row names differ from the column names")
    matrix = table.to_numpy(dtype=np.float64)
    as_skew(matrix, "probability")  # raises, naming what is wrong, unless a valid matrix
    return matrix, tuple(table.columns)
