"""The duels section of RESULTS.md: which algorithm to use when, from the leaderboard.

The environments fall into five groups (:func:`environment_group`): a Condorcet winner and
few arms (in at least half the seeds' arms, for a subset environment), no Condorcet winner
and few arms, many arms (at least :data:`LARGE_K` per run), the contextual
environments, where the algorithms that use the context meet the K-armed ones (the line of
that group also names the best-ranked context-blind algorithm), and the adaptive adversary,
ranked by rd1 in hindsight as it has no von Neumann winner (the same line). For each group,
:func:`recommendations` counts at the longest leaderboard horizon in how many of the group's
environments each algorithm had the least mean regret against
the von Neumann winner or was statistically tied with it (:func:`.tables.leaderboard`),
with its mean rank; the recommendation is the algorithm with the most such environments
(ties: lower mean rank; all algorithms equal on both counts are recommended together).
:func:`readme_markdown` writes the section; every number in it comes from the tables it is
given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from ..templates import markdown_template
from .settings import CONTEXTUAL_ALGORITHMS

__all__ = [
    "GROUPS",
    "LARGE_K",
    "capped_horizons",
    "environment_group",
    "readme_markdown",
    "recommendations",
]

#: Arms per run from which an environment counts as "large K".
LARGE_K = 50

#: The groups, in the order RESULTS.md lists them, with how it names them.
GROUPS: dict[str, str] = {
    "condorcet": "A Condorcet winner exists, few arms",
    "no_condorcet": "No Condorcet winner, few arms",
    "large_k": f"Many arms (K >= {LARGE_K})",
    "contextual": "Context matters (the best action differs by context)",
    "adversarial": (
        "An adaptive adversary (no von Neumann winner; ranked by rd1 in hindsight, against "
        "the best policy of the class)"
    ),
}

#: The groups whose environments are contextual.
_CONTEXTUAL_GROUPS = ("contextual", "adversarial")


def environment_group(summary: Mapping[str, Any]) -> str:
    """The group of an environment summary (:func:`~.environments.environment_summary`)."""
    if summary.get("contextual"):
        return "adversarial" if summary["contextual"].get("adversary") else "contextual"
    if summary["arms_per_seed"] >= LARGE_K:
        return "large_k"
    return "condorcet" if summary["condorcet_share"] >= 0.5 else "no_condorcet"


def recommendations(
    board: pd.DataFrame, environments: Mapping[str, Mapping[str, Any]]
) -> pd.DataFrame:
    """Per group and algorithm: environments where best or tied, mean rank (module docstring).

    Only the algorithms run to the longest horizon of each environment are counted there.
    Columns: ``group``, ``algorithm``, ``environments`` (of the group), ``best``,
    ``best_or_tied``, ``mean_rank``, ``recommended``.
    """
    rows = []
    for environment, table in board.groupby("environment", sort=True):
        final = table[table["horizon"] == table["horizon"].max()]
        group = environment_group(environments[str(environment)])
        for row in final.itertuples():
            rows.append(
                {
                    "group": group,
                    "environment": environment,
                    "algorithm": row.algorithm,
                    "best": row.rank == 1,
                    "tied": bool(row.tied_with_best),
                    "rank": row.rank,
                }
            )
    if not rows:
        return pd.DataFrame(
            columns=[
                "group",
                "algorithm",
                "environments",
                "best",
                "best_or_tied",
                "mean_rank",
                "recommended",
            ]
        )
    flat = pd.DataFrame(rows)
    summary = (
        flat.groupby(["group", "algorithm"])
        .agg(
            environments=("environment", "nunique"),
            best=("best", "sum"),
            best_or_tied=("tied", "sum"),
            mean_rank=("rank", "mean"),
        )
        .reset_index()
        .sort_values(["group", "best_or_tied", "mean_rank"], ascending=[True, False, True])
    )
    # the best of each group, and any algorithm equal to it on both counts
    first = summary.groupby("group")[["best_or_tied", "mean_rank"]].transform("first")
    summary["recommended"] = (summary["best_or_tied"] == first["best_or_tied"]) & (
        summary["mean_rank"] == first["mean_rank"]
    )
    order = {group: index for index, group in enumerate(GROUPS)}
    return summary.sort_values(
        ["group", "best_or_tied", "mean_rank"],
        key=lambda column: column.map(order) if column.name == "group" else column,
        ascending=[True, False, True],
    ).reset_index(drop=True)


def capped_horizons(
    board: pd.DataFrame, environments: Mapping[str, Mapping[str, Any]]
) -> dict[str, dict[str, int]]:
    """Algorithms that reached a shorter horizon than others on an environment
    (``duels.horizon_caps``): ``{algorithm: {environment title: horizon reached}}``."""
    capped: dict[str, dict[str, int]] = {}
    for environment, table in board.groupby("environment"):
        reached = table.groupby("algorithm")["horizon"].max()
        title = str(environments[str(environment)]["title"])
        for algorithm, horizon in reached[reached < reached.max()].items():
            capped.setdefault(str(algorithm), {})[title] = int(horizon)
    return capped


#: The paper's algorithms, which learn over the policy class only.
POLICY_CLASS_ALGORITHMS = ("sparring_exp4p", "explore_exploit_fpl")

_README = markdown_template("""\
### Which dueling-bandit algorithm to use when

