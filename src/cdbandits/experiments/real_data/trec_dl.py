"""Our winners of each TREC-DL topic against the best passages the data's authors published.

Yan et al. (2022) ran one crowdsourced tournament per topic: a dueling-bandit algorithm
prunes passages round by round, so the passages that lose early are compared a few times
and most pairs never; then *finalisation phases* compare the remaining finalists, and each
published qrels file (``Set-I``, ``Set-II``, ``Set-III``) lists, per topic, the best
passage(s) of one phase. The released judgments pool every phase.

For every topic, :func:`topic_comparison` computes from the pooled judgments the von
Neumann winner (vNW), the Copeland winners ("wins" variant) and the Condorcet winner, in two
views of the tournament:

* ``all``: every passage, pairs never compared at 1/2 (``unobserved="half"``): a passage
  pruned early is unbeaten by every passage it never met;
* ``finalists``: passages removed until every remaining pair was compared
  (``unobserved="drop-items"``), the round robin of the finalists, with the probability of
  each passage to be in the vNW support under the Beta posterior.

and compares each with every published set: is a published passage in the vNW support,
among the Copeland winners, the Condorcet winner; is the vNW's heaviest passage published.
:func:`comparison_summary` gives the share of topics for each, and how often the published
sets agree with each other (the noise of one phase).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...batched import von_neumann_winners
from ...comparisons.counts import apply_policy, count_pairs
from ...comparisons.records import ComparisonLog
from ...comparisons.settings import CountPolicy
from ...comparisons.uncertainty import SUPPORT_TOL, resampled_distribution
from ...randomness import named_generator
from ...winners import condorcet_winner, copeland_winners
from .settings import TrecComparisonSettings
from .sources import collect_warnings, read_qrels, trec_dl_log

__all__ = [
    "VIEWS",
    "comparison_summary",
    "run_trec_dl_comparison",
    "topic_comparison",
    "trec_dl_comparison",
]

#: The two views of a topic's tournament, with their policy for pairs never compared.
VIEWS: dict[str, CountPolicy] = {
    "all": CountPolicy(unobserved="half"),
    "finalists": CountPolicy(unobserved="drop-items"),
}


def _names(items: Sequence[str], indices: Sequence[int]) -> str:
    return " ".join(items[i] for i in indices)


def topic_comparison(
    log: ComparisonLog,
    topic: str,
    published: Mapping[str, Sequence[str]],
    view: str,
    settings: TrecComparisonSettings,
) -> dict[str, Any]:
    """One row of the comparison table: a topic in one view (module docstring).

    Parameters
    ----------
    log : ComparisonLog
        The topic's judgments.
    topic : str
    published : mapping of str to sequence of str
        The passages of each published set for this topic (empty if it lists none).
    view : {"all", "finalists"}
    settings : TrecComparisonSettings
    """
    counted, notes = collect_warnings(lambda: apply_policy(log, VIEWS[view]))
    assert isinstance(counted, ComparisonLog)
    items = counted.items
    counts = count_pairs(counted)
    P = counts.skew_matrix()
    weights = von_neumann_winners(P[None]).weights[0]
    support = np.flatnonzero(weights > SUPPORT_TOL)
    support = support[np.argsort(-weights[support], kind="stable")]
    copeland = copeland_winners(P)
    condorcet = condorcet_winner(P)
    k = len(items)
    row: dict[str, Any] = {
        "topic": topic,
        "view": view,
        "passages": k,
        "judgments": counted.n_comparisons,
        "pairs_compared": int(np.triu(counts.observed, 1).sum()),
        "pairs": k * (k - 1) // 2,
        "support_size": int(support.size),
        "support": _names(items, support),
        "top_weight": float(weights[support[0]]),
        "copeland_winners": _names(items, copeland),
        "condorcet_winner": "" if condorcet is None else items[condorcet],
        "policy_notes": len(notes),
    }
    probability = None
    if view == "finalists":
        rng = named_generator(settings.seed, "real_data", "trec_dl", topic)
        dist = resampled_distribution(
            counted, "posterior", weights, settings.resamples, rng, confidence=settings.confidence
        )
        probability = dist.support_probability
    position = {name: index for index, name in enumerate(items)}
    for name, passages in published.items():
        present = [position[p] for p in passages if p in position]
        row[f"{name}_passages"] = len(passages)
        row[f"{name}_present"] = len(present)
        row[f"{name}_in_support"] = sum(weights[i] > SUPPORT_TOL for i in present)
        row[f"{name}_weight"] = float(weights[present].sum()) if present else 0.0
        row[f"{name}_copeland"] = bool(set(present) & set(copeland.tolist()))
        row[f"{name}_condorcet"] = condorcet is not None and condorcet in present
        row[f"{name}_has_top"] = bool(support.size) and int(support[0]) in present
        if probability is not None:
            row[f"{name}_support_probability"] = (
                float(probability[present].max()) if present else 0.0
            )
    return row


def trec_dl_comparison(
    log: ComparisonLog,
    qrels: Mapping[str, Mapping[str, Sequence[str]]],
    settings: TrecComparisonSettings,
    topics: Sequence[str] | None = None,
) -> pd.DataFrame:
    """The comparison table: every topic (of ``topics``, or of the log) in both views.

    Parameters
    ----------
    log : ComparisonLog
        The judgments, topic as context.
    qrels : mapping of str to mapping of str to sequence of str
        Per published set (``"Set-I"`` ...), its passages per topic.
    settings : TrecComparisonSettings
    topics : sequence of str, optional
    """
    chosen = list(topics) if topics is not None else list(log.contexts)
    rows = []
    for topic in chosen:
        topic_log = log.for_context(topic)
        published = {name: tuple(qrels[name].get(topic, ())) for name in settings.qrels}
        rows.extend(topic_comparison(topic_log, topic, published, view, settings) for view in VIEWS)
    return pd.DataFrame(rows)


def _agree(first: str, second: str) -> bool:
    return bool(set(first.split()) & set(second.split()))


def comparison_summary(
    table: pd.DataFrame, qrels: Mapping[str, Mapping[str, Sequence[str]]]
) -> pd.DataFrame:
    """Shares of topics, per view and published set, where our winners meet the published.

    Returns
    -------
    pandas.DataFrame
        One row per (view, set): ``topics``; ``in_support`` (every published passage of
        the topic is in the vNW support), ``copeland`` (one is a Copeland winner),
        ``condorcet`` (one is the Condorcet winner), ``condorcet_exists``, ``has_top`` (the
        vNW's heaviest passage is published), mean ``weight`` on the published passages,
        mean ``support_size``; and ``agrees_with_<other>``: the share of topics where this
        set shares a passage with another published set.
    """
    names = [c.removesuffix("_passages") for c in table.columns if c.endswith("_passages")]
    rows = []
    for view, part in table.groupby("view", sort=False):
        for name in names:
            listed = part[part[f"{name}_passages"] > 0]
            row: dict[str, Any] = {
                "view": view,
                "published": name,
                "topics": len(listed),
                "in_support": float(
                    (listed[f"{name}_in_support"] == listed[f"{name}_passages"]).mean()
                ),
                "copeland": float(listed[f"{name}_copeland"].mean()),
                "condorcet": float(listed[f"{name}_condorcet"].mean()),
                "condorcet_exists": float((listed["condorcet_winner"] != "").mean()),
                "has_top": float(listed[f"{name}_has_top"].mean()),
                "weight": float(listed[f"{name}_weight"].mean()),
                "support_size": float(listed["support_size"].mean()),
            }
            if f"{name}_support_probability" in listed:
                row["support_probability"] = float(listed[f"{name}_support_probability"].mean())
            for other in names:
                if other != name:
                    row[f"agrees_with_{other}"] = float(
                        np.mean(
                            [
                                _agree(
                                    " ".join(qrels[name].get(t, ())),
                                    " ".join(qrels[other].get(t, ())),
                                )
                                for t in listed["topic"]
                            ]
                        )
                    )
            rows.append(row)
    return pd.DataFrame(rows)


def run_trec_dl_comparison(
    judgments: str | os.PathLike[str],
    qrels_paths: Mapping[str, str | os.PathLike[str]],
    settings: TrecComparisonSettings,
    topics: Sequence[str] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The comparison table and its summary from the judgments and the published qrels files.

    Parameters
    ----------
    judgments : path-like
        ``judgments.txt`` (preset ``trec-dl``).
    qrels_paths : mapping of str to path-like
        The file of each published set of ``settings.qrels``.
    settings : TrecComparisonSettings
    topics : sequence of str, optional
        The topics compared (default: every topic of the judgments).
    """
    qrels = {name: read_qrels(qrels_paths[name]) for name in settings.qrels}
    table = trec_dl_comparison(trec_dl_log(judgments), qrels, settings, topics)
    return table, comparison_summary(table, qrels)
