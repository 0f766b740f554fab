"""Does context matter? The gain of a per-context lottery over the best single one.

The paper's motivation, measured on real outcomes: when the same items meet under several
contexts (ATP players on clay, grass and hard courts; or in different periods), does
choosing a lottery per context beat every lottery that ignores the context?

**The game.** Contexts ``c = 1..C`` with skew-form matrices ``P_c`` over the same items and
weights ``mu_c`` (each context's share of the comparisons). A lottery ``w`` over the items,
played in context ``c``, has the *exploitability* ``e_c(w) = max_j (P_c w)_j >= 0``: how much
the best single item beats it there (in expected duel outcome; that item wins a duel
against a draw from ``w`` with probability ``(1 + e_c(w)) / 2``). Each context's von Neumann
winner (vNW) has ``e_c = 0``, so the per-context policy is never exploitable. A single
lottery for every context is exploitable by an opponent who knows the context:

    gain = min_w  sum_c mu_c e_c(w),

the average exploitability of the *best single lottery* (:func:`best_single_lottery`). It
is 0 exactly when one lottery is a vNW of every context, and it is what a context-aware
policy gains over the best context-blind one, against a context-aware opponent (the
contextual von Neumann winner of the paper, restricted to constant policies on one side).
The LP ``min sum_c mu_c t_c`` s.t. ``t_c >= (P_c w)_j`` for every ``c, j``, ``w`` in the
simplex, is solved by HiGHS and certified by its dual: per-context response distributions
``r_c`` give the lower bound ``min_i sum_c mu_c (r_c^T P_c)_i <= gain <= sum_c mu_c e_c(w)``.

**Noise.** Estimated matrices differ between contexts even when the truth does not, so the
gain of estimated matrices is positive even then. Two resamplings tell the signal from the
noise: the *bootstrap* (comparisons resampled within each context) gives an interval for
the gain; *permutations* of the context labels among the comparisons give its distribution
when context does not matter (the null), and a p-value.

The lottery one would report ignoring the context, the vNW of the pooled counts, is measured
the same way (``pooled_gain``): its average exploitability is at least the gain.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy.optimize import linprog

from ...batched import von_neumann_winners
from ...comparisons.counts import count_pairs
from ...comparisons.records import ComparisonLog, ComparisonLogError
from ...comparisons.uncertainty import bootstrap_pair_wins, skew_stack
from ...randomness import named_generator
from ...winners import CertificationError, SolverError
from .settings import ContextSettings, PlayerRule
from .sources import atp_log

__all__ = [
    "ANALYSES",
    "GAIN_TOL",
    "ContextGain",
    "ContextGame",
    "SingleLottery",
    "best_single_lottery",
    "context_game",
    "context_players",
    "draws_table",
    "exploitabilities",
    "measure_context_gain",
    "run_context_analysis",
]

logger = logging.getLogger(__name__)

#: Largest accepted gap between the certified upper and lower bounds of the gain.
GAIN_TOL = 1e-8


def context_players(
    log: ComparisonLog, contexts: Sequence[str], count: int, rule: PlayerRule
) -> tuple[str, ...]:
    """The items of a context analysis.

    ``"total"``: the ``count`` items with the most comparisons in the chosen contexts
    together (:meth:`~cdbandits.comparisons.ComparisonLog.top_items`). ``"least_context"``:
    the ``count`` items with the most comparisons in their least-represented context
    (ties: more comparisons in total, then order of appearance), so that every item plays
    in every context; for periods, ``"total"`` would mix players of different eras who
    never meet in most of them.

    Raises
    ------
    ComparisonLogError
        If a context has no records.
    """
    chosen = log.select(np.isin(log.context, list(contexts)))
    if rule == "total":
        return chosen.top_items(min(count, len(chosen.items)))
    if rule != "least_context":
        raise ValueError(f"rule must be 'total' or 'least_context', got {rule!r}")
    per_context = np.stack([log.select(log.context == c).comparisons_per_item() for c in contexts])
    least, total = per_context.min(axis=0), per_context.sum(axis=0)
    order = np.lexsort((np.arange(len(log.items)), -total, -least))[: min(count, len(log.items))]
    return tuple(log.items[i] for i in order)


@dataclass(frozen=True, eq=False)
class ContextGame:
    """The matrices of several contexts over the same items.

    Attributes
    ----------
    contexts : tuple of str
    items : tuple of str
    matrices : ndarray, shape (C, K, K)
        Skew form per context; pairs a context never compared are 0 (even).
    shares : ndarray, shape (C,)
        Each context's share of the comparisons (``mu_c``).
    comparisons : ndarray, shape (C,)
    """

    contexts: tuple[str, ...]
    items: tuple[str, ...]
    matrices: NDArray[np.float64]
    shares: NDArray[np.float64]
    comparisons: NDArray[np.float64]


def _context_logs(log: ComparisonLog, contexts: Sequence[str]) -> list[ComparisonLog]:
    logs = []
    for context in contexts:
        mask = log.context == context
        if not mask.any():
            raise ComparisonLogError(f"no comparisons in context {context!r} among these items")
        logs.append(log.select(mask))
    return logs


def context_game(log: ComparisonLog, contexts: Sequence[str]) -> ContextGame:
    """The per-context matrices of a log over all its items (restrict the log first)."""
    logs = _context_logs(log, contexts)
    comparisons = np.array([part.n_comparisons for part in logs])
    return ContextGame(
        contexts=tuple(contexts),
        items=log.items,
        matrices=np.stack([count_pairs(part).skew_matrix() for part in logs]),
        shares=comparisons / comparisons.sum(),
        comparisons=comparisons,
    )


def exploitabilities(
    matrices: NDArray[np.float64], weights: NDArray[np.float64]
) -> NDArray[np.float64]:
    """``e_c(w) = max_j (P_c w)_j`` for every context (clipped at 0 against rounding)."""
    return np.maximum(np.einsum("cji,i->cj", matrices, weights).max(axis=1), 0.0)


@dataclass(frozen=True)
class SingleLottery:
    """The certified best single lottery of a :class:`ContextGame`.

    Attributes
    ----------
    weights : ndarray, shape (K,)
    responses : ndarray, shape (C, K)
        The dual certificate: a response distribution per context.
    lower, upper : float
        ``lower <= gain <= upper``; ``upper = sum_c mu_c e_c(weights)``.
    """

    weights: NDArray[np.float64]
    responses: NDArray[np.float64]
    lower: float
    upper: float

    @property
    def gain(self) -> float:
        """The certified average exploitability (the upper bound, achieved by ``weights``)."""
        return self.upper


def best_single_lottery(
    matrices: NDArray[np.float64], shares: NDArray[np.float64], tol: float = GAIN_TOL
) -> SingleLottery:
    """The lottery minimising the share-weighted exploitability over contexts (module doc).

    Parameters
    ----------
    matrices : ndarray, shape (C, K, K)
        Skew-form matrices.
    shares : ndarray, shape (C,)
        Non-negative context weights summing to 1.
    tol : float, optional
        Largest accepted ``upper - lower``.

    Raises
    ------
    SolverError
        If HiGHS reports no optimal solution.
    CertificationError
        If the dual bound is further than ``tol`` from the primal value.
    """
    matrices = np.asarray(matrices, dtype=np.float64)
    shares = np.asarray(shares, dtype=np.float64)
    c, k, _ = matrices.shape
    # Variables [w (K), t (C)]; rows (c, j): P_c[j] @ w - t_c <= 0.
    a_ub = np.zeros((c * k, k + c))
    a_ub[:, :k] = matrices.reshape(c * k, k)
    a_ub[np.arange(c * k), k + np.repeat(np.arange(c), k)] = -1.0
    a_eq = np.concatenate([np.ones(k), np.zeros(c)])[None]
    bounds = [(0.0, None)] * k + [(None, None)] * c
    result = linprog(
        np.concatenate([np.zeros(k), shares]),
        A_ub=a_ub,
        b_ub=np.zeros(c * k),
        A_eq=a_eq,
        b_eq=[1.0],
        bounds=bounds,
        method="highs",
    )
    if result.status != 0:
        raise SolverError(f"HiGHS found no best single lottery: {result.message}")
    weights = np.clip(result.x[:k], 0.0, None)
    weights /= weights.sum()
    duals = np.clip(-result.ineqlin.marginals.reshape(c, k), 0.0, None)
    totals = duals.sum(axis=1, keepdims=True)
    responses = np.where(totals > 0, duals / np.where(totals > 0, totals, 1.0), 1.0 / k)
    upper = float(shares @ exploitabilities(matrices, weights))
    lower = float(np.einsum("c,cj,cji->i", shares, responses, matrices).min())
    if upper - lower > tol:
        raise CertificationError(
            f"the best single lottery is not certified: upper {upper:.3e} - lower {lower:.3e} "
            f"> {tol:.0e}"
        )
    return SingleLottery(weights=weights, responses=responses, lower=lower, upper=upper)


@dataclass(frozen=True, eq=False)
class ContextGain:
    """How much a per-context lottery gains over the best single one, with its noise.

    Attributes
    ----------
    name : str
        The analysis (``"surface"``, ``"period"``).
    game : ContextGame
    context_winners : ndarray, shape (C, K)
        Each context's vNW.
    pooled : ndarray, shape (K,)
        The vNW of the pooled counts (the lottery that ignores the context).
    best : SingleLottery
    bootstrap : ndarray, shape (B,)
        The gain of bootstrap resamples (comparisons resampled within each context).
    permutation : ndarray, shape (B',)
        The gain with the context labels shuffled among the comparisons (the null).
    confidence : float
    """

    name: str
    game: ContextGame
    context_winners: NDArray[np.float64]
    pooled: NDArray[np.float64]
    best: SingleLottery
    bootstrap: NDArray[np.float64]
    permutation: NDArray[np.float64]
    confidence: float

    @property
    def gain(self) -> float:
        return self.best.gain

    @property
    def pooled_gain(self) -> float:
        """Average exploitability of the pooled vNW."""
        return float(self.game.shares @ exploitabilities(self.game.matrices, self.pooled))

    def interval(self) -> tuple[float, float]:
        """Equal-tailed percentile bootstrap interval of the gain."""
        alpha = 1.0 - self.confidence
        low, high = np.quantile(self.bootstrap, [alpha / 2, 1 - alpha / 2])
        return float(low), float(high)

    @property
    def p_value(self) -> float:
        """Share of permutations (with the observed one) whose gain reaches the observed."""
        return float(
            (1 + (self.permutation >= self.gain - GAIN_TOL).sum()) / (1 + self.permutation.size)
        )

    def summary(self) -> dict[str, object]:
        """One row of the gain table."""
        low, high = self.interval()
        null_high = float(np.quantile(self.permutation, self.confidence))
        return {
            "analysis": self.name,
            "contexts": ", ".join(self.game.contexts),
            "items": len(self.game.items),
            "comparisons": float(self.game.comparisons.sum()),
            "gain": self.gain,
            "gain_low": low,
            "gain_high": high,
            "gain_lower_bound": self.best.lower,
            "win_probability": (1 + self.gain) / 2,
            "pooled_gain": self.pooled_gain,
            "null_median": float(np.median(self.permutation)),
            "null_quantile": null_high,
            "excess_over_null": self.gain - float(np.median(self.permutation)),
            "p_value": self.p_value,
            "resamples": int(self.bootstrap.size),
            "permutations": int(self.permutation.size),
        }

    def summary_table(self) -> pd.DataFrame:
        """:meth:`summary` as a one-row table."""
        return pd.DataFrame([self.summary()])

    def exploitability_table(self) -> pd.DataFrame:
        """Exploitability of every lottery (each context's vNW, pooled, best single) in
        every context, with the context shares."""
        lotteries = {
            f"vNW of {c}": w for c, w in zip(self.game.contexts, self.context_winners, strict=True)
        }
        lotteries |= {"pooled vNW": self.pooled, "best single lottery": self.best.weights}
        rows = []
        for lottery, weights in lotteries.items():
            values = exploitabilities(self.game.matrices, weights)
            for context, share, value in zip(
                self.game.contexts, self.game.shares, values, strict=True
            ):
                rows.append((self.name, lottery, context, share, value))
            rows.append((self.name, lottery, "average", 1.0, float(self.game.shares @ values)))
        return pd.DataFrame(
            rows, columns=["analysis", "lottery", "context", "share", "exploitability"]
        )

    def lottery_table(self, tol: float = 1e-9) -> pd.DataFrame:
        """Weights of every lottery, one row per item with positive weight in some lottery."""
        columns = {
            f"vNW of {c}": w for c, w in zip(self.game.contexts, self.context_winners, strict=True)
        }
        columns |= {"pooled vNW": self.pooled, "best single lottery": self.best.weights}
        frame = pd.DataFrame({"analysis": self.name, "item": list(self.game.items), **columns})
        weights = frame[list(columns)].to_numpy()
        return frame[(weights > tol).any(axis=1)].reset_index(drop=True)


def _winners(matrices: NDArray[np.float64]) -> NDArray[np.float64]:
    return von_neumann_winners(matrices).weights


def _bootstrap_gains(
    logs: Sequence[ComparisonLog],
    shares: NDArray[np.float64],
    resamples: int,
    rng: np.random.Generator,
) -> NDArray[np.float64]:
    k = len(logs[0].items)
    stacks = [
        np.concatenate(
            [skew_stack(chunk, k) for chunk in bootstrap_pair_wins(part, resamples, rng)]
        )
        for part in logs
    ]
    return np.array(
        [
            best_single_lottery(np.stack([s[b] for s in stacks]), shares).gain
            for b in range(resamples)
        ]
    )


def _permutation_gains(
    log: ComparisonLog, contexts: Sequence[str], permutations: int, rng: np.random.Generator
) -> NDArray[np.float64]:
    gains = np.empty(permutations)
    labels = np.asarray(log.context)
    for index in range(permutations):
        shuffled = ComparisonLog(
            items=log.items,
            first=log.first,
            second=log.second,
            outcome=log.outcome,
            weight=log.weight,
            context=labels[rng.permutation(labels.size)],
            group=log.group,
            origin=log.origin,
        )
        game = context_game(shuffled, contexts)
        gains[index] = best_single_lottery(game.matrices, game.shares).gain
    return gains


def measure_context_gain(
    log: ComparisonLog,
    name: str,
    contexts: Sequence[str],
    players: Sequence[str],
    *,
    resamples: int,
    permutations: int,
    confidence: float,
    bootstrap_rng: np.random.Generator,
    permutation_rng: np.random.Generator,
) -> ContextGain:
    """The gain of one context analysis with its bootstrap and permutation distributions.

    Parameters
    ----------
    log : ComparisonLog
        Comparisons with a context column (other contexts are ignored).
    name : str
    contexts : sequence of str
    players : sequence of str
        The items (:func:`context_players`).
    resamples, permutations : int
    confidence : float
    bootstrap_rng, permutation_rng : numpy.random.Generator
    """
    restricted = log.restrict(list(players))
    restricted = restricted.select(np.isin(restricted.context, list(contexts)))
    game = context_game(restricted, contexts)
    pooled_matrix = count_pairs(restricted).skew_matrix()
    winners = _winners(np.concatenate([game.matrices, pooled_matrix[None]]))
    best = best_single_lottery(game.matrices, game.shares)
    return ContextGain(
        name=name,
        game=game,
        context_winners=winners[:-1],
        pooled=winners[-1],
        best=best,
        bootstrap=_bootstrap_gains(
            _context_logs(restricted, contexts), game.shares, resamples, bootstrap_rng
        ),
        permutation=_permutation_gains(restricted, contexts, permutations, permutation_rng),
        confidence=confidence,
    )


#: The context analyses of :class:`.settings.ContextSettings`.
ANALYSES: tuple[str, ...] = ("surface", "period")


def run_context_analysis(
    paths: Sequence[str | os.PathLike[str]],
    analysis: str,
    settings: ContextSettings,
    periods: Mapping[str, tuple[int, int]],
) -> ContextGain:
    """One context analysis of the settings from the ATP results files.

    Parameters
    ----------
    paths : sequence of path-like
        ATP results files: the surface seasons (``"surface"``) or the seasons of the
        compared periods (``"period"``).
    analysis : {"surface", "period"}
    settings : ContextSettings
    periods : mapping of str to (int, int)
        ``real_data.atp_periods``.
    """
    if analysis == "surface":
        log = atp_log(paths, context="surface")
        contexts, count, rule = (
            settings.surfaces,
            settings.surface_players,
            settings.surface_players_by,
        )
    elif analysis == "period":
        chosen = {name: periods[name] for name in settings.periods}
        log = atp_log(paths, context="period", periods=chosen)
        contexts, count, rule = (
            settings.periods,
            settings.period_players,
            settings.period_players_by,
        )
    else:
        raise ValueError(f"unknown context analysis {analysis!r}; known: {ANALYSES}")
    players = context_players(log, contexts, count, rule)
    logger.info("%s: %d players, contexts %s", analysis, len(players), contexts)
    return measure_context_gain(
        log,
        analysis,
        contexts,
        players,
        resamples=settings.resamples,
        permutations=settings.permutations,
        confidence=settings.confidence,
        bootstrap_rng=named_generator(
            settings.seed, "real_data", "contexts", analysis, "bootstrap"
        ),
        permutation_rng=named_generator(
            settings.seed, "real_data", "contexts", analysis, "permutation"
        ),
    )


def draws_table(gain: ContextGain) -> pd.DataFrame:
    """The bootstrap and permutation gains of an analysis (``analysis``, ``kind``, ``gain``)."""
    return pd.concat(
        [
            pd.DataFrame({"analysis": gain.name, "kind": kind, "gain": values})
            for kind, values in (("bootstrap", gain.bootstrap), ("permutation", gain.permutation))
        ],
        ignore_index=True,
    )
