"""Published behaviour: each paper's reported result next to our reproduction, with a verdict.

:data:`cdbandits.karmed.published.PUBLISHED_RESULTS` holds what could be read of each
paper that reports results on data we hold; for every row of it, :data:`PUBLISHED_CHECKS`
declares what our runs must show for the claim to be reproduced: the environments built
from the paper's data, and the algorithms it claims to beat. Where the claim names no
baselines ("the state of the art"), they are the algorithms of this project published
before the paper (``compared_with`` gives the reason in each case).

:func:`published_comparison` measures, on each environment and for each baseline, at
the longest leaderboard horizon that both reached, the 95% interval of the mean
per-seed difference of regret against the von Neumann winner (paired by seed; with a
Condorcet winner this is twice the Condorcet regret, so the ordering is the Condorcet
one the papers use). Verdicts:

* ``reproduced``: lower regret than every baseline on every environment, each difference's
  interval below 0;
* ``consistent, not significant``: lower mean regret than every baseline everywhere, some
  interval reaching 0;
* ``not reproduced``: some baseline has significantly lower regret somewhere;
* ``inconclusive``: none of these (mixed means, no significant difference);
* ``no claim to compare``: the paper's claim could not be read (our numbers are shown);
* ``not run``: the config runs none of the environments or algorithms needed.

The papers' horizons could not be read (see the ``note`` of each published result): a
verdict holds at our horizons, and an algorithm whose advantage appears only later (the
merge algorithms were evaluated on long runs) is tested at ``T = 10^7`` by the opt-in
configuration ``config/duels-large.yaml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...karmed.published import PUBLISHED_RESULTS, PublishedResult
from ...stats import mean_with_interval

__all__ = [
    "PUBLISHED_CHECKS",
    "VERDICTS",
    "PublishedCheck",
    "published_comparison",
    "published_markdown",
]

VERDICTS = (
    "reproduced",
    "consistent, not significant",
    "not reproduced",
    "inconclusive",
    "no claim to compare",
    "not run",
)


@dataclass(frozen=True)
class PublishedCheck:
    """What our runs must show for one published claim (see the module docstring)."""

    algorithm: str
    environments: tuple[str, ...]
    compared_with: tuple[str, ...]
    why_these: str


_MSLR_FULL = ("mslr_informational", "mslr_navigational", "mslr_perfect")

#: One check per row of :data:`~cdbandits.karmed.published.PUBLISHED_RESULTS`.
PUBLISHED_CHECKS: tuple[PublishedCheck, ...] = (
    PublishedCheck(
        "merge_rucb",
        _MSLR_FULL,
        ("rucb", "sparring_exp3_karmed"),
        "'the state of the art K-armed algorithms' in 2015, among ours: RUCB (2014), "
        "Sparring EXP3 (2014); 'many rankers': the 136-ranker matrices",
    ),
    PublishedCheck(
        "merge_dts",
        ("mslr_navigational", "mslr_perfect"),
        ("merge_rucb", "dts", "rmed1", "self_sparring", "sparring_exp3_karmed"),
        "the baselines of the authors' code; 'large-scale Condorcet problems': the 136-ranker "
        "matrices with a Condorcet winner",
    ),
    PublishedCheck(
        "dts",
        ("arxiv",),
        ("rucb", "merge_rucb", "ccb", "rmed1", "sparring_exp3_karmed"),
        "ours published before D-TS (NeurIPS 2016), on its ArXiv instance",
    ),
    PublishedCheck(
        "rmed1",
        ("arxiv",),
        ("rucb", "sparring_exp3_karmed"),
        "ours published before RMED (COLT 2015), on its ArXiv instance",
    ),
    PublishedCheck(
        "ccb",
        ("mslr_informational",),
        ("rucb", "merge_rucb", "rmed1", "sparring_exp3_karmed"),
        "ours published before CCB (NeurIPS 2015), on the matrix its authors provided",
    ),
)


def _longest_common_horizon(
    table: pd.DataFrame, pair: tuple[str, str], horizons: tuple[int, ...]
) -> int | None:
    """The longest leaderboard horizon both algorithms of ``pair`` reached (None: not run)."""
    reached = table.groupby("algorithm")["horizon"].max()
    if not set(pair) <= set(reached.index):
        return None
    common = [h for h in horizons if h <= reached[list(pair)].min()]
    return common[-1] if common else None


def _compare(
    regret: pd.DataFrame, check: PublishedCheck, horizons: tuple[int, ...]
) -> tuple[list[str], list[int]]:
    """Per environment: the text of our result and, per baseline, the sign of the difference.

    -1 / +1: significantly less / more regret than the baseline; -2 / +2: less / more on
    average, interval reaching 0. Each pair is compared at the longest horizon both reached.
    """
    texts, signs = [], []
    for environment in check.environments:
        table = regret[regret["environment"] == environment]
        parts = []
        for baseline in check.compared_with:
            horizon = _longest_common_horizon(table, (check.algorithm, baseline), horizons)
            if horizon is None:
                continue
            at = table[table["round"] == horizon].pivot(
                index="seed", columns="algorithm", values="von_neumann"
            )
            difference = mean_with_interval((at[check.algorithm] - at[baseline]).to_numpy())
            sign = -1 if difference["ci_high"] < 0 else 1 if difference["ci_low"] > 0 else 0
            signs.append(sign if sign else (-2 if difference["mean"] < 0 else 2))
            parts.append(
                f"T = {horizon:,}: {at[check.algorithm].mean():.1f} vs {baseline} "
                f"{at[baseline].mean():.1f} (difference [{difference['ci_low']:.1f}, "
                f"{difference['ci_high']:.1f}])"
            )
        if parts:
            texts.append(f"{environment}: {check.algorithm} " + "; ".join(parts))
    return texts, signs


def _verdict(result: PublishedResult, signs: list[int]) -> str:
    if not signs:
        return "not run"
    if result.claim is None:
        return "no claim to compare"
    if all(sign == -1 for sign in signs):
        return "reproduced"
    if any(sign == 1 for sign in signs):
        return "not reproduced"
    if all(sign in (-1, -2) for sign in signs):
        return "consistent, not significant"
    return "inconclusive"


def published_comparison(regret: pd.DataFrame, horizons: tuple[int, ...]) -> pd.DataFrame:
    """One row per published result: the paper's claim, our measurement, the verdict.

    Parameters
    ----------
    regret : DataFrame
        The combined regret table of the sweep (:mod:`.experiments` columns).
    horizons : tuple of int
        The leaderboard horizons.
    """
    checks = {check.algorithm: check for check in PUBLISHED_CHECKS}
    rows: list[dict[str, Any]] = []
    for result in PUBLISHED_RESULTS:
        check = checks[result.algorithm]
        texts, signs = _compare(regret, check, horizons)
        rows.append(
            {
                "algorithm": result.algorithm,
                "paper": result.paper,
                "where": f"{result.location} ({result.source})",
                "paper_result": result.claim if result.claim is not None else result.note,
                "paper_value": np.nan if result.reported_value is None else result.reported_value,
                "baselines": ", ".join(check.compared_with),
                "why_these_baselines": check.why_these,
                "our_result": " | ".join(texts) if texts else "not run in this config",
                "verdict": _verdict(result, signs),
            }
        )
    return pd.DataFrame(rows)


def published_markdown(table: pd.DataFrame) -> str:
    """The comparison as a markdown table (one row per paper)."""
    lines = [
        "| algorithm | paper's result | our result (mean vNW regret; paired difference, 95%) "
        "| verdict |",
        "|---|---|---|---|",
    ]
    for row in table.itertuples():
        cells = [row.algorithm, row.paper_result, row.our_result, f"**{row.verdict}**"]
        lines.append("| " + " | ".join(str(cell).replace("|", "/") for cell in cells) + " |")
    return "\n".join(lines) + "\n"
