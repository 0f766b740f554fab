"""The README's account of Appendices A and B, written from the workflow's tables.

:func:`appendix_readme` renders, as Markdown, every number the README shows about the
appendix: the sample, the claims on the paper's matrix (with the readings and when they
changed), the other click models, the K-grid sensitivity and the verification. A run of the
default config writes it to ``results/appendix/readme.md``; the README's section is a
verbatim copy, so no number in it is typed by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from .k_grid import TOGETHER, k_grid_markdown
from .tables import markdown_table
from .verification import STRATA

__all__ = ["appendix_readme"]

_FIGURES = (
    ("Fig. 1", "fig1_condorcet"),
    ("Fig. 2", "fig2_copeland_in_support"),
    ("Fig. 3", "fig3_copeland_loss"),
    ("Fig. 4", "fig4_support_size"),
)

#: How the verification's strata (:data:`.verification.STRATA`) are named in the text.
_STRATUM_WORDS = {"uniform": "uniform", "no_condorcet": "without a Condorcet winner"}


def _grid(ks: list[int]) -> str:
    if len(ks) == ks[-1] - ks[0] + 1:
        return f"every K from {ks[0]} to {ks[-1]}"
    return f"K in {{{', '.join(map(str, ks))}}}"


def _sample(per_k: Mapping[str, pd.DataFrame], variant: str, confidence: float, method: str) -> str:
    grids = {model: sorted(int(k) for k in table["K"]) for model, table in per_k.items()}
    if len({tuple(ks) for ks in grids.values()}) == 1:
        sizes = _grid(next(iter(grids.values())))
    else:
        sizes = "; ".join(f"{model}: {_grid(ks)}" for model, ks in grids.items())
    per_size = sorted({int(n) for table in per_k.values() for n in table["matrices"]})
    total = sum(int(table["matrices"].sum()) for table in per_k.values())
    samples = f"{per_size[0]:,}" if len(per_size) == 1 else f"{per_size[0]:,}-{per_size[-1]:,}"
    return (
        f"Sampled: {sizes}; {samples} random K-subsets each (seeded per block, so any "
        f"sharding gives the same subsets), {len(per_k)} click models "
        f"({', '.join(per_k)}): {total:,} certified von Neumann winners. Copeland scores: "
        f"`{variant}`; intervals: {100 * confidence:g}% {method.replace('-', '–').title()}."
    )


def _other_models(per_k: Mapping[str, pd.DataFrame], paper_model: str) -> str:
    parts = []
    for model, table in per_k.items():
        if model == paper_model:
            continue
        lowest = table.loc[table["fraction_condorcet"].idxmin()]
        last = table.iloc[-1]
        parts.append(
            f"{model}: lowest {100 * lowest['fraction_condorcet']:.1f}% at "
            f"K = {int(lowest['K'])}, {100 * last['fraction_condorcet']:.1f}% at "
            f"K = {int(last['K'])}"
        )
    if not parts:
        return ""
    return "P(Condorcet winner) on the other click models: " + "; ".join(parts) + ".\n\n"


def _verification(summaries: Mapping[str, Mapping[str, Any]]) -> str:
    parts = []
    for model, summary in summaries.items():
        strata = ", ".join(
            f"{summary['strata'][name]['matrices']:,} {_STRATUM_WORDS[name]}"
            for name in STRATA
            if name in summary["strata"]
        )
        parts.append(
            f"{model}: {summary['agreeing']:,} of {summary['matrices']:,} agree ({strata}), "
            f"{summary['same_support']:,} with the same support, largest weight difference "
            f"{summary['max_abs_weight_difference']:.1e}"
            + ("" if summary["agrees_or_resolved"] else " (**unresolved disagreements**)")
        )
    return (
        "**Verification.** Sampled matrices re-solved by the cvxpy reference (drawn uniformly, "
        "and drawn among those without a Condorcet winner, whose von Neumann winner needs an "
        "LP), per click model: " + "; ".join(parts) + " (`results/appendix/*/verification.json`)."
    )


def appendix_readme(
    claims: pd.DataFrame,
    k_grid: pd.DataFrame,
    per_k: Mapping[str, pd.DataFrame],
    verification: Mapping[str, Mapping[str, Any]],
    *,
    paper_model: str,
    variant: str,
    confidence: float,
    method: str,
) -> str:
    """The README's Markdown for the appendix.

    Parameters
    ----------
    claims : pandas.DataFrame
        The claims table (:func:`.claims.appendix_claims`).
    k_grid : pandas.DataFrame
        The K-grid table (:func:`.k_grid.k_grid_table`).
    per_k : mapping of str to pandas.DataFrame
        Per click model, :func:`.tables.per_k_table`, the paper's model first.
    verification : mapping of str to dict
        Per click model, :func:`.verification.verification_summary`.
    paper_model : str
        The click model of the paper's experiments.
    variant : str
        The Copeland variant of the counts.
    confidence, method : float, str
        How the intervals were computed.

    Returns
    -------
    str
    """
    paper = claims[claims["click_model"] == paper_model]
    examples = claims[claims["click_model"].fillna("") == ""]
    held = paper["holds"].astype(bool)
    examples_hold = "all hold" if examples["holds"].astype(bool).all() else "do not all hold"
    figures = "\n".join(f"![{name}](figures/appendix_{stem}.png)" for name, stem in _FIGURES)
    claims_table = markdown_table(
        paper,
        {
            "claim": "claim",
            "paper_statement": "the paper",
            "criterion": "our reading",
            "value_text": "our value",
            "holds": "holds",
            "reading_note": "reading changed",
        },
        {},
    )
    grid = k_grid[k_grid["click_model"] == paper_model]
    together = grid[grid["claim"] == TOGETHER]
    together_text = (
        f"The claims that carry the paper's numbers hold together on K = "
        f"{int(together['smallest_k'].iloc[0])}...K_max for K_max in "
        f"{together['k_max_where_holds'].iloc[0] or 'no grid'}."
        if len(together)
        else ""
    )
    return (
        f"{_sample(per_k, variant, confidence, method)}\n\n"
        f"{figures}\n\n"
        f"Claims on the {paper_model} matrix, the paper's setting: {int(held.sum())} of "
        f"{len(paper)} hold (`results/appendix/claims.md` has every click model, the "
        f"criteria's details and the confidence intervals; the {len(examples)} claims about "
        f"the worked examples {examples_hold}).\n\n"
        f"{claims_table}\n"
        f"{_other_models(per_k, paper_model)}"
        "**How the claims depend on the K grid.** The paper pools over a grid of K it does not "
        "state; each claim evaluated on the shorter grids K = 2...K_max "
        f"(`results/appendix/k_grid.md` has every click model). {together_text}\n\n"
        f"{k_grid_markdown(grid)}\n"
        f"{_verification(verification)}\n"
    )
