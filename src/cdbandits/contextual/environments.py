"""Contextual dueling environments: Nature draws ``(x_t, P_t)``, the learner sees only ``x_t``.

Every environment has a finite list of contexts (feature vectors, ``contexts``) and is used
as an episode:

1. :meth:`DuelingEnvironment.reset` with a ``numpy.random.Generator``;
2. per round, :meth:`~DuelingEnvironment.next_context` returns the index of ``x_t`` in
   ``contexts`` (Nature also fixes the hidden ``P_t`` then);
3. :meth:`~DuelingEnvironment.duel` returns ``+1`` (first action wins) with probability
   ``(1 + P_t(a, b)) / 2`` and ``-1`` otherwise;
4. only an evaluator calls :meth:`~DuelingEnvironment.preference_matrix` (``P_t``) or
   :meth:`~DuelingEnvironment.gains` (the per-action terms of the regret (rd1)).

Randomness: ``reset(rng)`` spawns two independent streams, one for contexts and one for
duel outcomes, each consuming exactly one uniform per round. A
:class:`StochasticEnvironment` can therefore draw a whole episode's contexts and duel
uniforms in advance (:meth:`StochasticEnvironment.draw_schedule`) and a compiled learner
reproduces the round-by-round episode bit for bit.

Environments:

* :class:`StochasticEnvironment` over a :class:`ContextPopulation` (contexts, one skew
  preference matrix per context, context probabilities), i.i.d. rounds with
  ``P_t = P_{x_t}``; then ``M(pi, rho) = sum_x p(x) P_x(pi(x), rho(x))`` is exactly computable.
  Populations: :func:`synthetic_intransitive_population`, :func:`supervised_population`,
  :func:`load_mslr_population`.
* :class:`CounterPlayAdversary`: ``P_t`` is chosen by an adaptive rule from the learner's past
  actions (for the adversarial claim of Theorem sparring-exp4).
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..letor.matrices import PerQueryMatrices
from ..preference import SYMMETRY_TOL, Convention, PreferenceMatrixError, as_skew

__all__ = [
    "SUPERVISED_DATASETS",
    "ContextPopulation",
    "CounterPlayAdversary",
    "DuelingEnvironment",
    "StochasticEnvironment",
    "condorcet_fraction",
    "cyclic_tournament",
    "load_mslr_population",
    "supervised_population",
    "synthetic_intransitive_population",
]

#: scikit-learn loaders usable by :func:`supervised_population` (bundled, no download).
SUPERVISED_DATASETS = ("iris", "wine", "breast_cancer", "digits")


@dataclass(frozen=True)
class ContextPopulation:
    """A finite distribution over contexts with a fixed preference matrix per context.

    Attributes
    ----------
    features : ndarray of float64, shape (n_contexts, n_features)
    matrices : ndarray of float64, shape (n_contexts, K, K)
        Skew-form preference matrices, exactly skew-symmetric.
    probabilities : ndarray of float64, shape (n_contexts,)
        Non-negative, summing to 1.
    """

    features: NDArray[np.float64]
    matrices: NDArray[np.float64]
    probabilities: NDArray[np.float64]

    def __post_init__(self) -> None:
        features, matrices, probabilities = self.features, self.matrices, self.probabilities
        n = features.shape[0] if features.ndim == 2 else -1
        if (
            features.ndim != 2
            or matrices.ndim != 3
            or matrices.shape[0] != n
            or matrices.shape[1] != matrices.shape[2]
            or probabilities.shape != (n,)
        ):
            raise ValueError(
                "a population needs features (n, d), matrices (n, K, K) and probabilities (n,); "
                f"got {features.shape}, {matrices.shape}, {probabilities.shape}"
            )
        if n == 0:
            raise ValueError("a population needs at least one context")
        if not np.isfinite(features).all():
            raise ValueError("features must be finite")
        invalid = (matrices + matrices.transpose(0, 2, 1) != 0).any(axis=(1, 2)) | (
            np.abs(matrices) > 1
        ).any(axis=(1, 2))
        if invalid.any():
            x = int(np.flatnonzero(invalid)[0])
            raise PreferenceMatrixError(
                f"the matrix of context {x} is not an exactly skew-symmetric skew-form matrix "
                "with entries in [-1, 1]; build populations with as_skew"
            )
        if (probabilities < 0).any() or abs(probabilities.sum() - 1) > 1e-12:
            raise ValueError(
                f"probabilities must be non-negative and sum to 1; sum is {probabilities.sum()!r}"
            )

    @classmethod
    def from_arrays(
        cls,
        features: ArrayLike,
        matrices: ArrayLike,
        probabilities: ArrayLike | None = None,
        convention: Convention | Literal["auto"] = "skew",
        tol: float = SYMMETRY_TOL,
    ) -> ContextPopulation:
        """Validate and convert inputs (each matrix through :func:`cdbandits.preference.as_skew`).

        Parameters
        ----------
        features : array_like, shape (n, d)
        matrices : array_like, shape (n, K, K)
            In ``convention``.
        probabilities : array_like, shape (n,), optional
            Uniform when omitted; normalised to sum 1.
        convention : {"skew", "probability", "auto"}, optional
        tol : float, optional
            Tolerance of the preference-matrix checks.
        """
        features = np.array(features, dtype=np.float64)
        raw = np.asarray(matrices, dtype=np.float64)
        if raw.ndim != 3:
            raise ValueError(f"matrices must have shape (n, K, K); got {raw.shape}")
        skew = np.empty_like(raw)
        for x in range(raw.shape[0]):
            try:
                skew[x] = as_skew(raw[x], convention, tol)
            except PreferenceMatrixError as error:
                raise PreferenceMatrixError(f"context {x}: {error}") from error
        if probabilities is None:
            weights = np.full(raw.shape[0], 1.0 / raw.shape[0])
        else:
            weights = np.array(probabilities, dtype=np.float64)
            if weights.ndim != 1 or (weights < 0).any() or weights.sum() <= 0:
                raise ValueError("probabilities must be a non-negative vector with a positive sum")
            weights = weights / weights.sum()
        return cls(features, skew, weights)

    @property
    def n_contexts(self) -> int:
        """Number of contexts."""
        return int(self.features.shape[0])

    @property
    def n_features(self) -> int:
        """Feature dimension."""
        return int(self.features.shape[1])

    @property
    def n_actions(self) -> int:
        """Number of actions ``K``."""
        return int(self.matrices.shape[1])


def cyclic_tournament(n_actions: int) -> NDArray[np.float64]:
    """Rock-paper-scissors on ``K`` actions: ``C[a, b] = +1`` if ``(b - a) mod K`` is in
    ``1..ceil(K/2) - 1``, ``-1`` for the mirror pairs, ``0`` otherwise (only the diagonal and,
    for even ``K``, the opposite pairs ``(b - a) mod K = K/2``).
    """
    offsets = (np.arange(n_actions)[None, :] - np.arange(n_actions)[:, None]) % n_actions
    half = (n_actions + 1) // 2
    wins = (offsets >= 1) & (offsets < half)
    losses = (offsets > n_actions - half) & (offsets <= n_actions - 1)
    return wins.astype(np.float64) - losses.astype(np.float64)


def synthetic_intransitive_population(
    n_actions: int,
    n_features: int,
    n_contexts: int,
    intransitivity: float,
    rng: np.random.Generator,
    utility_scale: float = 2.0,
) -> ContextPopulation:
    """Context-dependent mixture of a utility (transitive) part and rock-paper-scissors.

    Contexts ``x ~ N(0, I_d)``, uniform over the ``n_contexts`` drawn. With Gaussian
    ``theta_a ~ N(0, I_d / d)`` and ``phi ~ N(0, I_d / d)``:

    ``P_x = (1 - gamma) tanh(s (u_x(a) - u_x(b))) + gamma tanh(s phi . x) C``,

    ``u_x(a) = theta_a . x``, ``s`` = ``utility_scale``, ``C`` = :func:`cyclic_tournament`,
    ``gamma`` = ``intransitivity``. With ``gamma = 0`` every context has a Condorcet winner
    (``argmax_a u_x(a)``), so the policy ``x -> argmax_a theta_a . x`` is a Condorcet winner
    of ``M`` over any class containing it; as ``gamma`` grows the cycle, whose direction and
    strength depend on ``x``, removes Condorcet winners context by context
    (:func:`condorcet_fraction` measures how many remain).

    Parameters
    ----------
    n_actions, n_features, n_contexts : int
    intransitivity : float
        ``gamma`` in ``[0, 1]``.
    rng : numpy.random.Generator
    utility_scale : float, optional
        Sharpness ``s`` of both parts.

    Returns
    -------
    ContextPopulation
    """
    if n_actions < 2 or n_features < 1 or n_contexts < 1:
        raise ValueError(
            "need n_actions >= 2, n_features >= 1 and n_contexts >= 1; got "
            f"{n_actions}, {n_features}, {n_contexts}"
        )
    if not 0.0 <= intransitivity <= 1.0:
        raise ValueError(f"intransitivity must be in [0, 1]; got {intransitivity}")
    features = rng.standard_normal((n_contexts, n_features))
    theta = rng.standard_normal((n_actions, n_features)) / np.sqrt(n_features)
    phi = rng.standard_normal(n_features) / np.sqrt(n_features)
    utilities = features @ theta.T
    transitive = np.tanh(utility_scale * (utilities[:, :, None] - utilities[:, None, :]))
    cycle_weight = np.tanh(utility_scale * features @ phi)
    matrices = (1.0 - intransitivity) * transitive + intransitivity * cycle_weight[
        :, None, None
    ] * cyclic_tournament(n_actions)
    matrices = (matrices - matrices.transpose(0, 2, 1)) / 2.0
    return ContextPopulation(features, matrices, np.full(n_contexts, 1.0 / n_contexts))


def supervised_population(dataset: str = "wine", margin: float = 0.6) -> ContextPopulation:
    """Dueling version of a labelled dataset bundled with scikit-learn.

    Contexts are the dataset's examples (uniform), actions its ``K`` classes. Preference
    model: the true label ``y(x)`` beats every other label with probability
    ``(1 + margin) / 2``, and two wrong labels tie:
    ``P_x(a, b) = margin (1[a = y(x)] - 1[b = y(x)])``. Hence
    ``M(pi, rho) = margin (accuracy(pi) - accuracy(rho))``: the most accurate classifier of
    the class is its Condorcet winner.

    Parameters
    ----------
    dataset : {"iris", "wine", "breast_cancer", "digits"}
    margin : float, optional
        In ``(0, 1]``.

    Returns
    -------
    ContextPopulation
    """
    from sklearn import datasets

    if dataset not in SUPERVISED_DATASETS:
        raise ValueError(f"dataset must be one of {SUPERVISED_DATASETS}; got {dataset!r}")
    if not 0.0 < margin <= 1.0:
        raise ValueError(f"margin must be in (0, 1]; got {margin}")
    bunch = getattr(datasets, f"load_{dataset}")()
    features = np.asarray(bunch.data, dtype=np.float64)
    labels = np.asarray(bunch.target, dtype=np.int64)
    n_actions = int(labels.max()) + 1
    is_label = np.eye(n_actions)[labels]
    matrices = margin * (is_label[:, :, None] - is_label[:, None, :])
    return ContextPopulation(features, matrices, np.full(labels.size, 1.0 / labels.size))


def load_mslr_population(path: str | os.PathLike[str]) -> ContextPopulation:
    """Per-query MSLR population from a per-query matrices file, queries uniform.

    The file is read by :meth:`cdbandits.letor.PerQueryMatrices.load`, which defines the
    format: its ``matrices`` (n_queries, K, K), skew form, become the contexts' matrices and
    its ``features`` (n_queries, n_features) the contexts. Every matrix is validated with
    :func:`cdbandits.preference.as_skew`.

    Parameters
    ----------
    path : path-like

    Returns
    -------
    ContextPopulation

    Raises
    ------
    KeyError
        If an array of the format is missing (the message lists what the file has).
    cdbandits.preference.PreferenceMatrixError
        If a matrix is not a valid skew-form preference matrix (naming the query).
    """
    per_query = PerQueryMatrices.load(path)
    try:
        return ContextPopulation.from_arrays(
            per_query.features, per_query.matrices, convention="skew"
        )
    except PreferenceMatrixError as error:
        raise PreferenceMatrixError(
            f"{os.fspath(path)}: {error} (context i is the file's query qids[i])"
        ) from error


def condorcet_fraction(population: ContextPopulation) -> float:
    """Probability that the context's matrix has a Condorcet winner (beats all others)."""
    matrices = population.matrices
    k = population.n_actions
    has_winner = ((matrices > 0).sum(axis=2) == k - 1).any(axis=1)
    return float(population.probabilities[has_winner].sum())


