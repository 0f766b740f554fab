"""The account of Appendices A and B in RESULTS.md, written from the workflow's tables.

:func:`appendix_readme` renders, as Markdown, every number RESULTS.md shows about the
appendix: the sample, the claims on the paper's matrix (with the readings and the reasons
for them), the other click models, the K-grid sensitivity and the verification. A run of
the default config writes it to ``results/appendix/readme.md``; RESULTS.md's section is a
verbatim copy, so no number in it is typed by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from ..templates import markdown_template
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

_README = markdown_template("""\
Sampled: {{ sizes }}; {{ samples }} random K-subsets each (seeded per block, so any sharding \
gives the same subsets), {{ models|length }} click models ({{ models|join(", ") }}): \
{{ total|spec(",") }} certified von Neumann winners. Copeland scores: `{{ variant }}`; \
intervals: {{ (100 * confidence)|spec("g") }}% {{ method }}.

{% for name, stem in figures %}
![{{ name }}](figures/appendix_{{ stem }}.png)
{% endfor %}

Claims on the {{ paper_model }} matrix, the paper's setting: {{ held }} of {{ claims }} hold \
(`results/appendix/claims.md` has every click model, the criteria's details and the \
confidence intervals; the {{ examples }} claims about the worked examples \
{{ "all hold" if examples_hold else "do not all hold" }}).

{{ claims_table }}
{% if others %}
P(Condorcet winner) on the other click models: {% for model, lowest, last in others -%}
{{ model }}: lowest {{ (100 * lowest.fraction_condorcet)|spec(".1f") }}% at \
K = {{ lowest.K|int }}, {{ (100 * last.fraction_condorcet)|spec(".1f") }}% at \
K = {{ last.K|int }}{{ "; " if not loop.last }}
{%- endfor %}.

{% endif %}
**How the claims depend on the K grid.** The paper pools over a grid of K it does not state; \
each claim evaluated on the shorter grids K = 2...K_max (`results/appendix/k_grid.md` has \
every click model). {% if together is not none %}The claims that carry the paper's numbers \
hold together on K = {{ together.smallest_k|int }}...K_max for K_max in \
{{ together.k_max_where_holds or "no grid" }}.{% endif +%}

{{ k_grid_table }}
**Verification.** Sampled matrices re-solved by the cvxpy reference (drawn uniformly, and \
drawn among those without a Condorcet winner, whose von Neumann winner needs an LP), per \
click model: {% for model, summary in verification.items() -%}
{{ model }}: {{ summary.agreeing|spec(",") }} of {{ summary.matrices|spec(",") }} agree \
({% for name in strata if name in summary.strata -%}
{{ summary.strata[name].matrices|spec(",") }} {{ stratum_words[name] }}{{ ", " if not loop.last }}
{%- endfor %}), {{ summary.same_support|spec(",") }} with the same support, largest weight \
difference {{ summary.max_abs_weight_difference|spec(".1e") }}\
{{ " (**unresolved disagreements**)" if not summary.agrees_or_resolved }}\
{{ "; " if not loop.last }}
{%- endfor %} (`results/appendix/*/verification.json`).
""")


def _grid(ks: list[int]) -> str:
    if len(ks) == ks[-1] - ks[0] + 1:
        return f"every K from {ks[0]} to {ks[-1]}"
    return f"K in {{{', '.join(map(str, ks))}}}"


def _sizes(per_k: Mapping[str, pd.DataFrame]) -> str:
    grids = {model: sorted(int(k) for k in table["K"]) for model, table in per_k.items()}
    if len({tuple(ks) for ks in grids.values()}) == 1:
        return _grid(next(iter(grids.values())))
    return "; ".join(f"{model}: {_grid(ks)}" for model, ks in grids.items())


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
    """The Markdown account of the appendix.

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
    per_size = sorted({int(n) for table in per_k.values() for n in table["matrices"]})
    grid = k_grid[k_grid["click_model"] == paper_model]
    together = grid[grid["claim"] == TOGETHER]
    return _README.render(
        sizes=_sizes(per_k),
        samples=f"{per_size[0]:,}" + (f"-{per_size[-1]:,}" if len(per_size) > 1 else ""),
        models=list(per_k),
        total=sum(int(table["matrices"].sum()) for table in per_k.values()),
        variant=variant,
        confidence=confidence,
        method=method.replace("-", "–").title(),
        figures=_FIGURES,
        paper_model=paper_model,
        held=int(paper["holds"].astype(bool).sum()),
        claims=len(paper),
        examples=len(examples),
        examples_hold=examples["holds"].astype(bool).all(),
        claims_table=markdown_table(
            paper,
            {
                "claim": "claim",
                "paper_statement": "the paper",
                "criterion": "our reading",
                "value_text": "our value",
                "holds": "holds",
                "reading_note": "why this reading",
            },
            {},
        ),
        others=[
            (model, table.loc[table["fraction_condorcet"].idxmin()], table.iloc[-1])
            for model, table in per_k.items()
            if model != paper_model
        ],
        together=None if together.empty else together.iloc[0],
        k_grid_table=k_grid_markdown(grid),
        verification=verification,
        strata=STRATA,
        stratum_words=_STRATUM_WORDS,
    )
