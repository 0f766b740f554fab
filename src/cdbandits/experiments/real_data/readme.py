"""The README's paragraph on what generalises beyond MSLR, every number from the tables.

:func:`readme_markdown` writes ``results/real_data/readme.md``: a paragraph per finding
(the appendix claims across the real series, the context gains, the TREC-DL winners
against the published best passages, the coverage of the intervals at real sizes) and the
cross-data-set table, from the tables the workflow wrote, so that the README never shows a
number typed by hand.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

__all__ = [
    "claims_paragraph",
    "figure_links",
    "contexts_paragraph",
    "coverage_paragraph",
    "readme_markdown",
    "trec_dl_paragraph",
]


def _percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def _join(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def claims_paragraph(claims: pd.DataFrame, per_k: pd.DataFrame) -> str:
    """The appendix's observations across the real series.

    Parameters
    ----------
    claims : pandas.DataFrame
        :func:`.tables.series_claims` of every data set, stacked.
    per_k : pandas.DataFrame
        :func:`.tables.series_tables` per-K tables of every data set, stacked.
    """
    series = list(dict.fromkeys(claims["series"]))
    holding = claims.groupby("claim", sort=False)["holds"].sum().astype(int)
    most, fewest = holding.max(), holding.min()
    grouped = per_k.groupby("series", sort=False)
    some = grouped.apply(
        lambda t: t["some_copeland_in_support"].sum() / t["matrices"].sum(), include_groups=False
    )
    every = grouped.apply(
        lambda t: t["all_copeland_in_support"].sum() / t["matrices"].sum(), include_groups=False
    )
    largest = grouped["max_support_size"].max()
    below, never = [], []
    for name, table in grouped:
        under = table.loc[table["fraction_condorcet"] < 0.5, "K"]
        if under.empty:
            never.append(str(name))
        else:
            below.append(f"{name}: K = {int(under.min())}")
    condorcet = (
        f"A Condorcet winner exists in fewer than half of the K-item sub-matrices from a small "
        f"K on {len(below)} series ({'; '.join(below)})"
        if below
        else "A Condorcet winner exists in most sub-matrices of every series"
    )
    if never:
        condorcet += (
            f", but in most sub-matrices at every K on {_join(never)}, where one item "
            "beats nearly all others"
        )
    return (
        f"**Do the appendix's observations hold beyond MSLR?** On {len(series)} real series "
        f"({_join(series)}), none of the paper's {len(holding)} claims holds everywhere "
        if most < len(series)
        else f"**Do the appendix's observations hold beyond MSLR?** On {len(series)} real "
        f"series ({_join(series)}), {_join(f'`{c}`' for c in holding.index[holding == most])} "
        "hold on every series "
    ) + (
        f"(the cross-data-set table below): the claims holding most often "
        f"({_join(f'`{c}`' for c in holding.index[holding == most])}) hold on {most} of "
        f"{len(series)}, the least often "
        f"({_join(f'`{c}`' for c in holding.index[holding == fewest])}) on {fewest}. "
        f"{condorcet}. At least one Copeland winner lies in the von Neumann support of "
        f"{_percent(some.min())}-{_percent(some.max())} of the sampled sub-matrices per series "
        f"(all of them in {_percent(every.min())}-{_percent(every.max())}), close to but below "
        f"the paper's near-100%; and supports larger than 5 do occur: the largest sampled has "
        f"{int(largest.max())} items ({largest.idxmax()})."
    )


def contexts_paragraph(gains: pd.DataFrame) -> str:
    """What a per-context lottery gains, per analysis (:meth:`.contexts.ContextGain.summary`)."""
    parts = []
    for row in gains.itertuples(index=False):
        parts.append(
            f"by {row.analysis} ({row.contexts}; {row.items} players, {row.comparisons:,.0f} "
            f"matches) the best context-blind lottery is beaten by {row.gain:.3f} on average "
            f"(a {100 * row.win_probability:.1f}% win chance; bootstrap 95% range "
            f"[{row.gain_low:.3f}, {row.gain_high:.3f}]), the pooled von Neumann winner by "
            f"{row.pooled_gain:.3f}, against a median of {row.null_median:.3f} when the context "
            f"labels are shuffled (p = {row.p_value:.3f}: "
            f"{'beyond' if row.p_value < 0.05 else 'not distinguishable from'} what the noise "
            "of finite counts alone produces)"
        )
    return (
        "**Does context matter?** On ATP matches, " + "; ".join(parts) + ". Estimated "
        "contexts differ even when the truth does not, so the gain is judged against the "
        "shuffled one."
    )


def _uncertainty_sentence(topics: pd.DataFrame, published: str) -> str:
    """Where the vNW's heaviest finalist is not the published one, how sure the data are."""
    finalists = topics[topics["view"] == "finalists"]
    agree = finalists[f"{published}_has_top"].astype(bool)
    probability = finalists[f"{published}_support_probability"]
    if agree.all() or not agree.any():
        return ""
    return (
        f" Why they differ: against {published}, the published passage is in the von Neumann "
        f"support of {_percent(probability[agree].mean())} of posterior draws on average where "
        f"our heaviest passage is the published one, but only "
        f"{_percent(probability[~agree].mean())} where it is not: the disagreements are where "
        "the finalists' few judgments cannot separate the passages."
    )


