"""The account of what generalises beyond MSLR in RESULTS.md, every number from the tables.

:func:`readme_markdown` writes ``results/real_data/readme.md``: a paragraph per finding
(the appendix claims across the real series, the context gains, the TREC-DL winners
against the published best passages, the coverage of the intervals at real sizes) and the
cross-data-set table, from the tables the workflow wrote, so that RESULTS.md never shows a
number typed by hand.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..templates import markdown_template

__all__ = [
    "claims_paragraph",
    "figure_links",
    "contexts_paragraph",
    "coverage_paragraph",
    "readme_markdown",
    "trec_dl_paragraph",
]

_CLAIMS = markdown_template("""\
**Do the appendix's observations hold beyond MSLR?** On {{ series|length }} real series \
({{ series|sentence }}), {% if most < series|length %}none of the paper's {{ claims }} claims \
holds everywhere {% else %}{{ most_held|sentence }} hold on every series {% endif %}(the \
cross-data-set table below): the claims holding most often ({{ most_held|sentence }}) hold on \
{{ most }} of {{ series|length }}, the least often ({{ fewest_held|sentence }}) on \
{{ fewest }}. {% if below %}A Condorcet winner exists in fewer than half of the K-item \
sub-matrices from a small K on {{ below|length }} series ({{ below|join("; ") }})\
{% else %}A Condorcet winner exists in most sub-matrices of every series{% endif %}\
{% if never %}, but in most sub-matrices at every K on {{ never|sentence }}, where one item \
beats nearly all others{% endif %}. At least one Copeland winner lies in the von Neumann \
support of {{ some.min()|percent }}-{{ some.max()|percent }} of the sampled sub-matrices per \
series (all of them in {{ every.min()|percent }}-{{ every.max()|percent }}), close to but \
below the paper's near-100%; and supports larger than 5 do occur: the largest sampled has \
{{ largest.max()|int }} items ({{ largest.idxmax() }}).""")

_CONTEXTS = markdown_template("""\
**Does context matter?** On ATP matches, {% for row in gains.itertuples(index=False) -%}
by {{ row.analysis }} ({{ row.contexts }}; {{ row.items }} players, \
{{ row.comparisons|spec(",.0f") }} matches) the best context-blind lottery is beaten by \
{{ row.gain|spec(".3f") }} on average (a {{ (100 * row.win_probability)|spec(".1f") }}% win \
chance; bootstrap 95% range [{{ row.gain_low|spec(".3f") }}, {{ row.gain_high|spec(".3f") }}]), \
the pooled von Neumann winner by {{ row.pooled_gain|spec(".3f") }}, against a median of \
{{ row.null_median|spec(".3f") }} when the context labels are shuffled \
(p = {{ row.p_value|spec(".3f") }}: \
{{ "beyond" if row.p_value < 0.05 else "not distinguishable from" }} what the noise of finite \
counts alone produces){{ "; " if not loop.last }}
{%- endfor %}. Estimated contexts differ even when the truth does not, so the gain is judged \
against the shuffled one.""")

_TREC_DL = markdown_template("""\
{% macro span(frame, column) %}{{ frame[column].min()|percent }}-{{ frame[column].max()|percent }}\
{% endmacro %}
**TREC-DL: our winners against the authors' best passages.** Over \
{{ finalists.topics.max()|int }} topics and the published sets {{ names|sentence }}: among the \
finalists (passages whose pairs were all compared), the von Neumann winner's heaviest passage \
is a published one in {{ span(finalists, "has_top") }} of topics, a published passage is a \
Copeland winner in {{ span(finalists, "copeland") }}, and a Condorcet winner exists in \
{{ finalists.condorcet_exists.iloc[0]|percent }} (support of \
{{ finalists.support_size.iloc[0]|spec(".1f") }} passages on average). Over all passages \
(pairs never compared at 1/2) the support grows to \
{{ everything.support_size.iloc[0]|spec(".1f") }} passages, as passages pruned early are \
unbeaten by those they never met, and a Condorcet winner exists in \
{{ everything.condorcet_exists.iloc[0]|percent }}. The published sets share a passage with \
each other in only {{ agree.min()|percent }}-{{ agree.max()|percent }} of topics: where our \
winners differ from a published set, the sets differ as much from each other, as each \
reflects one phase's few judgments.{% if agreeing is not none %} Why they differ: against \
{{ names[-1] }}, the published passage is in the von Neumann support of \
{{ agreeing|percent }} of posterior draws on average where our heaviest passage is the \
published one, but only {{ disagreeing|percent }} where it is not: the disagreements are \
where the finalists' few judgments cannot separate the passages.{% endif %}""")

