"""How the claims depend on the K grid: on which grids K = 2...K_max each claim holds.

The paper pools its statements over a grid of sizes K it does not state. For each claim of
:data:`.claims.CLAIMS` and each click model, :func:`k_grid_table` evaluates the claim (point
estimate, the claims table's ``holds``) on every shorter grid K = smallest...K_max of the
sampled sizes and reports the largest K_max at which it holds and every K_max at which it
does, from the per-K counts alone. A last row per click model asks the same of the claims
whose words carry the paper's numbers (99.9%, 0.03%, 5 arms) together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ...stats import IntervalMethod
from .claims import CLAIMS, Claim
from .counts import AppendixCounts
from .tables import markdown_table

__all__ = ["K_GRID_COLUMNS", "TOGETHER", "claim_holds", "k_grid_markdown", "k_grid_table"]

#: Columns of the K-grid table.
K_GRID_COLUMNS = (
    "click_model",
    "paper_setting",
    "claim",
    "holds_on_full_grid",
    "smallest_k",
    "largest_k",
    "largest_k_max",
    "k_max_where_holds",
)

#: The row of the claims with the paper's numbers, taken together.
TOGETHER = "quantitative_claims_together"


def claim_holds(
    claim: Claim, counts: AppendixCounts, confidence: float, method: IntervalMethod
) -> bool:
    """Whether ``claim`` holds (point estimate) on ``counts``, by its K-grid criterion."""
    criterion = claim.on_grid or claim.criterion
    shares = claim.statistic.shares(counts, confidence, method)
    return bool(criterion.evaluate(shares, counts, "")["holds"])


def _ranges(values: Sequence[int], grid: Sequence[int]) -> str:
    """``values`` (a subset of ``grid``) as runs of consecutive grid points: "2-43, 50"."""
    position = {k: i for i, k in enumerate(grid)}
    runs: list[list[int]] = []
    for value in values:
        if runs and position[value] == position[runs[-1][-1]] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else f"{run[0]}" for run in runs)


def k_grid_table(
    counts_by_model: Mapping[str, AppendixCounts],
    *,
    paper_model: str,
    confidence: float = 0.95,
    method: IntervalMethod = "clopper-pearson",
    claims: Sequence[Claim] = CLAIMS,
) -> pd.DataFrame:
    """For each click model and claim, the grids K = smallest...K_max on which it holds.

    Parameters
    ----------
    counts_by_model : mapping of str to AppendixCounts
        Merged counts per click model.
    paper_model : str
        The click model of the paper's experiments (listed first).
    confidence, method : float, str, optional
        The intervals the criteria use.
    claims : sequence of Claim, optional
        The claims to evaluate.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`K_GRID_COLUMNS`; ``largest_k_max`` is empty where the claim holds on
        no grid, ``k_max_where_holds`` lists the K_max at which it holds as runs.
    """
    order = [paper_model] + sorted(m for m in counts_by_model if m != paper_model)
    quantitative = [claim.name for claim in claims if claim.quantitative]
    rows = []
    for model in order:
        counts = counts_by_model[model]
        grid = sorted(counts.per_k)
        holding: dict[str, list[int]] = {claim.name: [] for claim in claims}
        holding[TOGETHER] = []
        for k_max in grid:
            shorter = counts.up_to(k_max)
            held = {c.name for c in claims if claim_holds(c, shorter, confidence, method)}
            for name in held:
                holding[name].append(k_max)
            if quantitative and set(quantitative) <= held:
                holding[TOGETHER].append(k_max)
        names = [claim.name for claim in claims] + ([TOGETHER] if quantitative else [])
        rows.extend(
            {
                "click_model": model,
                "paper_setting": model == paper_model,
                "claim": name,
                "holds_on_full_grid": grid[-1] in holding[name],
                "smallest_k": grid[0],
                "largest_k": grid[-1],
                "largest_k_max": max(holding[name]) if holding[name] else None,
                "k_max_where_holds": _ranges(holding[name], grid),
            }
            for name in names
        )
    table = pd.DataFrame(rows, columns=list(K_GRID_COLUMNS))
    table["largest_k_max"] = table["largest_k_max"].astype("Int64")
    return table


def k_grid_markdown(table: pd.DataFrame) -> str:
    """The K-grid table as Markdown (also from a table read back from CSV)."""
    return markdown_table(
        table.assign(largest_k_max=table["largest_k_max"].astype("Int64")),
        {
            "claim": "claim",
            "click_model": "click model",
            "holds_on_full_grid": "holds on the full grid",
            "largest_k_max": "largest K_max where it holds",
            "k_max_where_holds": "every K_max where it holds",
        },
        {},
    )
