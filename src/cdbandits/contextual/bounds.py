r"""Explicit constants for Theorem sparring-exp4 (regret of SparringEXP4.P).

Derivation (Appendix C of the paper with every ``O(.)`` made explicit)
----------------------------------------------------------------------
Notation: ``K`` actions, horizon ``T``, class ``Pi``, overall confidence ``delta``. Each
Exp4.P copy has ``N`` experts (``N = |Pi| + 1`` with the uniformly random expert that
Beygelzimer et al.'s Theorem 2 assumes, ``N = |Pi|`` without) and runs with confidence
``delta / 4``. As in the appendix, let ``R_t(a, b)`` in ``{-1, +1}`` be hypothetical duel
outcomes with mean ``P_t(a, b)``, drawn independently of both players' choices at round
``t``; the real outcome is ``r_t = R_t(a_t, b_t)``. Row sees reward vector
``R_t(., b_t)``, column sees ``-R_t(a_t, .)``.

*Exp4.P* (Beygelzimer et al. 2011, Thm. 2): for rewards in ``[0, 1]``, with probability
``>= 1 - delta'``, ``G_Exp4.P >= G_max - 6 sqrt(K T ln(N / delta'))`` provided
``ln(N / delta') <= K T``. The players get ``(r + 1) / 2`` and ``(1 - r) / 2``, so on the
``[-1, 1]`` scale the loss term doubles to the paper's eq. (exp4-g1):

    B_exp4 = 12 sqrt(K T ln(4 N / delta)).

*Azuma-Hoeffding* with a union bound over ``Pi``: for fixed ``pi``,
``X_t = R_t(pi(x_t), b_t) - P_t(pi(x_t), b_t)`` is a martingale difference sequence whose
increment lies, given the past and ``(x_t, P_t, b_t)``, in an interval of length 2
(``[-1 - P, 1 - P]``). Hence ``Pr(sum_t X_t <= -e) <= exp(-2 e^2 / (4 T))``; setting this to
``delta / (4 |Pi|)`` gives, for all ``pi`` at once, with probability ``>= 1 - delta / 4``,

    B_azuma = sqrt(2 T ln(4 |Pi| / delta)).

(The paper writes ``O(sqrt(K T ln(|Pi|/delta)))`` for this term; no factor ``K`` is needed.)

*The four events* (each failing with probability at most ``delta / 4``):

1. row's Exp4.P: ``sum_t R_t(a_t, b_t) >= sum_t R_t(pi(x_t), b_t) - B_exp4`` for all ``pi``;
2. Azuma for row: ``sum_t R_t(pi(x_t), b_t) >= sum_t P_t(pi(x_t), b_t) - B_azuma``;
3. column's Exp4.P: ``-sum_t R_t(a_t, b_t) >= -sum_t R_t(a_t, pi(x_t)) - B_exp4``;
4. Azuma for column, with skew-symmetry ``-P_t(a, b) = P_t(b, a)``:
   ``-sum_t R_t(a_t, pi(x_t)) >= sum_t P_t(pi(x_t), a_t) - B_azuma``.

Adding 1 + 2 and 3 + 4, the realised ``sum_t R_t(a_t, b_t)`` cancels and, for every ``pi``,
``sum_t [P_t(pi(x_t), a_t) + P_t(pi(x_t), b_t)] <= 2 B_exp4 + 2 B_azuma``. The regret (rd1)
carries a factor ``1/2``, so with probability ``>= 1 - delta``

    regret_T <= B_exp4 + B_azuma
             = 12 sqrt(K T ln(4 N / delta)) + sqrt(2 T ln(4 |Pi| / delta)).

The argument never uses that ``(x_t, P_t)`` are i.i.d., so it also holds against an adaptive
adversary. The bound needs ``ln(4 N / delta) <= K T`` (Exp4.P's Theorem 2) and
``K ln N <= T`` (so that ``K p_min <= 1``); :attr:`SparringExp4PBound.conditions_hold` says
whether both do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = [
    "SparringExp4PBound",
    "azuma_union_bound",
    "exp4p_reward_bound",
    "sparring_exp4p_regret_bound",
]


def _check(horizon: int, n_actions: int, count: int, delta: float) -> None:
    if horizon < 1 or n_actions < 2 or count < 1:
        raise ValueError(
            f"need horizon >= 1, n_actions >= 2 and a positive class size; got {horizon}, "
            f"{n_actions}, {count}"
        )
    if not 0.0 < delta < 1.0:
        raise ValueError(f"delta must be in (0, 1); got {delta}")


def exp4p_reward_bound(horizon: int, n_actions: int, n_experts: int, delta: float) -> float:
    """Exp4.P's high-probability loss to the best expert for rewards in ``[-1, 1]``.

    ``12 sqrt(K T ln(N / delta))`` (eq. (exp4-g1); twice Beygelzimer et al.'s ``[0, 1]``
    constant 6).
    """
    _check(horizon, n_actions, n_experts, delta)
    return 12.0 * math.sqrt(n_actions * horizon * math.log(n_experts / delta))


def azuma_union_bound(horizon: int, n_policies: int, delta: float) -> float:
    """``sqrt(2 T ln(n / delta))``: Azuma-Hoeffding for ``T`` increments in intervals of
    length 2, uniformly over ``n`` policies, failing with probability at most ``delta``."""
    if horizon < 1 or n_policies < 1 or not 0.0 < delta < 1.0:
        raise ValueError(
            f"need horizon >= 1, n_policies >= 1 and delta in (0, 1); got {horizon}, "
            f"{n_policies}, {delta}"
        )
    return math.sqrt(2.0 * horizon * math.log(n_policies / delta))


@dataclass(frozen=True)
class SparringExp4PBound:
    """The regret bound of Theorem sparring-exp4 with its terms (see the module docstring).

    Attributes
    ----------
    horizon, n_actions, n_policies : int
    delta : float
    n_experts : int
        Experts per Exp4.P copy.
    exp4p_term : float
        ``12 sqrt(K T ln(4 N / delta))``.
    azuma_term : float
        ``sqrt(2 T ln(4 |Pi| / delta))``.
    total : float
        Their sum: the regret is below it with probability ``>= 1 - delta``.
    conditions_hold : bool
        ``ln(4 N / delta) <= K T`` and ``K ln N <= T``.
    """

    horizon: int
    n_actions: int
    n_policies: int
    delta: float
    n_experts: int
    exp4p_term: float
    azuma_term: float
    total: float
    conditions_hold: bool


def sparring_exp4p_regret_bound(
    horizon: int,
    n_actions: int,
    n_policies: int,
    delta: float,
    uniform_expert: bool = True,
) -> SparringExp4PBound:
    """Explicit high-probability regret bound of SparringEXP4.P.

    Parameters
    ----------
    horizon : int
        ``T``.
    n_actions : int
        ``K``.
    n_policies : int
        ``|Pi|``.
    delta : float
        The theorem's confidence (each Exp4.P copy runs with ``delta / 4``).
    uniform_expert : bool, optional
        Whether the copies include the uniformly random expert (then ``N = |Pi| + 1``).

    Returns
    -------
    SparringExp4PBound

    Examples
    --------
    >>> bound = sparring_exp4p_regret_bound(10_000, 5, 1000, 0.05)
    >>> round(bound.total, 1), bound.conditions_hold
    (9491.5, True)
    """
    _check(horizon, n_actions, n_policies, delta)
    n_experts = n_policies + int(uniform_expert)
    exp4p_term = exp4p_reward_bound(horizon, n_actions, n_experts, delta / 4.0)
    azuma_term = azuma_union_bound(horizon, n_policies, delta / 4.0)
    conditions_hold = (
        math.log(4.0 * n_experts / delta) <= n_actions * horizon
        and n_actions * math.log(n_experts) <= horizon
    )
    return SparringExp4PBound(
        horizon=horizon,
        n_actions=n_actions,
        n_policies=n_policies,
        delta=delta,
        n_experts=n_experts,
        exp4p_term=exp4p_term,
        azuma_term=azuma_term,
        total=exp4p_term + azuma_term,
        conditions_hold=conditions_hold,
    )
