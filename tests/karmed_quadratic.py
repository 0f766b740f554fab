"""The O(K^2)-per-round kernels of RUCB, CCB and D-TS before the crossing tracker.

Kept as the reference the tracked kernels (:mod:`cdbandits.karmed.crossings`) are checked
against: the same arguments, random draws and duels, but every round recomputes every
bound. :func:`near_crossing_wins` makes states in which many pairs' bounds are about to
cross 1/2, and :func:`assert_plays_like_quadratic` runs both kernels from one.
"""

import math
from collections.abc import Callable

import numba
import numpy as np
from karmed_cases import random_probability_matrix
from numpy.typing import NDArray

from cdbandits.dueling.draws import coin_compiled, pick_compiled
from cdbandits.karmed.base import Arena, play_duel
from cdbandits.karmed.confidence import (
    confidence_bounds,
    lower_bound,
    random_argmax_compiled,
    upper_bound,
)
from cdbandits.karmed.dts import _beta_tail_after_duel_compiled


@numba.njit(cache=False)
def _quadratic_rucb_select(
    wins: NDArray[np.int64],
    champion: int,
    alpha: float,
    log_t: float,
    rng: np.random.Generator,
    candidates: NDArray[np.int64],
    column: NDArray[np.float64],
    scratch: NDArray[np.int64],
) -> tuple[int, int, int]:
    """One round's ``(c, d)`` and the new champion (-1 for none)."""
    k = wins.shape[0]
    n_candidates = 0
    champion_in_candidates = False
    for i in range(k):
        optimistic = True
        for j in range(k):
            # u_ij >= w_ij / n_ij >= 1/2 unless i lost more duels to j than it won.
            if wins[i, j] < wins[j, i] and upper_bound(wins[i, j], wins[j, i], log_t, alpha) < 0.5:
                optimistic = False
                break
        if optimistic:
            candidates[n_candidates] = i
            n_candidates += 1
            champion_in_candidates = champion_in_candidates or i == champion
    if n_candidates == 0:
        champion = -1
        c = pick_compiled(rng, k)
    else:
        if not champion_in_candidates:
            champion = -1
        if n_candidates == 1:
            champion = candidates[0]
            c = champion
        elif champion >= 0:
            if coin_compiled(rng, 0.5):
                c = champion
            else:
                kept = 0
                for m in range(n_candidates):
                    if candidates[m] != champion:
                        candidates[kept] = candidates[m]
                        kept += 1
                c = candidates[pick_compiled(rng, kept)]
        else:
            c = candidates[pick_compiled(rng, n_candidates)]
    for j in range(k):
        column[j] = 0.5 if j == c else upper_bound(wins[j, c], wins[c, j], log_t, alpha)
        candidates[j] = j
    d = random_argmax_compiled(column, candidates, k, rng, c, scratch)
    return c, d, champion


@numba.njit(cache=False)
def quadratic_rucb_rounds(
    wins: NDArray[np.int64],
    champion: int,
    alpha: float,
    start_round: int,
    n_rounds: int,
    rng: np.random.Generator,
    arena: Arena,
) -> int:
    k = wins.shape[0]
    candidates = np.empty(k, dtype=np.int64)
    column = np.empty(k)
    scratch = np.empty(k, dtype=np.int64)
    for step in range(n_rounds):
        log_t = math.log(start_round + step + 1)
        c, d, champion = _quadratic_rucb_select(
            wins, champion, alpha, log_t, rng, candidates, column, scratch
        )
        outcome = play_duel(arena, step, c, d)
        wins[c, d] += outcome
        wins[d, c] += 1 - outcome
    return champion


