"""The paper's worked examples (Appendix B) and the tables that reproduce them.

* :func:`five_arm_matrix`: the 5-arm matrix whose von Neumann winner is uniform on arms
  0-2 (the paper's arms 1-3) while arm 3 is the Copeland, Borda and random-walk winner.
* :func:`clone_example_matrix`: the ``K + 3``-arm cycle ``a1 > a2 > a3 > a1`` on top of
  ``K`` dominated arms, optionally with a clone ``a0`` of ``a1`` (``K + 4`` arms). Adding the
  clone changes the Copeland winners but not the von Neumann winner's support.

Arms are 0-based. In the clone example arm ``i`` for ``i <= 3`` is the paper's ``a_i`` (arm 0
is the clone ``a0``; without the clone, arms 0-2 are ``a1, a2, a3``); the ``K`` other arms
follow, in a transitive chain (lower index beats higher with probability 1).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from .winners import (
    COPELAND_VARIANTS,
    CopelandVariant,
    borda_scores,
    copeland_scores,
    copeland_winners,
    random_walk_distribution,
    von_neumann_winner,
)

__all__ = [
    "PAPER_FIVE_ARM",
    "clone_example_matrix",
    "clone_table",
    "examples_summary",
    "five_arm_matrix",
    "five_arm_table",
    "paper_clone_copeland_scores",
]

#: What the paper prints for the 5-arm example (0-based arms, values to the printed digits).
PAPER_FIVE_ARM: dict[str, Any] = {
    "von_neumann_weights": [1 / 3, 1 / 3, 1 / 3, 0.0, 0.0],
    "copeland_scores": [2, 2, 2, 3, 1],
    "borda_scores": [0.455, 0.53, 0.53, 0.54, 0.445],
    "random_walk": [0.198, 0.212, 0.204, 0.217, 0.169],
    "copeland_winner": 3,
    "borda_winner": 3,
    "random_walk_winner": 3,
}


def five_arm_matrix() -> NDArray[np.float64]:
    """The 5-arm skew-form preference matrix of the paper's Appendix B."""
    upper = {
        (0, 1): 0.5,
        (0, 2): -0.5,
        (0, 3): 0.5,
        (0, 4): -0.95,
        (1, 2): 0.5,
        (1, 3): -0.2,
        (1, 4): 0.5,
        (2, 3): -0.2,
        (2, 4): 0.5,
        (3, 4): 0.5,
    }
    P = np.zeros((5, 5))
    for (i, j), value in upper.items():
        P[i, j], P[j, i] = value, -value
    return P


def clone_example_matrix(k: int, with_clone: bool = True) -> NDArray[np.float64]:
    """The paper's clone example with ``k`` dominated arms.

    Parameters
    ----------
    k : int
        Number of arms beaten by the three-cycle; the paper takes ``k > 4``.
    with_clone : bool, optional
        Add ``a0``, an exact copy of ``a1`` (``P(a0, a1) = 0``).

    Returns
    -------
    ndarray of float64, shape (k + 3 + with_clone, k + 3 + with_clone)
        Skew form, entries in {-1, 0, 1}.
    """
    if k < 1:
        raise ValueError(f"k must be a positive number of dominated arms, got {k}")
    top = 4 if with_clone else 3
    n = top + k
    P = np.zeros((n, n))
    a1, a2, a3 = top - 3, top - 2, top - 1
    for winner, loser in ((a1, a2), (a2, a3), (a3, a1)):
        P[winner, loser], P[loser, winner] = 1.0, -1.0
    if with_clone:
        for other in (a2, a3):
            P[0, other], P[other, 0] = P[a1, other], P[other, a1]
    for i in range(top, n):
        P[:top, i], P[i, :top] = 1.0, -1.0
        P[i, i + 1 :], P[i + 1 :, i] = 1.0, -1.0
    return P


def paper_clone_copeland_scores(k: int) -> dict[CopelandVariant, list[int]]:
    """The paper's table of Copeland scores of ``a0..a3`` in the clone example (K + 4 arms)."""
    return {
        "wins": [k + 1, k + 1, k + 1, k + 2],
        "wins_or_ties": [k + 3, k + 3, k + 2, k + 3],
        "wins_minus_losses": [k, k, k - 1, k + 1],
    }


