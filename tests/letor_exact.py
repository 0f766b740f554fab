"""Exact outcome probabilities of interleaved comparisons by brute-force enumeration.

Written independently of :mod:`cdbandits.letor.interleave` and deliberately naive: every
interleaving (coin flips and draws), every click pattern of the cascade model and, for
Probabilistic Interleave, every assignment of positions to rankers is enumerated. Only for
tiny queries (2-4 documents).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from cdbandits.letor.click_models import CascadeClickModel


def tie_broken_rankings(scores: Sequence[float]) -> list[tuple[int, ...]]:
    """Every ranking by descending score with some order inside ties (equally likely)."""
    n = len(scores)
    return sorted(
        {
            ranking
            for ranking in itertools.permutations(range(n))
            if all(scores[ranking[k]] >= scores[ranking[k + 1]] for k in range(n - 1))
        }
    )


def _draw_probability(
    ranking: Sequence[int], document: int, shown: Sequence[int], tau: float
) -> float:
    remaining = [d for d in ranking if d not in shown]
    weights = {d: (ranking.index(d) + 1) ** -tau for d in remaining}
    return weights[document] / sum(weights.values())


def _click_patterns(
    grades: Sequence[int], model: CascadeClickModel
) -> Iterator[tuple[tuple[bool, ...], float]]:
    """(clicks, probability) for every outcome of the cascade model on ``grades``."""

    def walk(k: int, clicks: tuple[bool, ...], probability: float):
        if k == len(grades):
            yield clicks, probability
            return
        c, s = model.click[grades[k]], model.stop[grades[k]]
        if 1 - c > 0:
            yield from walk(k + 1, clicks + (False,), probability * (1 - c))
        if c > 0:
            rest = len(grades) - k - 1
            if s > 0:
                yield clicks + (True,) + (False,) * rest, probability * c * s
            if 1 - s > 0:
                yield from walk(k + 1, clicks + (True,), probability * c * (1 - s))

    yield from walk(0, (), 1.0)


def _marginalised_outcome(
    ranking_a: Sequence[int],
    ranking_b: Sequence[int],
    shown: Sequence[int],
    clicks: Sequence[bool],
    tau: float,
) -> int:
    """+1 / -1 / 0 from explicit enumeration of all 2^L assignments."""
    if not any(clicks):
        return 0
    likelihood = {}
    for assignment in itertools.product((0, 1), repeat=len(shown)):
        probability = 1.0
        for k, team in enumerate(assignment):
            ranking = ranking_b if team else ranking_a
            probability *= 0.5 * _draw_probability(ranking, shown[k], shown[:k], tau)
        likelihood[assignment] = probability
    total = sum(likelihood.values())
    difference = 0.0
    for assignment, probability in likelihood.items():
        credit_b = sum(1 for k, team in enumerate(assignment) if clicks[k] and team == 1)
        credit_a = sum(1 for k, team in enumerate(assignment) if clicks[k] and team == 0)
        difference += probability / total * ((credit_b > credit_a) - (credit_a > credit_b))
    if abs(difference) <= 1e-12:
        return 0
    return -1 if difference > 0 else 1


def _lists(ranking_a, ranking_b, n, shown_length, tau, shown, probability):
    """(list, probability) of every Probabilistic Interleave list."""
    if len(shown) == shown_length:
        yield shown, probability
        return
    for document in range(n):
        if document in shown:
            continue
        p = 0.5 * _draw_probability(ranking_a, document, shown, tau)
        p += 0.5 * _draw_probability(ranking_b, document, shown, tau)
        yield from _lists(
            ranking_a, ranking_b, n, shown_length, tau, shown + (document,), probability * p
        )


def _drafts(ranking_a, ranking_b, shown_length, shown, teams, probability):
    """(list, teams, probability) of every Team-Draft list."""
    if len(shown) == shown_length:
        yield shown, teams, probability
        return
    picks_a, picks_b = teams.count(0), teams.count(1)
    if picks_a == picks_b:
        choices = ((0, 0.5), (1, 0.5))
    else:
        choices = ((0, 1.0),) if picks_a < picks_b else ((1, 1.0),)
    for team, p in choices:
        ranking = ranking_b if team else ranking_a
        document = next(d for d in ranking if d not in shown)
        yield from _drafts(
            ranking_a,
            ranking_b,
            shown_length,
            shown + (document,),
            teams + (team,),
            probability * p,
        )


def exact_probabilistic(
    scores_a: Sequence[float],
    scores_b: Sequence[float],
    labels: Sequence[int],
    model: CascadeClickModel,
    length: int,
    tau: float = 3.0,
    credit_ties: str = "shared",
) -> dict[int, float]:
    """``{+1: P(A wins), 0: P(tie), -1: P(B wins)}`` of Probabilistic Interleave.

    With ``credit_ties="redrawn"`` the credit uses rankings whose ties are broken again,
    independently of those that built the list (Lerot's behaviour).
    """
    result = {1: 0.0, 0: 0.0, -1: 0.0}
    rankings_a = tie_broken_rankings(scores_a)
    rankings_b = tie_broken_rankings(scores_b)
    weight = 1.0 / (len(rankings_a) * len(rankings_b))
    n = len(labels)
    shown_length = min(length, n)
    for ranking_a, ranking_b in itertools.product(rankings_a, rankings_b):
        for shown, p_list in _lists(ranking_a, ranking_b, n, shown_length, tau, (), 1.0):
            for clicks, p_clicks in _click_patterns([labels[d] for d in shown], model):
                if credit_ties == "shared":
                    credit_rankings = [(ranking_a, ranking_b)]
                else:
                    credit_rankings = list(itertools.product(rankings_a, rankings_b))
                for credit_a, credit_b in credit_rankings:
                    outcome = _marginalised_outcome(credit_a, credit_b, shown, clicks, tau)
                    result[outcome] += weight * p_list * p_clicks / len(credit_rankings)
    return result


def exact_team_draft(
    scores_a: Sequence[float],
    scores_b: Sequence[float],
    labels: Sequence[int],
    model: CascadeClickModel,
    length: int,
) -> dict[int, float]:
    """``{+1: P(A wins), 0: P(tie), -1: P(B wins)}`` of Team-Draft Interleaving."""
    result = {1: 0.0, 0: 0.0, -1: 0.0}
    rankings_a = tie_broken_rankings(scores_a)
    rankings_b = tie_broken_rankings(scores_b)
    weight = 1.0 / (len(rankings_a) * len(rankings_b))
    shown_length = min(length, len(labels))
    for ranking_a, ranking_b in itertools.product(rankings_a, rankings_b):
        for shown, teams, p_list in _drafts(ranking_a, ranking_b, shown_length, (), (), 1.0):
            for clicks, p_clicks in _click_patterns([labels[d] for d in shown], model):
                clicks_a = sum(1 for k in range(len(shown)) if clicks[k] and teams[k] == 0)
                clicks_b = sum(1 for k in range(len(shown)) if clicks[k] and teams[k] == 1)
                outcome = (clicks_a > clicks_b) - (clicks_b > clicks_a)
                result[outcome] += weight * p_list * p_clicks
    return result