@numba.njit(cache=False)
def quadratic_ccb_rounds(
    wins: NDArray[np.int64],
    candidates: NDArray[np.bool_],
    challengers: NDArray[np.bool_],
    max_losses: int,
    alpha: float,
    start_round: int,
    n_rounds: int,
    rng: np.random.Generator,
    arena: Arena,
) -> int:
    k = wins.shape[0]
    upper = np.empty((k, k))
    lower = np.empty((k, k))
    optimistic = np.empty(k, dtype=np.int64)
    pessimistic = np.empty(k, dtype=np.int64)
    top = np.empty(k, dtype=np.int64)
    pool = np.empty(k, dtype=np.int64)
    scratch = np.empty(k, dtype=np.int64)
    pairs = np.empty(k * k, dtype=np.int64)
    for step in range(n_rounds):
        log_t = math.log(start_round + step + 1)
        for i in range(k):
            upper[i, i] = 0.5
            lower[i, i] = 0.5
            for j in range(i + 1, k):
                upper[i, j] = upper_bound(wins[i, j], wins[j, i], log_t, alpha)
                lower[i, j] = lower_bound(wins[i, j], wins[j, i], log_t, alpha)
                upper[j, i] = upper_bound(wins[j, i], wins[i, j], log_t, alpha)
                lower[j, i] = lower_bound(wins[j, i], wins[i, j], log_t, alpha)
        best_optimistic = 0
        best_pessimistic = 0
        for i in range(k):
            optimistic[i] = 0
            pessimistic[i] = 0
            for j in range(k):
                if j != i and upper[i, j] >= 0.5:
                    optimistic[i] += 1
                if j != i and lower[i, j] >= 0.5:
                    pessimistic[i] += 1
            best_optimistic = max(best_optimistic, optimistic[i])
            best_pessimistic = max(best_pessimistic, pessimistic[i])
        n_top = 0
        for i in range(k):
            if optimistic[i] == best_optimistic:
                top[n_top] = i
                n_top += 1
        # (A) reset disproven hypotheses
        disproven = False
        for i in range(k):
            for j in range(k):
                disproven = disproven or (challengers[i, j] and lower[i, j] > 0.5)
        if disproven:
            candidates[:] = True
            challengers[:, :] = False
            max_losses = k
        # (B) remove non-Copeland winners
        for i in range(k):
            if candidates[i] and optimistic[i] < best_pessimistic:
                candidates[i] = False
                if challengers[i].sum() != max_losses + 1:
                    for j in range(k):
                        challengers[i, j] = upper[i, j] < 0.5
        if not candidates.any():
            candidates[:] = True
            challengers[:, :] = False
            max_losses = k
        # (C) add Copeland winners
        for m in range(n_top):
            i = top[m]
            if optimistic[i] != pessimistic[i]:
                continue
            candidates[i] = True
            challengers[i, :] = False
            max_losses = k - 1 - optimistic[i]
            keep = max_losses + 1
            for j in range(k):
                size = 0
                for arm in range(k):
                    if challengers[j, arm]:
                        pool[size] = arm
                        size += 1
                if j == i or size == keep:
                    continue
                challengers[j, :] = False
                if size > keep:
                    for position in range(keep):
                        other = position + pick_compiled(rng, size - position)
                        pool[position], pool[other] = pool[other], pool[position]
                        challengers[j, pool[position]] = True
        # exploration of the challengers, else a Copeland candidate and its challenger
        c = -1
        d = -1
        if coin_compiled(rng, 0.25):
            n_pairs = 0
            for i in range(k):
                for j in range(k):
                    if challengers[i, j] and lower[i, j] <= 0.5 and upper[i, j] >= 0.5:
                        pairs[n_pairs] = i * k + j
                        n_pairs += 1
            if n_pairs > 0:
                chosen = pairs[pick_compiled(rng, n_pairs)]
                c = chosen // k
                d = chosen % k
        if c < 0:
            n_both = 0
            for m in range(n_top):
                if candidates[top[m]]:
                    pool[n_both] = top[m]
                    n_both += 1
            if n_both > 0 and coin_compiled(rng, 2.0 / 3.0):
                c = pool[pick_compiled(rng, n_both)]
            else:
                c = top[pick_compiled(rng, n_top)]
            use_challengers = coin_compiled(rng, 0.5)
            n_plausible = 0
            for j in range(k):
                if lower[j, c] <= 0.5 and challengers[c, j]:
                    pool[n_plausible] = j
                    n_plausible += 1
            if not use_challengers or n_plausible == 0:
                n_plausible = 0
                for j in range(k):
                    if lower[j, c] <= 0.5:
                        pool[n_plausible] = j
                        n_plausible += 1
            d = random_argmax_compiled(upper[:, c], pool, n_plausible, rng, c, scratch)
        outcome = play_duel(arena, step, c, d)
        wins[c, d] += outcome
        wins[d, c] += 1 - outcome
    return max_losses


