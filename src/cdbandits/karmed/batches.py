"""Batches of arms for the divide-and-conquer algorithms MergeRUCB and MergeDTS.

MergeRUCB (Zoghi, Whiteson and de Rijke, WSDM 2015) and MergeDTS (Li, Markov, de Rijke and
Zoghi, ACM TOIS 2020, arXiv 1812.04412) keep the surviving arms in small *batches* and only
ever duel two arms of the same batch. Their shared bookkeeping, as implemented here:

* **Start**: the arms, in a random order (``rng.permutation``), are split into
  ``ceil(K / P)`` consecutive batches of nearly equal sizes (``numpy.array_split``).
* **Current batch**: round ``t`` works on batch ``(t - 1) mod (number of batches)``.
* **Confidence bounds** (:mod:`cdbandits.karmed.confidence`) use ``log(t + C)`` with the
  papers' time offset ``C = ((4 alpha - 1) K^2 / ((2 alpha - 1) delta))^(1 / (2 alpha - 1))``
  (or ``C`` given directly), and RUCB's convention ``x / 0 := 1``: ``u_ij = 2`` for a pair
  never compared.
* **Preparing the batch**, repeated until nothing changes: a batch left with one arm while
  other batches exist is merged into the next batch; then every arm ``i`` of the batch
  with ``u_ij < 1/2`` for another surviving arm ``j`` of the batch is eliminated, the arms
  checked one by one in increasing order against the arms not yet eliminated (so a batch
  never empties).
* **Stage merges**, after every duel: when at most ``K / 2^s`` arms survive in stage ``s``
  (``s`` starts at 1) and there is more than one batch, the batches are sorted by size
  (ties by position) and paired smallest with largest, a pair merged unless that makes
  more than ``1.5 P`` arms (then the largest stays alone); if a batch of at most ``P / 2``
  arms remains, this is done once more; ``s`` grows by one.
* Once one arm survives, it duels itself.

**Sources.** The rules above were checked line by line against the authors' public code
of both algorithms, github.com/chang-li/MergeDTS at commit 296f3e2
(``dueling_bandits/merge_rucb.py`` and ``merge_dts.py``, the code behind the MergeDTS
paper's experiments; benchmarks/bench_reference_duels.py runs it next to this package).
That code differs in the following rules, which this package does not reproduce (the
benchmark measures their joint effect: MergeRUCB's mean regret within 0.83-1.05 of the
code's on the MSLR matrices):

* *unplayed pairs*: the code starts every pair at one win each way (``w = ones``) and
  computes ``u_ij = (W_ij + 1) / (N_ij + 2) + sqrt(alpha log / (N_ij + 2))``, so a pair
  never compared has ``u = 1/2 + sqrt(alpha log / 2)`` instead of 2 and every bound is
  pulled towards 1/2;
* *the log term*: the code's clock starts at ``C + 1`` and is set back to ``C + 1`` at
  every stage merge, so its ``log`` restarts at ``log(C + 1)``; here ``log(t + C)`` runs on;
* *stage trigger*: the code merges when ``survivors <= K / 2^s + 1``;
* *singletons*: the code's MergeRUCB never merges a batch of one arm into another (its
  MergeDTS does); that arm duels itself until the next stage merge;
* the initial split (the code cuts the shuffled arms into batches of exactly ``P``, the
  last one smaller), the current batch (the code's clock modulo the number of batches), the
  order of elimination (the code removes one random dominated arm at a time) and the order
  of equal-sized batches in a stage merge (the code shuffles them first).

Each of these is a choice of this implementation. The bookkeeping functions are compiled
once and called by both implementations of each algorithm; the pair each algorithm chooses
inside the batch is written twice (NumPy in its module, compiled here, where
:func:`merge_rounds` plays the rounds of both, with :data:`UCB_PAIR`,
:data:`THOMPSON_WEAKEST` or :data:`THOMPSON_STRONGEST` naming the rule).
"""

from __future__ import annotations

import math
import warnings

import numba
import numpy as np
from numpy.typing import NDArray

from ..dueling.checks import check_integer, check_positive
from ..dueling.draws import pick_compiled
from .base import Arena, DuelingBanditAlgorithm, play_duel
from .confidence import confidence_bounds, random_argmax_compiled, upper_bound

__all__ = [
    "THOMPSON_STRONGEST",
    "THOMPSON_WEAKEST",
    "UCB_PAIR",
    "BatchedAlgorithm",
    "after_duel",
    "initial_batches",
    "merge_into_next",
    "merge_rounds",
    "merge_stage",
    "prepare_batch_compiled",
    "time_offset",
]