def five_arm_table(solver: str | None = None) -> pd.DataFrame:
    """Every winner notion on the 5-arm example, one row per arm, beside the paper's values.

    Parameters
    ----------
    solver : str, optional
        None (default): the compiled solver; a cvxpy solver name: the cvxpy reference
        (see :func:`cdbandits.winners.von_neumann_winner`).

    Returns
    -------
    pandas.DataFrame
        Columns ``arm``, the three Copeland scores, ``borda``, ``random_walk``,
        ``von_neumann_weight`` and the paper's ``paper_*`` values.
    """
    P = five_arm_matrix()
    table = pd.DataFrame({"arm": np.arange(5)})
    for variant in COPELAND_VARIANTS:
        table[f"copeland_{variant}"] = copeland_scores(P, variant)
    table["borda"] = borda_scores(P)
    table["random_walk"] = random_walk_distribution(P)
    table["von_neumann_weight"] = von_neumann_winner(P, solver=solver).weights
    table["paper_copeland_wins"] = PAPER_FIVE_ARM["copeland_scores"]
    table["paper_borda"] = PAPER_FIVE_ARM["borda_scores"]
    table["paper_random_walk"] = PAPER_FIVE_ARM["random_walk"]
    table["paper_von_neumann_weight"] = PAPER_FIVE_ARM["von_neumann_weights"]
    return table


def clone_table(ks: list[int], solver: str | None = None) -> pd.DataFrame:
    """Copeland scores and von Neumann weights of ``a0..a3`` in the clone example, per ``k``.

    Parameters
    ----------
    ks : list of int
        Numbers of dominated arms to tabulate.
    solver : str, optional
        None (default): the compiled solver; a cvxpy solver name: the cvxpy reference
        (see :func:`cdbandits.winners.von_neumann_winner`).

    Returns
    -------
    pandas.DataFrame
        One row per ``(k, arm)`` for arms 0-3 with our scores, the paper's scores, whether
        the arm is a Copeland winner under each variant, and its von Neumann weight.
    """
    rows = []
    for k in ks:
        P = clone_example_matrix(k)
        paper = paper_clone_copeland_scores(k)
        weights = von_neumann_winner(P, solver=solver).weights
        for arm in range(4):
            row: dict[str, Any] = {"k": k, "n_arms": P.shape[0], "arm": arm}
            for variant in COPELAND_VARIANTS:
                row[f"copeland_{variant}"] = int(copeland_scores(P, variant)[arm])
                row[f"paper_copeland_{variant}"] = paper[variant][arm]
                row[f"copeland_winner_{variant}"] = bool(arm in copeland_winners(P, variant))
            row["von_neumann_weight"] = float(weights[arm])
            rows.append(row)
    return pd.DataFrame(rows)


def examples_summary(five_arm: pd.DataFrame, clone: pd.DataFrame) -> dict[str, Any]:
    """Check the tables of :func:`five_arm_table` and :func:`clone_table` against the paper.

    Printed values are compared to their printed digits (absolute tolerance half a unit in
    the last printed digit, 5e-4); von Neumann weights to 1e-9; Copeland scores exactly.

    Returns
    -------
    dict
        One boolean per fact of the paper and ``all_match_paper``.
    """
    printed = 5e-4
    weights_tol = 1e-9
    fourth_arm = 3
    five = {
        "von_neumann_uniform_on_arms_0_2": bool(
            np.allclose(
                five_arm["von_neumann_weight"],
                PAPER_FIVE_ARM["von_neumann_weights"],
                rtol=0,
                atol=weights_tol,
            )
        ),
        "copeland_scores": bool(
            (five_arm["copeland_wins"] == five_arm["paper_copeland_wins"]).all()
        ),
        "borda_scores_to_printed_digits": bool(
            np.allclose(five_arm["borda"], five_arm["paper_borda"], rtol=0, atol=printed)
        ),
        "random_walk_to_printed_digits": bool(
            np.allclose(
                five_arm["random_walk"], five_arm["paper_random_walk"], rtol=0, atol=printed
            )
        ),
        "arm_3_wins_copeland_borda_random_walk": bool(
            five_arm["copeland_wins"].idxmax() == fourth_arm
            and five_arm["borda"].idxmax() == fourth_arm
            and five_arm["random_walk"].idxmax() == fourth_arm
        ),
    }
    per_k = []
    for k, rows in clone.groupby("k"):
        rows = rows.set_index("arm")
        weights = rows["von_neumann_weight"]
        per_k.append(
            {
                "k": int(k),
                "copeland_table_matches_paper": bool(
                    all(
                        (rows[f"copeland_{v}"] == rows[f"paper_copeland_{v}"]).all()
                        for v in COPELAND_VARIANTS
                    )
                ),
                "no_variant_makes_all_four_copeland_winners": bool(
                    not any(rows[f"copeland_winner_{v}"].all() for v in COPELAND_VARIANTS)
                ),
                "a2_never_copeland_winner": bool(
                    not any(rows.loc[2, f"copeland_winner_{v}"] for v in COPELAND_VARIANTS)
                ),
                "von_neumann_w0_plus_w1_w2_w3_one_third": bool(
                    np.allclose(
                        [weights[0] + weights[1], weights[2], weights[3]],
                        1 / 3,
                        rtol=0,
                        atol=weights_tol,
                    )
                ),
            }
        )
    all_match = all(five.values()) and all(all(v for v in row.values()) for row in per_k)
    return {"five_arm": five, "clone": per_k, "all_match_paper": all_match}
