"""Finite policy classes: maps from context features to actions, evaluated as action tables.

A :class:`PolicyClass` is fitted on reference contexts (for feature scaling or binning,
never on preferences), then

* :meth:`PolicyClass.actions` gives the actions of all (or some) policies on any contexts,
  as a context-major ``uint8`` array;
* :meth:`PolicyClass.action_table` wraps that in an
  :class:`~cdbandits.contextual.oracle.ActionTable`;
* :meth:`PolicyClass.oracle` returns the exact classification oracle on given contexts
  (a :class:`~cdbandits.contextual.oracle.TableOracle` unless the class has a faster exact one).

Two families:

* :class:`DecisionStumps`: ``pi(x) = left if bin_j(x) < t else right`` over quantile bins of
  every feature, ``d (n_bins - 1) K^2`` policies, with a structured exact oracle whose cost is
  ``O(n d K + |Pi|)`` per call instead of ``O(n |Pi|)``.
* :class:`RandomLinearPolicies`: ``pi(x) = argmax_a (W_pi z + b_pi)_a`` on standardised
  features ``z``, Gaussian ``W_pi, b_pi``, any number of policies. Parameters are regenerated
  from a seed per block of policies, so a class of 1e6 policies takes no memory.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from .oracle import ActionTable, ClassificationOracle, TableOracle

__all__ = [
    "DecisionStumps",
    "PolicyClass",
    "RandomLinearPolicies",
    "StumpOracle",
]

#: Rows of contexts evaluated at once by :meth:`RandomLinearPolicies.actions` (bounds the
#: temporary score array to about 2048 x 1024 x K float64).
_CONTEXT_CHUNK = 2048


def _as_features(X: ArrayLike, n_features: int | None = None) -> NDArray[np.float64]:
    features = np.asarray(X, dtype=np.float64)
    if features.ndim != 2:
        raise ValueError(
            f"contexts must be a 2-D array (n_contexts, n_features); got {features.shape}"
        )
    if n_features is not None and features.shape[1] != n_features:
        raise ValueError(
            f"contexts have {features.shape[1]} features; the class was fitted on {n_features}"
        )
    if not np.isfinite(features).all():
        bad = np.argwhere(~np.isfinite(features))[0]
        raise ValueError(f"context {bad[0]} has a non-finite feature {bad[1]}")
    return features


class PolicyClass(ABC):
    """A finite class of deterministic policies over ``n_actions`` actions.

    Subclasses define :meth:`fit`, :attr:`n_policies`, :meth:`actions` and :meth:`describe`.
    """

    n_actions: int

    @abstractmethod
    def fit(self, X: ArrayLike) -> PolicyClass:
        """Fit the feature preprocessing on reference contexts ``X``; return ``self``."""

    @property
    @abstractmethod
    def n_policies(self) -> int:
        """Number of policies ``|Pi|``."""

    @abstractmethod
    def actions(self, X: ArrayLike, policies: ArrayLike | None = None) -> NDArray[np.uint8]:
        """Actions of the policies on contexts ``X``.

        Parameters
        ----------
        X : array_like, shape (n_contexts, n_features)
            Contexts.
        policies : array_like of int, optional
            Policy indices; all policies when omitted.

        Returns
        -------
        ndarray of uint8, shape (n_contexts, n_selected)
            C-contiguous; column ``k`` holds the actions of ``policies[k]``.
        """

    @abstractmethod
    def describe(self, policy: int) -> str:
        """Human-readable description of one policy."""

    def action_table(self, X: ArrayLike) -> ActionTable:
        """The actions of every policy on ``X`` as an :class:`ActionTable`."""
        return ActionTable(self.actions(X), self.n_actions)

    def oracle(self, X: ArrayLike) -> ClassificationOracle:
        """The exact classification oracle of this class on contexts ``X``."""
        return TableOracle(self.action_table(X))

    def _checked_policies(self, policies: ArrayLike | None) -> NDArray[np.int64]:
        if policies is None:
            return np.arange(self.n_policies, dtype=np.int64)
        ids = np.asarray(policies, dtype=np.int64).reshape(-1)
        if ids.size and (ids.min() < 0 or ids.max() >= self.n_policies):
            raise IndexError(f"policy indices must lie in 0..{self.n_policies - 1}")
        return ids


class DecisionStumps(PolicyClass):
    """Decision stumps on quantile-binned features.

    Every feature ``j`` is cut into ``n_bins`` bins at the quantiles ``k / n_bins`` of the
    reference contexts (``bin_j(x)`` in ``0..n_bins-1``). Policy ``(j, t, left, right)``
    plays ``left`` when ``bin_j(x) < t`` and ``right`` otherwise, for ``t`` in
    ``1..n_bins-1`` and all ``K^2`` action pairs (``left == right`` gives the constant
    policies, repeated). Policy ids enumerate ``(j, t - 1, left, right)`` in C order, so
    ``|Pi| = n_features (n_bins - 1) K^2``.

    Parameters
    ----------
    n_actions : int
        Number of actions ``K``.
    n_bins : int, optional
        Bins per feature (at least 2).

    Attributes
    ----------
    bin_edges_ : ndarray of float64, shape (n_features, n_bins - 1)
        Interior quantile edges per feature (repeated edges give empty bins, hence
        duplicate policies).
    n_features_ : int
    """

    def __init__(self, n_actions: int, n_bins: int = 8) -> None:
        self.n_actions = n_actions
        self.n_bins = n_bins

    def fit(self, X: ArrayLike) -> DecisionStumps:
        """Set the bin edges to the quantiles of ``X``; return ``self``."""
        if not 1 <= self.n_actions <= 255:
            raise ValueError(f"n_actions must be in 1..255; got {self.n_actions}")
        if self.n_bins < 2:
            raise ValueError(f"n_bins must be at least 2; got {self.n_bins}")
        features = _as_features(X)
        levels = np.arange(1, self.n_bins) / self.n_bins
        self.bin_edges_ = np.ascontiguousarray(np.quantile(features, levels, axis=0).T)
        self.n_features_ = features.shape[1]
        return self

    @property
    def n_policies(self) -> int:
        """``n_features (n_bins - 1) K^2``."""
        return self.n_features_ * (self.n_bins - 1) * self.n_actions**2

    @property
    def _shape(self) -> tuple[int, int, int, int]:
        return (self.n_features_, self.n_bins - 1, self.n_actions, self.n_actions)

    def bins(self, X: ArrayLike) -> NDArray[np.int64]:
        """Bin index of every feature of every context, shape ``(n_contexts, n_features)``."""
        features = _as_features(X, self.n_features_)
        return np.stack(
            [
                np.searchsorted(self.bin_edges_[j], features[:, j], side="right")
                for j in range(self.n_features_)
            ],
            axis=1,
        ).astype(np.int64)

    def parameters(self, policies: ArrayLike) -> tuple[NDArray[np.int64], ...]:
        """``(feature, threshold, left, right)`` arrays of the given policy ids."""
        ids = self._checked_policies(policies)
        feature, cut, left, right = np.unravel_index(ids, self._shape)
        return feature, cut + 1, left, right

    def actions(self, X: ArrayLike, policies: ArrayLike | None = None) -> NDArray[np.uint8]:
        """Actions of the stumps on ``X``; see :meth:`PolicyClass.actions`."""
        # Small bin indices make the (n_contexts, n_policies) gather 1 byte per entry.
        bins = self.bins(X).astype(np.min_scalar_type(self.n_bins))
        feature, threshold, left, right = self.parameters(policies)
        goes_left = bins[:, feature] < threshold
        return np.ascontiguousarray(
            np.where(goes_left, left.astype(np.uint8), right.astype(np.uint8))
        )

    def describe(self, policy: int) -> str:
        """E.g. ``"stump: action 2 if feature 3 < 0.41 (bin < 2) else action 0"``."""
        feature, threshold, left, right = (int(v[0]) for v in self.parameters([policy]))
        edge = self.bin_edges_[feature, threshold - 1]
        return (
            f"stump: action {left} if feature {feature} < {edge:.6g} (bin < {threshold}) "
            f"else action {right}"
        )

    def oracle(self, X: ArrayLike) -> StumpOracle:
        """The structured exact oracle :class:`StumpOracle` on contexts ``X``."""
        return StumpOracle(self, X)


@numba.njit(cache=True)
def _bin_histograms(
    bins: NDArray[np.int64], costs: NDArray[np.float64], n_bins: int
) -> NDArray[np.float64]:
    """``hist[b, j, k, a] = sum of costs[b, i, a] over contexts i with bins[i, j] == k``."""
    n_batch, n_contexts, n_actions = costs.shape
    n_features = bins.shape[1]
    hist = np.zeros((n_batch, n_features, n_bins, n_actions))
    for b in range(n_batch):
        for i in range(n_contexts):
            for j in range(n_features):
                k = bins[i, j]
                for a in range(n_actions):
                    hist[b, j, k, a] += costs[b, i, a]
    return hist


class StumpOracle(ClassificationOracle):
    """Exact oracle for :class:`DecisionStumps` through per-feature cumulative costs.

    The cost of stump ``(j, t, left, right)`` is ``L[j, t, left] + R[j, t, right]`` with
    ``L[j, t, a]`` the summed cost of action ``a`` over contexts with ``bin_j < t`` and
    ``R`` the same over ``bin_j >= t``. A call costs ``O(n d K)`` for the histograms plus
    ``O(|Pi|)`` to form every total; ties go to the smallest policy id. Totals are summed in
    a different order than :class:`~cdbandits.contextual.oracle.TableOracle` does, so the two
    agree up to rounding (exactly for integer costs).

    Parameters
    ----------
    stumps : DecisionStumps
        A fitted stump class.
    X : array_like, shape (n_contexts, n_features)
        The contexts the cost vectors refer to.
    """

    def __init__(self, stumps: DecisionStumps, X: ArrayLike) -> None:
        self.stumps = stumps
        self.context_bins = stumps.bins(X)
        self.n_contexts = self.context_bins.shape[0]
        self.n_policies = stumps.n_policies
        self.n_actions = stumps.n_actions

    def _totals(self, costs: NDArray[np.float64]) -> NDArray[np.float64]:
        hist = _bin_histograms(self.context_bins, costs, self.stumps.n_bins)
        below = np.cumsum(hist, axis=2)[:, :, :-1]
        at_or_above = np.cumsum(hist[:, :, ::-1], axis=2)[:, :, ::-1][:, :, 1:]
        totals = below[..., :, None] + at_or_above[..., None, :]
        return totals.reshape(costs.shape[0], -1)


@numba.njit(cache=True)
def _biased_argmax(
    scores: NDArray[np.float64], bias: NDArray[np.float64], out: NDArray[np.uint8]
) -> None:
    """``out[i, p] = argmax_a (scores[i, p K + a] + bias[p, a])``, smallest ``a`` on ties."""
    n_policies, n_actions = bias.shape
    for i in range(scores.shape[0]):
        for p in range(n_policies):
            best = 0
            best_score = scores[i, p * n_actions] + bias[p, 0]
            for a in range(1, n_actions):
                score = scores[i, p * n_actions + a] + bias[p, a]
                if score > best_score:
                    best, best_score = a, score
            out[i, p] = best


class RandomLinearPolicies(PolicyClass):
    """Random linear argmax policies ``pi(x) = argmax_a (W_pi z + b_pi)_a``.

    ``z`` is ``x`` standardised with the mean and standard deviation of the reference
    contexts (a constant feature is left unscaled). ``W_pi`` (``n_features x K``) and
    ``b_pi`` (``K``) have independent standard normal entries, drawn per block of
    ``block_size`` policies from ``numpy.random.default_rng([seed_, block])`` and never stored.
    Ties in the argmax (probability 0) go to the smallest action.

    Parameters
    ----------
    n_actions : int
        Number of actions ``K``.
    n_policies : int
        Size of the class.
    random_state : int or numpy.random.Generator
        Source of the class's seed.
    block_size : int, optional
        Policies generated together.

    Attributes
    ----------
    mean_, scale_ : ndarray of float64, shape (n_features,)
        Standardisation of the reference contexts.
    seed_ : int
        Seed of the parameter blocks.
    """

    def __init__(
        self,
        n_actions: int,
        n_policies: int,
        random_state: int | np.random.Generator,
        block_size: int = 1024,
    ) -> None:
        self.n_actions = n_actions
        self._n_policies = n_policies
        self.random_state = random_state
        self.block_size = block_size

    def fit(self, X: ArrayLike) -> RandomLinearPolicies:
        """Standardise on ``X`` and fix the seed; return ``self``."""
        if not 1 <= self.n_actions <= 255:
            raise ValueError(f"n_actions must be in 1..255; got {self.n_actions}")
        if self._n_policies < 1 or self.block_size < 1:
            raise ValueError(
                f"n_policies and block_size must be positive; got {self._n_policies}, "
                f"{self.block_size}"
            )
        features = _as_features(X)
        self.mean_ = features.mean(axis=0)
        scale = features.std(axis=0)
        self.scale_ = np.where(scale > 0, scale, 1.0)
        self.seed_ = int(np.random.default_rng(self.random_state).integers(2**63))
        return self

    @property
    def n_policies(self) -> int:
        """Size of the class."""
        return self._n_policies

    def _block(self, block: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """``(W, b)`` of block ``block``: shapes ``(n_features, size, K)`` and ``(size, K)``."""
        size = min(self.block_size, self._n_policies - block * self.block_size)
        rng = np.random.default_rng([self.seed_, block])
        weights = rng.standard_normal((self.mean_.size, size, self.n_actions))
        bias = rng.standard_normal((size, self.n_actions))
        return weights, bias

    def coefficients(self, policy: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """``(W_pi, b_pi)`` of one policy, shapes ``(n_features, K)`` and ``(K,)``."""
        policy = int(self._checked_policies([policy])[0])
        weights, bias = self._block(policy // self.block_size)
        offset = policy % self.block_size
        return weights[:, offset], bias[offset]

    def actions(self, X: ArrayLike, policies: ArrayLike | None = None) -> NDArray[np.uint8]:
        """Actions of the linear policies on ``X``; see :meth:`PolicyClass.actions`."""
        standardised = (_as_features(X, self.mean_.size) - self.mean_) / self.scale_
        ids = self._checked_policies(policies)
        result = np.empty((standardised.shape[0], ids.size), dtype=np.uint8)
        blocks = ids // self.block_size
        order = np.argsort(blocks, kind="stable")
        present, starts = np.unique(blocks[order], return_index=True)
        for block, columns in zip(present, np.split(order, starts[1:]), strict=True):
            weights, bias = self._block(int(block))
            offsets = ids[columns] - block * self.block_size
            weights, bias = weights[:, offsets], np.ascontiguousarray(bias[offsets])
            flat = weights.reshape(weights.shape[0], -1)
            block_actions = np.empty((standardised.shape[0], offsets.size), dtype=np.uint8)
            for start in range(0, standardised.shape[0], _CONTEXT_CHUNK):
                chunk = standardised[start : start + _CONTEXT_CHUNK]
                _biased_argmax(chunk @ flat, bias, block_actions[start : start + chunk.shape[0]])
            result[:, columns] = block_actions
        return result

    def describe(self, policy: int) -> str:
        """E.g. ``"random linear argmax policy 17 (seed 123, block 0)"``."""
        return (
            f"random linear argmax policy {policy} (seed {self.seed_}, block "
            f"{policy // self.block_size}): argmax_a (W z + b)_a over {self.n_actions} actions"
        )