#: The rules that choose the pair inside the batch, as :func:`merge_rounds` reads them:
#: MergeRUCB's, and MergeDTS's with the weakest or the strongest sampled challenger.
UCB_PAIR, THOMPSON_WEAKEST, THOMPSON_STRONGEST = 0, 1, 2


def time_offset(n_arms: int, alpha: float, failure_probability: float) -> float:
    """``C = ((4 alpha - 1) K^2 / ((2 alpha - 1) delta))^(1 / (2 alpha - 1))``."""
    base = (4.0 * alpha - 1.0) * n_arms**2 / ((2.0 * alpha - 1.0) * failure_probability)
    try:
        offset = base ** (1.0 / (2.0 * alpha - 1.0))
    except OverflowError:
        offset = math.inf
    if not math.isfinite(offset):
        raise ValueError(
            f"the time offset C overflows for alpha={alpha}, K={n_arms}; pass time_offset"
        )
    return offset


def initial_batches(
    n_arms: int, partition_size: int, rng: np.random.Generator
) -> NDArray[np.int64]:
    """Batch index of each arm: a random order split into ``ceil(K / P)`` near-equal batches."""
    batch = np.empty(n_arms, dtype=np.int64)
    order = rng.permutation(n_arms)
    for index, members in enumerate(np.array_split(order, math.ceil(n_arms / partition_size))):
        batch[members] = index
    return batch


@numba.njit(cache=True)
def merge_into_next(batch: NDArray[np.int64], n_batches: int, current: int) -> tuple[int, int]:
    """Move batch ``current`` into the next one; return the new count and the merged index."""
    target = (current + 1) % n_batches
    for arm in range(batch.size):
        if batch[arm] == current:
            batch[arm] = target
    for arm in range(batch.size):
        if batch[arm] > current:
            batch[arm] -= 1
    return n_batches - 1, target - 1 if target > current else target


