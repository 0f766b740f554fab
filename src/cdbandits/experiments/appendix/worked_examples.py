"""The claims about the paper's two worked examples (Appendix B), declared as data.

Each :class:`ExampleClaim` states what the paper says of the 5-arm example or of the clone
example, the criterion, and a small check run on the facts of the example
(:class:`FiveArmFacts`, :class:`CloneFacts`): the tables of :mod:`cdbandits.paper_examples`
(cvxpy reference) and the von Neumann winners once more from
:func:`cdbandits.batched.von_neumann_winners`, so every claim is checked two ways.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ...batched import METHODS, BatchedVonNeumann, von_neumann_winners
from ...paper_examples import (
    PAPER_FIVE_ARM,
    clone_example_matrix,
    clone_table,
    examples_summary,
    five_arm_matrix,
    five_arm_table,
)
from ...winners import COPELAND_VARIANTS, VonNeumannWinner, von_neumann_winner

__all__ = [
    "CLONE_CLAIMS",
    "FIVE_ARM_CLAIMS",
    "CloneFacts",
    "ExampleClaim",
    "FiveArmFacts",
    "example_claims",
]


@dataclass(frozen=True)
class FiveArmFacts:
    """The 5-arm example: its table, the paper-match summary and the batched vNW weights."""

    table: pd.DataFrame
    summary: dict[str, Any]
    batched_weights: NDArray[np.float64]


@dataclass(frozen=True)
class CloneFacts:
    """The clone example with ``k`` dominated arms: the vNW before cloning (reference), the
    batched vNW after, the Copeland table rows of ``k`` and the paper-match summary."""

    k: int
    summary: dict[str, Any]
    original: VonNeumannWinner
    with_clone: BatchedVonNeumann
    table: pd.DataFrame


#: What a check gives: ``(value, value_text, holds)``.
CheckResult = tuple[float, str, bool]


@dataclass(frozen=True)
class ExampleClaim:
    """A statement of the paper about a worked example, as checked here.

    ``name`` may contain ``{k}`` (the clone example's number of dominated arms).
    """

    name: str
    source: str
    paper_statement: str
    criterion: str
    check: Callable[[Any], CheckResult]


def _five_arm_uniform(facts: FiveArmFacts) -> CheckResult:
    paper = PAPER_FIVE_ARM["von_neumann_weights"]
    uniform = np.allclose(facts.batched_weights, paper, rtol=0, atol=1e-9)
    return (
        float(np.abs(facts.batched_weights - paper).max()),
        "reference "
        + np.array2string(facts.table["von_neumann_weight"].to_numpy(), precision=6)
        + "; batched "
        + np.array2string(facts.batched_weights, precision=6),
        facts.summary["von_neumann_uniform_on_arms_0_2"] and bool(uniform),
    )


def _five_arm_copeland(facts: FiveArmFacts) -> CheckResult:
    return (
        np.nan,
        str(facts.table["copeland_wins"].tolist()),
        facts.summary["copeland_scores"] and bool(facts.table["von_neumann_weight"].iloc[3] == 0),
    )


def _printed_digits(column: str, summary_key: str) -> Callable[[FiveArmFacts], CheckResult]:
    def check(facts: FiveArmFacts) -> CheckResult:
        text = np.array2string(facts.table[column].to_numpy(), precision=4)
        return np.nan, text, facts.summary[summary_key]

    return check


def _five_arm_fourth_wins(facts: FiveArmFacts) -> CheckResult:
    winners = ", ".join(
        str(int(facts.table[column].idxmax()) + 1)
        for column in ("copeland_wins", "borda", "random_walk")
    )
    return (
        np.nan,
        f"Copeland, Borda, random walk argmax: arm {winners}",
        facts.summary["arm_3_wins_copeland_borda_random_walk"],
    )


def _clone_original_cycle(facts: CloneFacts) -> CheckResult:
    weights = facts.original.weights[:3]
    return (
        float(np.abs(weights - 1 / 3).max()),
        np.array2string(weights, precision=6),
        bool(
            np.allclose(weights, 1 / 3, rtol=0, atol=1e-9)
            and facts.original.support.tolist() == [0, 1, 2]
        ),
    )


def _clone_copeland_table(facts: CloneFacts) -> CheckResult:
    return (
        np.nan,
        "; ".join(
            f"{variant}: {facts.table[f'copeland_{variant}'].tolist()}"
            for variant in COPELAND_VARIANTS
        ),
        facts.summary["copeland_table_matches_paper"]
        and facts.summary["no_variant_makes_all_four_copeland_winners"]
        and facts.summary["a2_never_copeland_winner"],
    )


def _clone_support(facts: CloneFacts) -> CheckResult:
    weights = facts.with_clone.weights[0]
    thirds = [weights[0] + weights[1], weights[2], weights[3]]
    return (
        float(np.abs(np.subtract(thirds, 1 / 3)).max()),
        f"batched ({METHODS[facts.with_clone.method[0]]} path): "
        + np.array2string(weights[:4], precision=6),
        facts.summary["von_neumann_w0_plus_w1_w2_w3_one_third"]
        and bool(np.allclose(thirds, 1 / 3, rtol=0, atol=1e-9))
        and bool(np.flatnonzero(weights > 0).tolist() == [0, 1, 2, 3]),
    )


_FIVE_ARM = "Appendix B, 5-arm example"
_CLONE = "Appendix B, clone example"

#: The claims about the 5-arm example.
FIVE_ARM_CLAIMS: tuple[ExampleClaim, ...] = (
    ExampleClaim(
        "five_arm_von_neumann_uniform_on_1_3",
        _FIVE_ARM,
        "the von Neumann winner of this matrix is the uniform distribution on the first three arms",
        "vNW weights equal [1/3 1/3 1/3 0 0] to 1e-9 (cvxpy reference and batched solver)",
        _five_arm_uniform,
    ),
    ExampleClaim(
        "five_arm_copeland_scores",
        _FIVE_ARM,
        "the Copeland scores of the 5 arms are [2 2 2 3 1]; the Copeland winner is the fourth "
        "arm, outside the vNW support",
        "scores equal exactly; arm 4 not in the vNW support",
        _five_arm_copeland,
    ),
    ExampleClaim(
        "five_arm_borda_scores",
        _FIVE_ARM,
        "the Borda scores are [0.455 0.53 0.53 0.54 0.445]",
        "equal to the printed digits (5e-4)",
        _printed_digits("borda", "borda_scores_to_printed_digits"),
    ),
    ExampleClaim(
        "five_arm_random_walk",
        _FIVE_ARM,
        "the stationary distribution is [0.198 0.212 0.204 0.217 0.169]",
        "equal to the printed digits (5e-4)",
        _printed_digits("random_walk", "random_walk_to_printed_digits"),
    ),
    ExampleClaim(
        "five_arm_fourth_arm_wins_other_notions",
        _FIVE_ARM,
        "the fourth arm also happens to be both the Borda winner and the Random Walk winner",
        "arm 4 is the unique argmax of the Copeland, Borda and random-walk scores",
        _five_arm_fourth_wins,
    ),
)

#: The claims about the clone example, checked for every number K of dominated arms.
CLONE_CLAIMS: tuple[ExampleClaim, ...] = (
    ExampleClaim(
        "clone_k{k}_original_uniform_cycle",
        _CLONE,
        "before cloning, the von Neumann distribution is the uniform distribution on a1, a2, a3",
        "vNW of the K+3-arm example uniform on its first three arms (1e-9)",
        _clone_original_cycle,
    ),
    ExampleClaim(
        "clone_k{k}_copeland_table",
        "Appendix B, clone example (Table)",
        "Copeland scores of a0..a3 with the clone: (K+1, K+1, K+1, K+2), (K+3, K+3, K+2, K+3), "
        "(K, K, K-1, K+1); under no variant are all of a0..a3 Copeland winners, and a2 never is",
        "scores equal exactly under all three variants",
        _clone_copeland_table,
    ),
    ExampleClaim(
        "clone_k{k}_von_neumann_support",
        _CLONE,
        "a0..a3 still form the support of the von Neumann distribution: "
        "w(0)+w(1) = w(2) = w(3) = 1/3",
        "reference and batched solver: w0+w1, w2, w3 equal 1/3 (1e-9) and only a0..a3 have "
        "positive weight",
        _clone_support,
    ),
)


def _row(claim: ExampleClaim, facts: Any, **name_values: Any) -> dict[str, Any]:
    value, value_text, holds = claim.check(facts)
    return {
        "click_model": "",
        "claim": claim.name.format(**name_values),
        "source": claim.source,
        "paper_statement": claim.paper_statement,
        "criterion": claim.criterion,
        "reading_note": "",
        "value": value,
        "ci_low": np.nan,
        "ci_high": np.nan,
        "value_text": value_text,
        "holds": holds,
        "ci_agrees": np.nan,
    }


def example_claims(clone_ks: Sequence[int], solver: str | None = None) -> list[dict[str, Any]]:
    """Every claim of :data:`FIVE_ARM_CLAIMS`, then of :data:`CLONE_CLAIMS` for each K.

    Parameters
    ----------
    clone_ks : sequence of int
        Numbers ``K > 4`` of dominated arms of the clone example to check.
    solver : str, optional
        cvxpy solver for the reference LPs.

    Returns
    -------
    list of dict
        Rows with the keys of the claims table (``click_model`` empty, no intervals).
    """
    five = five_arm_table(solver=solver)
    clones = clone_table(list(clone_ks), solver=solver)
    summary = examples_summary(five, clones)
    five_facts = FiveArmFacts(
        five, summary["five_arm"], von_neumann_winners(five_arm_matrix()[None]).weights[0]
    )
    rows = [_row(claim, five_facts) for claim in FIVE_ARM_CLAIMS]
    for per_k in summary["clone"]:
        k = per_k["k"]
        facts = CloneFacts(
            k=k,
            summary=per_k,
            original=von_neumann_winner(clone_example_matrix(k, with_clone=False), solver=solver),
            with_clone=von_neumann_winners(clone_example_matrix(k)[None]),
            table=clones[clones["k"] == k].set_index("arm"),
        )
        rows.extend(_row(claim, facts, k=k) for claim in CLONE_CLAIMS)
    return rows