def _duel_outcome(matrix: NDArray[np.float64], first: int, second: int, uniform: float) -> int:
    return 1 if uniform < (1.0 + matrix[first, second]) / 2.0 else -1


class DuelingEnvironment(ABC):
    """An episode of contextual duels over a finite list of contexts; see the module docstring.

    Attributes
    ----------
    contexts : ndarray of float64, shape (n_contexts, n_features)
    n_actions : int
    """

    contexts: NDArray[np.float64]
    n_actions: int

    def reset(self, rng: np.random.Generator) -> None:
        """Start an episode; spawn the context and duel streams from ``rng``."""
        self._context_rng, self._duel_rng = rng.spawn(2)
        self._context: int | None = None

    @property
    def n_contexts(self) -> int:
        """Number of contexts."""
        return int(self.contexts.shape[0])

    def _require_reset(self) -> None:
        if not hasattr(self, "_context_rng"):
            raise RuntimeError("call reset(rng) before next_context()")

    def _require_context(self) -> int:
        if getattr(self, "_context", None) is None:
            raise RuntimeError("call reset() and next_context() before dueling")
        return self._context  # type: ignore[return-value]

    @abstractmethod
    def next_context(self) -> int:
        """Draw round ``t``'s context (and its hidden ``P_t``); return the context index."""

    @abstractmethod
    def preference_matrix(self) -> NDArray[np.float64]:
        """The hidden ``P_t`` of the current round (evaluator only)."""

    def duel(self, first: int, second: int) -> int:
        """Outcome ``+1`` (``first`` wins) or ``-1`` of a duel under the hidden ``P_t``."""
        matrix = self.preference_matrix()
        if not (0 <= first < self.n_actions and 0 <= second < self.n_actions):
            raise ValueError(f"actions must lie in 0..{self.n_actions - 1}; got {first}, {second}")
        return _duel_outcome(matrix, first, second, float(self._duel_rng.random()))

    def gains(self, first: int, second: int) -> NDArray[np.float64]:
        """``g_t(a) = (P_t(a, first) + P_t(a, second)) / 2`` for every ``a`` (evaluator only).

        The regret (rd1) is ``max_pi sum_t g_t(pi(x_t))``.
        """
        matrix = self.preference_matrix()
        return (matrix[:, first] + matrix[:, second]) / 2.0