@numba.njit(cache=True)
def merge_stage(batch: NDArray[np.int64], n_batches: int, partition_size: int) -> int:
    """Pair the batches smallest with largest (see the module docstring); return the new count."""
    sizes = np.zeros(n_batches, dtype=np.int64)
    for arm in range(batch.size):
        if batch[arm] >= 0:
            sizes[batch[arm]] += 1
    order = np.arange(n_batches)
    for i in range(1, n_batches):  # insertion sort by size: stable, ties by position
        j = i
        while j > 0 and sizes[order[j - 1]] > sizes[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    renamed = np.empty(n_batches, dtype=np.int64)
    low, high, count = 0, n_batches - 1, 0
    while low <= high:
        if low == high:
            renamed[order[low]] = count
            high -= 1
        elif sizes[order[low]] + sizes[order[high]] > 1.5 * partition_size:
            renamed[order[high]] = count
            high -= 1
        else:
            renamed[order[low]] = count
            renamed[order[high]] = count
            low += 1
            high -= 1
        count += 1
    for arm in range(batch.size):
        if batch[arm] >= 0:
            batch[arm] = renamed[batch[arm]]
    return count


@numba.njit(cache=True)
def after_duel(
    batch: NDArray[np.int64], n_batches: int, stage: int, partition_size: int
) -> tuple[int, int]:
    """The stage merge check of the module docstring; return ``(n_batches, stage)``."""
    survivors = 0
    for arm in range(batch.size):
        if batch[arm] >= 0:
            survivors += 1
    if n_batches > 1 and survivors <= batch.size / 2.0**stage:
        n_batches = merge_stage(batch, n_batches, partition_size)
        if n_batches > 1:
            sizes = np.zeros(n_batches, dtype=np.int64)
            for arm in range(batch.size):
                if batch[arm] >= 0:
                    sizes[batch[arm]] += 1
            if sizes.min() <= 0.5 * partition_size:
                n_batches = merge_stage(batch, n_batches, partition_size)
        stage += 1
    return n_batches, stage


@numba.njit(cache=True)
def prepare_batch_compiled(
    wins: NDArray[np.int64],
    batch: NDArray[np.int64],
    n_batches: int,
    current: int,
    log_term: float,
    alpha: float,
    members: NDArray[np.int64],
) -> tuple[int, int, int]:
    """Merge and prune the current batch; return ``(n_batches, current, n_members)``.

    ``members[:n_members]`` are then the batch's arms in increasing order.
    """
    while True:
        n_members = 0
        for arm in range(batch.size):
            if batch[arm] == current:
                members[n_members] = arm
                n_members += 1
        if n_members == 1 and n_batches > 1:
            n_batches, current = merge_into_next(batch, n_batches, current)
            continue
        pruned = False
        for p in range(n_members):
            i = members[p]
            for q in range(n_members):
                j = members[q]
                if j != i and batch[j] == current:
                    if upper_bound(wins[i, j], wins[j, i], log_term, alpha) < 0.5:
                        batch[i] = -1
                        pruned = True
                        break
        if not pruned:
            return n_batches, current, n_members


@numba.njit(cache=True)
def _ucb_pair(
    wins: NDArray[np.int64],
    members: NDArray[np.int64],
    n_members: int,
    log_term: float,
    alpha: float,
    rng: np.random.Generator,
    scratch: NDArray[np.int64],
    values: NDArray[np.float64],
    others: NDArray[np.int64],
) -> tuple[int, int]:
    """MergeRUCB's pair: ``c`` uniform in the batch, ``d = argmax_{j != c} u_jc``."""
    c = members[pick_compiled(rng, n_members)]
    n_others = 0
    for m in range(n_members):
        j = members[m]
        if j != c:
            values[j] = upper_bound(wins[j, c], wins[c, j], log_term, alpha)
            others[n_others] = j
            n_others += 1
    return c, random_argmax_compiled(values, others, n_others, rng, -1, scratch)


@numba.njit(cache=True)
def _thompson_pair(
    wins: NDArray[np.int64],
    members: NDArray[np.int64],
    n_members: int,
    rng: np.random.Generator,
    scratch: NDArray[np.int64],
    values: NDArray[np.float64],
    others: NDArray[np.int64],
    theta: NDArray[np.float64],
    weakest: bool,
) -> tuple[int, int]:
    """MergeDTS's pair: the sampled tournament's winner and its weakest (or strongest)
    sampled challenger."""
    for p in range(n_members):
        for q in range(p + 1, n_members):
            theta[p, q] = rng.beta(
                wins[members[p], members[q]] + 1, wins[members[q], members[p]] + 1
            )
            theta[q, p] = 1.0 - theta[p, q]
    for p in range(n_members):
        count = 0
        for q in range(n_members):
            if q != p and theta[p, q] > 0.5:
                count += 1
        values[p] = count
        others[p] = p
    champion = random_argmax_compiled(values, others, n_members, rng, -1, scratch)
    c = members[champion]
    n_others = 0
    for p in range(n_members):
        if p != champion:
            sample = rng.beta(wins[members[p], c] + 1, wins[c, members[p]] + 1)
            values[p] = -sample if weakest else sample
            others[n_others] = p
            n_others += 1
    return c, members[random_argmax_compiled(values, others, n_others, rng, -1, scratch)]


@numba.njit(cache=True)
def merge_rounds(
    wins: NDArray[np.int64],
    batch: NDArray[np.int64],
    n_batches: int,
    stage: int,
    alpha: float,
    partition_size: int,
    offset: float,
    pair_rule: int,
    start_round: int,
    n_rounds: int,
    rng: np.random.Generator,
    arena: Arena,
) -> tuple[int, int]:
    """The rounds of MergeDTS or MergeRUCB (``pair_rule``, :data:`UCB_PAIR` and
    the others); return
    ``(n_batches, stage)``."""
    k = wins.shape[0]
    members = np.empty(k, dtype=np.int64)
    others = np.empty(k, dtype=np.int64)
    scratch = np.empty(k, dtype=np.int64)
    values = np.zeros(k)
    theta = np.empty((k, k))
    for step in range(n_rounds):
        t = start_round + step + 1
        log_term = math.log(t + offset)
        n_batches, _, n_members = prepare_batch_compiled(
            wins, batch, n_batches, (t - 1) % n_batches, log_term, alpha, members
        )
        if n_members == 1:
            c = members[0]
            d = c
        elif pair_rule != UCB_PAIR:
            c, d = _thompson_pair(
                wins,
                members,
                n_members,
                rng,
                scratch,
                values,
                others,
                theta,
                pair_rule == THOMPSON_WEAKEST,
            )
        else:
            c, d = _ucb_pair(
                wins, members, n_members, log_term, alpha, rng, scratch, values, others
            )
        outcome = play_duel(arena, step, c, d)
        wins[c, d] += outcome
        wins[d, c] += 1 - outcome
        n_batches, stage = after_duel(batch, n_batches, stage, partition_size)
    return n_batches, stage


class BatchedAlgorithm(DuelingBanditAlgorithm):
    """Shared state and bookkeeping of MergeRUCB and MergeDTS (module docstring).

    The defaults are those of the public code of Li et al. (TOIS 2020), who ran both
    algorithms; the tuned values of that paper's experiments (``alpha = 0.8^6``,
    ``C = 4e5``, ``P = 16`` for MergeDTS and 8 for MergeRUCB) are accepted too.

    Both papers' regret theorems assume ``alpha > 1/2`` (with ``C`` from its formula, the
    bound holds with probability ``1 - delta``); the algorithm itself only needs
    ``alpha > 0``. ``alpha <= 1/2`` therefore runs, with a :class:`UserWarning` that the
    theorem does not apply, and needs ``time_offset``: ``C``'s formula divides by
    ``2 alpha - 1``.

    Parameters
    ----------
    alpha : float, optional
        Exploration constant, ``alpha > 0``; default 1.01.
    partition_size : int, optional
        The initial batch size, ``>= 2``; default 4.
    failure_probability : float, optional
        The failure probability in ``C``'s formula, in ``(0, 1)``; default 0.01.
    time_offset : float, optional
        ``C`` itself, ``>= 0``, overriding the formula; required when ``alpha <= 1/2``.

    Attributes
    ----------
    wins_ : ndarray of int64, shape (K, K)
    batch_ : ndarray of int64, shape (K,)
        Batch index of each arm; -1 once eliminated.
    n_batches_ : int
    stage_ : int
    time_offset_ : float
        ``C``.
    """

    def __init__(
        self,
        alpha: float = 1.01,
        partition_size: int = 4,
        failure_probability: float = 0.01,
        time_offset: float | None = None,
    ) -> None:
        self.alpha = check_positive("alpha", alpha)
        self.partition_size = check_integer("partition_size", partition_size, minimum=2)
        self.failure_probability = check_positive("failure_probability", failure_probability)
        if self.failure_probability >= 1.0:
            raise ValueError(f"failure_probability must be below 1; got {failure_probability!r}")
        self.time_offset = (
            None
            if time_offset is None
            else check_positive("time_offset", time_offset, inclusive=True)
        )
        if self.alpha <= 0.5:
            if self.time_offset is None:
                raise ValueError(
                    f"alpha = {alpha!r} <= 1/2 needs time_offset: the formula for C divides "
                    "by 2 alpha - 1"
                )
            warnings.warn(
                f"{type(self).__name__}: alpha = {alpha!r} <= 1/2, so the regret theorem "
                "(which assumes alpha > 1/2) does not apply",
                UserWarning,
                # the caller's line, also through a subclass's __init__
                stacklevel=2 if type(self).__init__ is BatchedAlgorithm.__init__ else 3,
            )

    def _start(self) -> None:
        k = self.n_arms_
        self.time_offset_ = (
            time_offset(k, self.alpha, self.failure_probability)
            if self.time_offset is None
            else self.time_offset
        )
        self.wins_ = np.zeros((k, k), dtype=np.int64)
        self.batch_ = initial_batches(k, self.partition_size, self.rng_)
        self.n_batches_ = int(self.batch_.max()) + 1
        self.stage_ = 1

    def _prepare_batch(self, t: int) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        """Merge and prune round ``t``'s batch (NumPy); its arms and their ``U`` sub-matrix."""
        current = (t - 1) % self.n_batches_
        log_term = math.log(t + self.time_offset_)
        while True:
            members = np.flatnonzero(self.batch_ == current)
            if members.size == 1 and self.n_batches_ > 1:
                self.n_batches_, current = merge_into_next(self.batch_, self.n_batches_, current)
                continue
            upper, _ = confidence_bounds(self.wins_[np.ix_(members, members)], log_term, self.alpha)
            alive = np.ones(members.size, dtype=bool)
            for position in range(members.size):
                if (upper[position, alive] < 0.5).any():
                    alive[position] = False
            if alive.all():
                return members, upper
            self.batch_[members[~alive]] = -1

    def _update(self, t: int, a: int, b: int, outcome: int) -> None:
        self.wins_[a, b] += outcome
        self.wins_[b, a] += 1 - outcome
        self.n_batches_, self.stage_ = after_duel(
            self.batch_, self.n_batches_, self.stage_, self.partition_size
        )

    @property
    def _pair_rule(self) -> int:
        """How the pair inside the batch is chosen: :data:`UCB_PAIR` or a Thompson rule."""
        raise NotImplementedError

    @staticmethod
    def _kernel(*arguments):
        return merge_rounds(*arguments)

    def _kernel_state(self) -> tuple:
        return (
            self.wins_,
            self.batch_,
            self.n_batches_,
            self.stage_,
            self.alpha,
            self.partition_size,
            self.time_offset_,
            self._pair_rule,
        )

    def _kernel_result(self, result) -> None:
        self.n_batches_, self.stage_ = result
