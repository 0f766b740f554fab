"""The batched solver checked against the cvxpy reference on a sample of the sampled matrices.

:func:`verification_picks` draws matrices of a sampling plan, uniformly and among those
without a Condorcet winner (the ones that need an LP); :func:`verify_against_reference`
re-solves them with :func:`cdbandits.winners.reference_von_neumann_winner` (cvxpy) and
compares supports and weights, arbitrating disagreements with an exact simplex re-solve;
:func:`verification_summary` says whether everything agrees.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from ...batched import METHODS, subset_von_neumann_winners
from ...preference import as_skew
from ...randomness import named_generator
from ...winners import SIMPLEX_SOLVER, reference_von_neumann_winner
from .sampling import SamplingPlan

__all__ = [
    "STRATA",
    "verification_picks",
    "verification_rng",
    "verification_summary",
    "verify_against_reference",
]

_CONDORCET_METHOD = METHODS.index("condorcet")

#: The strata of the verification sample: matrices drawn uniformly, and matrices drawn among
#: those without a Condorcet winner (the ones whose vNW needs an LP: simplex or interior point).
STRATA: tuple[str, ...] = ("uniform", "no_condorcet")


def verification_rng(seed: int, matrix_name: str) -> np.random.Generator:
    """The random generator that picks the verification sample of ``matrix_name``."""
    return named_generator(seed, "appendix-verification", matrix_name)


def verification_picks(
    P: ArrayLike,
    plan: SamplingPlan,
    n_uniform: int,
    n_no_condorcet: int,
    rng: np.random.Generator,
) -> pd.DataFrame:
    """Choose sampled matrices to re-solve with the reference.

    ``n_uniform`` are drawn uniformly without replacement from all matrices of ``plan``
    (stratum "uniform"); ``n_no_condorcet`` more uniformly from those without a Condorcet
    winner, the ones that need an LP (stratum "no_condorcet"; finding them re-solves the
    whole plan). See :data:`STRATA`.

    Returns
    -------
    pandas.DataFrame
        ``stratum`` (one of :data:`STRATA`), ``K``, ``block``, ``row``.
    """
    P = as_skew(P, "skew")
    units = plan.units()
    starts = np.cumsum([0] + [rows for _, _, rows in units])

    def locate(flat: NDArray[np.int64]) -> list[tuple[int, int, int]]:
        unit = np.searchsorted(starts, flat, side="right") - 1
        return [
            (units[u][0], units[u][1], int(f - starts[u])) for u, f in zip(unit, flat, strict=True)
        ]

    n_uniform = min(n_uniform, plan.total)
    uniform = locate(np.sort(rng.choice(plan.total, size=n_uniform, replace=False)))
    lp_rows: list[int] = []
    for (k, block, rows), start in zip(units, starts[:-1], strict=True):
        solution = subset_von_neumann_winners(P, plan.block_subsets(k, block, rows))
        lp_rows.extend(start + np.flatnonzero(solution.method != _CONDORCET_METHOD))
    chosen = rng.choice(
        np.asarray(lp_rows, dtype=np.int64),
        size=min(n_no_condorcet, len(lp_rows)),
        replace=False,
    )
    no_condorcet = locate(np.sort(chosen))
    records = [("uniform", *pick) for pick in uniform] + [
        ("no_condorcet", *pick) for pick in no_condorcet
    ]
    return pd.DataFrame(records, columns=["stratum", "K", "block", "row"])


def _compare(ours: NDArray[np.float64], theirs: NDArray[np.float64]) -> tuple[bool, float]:
    """Equal supports?, and the largest weight difference."""
    same = bool(np.array_equal(np.flatnonzero(ours > 0), np.flatnonzero(theirs > 0)))
    return same, float(np.abs(ours - theirs).max())


def _unique_on_support(P: NDArray[np.float64], support: NDArray[np.int64]) -> bool:
    """Does the support determine the vNW (equalizer system of full column rank)?

    When it does not (ties, clones), the vNWs with this support form a face of positive
    dimension, and solvers may return different points of it.
    """
    scaled = P / (np.abs(P).max() or 1.0)
    system = np.vstack([scaled[np.ix_(support, support)].T, np.ones(support.size)])
    return bool(np.linalg.matrix_rank(system, tol=1e-9) == support.size)


def verify_against_reference(
    P: ArrayLike,
    plan: SamplingPlan,
    picks: pd.DataFrame,
    *,
    weight_tol: float,
    solver: str | None = None,
) -> pd.DataFrame:
    """Re-solve picked sub-matrices with both solvers and compare; arbitrate disagreements.

    A pick *agrees* when both supports are equal and, if that support determines the vNW
    (``unique_vnw``), no weight differs by more than ``weight_tol``. When it does not (ties,
    clones), the vNWs form a face and the two solvers return different points of it by
    design (the batched solver its analytic centre, cvxpy wherever its iterations stop), so
    only the support (the union of the supports of all vNWs) is compared; both answers are
    certified. A disagreeing pick is solved once more by the reference with the simplex
    solver :data:`cdbandits.winners.SIMPLEX_SOLVER` (an exact vertex, which is the vNW when
    it is unique): interior-point solutions can carry spurious arms with weights near the
    solver's tolerance, which the polish keeps when their slack is as small.

    Parameters
    ----------
    P : array_like, shape (N, N)
        The full skew-form matrix.
    plan : SamplingPlan
        The plan the picks refer to.
    picks : pandas.DataFrame
        From :func:`verification_picks`.
    weight_tol : float
        Largest accepted weight difference.
    solver : str, optional
        cvxpy solver of the reference.

    Returns
    -------
    pandas.DataFrame
        One row per pick: the pick, ``arms`` (space-separated indices into ``P``),
        ``method`` of the batched solver, both supports, ``same_support``, ``unique_vnw``,
        ``max_abs_weight_difference``, ``agrees``, both certificates, and for disagreeing
        picks the simplex re-solve: ``simplex_support``, ``simplex_agrees`` and
        ``simplex_exploitability`` (empty otherwise).
    """
    P = as_skew(P, "skew")
    block_rows = {(k, block): rows for k, block, rows in plan.units()}
    rows = []
    for (k, block), group in picks.groupby(["K", "block"], sort=True):
        size = block_rows[(int(k), int(block))]
        subsets = plan.block_subsets(int(k), int(block), size)[group["row"].to_numpy()]
        batched = subset_von_neumann_winners(P, subsets)
        for index, (pick, arms) in enumerate(
            zip(group.itertuples(index=False), subsets, strict=True)
        ):
            sub = P[np.ix_(arms, arms)]
            reference = reference_von_neumann_winner(sub, solver=solver)
            ours = batched.weights[index]
            same_support, difference = _compare(ours, reference.weights)
            unique = _unique_on_support(sub, reference.support)
            agrees = same_support and (difference <= weight_tol or not unique)
            row = {
                "stratum": pick.stratum,
                "K": int(k),
                "block": int(block),
                "row": int(pick.row),
                "arms": " ".join(map(str, arms)),
                "method": METHODS[batched.method[index]],
                "support_batched": " ".join(map(str, np.flatnonzero(ours > 0))),
                "support_reference": " ".join(map(str, reference.support)),
                "same_support": same_support,
                "unique_vnw": unique,
                "max_abs_weight_difference": difference,
                "agrees": agrees,
                "exploitability_batched": float(batched.exploitability[index]),
                "exploitability_reference": float(reference.exploitability),
                "simplex_support": "",
                "simplex_agrees": np.nan,
                "simplex_exploitability": np.nan,
            }
            if not agrees:
                simplex = reference_von_neumann_winner(sub, solver=SIMPLEX_SOLVER)
                simplex_same, simplex_difference = _compare(ours, simplex.weights)
                row["simplex_support"] = " ".join(map(str, simplex.support))
                row["simplex_agrees"] = simplex_same and simplex_difference <= weight_tol
                row["simplex_exploitability"] = float(simplex.exploitability)
            rows.append(row)
    return pd.DataFrame(rows)


def verification_summary(table: pd.DataFrame, weight_tol: float) -> dict[str, Any]:
    """Agreement of :func:`verify_against_reference` results, overall and per stratum.

    ``agrees``: every pick agrees with the reference. ``resolved``: disagreeing picks for
    which the simplex re-solve agrees with the batched answer and the batched certificate is
    at least as good as the reference's (the reference was inexact). ``agrees_or_resolved``:
    every pick agrees or is resolved.
    """

    def describe(part: pd.DataFrame) -> dict[str, Any]:
        agreeing = part[part["agrees"].astype(bool)]
        disagreeing = part[~part["agrees"].astype(bool)]
        resolved = disagreeing[
            (disagreeing["simplex_agrees"] == True)  # noqa: E712 (NaN-safe comparison)
            & (disagreeing["exploitability_batched"] >= disagreeing["exploitability_reference"])
        ]
        return {
            "matrices": len(part),
            "agreeing": len(agreeing),
            "same_support": int(part["same_support"].astype(bool).sum()),
            "max_abs_weight_difference": float(part["max_abs_weight_difference"].max()),
            "max_abs_weight_difference_where_agreeing": (
                float(agreeing["max_abs_weight_difference"].max()) if len(agreeing) else None
            ),
            "min_exploitability_batched": float(part["exploitability_batched"].min()),
            "methods": {m: int((part["method"] == m).sum()) for m in METHODS},
            "support_sizes": {
                int(size): int(count)
                for size, count in part["support_batched"]
                .str.split()
                .str.len()
                .value_counts()
                .sort_index()
                .items()
            },
            "disagreeing": [
                {
                    key: disagreeing.loc[i, key]
                    for key in (
                        "K",
                        "block",
                        "row",
                        "support_batched",
                        "support_reference",
                        "simplex_support",
                        "max_abs_weight_difference",
                        "exploitability_batched",
                        "exploitability_reference",
                    )
                }
                for i in disagreeing.index
            ],
            "resolved": len(resolved),
            "agrees": len(disagreeing) == 0,
            "agrees_or_resolved": len(resolved) == len(disagreeing),
        }

    if table.empty:
        raise ValueError("no verification results to summarise")
    return {
        "weight_tol": weight_tol,
        **describe(table),
        "strata": {name: describe(part) for name, part in table.groupby("stratum", sort=True)},
    }