class StochasticEnvironment(DuelingEnvironment):
    """I.i.d. rounds from a :class:`ContextPopulation`: ``x_t ~ p``, ``P_t = P_{x_t}``.

    Parameters
    ----------
    population : ContextPopulation
    """

    def __init__(self, population: ContextPopulation) -> None:
        self.population = population
        self.contexts = population.features
        self.n_actions = population.n_actions
        self._cumulative = np.cumsum(population.probabilities)

    def _context_from_uniform(self, uniform: NDArray[np.float64]) -> NDArray[np.int64]:
        ids = np.searchsorted(self._cumulative, uniform, side="right")
        return np.minimum(ids, self.n_contexts - 1).astype(np.int64)

    def next_context(self) -> int:
        """Draw ``x_t`` from the population's probabilities."""
        self._require_reset()
        self._context = int(self._context_from_uniform(np.array([self._context_rng.random()]))[0])
        return self._context

    def preference_matrix(self) -> NDArray[np.float64]:
        """``P_{x_t}``."""
        return self.population.matrices[self._require_context()]

    def draw_schedule(
        self, horizon: int, rng: np.random.Generator
    ) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        """A whole episode's context indices and duel uniforms, as :meth:`reset` with the same
        ``rng`` followed by ``horizon`` rounds would draw them.

        Returns
        -------
        context_ids : ndarray of int64, shape (horizon,)
        duel_uniforms : ndarray of float64, shape (horizon,)
            Round ``t``'s outcome is ``+1`` iff ``duel_uniforms[t] < (1 + P_t(a, b)) / 2``.
        """
        context_rng, duel_rng = rng.spawn(2)
        return self._context_from_uniform(context_rng.random(horizon)), duel_rng.random(horizon)


