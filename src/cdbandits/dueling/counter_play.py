"""A round's win probability, for the kernels: from a fixed matrix or the adaptive adversary.

Every compiled learner (K-armed, linear, contextual) plays its rounds either against fixed
probability-form matrices or against the counter-play adversary of
:class:`cdbandits.contextual.environments.CounterPlayAdversary`, whose matrix of round ``t``
depends on the plays so far. :class:`CounterPlayRounds` is that adversary in the form the
kernels take, and :func:`round_win_probability` and :func:`scheduled_win_probability` read
``Pr(a beats b)`` from either form (numba picks the form at compile time).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.core import types
from numba.extending import overload
from numpy.typing import NDArray

__all__ = [
    "CounterPlayRounds",
    "checked_counter_play_rounds",
    "round_win_probability",
    "scheduled_win_probability",
]


class CounterPlayRounds(NamedTuple):
    """Rounds against the counter-play adversary, in the form the kernels play them.

    The compiled twin of :class:`cdbandits.contextual.environments.CounterPlayAdversary`:
    passed to a kernel in place of a fixed matrix, it makes round ``step``'s winner
    ``w = (f + 1) mod K``, ``f`` the most played action so far in context
    ``context_ids[step]`` (smallest on ties), and ``a`` wins iff ``u < (1 + P_t(a, b)) / 2``
    with ``P_t(w, b) = margin = -P_t(b, w)`` for ``b != w``, 0 elsewhere: the adversary's own
    outcome rule, in the same floating-point operations.

    Attributes
    ----------
    context_ids : ndarray of int64, shape (n_rounds,)
        The context of each round played (drawn ahead: they do not depend on the learner).
    play_counts : ndarray of int64, shape (n_contexts, K)
        Plays of each action in each context (both slots), updated in place.
    winners : ndarray of int64, shape (n_rounds,)
        Filled with each round's winner ``w`` (what the evaluator's gains need).
    margin : float
    """

    context_ids: NDArray[np.int64]
    play_counts: NDArray[np.int64]
    winners: NDArray[np.int64]
    margin: float


def checked_counter_play_rounds(
    rounds: CounterPlayRounds, n_arms: int, n_rounds: int
) -> CounterPlayRounds:
    """``rounds`` with arrays the kernels can take, or ``ValueError`` naming what is off."""
    context_ids = np.asarray(rounds.context_ids)
    play_counts = rounds.play_counts
    if not isinstance(play_counts, np.ndarray) or play_counts.dtype != np.int64:
        raise ValueError("CounterPlayRounds.play_counts must be an int64 array (updated in place)")
    if play_counts.ndim != 2 or play_counts.shape[1] != n_arms:
        raise ValueError(
            f"play_counts must have shape (n_contexts, {n_arms}); got {play_counts.shape}"
        )
    if context_ids.shape != (n_rounds,) or rounds.winners.shape != (n_rounds,):
        raise ValueError(
            f"context_ids and winners must have shape ({n_rounds},); got "
            f"{context_ids.shape} and {rounds.winners.shape}"
        )
    if rounds.winners.dtype != np.int64:
        raise ValueError("CounterPlayRounds.winners must be an int64 array (filled in place)")
    if n_rounds and not 0 <= context_ids.min() <= context_ids.max() < play_counts.shape[0]:
        raise ValueError(f"context_ids must lie in 0..{play_counts.shape[0] - 1}")
    if not 0.0 < rounds.margin <= 1.0:
        raise ValueError(f"margin must be in (0, 1]; got {rounds.margin}")
    return CounterPlayRounds(
        np.ascontiguousarray(context_ids, dtype=np.int64),
        play_counts,
        rounds.winners,
        float(rounds.margin),
    )


def round_win_probability(
    environment: NDArray[np.float64] | CounterPlayRounds, step: int, a: int, b: int
) -> float:
    """``Pr(a beats b)`` in round ``step`` of ``environment`` (a matrix ``Q`` or the adaptive
    adversary's rounds, which also count the duel); numba kernels only."""
    raise TypeError("round_win_probability is called from numba kernels only")


@overload(round_win_probability)
def _round_win_probability_overload(environment, step, a, b):
    if isinstance(environment, types.Array):
        return lambda environment, step, a, b: environment[a, b]
    if isinstance(environment, types.BaseNamedTuple) and issubclass(
        environment.instance_class, CounterPlayRounds
    ):

        def counter_play(environment, step, a, b):
            context = environment.context_ids[step]
            counts = environment.play_counts[context]
            winner = (np.argmax(counts) + 1) % counts.size
            environment.winners[step] = winner
            counts[a] += 1
            counts[b] += 1
            skew = 0.0
            if a == winner and b != winner:
                skew = environment.margin
            elif b == winner and a != winner:
                skew = -environment.margin
            return (1.0 + skew) / 2.0

        return counter_play
    return None


def scheduled_win_probability(
    win: NDArray[np.float64] | CounterPlayRounds, context: int, step: int, a: int, b: int
) -> float:
    """``Pr(a beats b)`` in round ``step``, shown ``context``, of a contextual schedule.

    ``win`` is either the contexts' probability-form matrices (shape ``(n_contexts, K, K)``,
    read at ``win[context, a, b]``) or the adaptive adversary's rounds (their
    :func:`round_win_probability`, which also counts the duel; ``context`` is then
    ``win.context_ids[step]``). Numba kernels only.
    """
    raise TypeError("scheduled_win_probability is called from numba kernels only")


@overload(scheduled_win_probability)
def _scheduled_win_probability_overload(win, context, step, a, b):
    if isinstance(win, types.Array) and win.ndim == 3:
        return lambda win, context, step, a, b: win[context, a, b]
    if isinstance(win, types.BaseNamedTuple) and issubclass(win.instance_class, CounterPlayRounds):
        return lambda win, context, step, a, b: round_win_probability(win, step, a, b)
    return None