_COVERAGE = markdown_template("""\
**Do the intervals cover at real sizes?** Nominal {{ nominal|percent }}; \
{% for case, table in cases -%}
{{ case }} ({{ table.replications.iloc[0]|int }} synthetic logs): lowest coverage \
{% for row in table.itertuples(index=False) -%}
{{ row.method }} {{ row.target }} {{ row.lowest|percent }}\
{{ " (below nominal - tolerance)" if not row.passes }}\
{% if row.target == "weight" %} (mean width {{ row.mean_width|spec(".2f") }}){% endif %}\
{{ ", " if not loop.last }}
{%- endfor %}{{ "; " if not loop.last }}
{%- endfor %}.{% if weights %} The weight intervals (every weight of a lottery that could be \
the von Neumann winner, simultaneously for all items) {{ "cover at every item and size \
checked." if weights_pass else "do not cover at every item: read them as indicative." }}\
{% endif %}""")


def claims_paragraph(claims: pd.DataFrame, per_k: pd.DataFrame) -> str:
    """The appendix's observations across the real series.

    Parameters
    ----------
    claims : pandas.DataFrame
        :func:`.tables.series_claims` of every data set, stacked.
    per_k : pandas.DataFrame
        :func:`.tables.series_tables` per-K tables of every data set, stacked.
    """
    holding = claims.groupby("claim", sort=False)["holds"].sum().astype(int)
    grouped = per_k.groupby("series", sort=False)
    first_below = {
        str(name): table.loc[table["fraction_condorcet"] < 0.5, "K"].min()
        for name, table in grouped
    }
    return _CLAIMS.render(
        series=list(dict.fromkeys(claims["series"])),
        claims=len(holding),
        most=holding.max(),
        fewest=holding.min(),
        most_held=[f"`{c}`" for c in holding.index[holding == holding.max()]],
        fewest_held=[f"`{c}`" for c in holding.index[holding == holding.min()]],
        below=[f"{name}: K = {int(k)}" for name, k in first_below.items() if not pd.isna(k)],
        never=[name for name, k in first_below.items() if pd.isna(k)],
        some=grouped.apply(
            lambda t: t["some_copeland_in_support"].sum() / t["matrices"].sum(),
            include_groups=False,
        ),
        every=grouped.apply(
            lambda t: t["all_copeland_in_support"].sum() / t["matrices"].sum(),
            include_groups=False,
        ),
        largest=grouped["max_support_size"].max(),
    )


def contexts_paragraph(gains: pd.DataFrame) -> str:
    """What a per-context lottery gains, per analysis (:meth:`.contexts.ContextGain.summary`)."""
    return _CONTEXTS.render(gains=gains)


def trec_dl_paragraph(agreement: pd.DataFrame, topics: pd.DataFrame | None = None) -> str:
    """Our TREC-DL winners against the published best passages
    (:func:`.trec_dl.comparison_summary`; ``topics``, the per-topic table
    :func:`.trec_dl.trec_dl_comparison`, adds why they differ where the data are unsure)."""
    finalists = agreement[agreement["view"] == "finalists"].set_index("published")
    agree_columns = [c for c in agreement.columns if c.startswith("agrees_with_")]
    names = list(finalists.index)
    agreeing = disagreeing = None
    if topics is not None:
        on_finalists = topics[topics["view"] == "finalists"]
        has_top = on_finalists[f"{names[-1]}_has_top"].astype(bool)
        probability = on_finalists[f"{names[-1]}_support_probability"]
        if has_top.any() and not has_top.all():
            agreeing, disagreeing = probability[has_top].mean(), probability[~has_top].mean()
    return _TREC_DL.render(
        finalists=finalists,
        everything=agreement[agreement["view"] == "all"].set_index("published"),
        agree=agreement.loc[agreement["view"] == "finalists", agree_columns].stack(),
        names=names,
        agreeing=agreeing,
        disagreeing=disagreeing,
    )


def coverage_paragraph(coverage: pd.DataFrame) -> str:
    """Coverage of the intervals at real sizes (:func:`.coverage.coverage_summary`, stacked)."""
    weights = coverage[coverage["target"] == "weight"]
    return _COVERAGE.render(
        nominal=float(coverage["nominal"].iloc[0]),
        cases=list(coverage.groupby("case", sort=False)),
        weights=not weights.empty,
        weights_pass=bool(weights["passes"].all()),
    )


def figure_links(figures: Sequence[str]) -> str:
    """Markdown images of the published figures (``figures/real_data_<name>.png``)."""
    return "\n".join(f"![{name}](figures/real_data_{name}.png)" for name in figures)


def readme_markdown(
    claims: pd.DataFrame,
    per_k: pd.DataFrame,
    cross_dataset: str,
    gains: pd.DataFrame,
    agreement: pd.DataFrame | None,
    coverage: pd.DataFrame | None,
    figures: Sequence[str] = (),
    topics: pd.DataFrame | None = None,
) -> str:
    """The section of RESULTS.md on real data: the paragraphs, the cross-data-set table, then
    the figures named in ``figures`` (as published to ``figures/`` by a default run)."""
    paragraphs = [claims_paragraph(claims, per_k), contexts_paragraph(gains)]
    if agreement is not None:
        paragraphs.append(trec_dl_paragraph(agreement, topics))
    if coverage is not None:
        paragraphs.append(coverage_paragraph(coverage))
    parts = [*paragraphs, cross_dataset.rstrip()]
    if figures:
        parts.append(figure_links(figures))
    return "\n\n".join(parts) + "\n"