@numba.njit(cache=False)
def quadratic_dts_rounds(
    wins: NDArray[np.int64],
    beta_tails: NDArray[np.float64],
    alpha: float,
    start_round: int,
    n_rounds: int,
    rng: np.random.Generator,
    arena: Arena,
) -> None:
    k = wins.shape[0]
    scores = np.empty(k, dtype=np.int64)
    copeland = np.empty(k, dtype=np.int64)
    in_copeland = np.zeros(k, dtype=np.bool_)
    sampled_wins = np.zeros(k)
    plausible = np.empty(k, dtype=np.int64)
    theta2 = np.empty(k)
    scratch = np.empty(k, dtype=np.int64)
    for step in range(n_rounds):
        log_t = math.log(start_round + step + 1)
        best = 0
        for i in range(k):
            scores[i] = 0
            for j in range(k):
                # u_ij >= w_ij / n_ij > 1/2 when i won more duels against j than it lost
                if j != i and (
                    wins[i, j] > wins[j, i]
                    or upper_bound(wins[i, j], wins[j, i], log_t, alpha) > 0.5
                ):
                    scores[i] += 1
            best = max(best, scores[i])
        n_copeland = 0
        for i in range(k):
            in_copeland[i] = scores[i] == best
            if in_copeland[i]:
                copeland[n_copeland] = i
                n_copeland += 1
        if n_copeland == 1:
            first = copeland[0]
        else:
            sampled_wins[:] = 0.0
            for i in range(k):
                for j in range(i + 1, k):
                    if in_copeland[i] or in_copeland[j]:
                        if rng.random() < beta_tails[0, i, j]:
                            sampled_wins[i] += 1.0
                        else:
                            sampled_wins[j] += 1.0
            first = random_argmax_compiled(sampled_wins, copeland, n_copeland, rng, -1, scratch)
        n_plausible = 0
        for i in range(k):
            if i == first:
                theta2[i] = 0.5
            elif lower_bound(wins[i, first], wins[first, i], log_t, alpha) <= 0.5:
                theta2[i] = rng.beta(wins[i, first] + 1, wins[first, i] + 1)
            else:
                continue
            plausible[n_plausible] = i
            n_plausible += 1
        second = random_argmax_compiled(theta2, plausible, n_plausible, rng, -1, scratch)
        outcome = play_duel(arena, step, first, second)
        if first != second:
            i, j = min(first, second), max(first, second)
            won = (outcome == 1) == (first == i)
            tail, at, above = _beta_tail_after_duel_compiled(
                beta_tails[0, i, j],
                beta_tails[1, i, j],
                beta_tails[2, i, j],
                wins[i, j],
                wins[j, i],
                won,
            )
            beta_tails[0, i, j] = tail
            beta_tails[1, i, j] = at
            beta_tails[2, i, j] = above
        wins[first, second] += outcome
        wins[second, first] += 1 - outcome