def trec_dl_paragraph(agreement: pd.DataFrame, topics: pd.DataFrame | None = None) -> str:
    """Our TREC-DL winners against the published best passages
    (:func:`.trec_dl.comparison_summary`; ``topics``, the per-topic table
    :func:`.trec_dl.trec_dl_comparison`, adds why they differ)."""
    finalists = agreement[agreement["view"] == "finalists"].set_index("published")
    everything = agreement[agreement["view"] == "all"].set_index("published")
    agree_columns = [c for c in agreement.columns if c.startswith("agrees_with_")]
    agree = agreement.loc[agreement["view"] == "finalists", agree_columns].stack()
    names = list(finalists.index)

    def span(frame: pd.DataFrame, column: str) -> str:
        return f"{_percent(frame[column].min())}-{_percent(frame[column].max())}"

    return (
        f"**TREC-DL: our winners against the authors' best passages.** Over "
        f"{int(finalists['topics'].max())} topics and the published sets {_join(names)}: among "
        f"the finalists (passages whose pairs were all compared), the von Neumann winner's "
        f"heaviest passage is a published one in {span(finalists, 'has_top')} of topics, a "
        f"published passage is a Copeland winner in {span(finalists, 'copeland')}, and a "
        f"Condorcet winner exists in {_percent(finalists['condorcet_exists'].iloc[0])} "
        f"(support of {finalists['support_size'].iloc[0]:.1f} passages on average). Over all "
        f"passages (pairs never compared at 1/2) the support grows to "
        f"{everything['support_size'].iloc[0]:.1f} passages, as passages pruned early are "
        f"unbeaten by those they never met, and a Condorcet winner exists in "
        f"{_percent(everything['condorcet_exists'].iloc[0])}. The published sets share a "
        f"passage with each other in only {_percent(agree.min())}-{_percent(agree.max())} of "
        "topics: where our winners differ from a published set, the sets differ as much from "
        "each other, as each reflects one phase's few judgments."
        + ("" if topics is None else _uncertainty_sentence(topics, names[-1]))
    )


def coverage_paragraph(coverage: pd.DataFrame) -> str:
    """Coverage of the intervals at real sizes (:func:`.coverage.coverage_summary`, stacked)."""
    parts = []
    for case, table in coverage.groupby("case", sort=False):
        cells = ", ".join(
            f"{row.method} {row.target} {_percent(row.lowest)}"
            f"{'' if row.passes else ' (below nominal - tolerance)'}"
            + (f" (mean width {row.mean_width:.2f})" if row.target == "weight" else "")
            for row in table.itertuples(index=False)
        )
        parts.append(
            f"{case} ({int(table['replications'].iloc[0])} synthetic logs): lowest coverage {cells}"
        )
    nominal = float(coverage["nominal"].iloc[0])
    weights = coverage[coverage["target"] == "weight"]
    verdict = (
        ""
        if weights.empty
        else " The weight intervals (every weight of a lottery that could be the von Neumann "
        "winner, simultaneously for all items) "
        + (
            "cover at every item and size checked."
            if weights["passes"].all()
            else "do not cover at every item: read them as indicative."
        )
    )
    return (
        f"**Do the intervals cover at real sizes?** Nominal {_percent(nominal)}; "
        + "; ".join(parts)
        + "."
        + verdict
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
    """The README's section on real data: the paragraphs, the cross-data-set table, then the
    figures named in ``figures`` (as published to ``figures/`` by a default run)."""
    paragraphs = [claims_paragraph(claims, per_k), contexts_paragraph(gains)]
    if agreement is not None:
        paragraphs.append(trec_dl_paragraph(agreement, topics))
    if coverage is not None:
        paragraphs.append(coverage_paragraph(coverage))
    parts = [*paragraphs, cross_dataset.rstrip()]
    if figures:
        parts.append(figure_links(figures))
    return "\n\n".join(parts) + "\n"
