"""Regret of a K-armed run, from how often each arm was played.

For a fixed preference matrix every regret measure below is a sum over rounds of a
function of the duelled pair that is *linear in the two arms*, or (rd1) a maximum of such
sums, so it depends on the run only through ``n(t)``, the number of times each arm was one
of the two duelled arms in rounds ``1..t`` (:attr:`SimulationResult.arm_counts
<cdbandits.karmed.simulation.SimulationResult.arm_counts>`; a self-duel counts twice).
With ``P`` the skew form (``P = 2 Q - 1``):

* **von Neumann regret** (the paper's eq. rd1 with a constant context, measured against
  the von Neumann winner ``w``): round ``t`` costs ``(w^T P[:, a_t] + w^T P[:, b_t]) / 2``,
  the average over the two played arms of ``w``'s expected duel outcome against them. It
  is ``>= 0`` per round (``w`` is a maxmin strategy of a game of value 0), so the
  cumulative regret never decreases. :func:`von_neumann_regret`.
* **rd1 in hindsight**: the paper's ``max_pi (1/2) sum_t [P(pi, a_t) + P(pi, b_t)]`` with
  ``pi`` ranging over single arms, i.e. the best fixed arm against the arms actually
  played, ``max_i (P n(t))_i / 2``. It is at least the von Neumann regret (a maximum over
  arms is at least ``w``'s average). :func:`hindsight_regret`.
* **Condorcet regret** (Yue et al., 2012; Zoghi et al., 2014), in probability units, when a
  Condorcet winner ``c`` exists: ``(Q[c, a_t] + Q[c, b_t] - 1) / 2`` per round; it equals
  half the von Neumann regret (the vNW is then the point mass on ``c``).
  :func:`condorcet_regret`.
* **Copeland regret** (Zoghi et al., NeurIPS 2015): with the normalised Copeland score
  ``cpld(i) = #{j != i : P[i, j] > 0} / (K - 1)``, round ``t`` costs
  ``max_j cpld(j) - (cpld(a_t) + cpld(b_t)) / 2``. :func:`copeland_regret`.

Every function takes the matrix in either convention (``convention="auto"``) and counts of
shape ``(K,)`` or ``(C, K)`` (one row per checkpoint), and returns the cumulative regret
(a float, or one per row).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from ..preference import Convention, as_skew
from ..winners import condorcet_winner, copeland_scores, von_neumann_winner
from .simulation import SimulationResult

__all__ = [
    "condorcet_regret",
    "copeland_regret",
    "hindsight_regret",
    "regret_table",
    "von_neumann_regret",
]

ConventionArgument = Convention | Literal["auto"]


def _counts(arm_counts: ArrayLike, n_arms: int) -> NDArray[np.float64]:
    counts = np.asarray(arm_counts, dtype=np.float64)
    if counts.ndim not in (1, 2) or counts.shape[-1] != n_arms:
        raise ValueError(
            f"arm_counts must have shape (K,) or (C, K) with K = {n_arms}; got {counts.shape}"
        )
    if (counts < 0).any():
        raise ValueError("arm_counts must be non-negative")
    return counts


def von_neumann_regret(
    preference_matrix: ArrayLike,
    arm_counts: ArrayLike,
    *,
    convention: ConventionArgument = "auto",
    weights: ArrayLike | None = None,
) -> float | NDArray[np.float64]:
    """Cumulative regret against the von Neumann winner (skew units).

    Parameters
    ----------
    preference_matrix : array_like, shape (K, K)
    arm_counts : array_like, shape (K,) or (C, K)
    convention : {"auto", "probability", "skew"}, optional
    weights : array_like, shape (K,), optional
        The von Neumann winner to measure against; :func:`cdbandits.winners.von_neumann_winner`
        of the matrix when omitted (unique for generic matrices).
    """
    P = as_skew(preference_matrix, convention)
    w = von_neumann_winner(P).weights if weights is None else np.asarray(weights, dtype=float)
    if w.shape != (P.shape[0],):
        raise ValueError(f"weights must have shape ({P.shape[0]},); got {w.shape}")
    advantage = w @ P  # advantage[b] = sum_a w_a P[a, b] >= 0 for a vNW
    return _counts(arm_counts, P.shape[0]) @ advantage / 2.0


def hindsight_regret(
    preference_matrix: ArrayLike,
    arm_counts: ArrayLike,
    *,
    convention: ConventionArgument = "auto",
) -> float | NDArray[np.float64]:
    """rd1 against the best single arm in hindsight, ``max_i (P n)_i / 2`` (skew units)."""
    P = as_skew(preference_matrix, convention)
    counts = _counts(arm_counts, P.shape[0])
    return (counts @ P.T).max(axis=-1) / 2.0


def condorcet_regret(
    preference_matrix: ArrayLike,
    arm_counts: ArrayLike,
    *,
    convention: ConventionArgument = "auto",
) -> float | NDArray[np.float64]:
    """Cumulative Condorcet regret, probability units (``ValueError`` if there is no winner)."""
    P = as_skew(preference_matrix, convention)
    winner = condorcet_winner(P)
    if winner is None:
        raise ValueError("the matrix has no Condorcet winner; Condorcet regret is undefined")
    # (Q[c, a] - 1/2) = P[c, a] / 2 per played arm, averaged over the two arms of a round
    return _counts(arm_counts, P.shape[0]) @ P[winner] / 4.0


def copeland_regret(
    preference_matrix: ArrayLike,
    arm_counts: ArrayLike,
    *,
    convention: ConventionArgument = "auto",
) -> float | NDArray[np.float64]:
    """Cumulative Copeland regret with normalised Copeland scores (Zoghi et al., 2015)."""
    P = as_skew(preference_matrix, convention)
    normalised = copeland_scores(P, "wins") / (P.shape[0] - 1)
    return _counts(arm_counts, P.shape[0]) @ (normalised.max() - normalised) / 2.0


def regret_table(
    preference_matrix: ArrayLike,
    result: SimulationResult,
    *,
    convention: ConventionArgument = "auto",
) -> pd.DataFrame:
    """All four measures at every checkpoint of ``result``.

    Columns ``round``, ``von_neumann``, ``hindsight``, ``condorcet`` (NaN without a
    Condorcet winner) and ``copeland``.
    """
    P = as_skew(preference_matrix, convention)
    counts = result.arm_counts
    has_condorcet = condorcet_winner(P) is not None
    return pd.DataFrame(
        {
            "round": result.checkpoints,
            "von_neumann": von_neumann_regret(P, counts, convention="skew"),
            "hindsight": hindsight_regret(P, counts, convention="skew"),
            "condorcet": (
                condorcet_regret(P, counts, convention="skew")
                if has_condorcet
                else np.full(counts.shape[0], np.nan)
            ),
            "copeland": copeland_regret(P, counts, convention="skew"),
        }
    )
