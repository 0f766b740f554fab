"""Dueling Bandit Gradient Descent on linear rankers, with interleaved comparisons and clicks.

Yue and Joachims, "Interactively Optimizing Information Retrieval Systems as a Dueling
Bandits Problem", ICML 2009, Algorithm 1 (DBGD).

Each step ``t`` of :func:`simulate_dbgd` in a :class:`~cdbandits.linear_duels.ranking.
RankingEnvironment`:

1. the learner proposes its ranker ``w_t`` and a candidate ``w'_t = P(w_t + delta u_t)``, ``u_t``
   uniform on the unit sphere (:meth:`DuelingBanditGradientDescent.select`);
2. a query is drawn uniformly (one uniform of the environment's stream, the ``pick`` rule of
   :mod:`cdbandits.dueling.draws`) and the two rankers are compared on it by the environment's
   interleaving method with a simulated user of its click model (the compiled comparison of
   :func:`cdbandits.letor.duel_kernels.run_duels`, on a SplitMix64 stream seeded once from the
   environment's stream);
3. if the candidate wins, ``w_{t+1} = P(w_t + gamma u_t)``, else ``w_{t+1} = w_t`` (a tie, no
   click, changes nothing) (:meth:`~DuelingBanditGradientDescent.update`).

``P`` is the projection on the ball of radius ``radius`` (none when ``radius`` is None).

**Regret** (Yue and Joachims' definition with a reference ranker ``r*``): step ``t`` costs
``(eps(r*, w_t) + eps(r*, w'_t)) / 2`` with ``eps(r*, w) = Pr(r* beats w) + Pr(tie) / 2 - 1/2``
under the same interleaving and click model, probability units; ``r*`` is the environment's
reference, the best of the LETOR feature rankers by offline NDCG@10. It is *estimated*, without
bias, by two extra comparisons per step on the step's query, ``r*`` against ``w_t`` and
against ``w'_t`` (win 1, tie 1/2, loss 0, minus 1/2), drawn on a separate SplitMix64 stream
so that they do not change what the learner sees. A negative value means the learned rankers
beat the best single feature.

**Offline NDCG@10** (expected over tie-breaking) of ``w_t`` on the environment's queries and,
when given, on held-out queries, is recorded at every checkpoint.

Both engines (``"compiled"``: one numba loop per segment; ``"python"``: ``select``/``update``
in NumPy) draw the same numbers and compute the same floats (norms are summed in index order
in both), so they play the same comparisons and end with the same weights.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray
from tqdm import tqdm

from ..dueling.checks import Engine, check_generator, check_positive, checked_rounds
from ..dueling.counter_play import scheduled_win_probability
from ..dueling.draws import pick
from ..letor.duel_kernels import (
    CREDIT_TIES,
    METHODS,
    ClickSimulation,
    RankingTables,
    Workspace,
    new_workspace,
    run_duels,
)
from ..letor.rankers import sort_queries
from .ranking import RankingEnvironment

__all__ = ["DBGDResult", "DuelingBanditGradientDescent", "dbgd_schedule_rounds", "simulate_dbgd"]


def _sequential_norm(vector: NDArray[np.float64]) -> float:
    """``|v|`` summed in index order (as the kernel does), so both engines agree exactly."""
    total = 0.0
    for value in vector.tolist():
        total += value * value
    return math.sqrt(total)


class DuelingBanditGradientDescent:
    """DBGD (Yue and Joachims, ICML 2009, Algorithm 1); see the module docstring.

    Parameters
    ----------
    exploration_step : float, optional
        ``delta``, the distance of the candidate; 1.
    learning_rate : float, optional
        ``gamma``, the step towards a winning candidate; 0.01.
    radius : float, optional
        Radius of the feasible ball; None (no projection).

    The defaults ``delta = 1``, ``gamma = 0.01``, a zero starting ranker and no projection
    are the values the online learning-to-rank work that produced the MSLR preference
    matrices used for DBGD (Hofmann, Whiteson and de Rijke; Lerot); the search tools did not
    give us the values of Yue and Joachims' own experiments, which were on data we do not hold.

    Attributes
    ----------
    weights_ : ndarray, shape (d,)
        ``w_t``.
    direction_ : ndarray, shape (d,)
        ``u_t`` of the last :meth:`select`.
    round_ : int
        Comparisons completed.
    wins_ : int
        Comparisons the candidate won (updates made).
    """

    name = "dbgd"

    def __init__(
        self,
        exploration_step: float = 1.0,
        learning_rate: float = 0.01,
        radius: float | None = None,
    ) -> None:
        self.exploration_step = check_positive("exploration_step", exploration_step)
        self.learning_rate = check_positive("learning_rate", learning_rate)
        self.radius = None if radius is None else check_positive("radius", radius)

    def start(self, n_features: int, rng: np.random.Generator) -> DuelingBanditGradientDescent:
        """Start from the zero ranker; return ``self``."""
        check_generator(rng)
        if isinstance(n_features, bool) or not isinstance(n_features, int) or n_features < 1:
            raise ValueError(f"n_features must be a positive integer; got {n_features!r}")
        self.rng_ = rng
        self.weights_ = np.zeros(n_features)
        self.direction_ = np.zeros(n_features)
        self.round_ = 0
        self.wins_ = 0
        self._candidate: NDArray[np.float64] | None = None
        return self

    def _project(self, weights: NDArray[np.float64]) -> NDArray[np.float64]:
        if self.radius is not None:
            norm = _sequential_norm(weights)
            if norm > self.radius:
                return weights * (self.radius / norm)
        return weights

    def select(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """``(w_t, w'_t)``: the current ranker and the candidate (copies)."""
        if not hasattr(self, "round_"):
            raise RuntimeError("call start(n_features, rng) first")
        if self._candidate is not None:
            raise RuntimeError("select() called twice without update()")
        gaussian = self.rng_.standard_normal(self.weights_.size)
        self.direction_ = gaussian / _sequential_norm(gaussian)
        self._candidate = self._project(self.weights_ + self.exploration_step * self.direction_)
        return self.weights_.copy(), self._candidate.copy()

    def update(self, outcome: int) -> None:
        """Learn from the comparison: ``+1`` the current ranker won, ``-1`` the candidate,
        ``0`` a tie."""
        if self._candidate is None:
            raise RuntimeError("update() needs a preceding select()")
        if isinstance(outcome, bool) or outcome not in (-1, 0, 1):
            raise ValueError(f"outcome must be +1, 0 or -1; got {outcome!r}")
        if outcome == -1:
            self.weights_ = self._project(self.weights_ + self.learning_rate * self.direction_)
            self.wins_ += 1
        self.round_ += 1
        self._candidate = None


@dataclass(frozen=True)
class DBGDResult:
    """What :func:`simulate_dbgd` produced.

    Attributes
    ----------
    algorithm, environment : str
    engine : {"compiled", "python"}
    checkpoints : ndarray of int64, shape (C,)
    regret : ndarray of float64, shape (C,)
        Cumulative regret estimate against the reference (module docstring).
    ndcg : ndarray of float64, shape (C,)
        Offline NDCG@10 of ``w_t`` on the environment's queries after each checkpoint.
    held_out_ndcg : ndarray of float64, shape (C,)
        The same on the held-out queries (NaN without them).
    candidate_wins : ndarray of int64, shape (C,)
        Cumulative number of updates.
    reference : int
        The reference feature.
    reference_ndcg, start_ndcg : float
        Offline NDCG@10 of the reference and of the starting (zero) ranker.
    weights : ndarray, shape (d,)
        The final ranker.
    seconds : float
    """

    algorithm: str
    environment: str
    engine: Engine
    checkpoints: NDArray[np.int64]
    regret: NDArray[np.float64]
    ndcg: NDArray[np.float64]
    held_out_ndcg: NDArray[np.float64]
    candidate_wins: NDArray[np.int64]
    reference: int
    reference_ndcg: float
    start_ndcg: float
    weights: NDArray[np.float64]
    seconds: float


class _Comparisons(NamedTuple):
    """The environment's compiled comparison state (see :func:`_compare_on_query`)."""

    features: NDArray[np.float64]
    offsets: NDArray[np.int64]
    tables: RankingTables
    clicks: ClickSimulation
    learner: Workspace
    evaluation: Workspace
    counts: NDArray[np.int64]
    scores: NDArray[np.float64]


@numba.njit(cache=True)
def _outcome(comparisons, a, b, query, work):
    """One comparison of table rows ``a`` and ``b`` on ``query``: +1, 0 or -1."""
    work.scratch[:, :] = 0  # run_duels' stamps restart at 1 on every call
    counts = comparisons.counts
    counts[:] = 0
    run_duels(a, b, query, 1, comparisons.offsets, comparisons.tables, comparisons.clicks, work,
              counts)  # fmt: skip
    return 1 - int(np.argmax(counts))


@numba.njit(cache=True)
def _compare_on_query(comparisons, query, weights, candidate):
    """Rank ``query`` by both rankers (rows 0, 1; row 2 is the reference, sorted once), run
    the learner's comparison and the two evaluation comparisons; return the outcome for the
    learner and the step's regret estimate."""
    first, stop = comparisons.offsets[query], comparisons.offsets[query + 1]
    local = np.array([0, stop - first])
    tables = comparisons.tables
    block = comparisons.features[first:stop]
    for row, ranker in ((0, weights), (1, candidate)):
        scores = comparisons.scores[: stop - first]
        for i in range(stop - first):
            total = 0.0
            for j in range(ranker.size):
                total += block[i, j] * ranker[j]
            scores[i] = total
        sort_queries(
            scores, local, tables.order[row, first:stop], tables.position[row, first:stop],
            tables.tie_start[row, first:stop], tables.tie_end[row, first:stop],
        )  # fmt: skip
    outcome = _outcome(comparisons, 0, 1, query, comparisons.learner)
    regret = 0.0
    for row in (0, 1):
        regret += _outcome(comparisons, 2, row, query, comparisons.evaluation) / 4.0
    return outcome, regret


def _comparisons(environment: RankingEnvironment, rng: np.random.Generator) -> _Comparisons:
    n_documents = environment.features.shape[0]
    tables = RankingTables(*(np.zeros((3, n_documents), dtype=np.int64) for _ in range(4)))
    sort_queries(
        np.ascontiguousarray(environment.features[:, environment.reference]),
        environment.query_offsets,
        *(table[2] for table in tables),
    )
    weights, cumulative = environment.rank_weights()
    clicks = ClickSimulation(
        METHODS[environment.method],
        environment.labels.astype(np.int8),
        int(environment.length),
        environment.click_model.click_array,
        environment.click_model.stop_array,
        weights,
        cumulative,
        CREDIT_TIES["shared"],
    )
    largest = int(np.diff(environment.query_offsets).max())
    seeds = rng.integers(0, 2**63, size=2)
    workspaces = [
        new_workspace(largest, int(environment.length), environment.n_queries, np.uint64(seed))
        for seed in seeds
    ]
    return _Comparisons(
        np.ascontiguousarray(environment.features),
        environment.query_offsets,
        tables,
        clicks,
        workspaces[0],
        workspaces[1],
        np.zeros(3, dtype=np.int64),
        np.empty(largest),
    )


@numba.njit(cache=True)
def _dbgd_rounds(weights, direction, step_size, rate, radius, n_rounds, rng, comparisons,
                 environment_rng, n_queries, totals):  # fmt: skip
    """Play ``n_rounds`` DBGD steps; ``totals`` accumulates (regret, candidate wins)."""
    candidate = np.empty(weights.size)
    for _ in range(n_rounds):
        _propose_compiled(weights, direction, candidate, step_size, radius, rng)
        query = min(int(environment_rng.random() * n_queries), n_queries - 1)
        outcome, regret = _compare_on_query(comparisons, query, weights, candidate)
        totals[0] += regret
        if outcome == -1:
            _move_compiled(weights, direction, rate, radius)
            totals[1] += 1.0


@numba.njit(cache=True)
def dbgd_schedule_rounds(weights, direction, step_size, rate, radius, rng, schedule, first,
                         second, outcomes):  # fmt: skip
    """DBGD on a :class:`~cdbandits.linear_duels.environments.ScheduleArrays`, one step per
    scheduled round; returns the candidate's wins and fills ``outcomes`` (``+1`` iff the
    current ranker's arm won the round's duel, ``-1`` otherwise).

    In round ``step``'s context the current ranker and the candidate each put forward their
    best arm (``first[step]``, ``second[step]``: the first of the highest scores
    ``w . x_i``); a tie changes nothing, otherwise the candidate's arm winning
    (``duel_uniforms[step]`` not below the round's
    :func:`~cdbandits.dueling.counter_play.scheduled_win_probability`) moves the ranker. Every round
    is duelled, a tie too, so that the adaptive adversary counts it. The NumPy counterparts
    are :func:`cdbandits.linear_duels.contextual.dbgd_population_log` with
    ``compiled=False`` and :func:`~cdbandits.linear_duels.contextual.dbgd_environment_log`.
    """
    candidate = np.empty(weights.size)
    wins = 0
    for step in range(schedule.context_ids.size):
        _propose_compiled(weights, direction, candidate, step_size, radius, rng)
        context = schedule.context_ids[step]
        arms = schedule.features[context]
        a, b = _best_arm(arms, weights), _best_arm(arms, candidate)
        first[step], second[step] = a, b
        won = schedule.duel_uniforms[step] < scheduled_win_probability(
            schedule.win, context, step, a, b
        )
        outcomes[step] = 1 if won else -1
        if a != b and not won:
            _move_compiled(weights, direction, rate, radius)
            wins += 1
    return wins


@numba.njit(cache=True)
def _propose_compiled(weights, direction, candidate, step_size, radius, rng):
    """:meth:`DuelingBanditGradientDescent.select` in numba: a new ``direction`` and
    ``candidate``."""
    norm = 0.0
    for j in range(weights.size):
        direction[j] = rng.standard_normal()
    for j in range(weights.size):
        norm += direction[j] * direction[j]
    norm = math.sqrt(norm)
    for j in range(weights.size):
        direction[j] = direction[j] / norm
        candidate[j] = weights[j] + step_size * direction[j]
    _project_compiled(candidate, radius)


@numba.njit(cache=True)
def _move_compiled(weights, direction, rate, radius):
    for j in range(weights.size):
        weights[j] = weights[j] + rate * direction[j]
    _project_compiled(weights, radius)


@numba.njit(cache=True)
def _best_arm(arms, weights):
    best, best_score = 0, -np.inf
    for i in range(arms.shape[0]):
        score = 0.0
        for j in range(arms.shape[1]):
            score += arms[i, j] * weights[j]
        if score > best_score:
            best, best_score = i, score
    return best


@numba.njit(cache=True)
def _project_compiled(vector, radius):
    if radius > 0.0:
        total = 0.0
        for j in range(vector.size):
            total += vector[j] * vector[j]
        norm = math.sqrt(total)
        if norm > radius:
            for j in range(vector.size):
                vector[j] = vector[j] * (radius / norm)


def simulate_dbgd(
    algorithm: DuelingBanditGradientDescent,
    environment: RankingEnvironment,
    horizon: int,
    rng: np.random.Generator,
    checkpoints: ArrayLike | None = None,
    *,
    held_out: RankingEnvironment | None = None,
    engine: Engine = "compiled",
    progress: bool = False,
) -> DBGDResult:
    """Run ``horizon`` DBGD steps in ``environment``; see the module docstring.

    Parameters
    ----------
    algorithm : DuelingBanditGradientDescent
        Started afresh.
    environment : RankingEnvironment
    horizon : int
    rng : numpy.random.Generator
        Split into the environment's and the algorithm's streams.
    checkpoints : array_like of int, optional
    held_out : RankingEnvironment, optional
        Queries for the held-out NDCG (same features).
    engine : {"compiled", "python"}, optional
    progress : bool, optional
    """
    horizon, rounds = checked_rounds(engine, horizon, checkpoints)
    if held_out is not None and held_out.n_features != environment.n_features:
        raise ValueError("held_out must have the environment's features")
    environment_rng, algorithm_rng = rng.spawn(2)
    algorithm.start(environment.n_features, algorithm_rng)
    comparisons = _comparisons(environment, environment_rng)
    radius = -1.0 if algorithm.radius is None else algorithm.radius
    totals = np.zeros(2)
    regret, ndcg, held_ndcg = (np.zeros(rounds.size) for _ in range(3))
    wins = np.zeros(rounds.size, dtype=np.int64)
    start_ndcg = environment.ndcg(algorithm.weights_)
    started = time.perf_counter()
    done = 0
    for index, stop in enumerate(tqdm(rounds, disable=not progress, desc=algorithm.name)):
        if engine == "compiled":
            _dbgd_rounds(algorithm.weights_, algorithm.direction_, algorithm.exploration_step,
                         algorithm.learning_rate, radius, stop - done, algorithm.rng_,
                         comparisons, environment_rng, environment.n_queries, totals)  # fmt: skip
            algorithm.round_ = int(stop)
            algorithm.wins_ = int(totals[1])
        else:
            for _ in range(stop - done):
                weights, candidate = algorithm.select()
                query = pick(environment_rng, environment.n_queries)
                outcome, step_regret = _compare_on_query(comparisons, query, weights, candidate)
                totals[0] += step_regret
                algorithm.update(int(outcome))
            totals[1] = algorithm.wins_
        regret[index], wins[index] = totals[0], int(totals[1])
        ndcg[index] = environment.ndcg(algorithm.weights_)
        held_ndcg[index] = np.nan if held_out is None else held_out.ndcg(algorithm.weights_)
        done = stop
    seconds = time.perf_counter() - started
    reference = np.eye(environment.n_features)[environment.reference]
    return DBGDResult(
        algorithm.name, environment.name, engine, rounds, regret, ndcg, held_ndcg, wins,
        environment.reference, environment.ndcg(reference), start_ndcg,
        algorithm.weights_.copy(), seconds,
    )  # fmt: skip