class CounterPlayAdversary(DuelingEnvironment):
    """Adaptive adversary: in each context, the learner's favourite action is beaten.

    Contexts are drawn uniformly. For context ``x``, let ``f`` be the action the learner has
    played most often in ``x`` so far (both duel slots counted, smallest on ties, ``0`` at
    first). The adversary sets ``w = (f + 1) mod K`` as that round's Condorcet winner:
    ``P_t(w, b) = margin = -P_t(b, w)`` for ``b != w``, all other entries 0. A learner that
    settles on an action in a context is thus punished there, which makes the sequence
    ``P_t`` depend on the learner's past choices.

    Parameters
    ----------
    contexts : array_like, shape (n_contexts, n_features)
    n_actions : int
    margin : float, optional
        In ``(0, 1]``.
    """

    def __init__(self, contexts: ArrayLike, n_actions: int, margin: float = 0.8) -> None:
        self.contexts = np.array(contexts, dtype=np.float64)
        if self.contexts.ndim != 2 or self.contexts.shape[0] == 0:
            raise ValueError(
                f"contexts must be a non-empty (n, d) array; got {self.contexts.shape}"
            )
        if n_actions < 2:
            raise ValueError(f"n_actions must be at least 2; got {n_actions}")
        if not 0.0 < margin <= 1.0:
            raise ValueError(f"margin must be in (0, 1]; got {margin}")
        self.n_actions = n_actions
        self.margin = margin

    def reset(self, rng: np.random.Generator) -> None:
        """Start an episode with no play recorded; see :meth:`DuelingEnvironment.reset`."""
        super().reset(rng)
        self.play_counts_ = np.zeros((self.n_contexts, self.n_actions), dtype=np.int64)

    def next_context(self) -> int:
        """Draw ``x_t`` uniformly and fix ``P_t`` from the play counts of that context."""
        self._require_reset()
        self._context = min(int(self._context_rng.random() * self.n_contexts), self.n_contexts - 1)
        favourite = int(np.argmax(self.play_counts_[self._context]))
        self._matrix = self.winner_matrix((favourite + 1) % self.n_actions)
        return self._context

    def winner_matrix(self, winner: int) -> NDArray[np.float64]:
        """``P_t`` when ``winner`` beats every other action by ``margin`` (a new array)."""
        matrix = np.zeros((self.n_actions, self.n_actions))
        matrix[winner, :] = self.margin
        matrix[:, winner] = -self.margin
        matrix[winner, winner] = 0.0
        return matrix

    def draw_ahead(self, n_rounds: int) -> tuple[NDArray[np.int64], np.random.Generator]:
        """The contexts of the next ``n_rounds`` rounds, drawn at once, and the duel stream.

        The context stream does not depend on the learner: one ``random(n_rounds)`` gives
        the uniforms ``n_rounds`` calls of :meth:`next_context` would draw. A compiled
        learner then plays those rounds itself (one duel-stream uniform per round, the
        counter-play rule on :attr:`play_counts_`, which it updates);
        :meth:`next_context` is not called for them.
        """
        self._require_reset()
        uniforms = self._context_rng.random(n_rounds)
        context_ids = np.minimum((uniforms * self.n_contexts).astype(np.int64), self.n_contexts - 1)
        self._context = None
        return context_ids, self._duel_rng

    def preference_matrix(self) -> NDArray[np.float64]:
        """The adversary's ``P_t``."""
        self._require_context()
        return self._matrix

    def duel(self, first: int, second: int) -> int:
        """Outcome of the duel; the adversary records both actions."""
        outcome = super().duel(first, second)
        self.play_counts_[self._context, first] += 1
        self.play_counts_[self._context, second] += 1
        return outcome