{{ karmed|length }} K-armed dueling-bandit algorithms ({{ karmed|join(", ") }}) played up to \
T = {{ horizon|spec(",") }} rounds, {{ seeds }} seeds each, on {{ matrices }} preference \
matrices from real data{% if contextual %}, and {{ contextual|length }} contextual ones \
({{ contextual|join(", ") }}) next to them on {{ n_contextual }} contextual environment(s) \
(T = {{ contextual_horizons|map("spec", ",")|join(" and ") }}), where the K-armed ones see no \
context and regret is measured against the exact contextual von Neumann winner of a policy \
class{{ " (rd1 in hindsight on the adaptive adversary, which has none)" if adversary }}\
{% endif %} (`results/duels/`). Regret is measured against the von Neumann winner (the \
paper's eq. rd1 with a constant context), which exists whether or not there is a Condorcet \
winner. "Best or tied" counts the environments where an algorithm had the least mean regret \
at the longest horizon or a paired 95% interval of its difference to the least reaching 0.

{% for group in groups %}
* **{{ group.title }}** ({{ group.environments|join("; ") }}): use \
{{ group.chosen|join(" or ") }}, best or tied in {{ group.top.best_or_tied }} of \
{{ group.top.environments }} environments (mean rank {{ group.top.mean_rank|spec(".1f") }}).\
{% if group.others %} Also best or tied: {{ group.others|join(", ") }}.{% endif %}\
{% if group.paper %} The paper's algorithms, which learn over the policy class only: \
{{ group.paper|join(", ") }}.{% endif %}\
{% if group.blind is not none %} The best-ranked K-armed algorithm, blind to the context, is \
{{ labels[group.blind.algorithm] }} (mean rank {{ group.blind.mean_rank|spec(".1f") }}, best \
or tied in {{ group.blind.best_or_tied }} of {{ group.blind.environments }}).{% endif +%}
{% endfor %}
{% if not with_context %}
* **With context**: not measured by this comparison (it runs no contextual environment); the \
contextual algorithms are compared in the online section.
{% endif %}
{% if shorter %}
* **Shorter horizons**: for their cost per round, some algorithms were run only to a shorter \
horizon ({% for (title, reached), names in shorter.items() -%}
{{ names|join(", ") }} to T = {{ reached|spec(",") }} on {{ title }}{{ "; " if not loop.last }}
{%- endfor %}), so they are not ranked at the longest horizon of those environments; the \
leaderboard ranks them at the horizons they reached, and the timing table gives their cost.
{% endif %}

Published behaviour, our reproduction of what each paper reports on these data:

{% for row in published.itertuples() %}
* {{ labels[row.algorithm] }}: **{{ row.verdict }}** ({{ row.judged_at }}).
{% endfor %}

Leaderboards with intervals: `results/duels/leaderboard.md`; the comparison with the papers: \
`results/duels/published.md`; wall time per round (it differs between runs): \
`results/benchmarks/duels/timings.csv`.
""")


def _group_line(
    group: str,
    rows: pd.DataFrame,
    environments: Mapping[str, Mapping[str, Any]],
    labels: Mapping[str, str],
) -> dict[str, Any]:
    """What the line of ``group`` says, from its ``rows`` of :func:`recommendations`."""
    recommended = rows["recommended"].astype(bool)
    others = rows[~recommended & (rows["best_or_tied"] > 0)]
    contextual = group in _CONTEXTUAL_GROUPS
    paper = rows[rows["algorithm"].isin(POLICY_CLASS_ALGORITHMS)] if contextual else rows[:0]
    blind = rows[~rows["algorithm"].isin(CONTEXTUAL_ALGORITHMS)]
    return {
        "title": GROUPS[group],
        "environments": [
            summary["title"]
            for summary in environments.values()
            if environment_group(summary) == group
        ],
        "chosen": [f"**{labels[a]}**" for a in rows[recommended]["algorithm"]],
        "top": rows.iloc[0],
        "others": [
            f"{labels[row.algorithm]} ({row.best_or_tied}/{row.environments})"
            for row in others.itertuples()
        ],
        "paper": [
            f"{labels[row.algorithm]} (mean rank {row.mean_rank:.1f})" for row in paper.itertuples()
        ],
        "blind": blind.sort_values("mean_rank", kind="stable").iloc[0]
        if contextual and not blind.empty
        else None,
    }


def readme_markdown(
    advice: pd.DataFrame,
    environments: Mapping[str, Mapping[str, Any]],
    published: pd.DataFrame,
    labels: Mapping[str, str],
    *,
    seeds: int,
    horizon: int,
    capped: Mapping[str, Mapping[str, int]] | None = None,
) -> str:
    """The section of RESULTS.md (markdown), numbers taken from the tables given.

    Wall times are left out: they differ from run to run, and this section is a
    reproducible result (it points to the timing table instead). ``capped``: the
    algorithms run to a shorter horizon on some environments (:func:`capped_horizons`).
    """
    algorithms = list(dict.fromkeys(advice["algorithm"]))
    contextual = [labels[a] for a in algorithms if a in CONTEXTUAL_ALGORITHMS]
    groups = [environment_group(summary) for summary in environments.values()]
    n_contextual = sum(groups.count(group) for group in _CONTEXTUAL_GROUPS)
    shorter: dict[tuple[str, int], list[str]] = {}
    for algorithm, reached in sorted((capped or {}).items()):
        for title, capped_horizon in reached.items():
            shorter.setdefault((title, capped_horizon), []).append(labels[algorithm])
    return _README.render(
        karmed=[labels[a] for a in algorithms if a not in CONTEXTUAL_ALGORITHMS],
        horizon=horizon,
        seeds=seeds,
        matrices=len(environments) - n_contextual,
        contextual=contextual if n_contextual else [],
        n_contextual=n_contextual,
        contextual_horizons=sorted(
            {
                summary["contextual"].get("horizon") or horizon
                for summary in environments.values()
                if summary.get("contextual")
            }
        ),
        adversary="adversarial" in groups,
        groups=[
            _group_line(group, advice[advice["group"] == group], environments, labels)
            for group in GROUPS
            if (advice["group"] == group).any()
        ],
        with_context=bool(set(_CONTEXTUAL_GROUPS) & set(groups)),
        shorter=shorter,
        published=published,
        labels=labels,
    )