def near_crossing_wins(n_arms: int, rng: np.random.Generator) -> tuple[np.ndarray, int, float]:
    """Win counts, a round and an ``alpha`` at which many pairs' bounds are near 1/2.

    About half of the pairs have ``n (1/2 - w / n)^2 / alpha`` within a few percent of
    ``log`` of a common round ``t0`` (their ``u`` or ``l`` crosses 1/2 within the next
    rounds), a sixth were never compared, the rest are random. ``alpha`` (about 0.6) is
    then tuned to the last bit so that one near pair's ``u`` or ``l`` is *exactly* 1/2 at
    a round ``t_tie`` (where ``>=`` and ``>`` differ), and the round returned is
    ``t_tie - 1`` minus 0 to 3.
    """
    t0 = float(np.exp(rng.uniform(np.log(20), np.log(5000))))
    wins = np.zeros((n_arms, n_arms), dtype=np.int64)
    near = []
    for i in range(n_arms):
        for j in range(i + 1, n_arms):
            kind = rng.random()
            if kind < 1 / 6:
                continue
            n = int(rng.integers(1, 2000))
            if kind < 2 / 3:
                gap = np.sqrt(0.6 * np.log(t0 * np.exp(rng.normal(0, 0.02))) / n)
                w = int(np.clip(np.rint(n * (0.5 + rng.choice([-1, 1]) * gap)), 0, n))
                if 2 * w != n and 0 < w < n:
                    near.append((w, n))
            else:
                w = int(rng.binomial(n, rng.random()))
            wins[i, j], wins[j, i] = w, n - w
    for index in rng.permutation(len(near)):
        w, n = near[index]
        tie_round = int(np.ceil(np.exp(n * (0.5 - w / n) ** 2 / 0.6))) + 1
        alpha = _tie_alpha(w, n, tie_round)
        if alpha is not None and 0.5 < alpha < 1e6 and tie_round > 4:
            return wins, tie_round - 1 - int(rng.integers(0, 4)), alpha
    return wins, int(t0), 0.6


def _tie_alpha(w: int, n: int, t: int) -> float | None:
    """An ``alpha`` with ``u = 1/2`` (``w < n/2``) or ``l = 1/2`` exactly at round ``t``."""
    below = 2 * w < n
    bound = upper_bound if below else lower_bound
    alpha = n * (0.5 - w / n) ** 2 / math.log(t)
    for _ in range(400):
        value = bound(w, n - w, math.log(t), alpha)
        if value == 0.5:
            return alpha
        grow = (value < 0.5) == below  # u rises and l falls with alpha
        alpha = float(np.nextafter(alpha, np.inf if grow else -np.inf))
    return None


def assert_plays_like_quadratic(
    tracked, reference, quadratic_kernel: Callable, n_rounds: int, seed: int
) -> None:
    """Run ``tracked`` (its own kernel) and ``reference`` (``quadratic_kernel``) from the
    same state: the same duels and the same final state."""
    k = tracked.n_arms_
    q = random_probability_matrix(k, np.random.default_rng(seed))
    tracked_duels = np.empty((n_rounds, 3), dtype=np.int64)
    reference_duels = np.empty((n_rounds, 3), dtype=np.int64)
    tracked.run_compiled(
        q, np.random.default_rng(seed), n_rounds, np.zeros(k, dtype=np.int64), tracked_duels
    )
    result = quadratic_kernel(
        *reference._kernel_state(),
        reference.round_,
        n_rounds,
        reference.rng_,
        Arena(q, np.random.default_rng(seed), np.zeros(k, dtype=np.int64), reference_duels),
    )
    reference._kernel_result(result)
    reference.round_ += n_rounds
    np.testing.assert_array_equal(tracked_duels, reference_duels)
    for name, value in vars(reference).items():
        if name.endswith("_") and isinstance(value, np.ndarray | int):
            np.testing.assert_array_equal(getattr(tracked, name), value, err_msg=name)


def comparisons_flip(wins: np.ndarray, first: int, last: int, alpha: float = 0.51) -> int:
    """How many of the comparisons ``u_ij >= 1/2``, ``l_ij >= 1/2`` differ between rounds
    ``first`` and ``last`` (the crossings a run from ``wins`` meets if no duel intervenes)."""
    before = confidence_bounds(wins, np.log(first), alpha)
    after = confidence_bounds(wins, np.log(last), alpha)
    return sum(int(((b >= 0.5) != (a >= 0.5)).sum()) for b, a in zip(before, after, strict=True))
