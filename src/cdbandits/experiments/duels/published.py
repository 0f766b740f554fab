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
* ``not run at the paper's settings``: the paper's experiment settings are known (its
  horizon, and the tuned hyper-parameters of its algorithms,
  :data:`~cdbandits.karmed.published.TUNED_CONFIGURATIONS`), and the run did not play
  every algorithm of the claim with those parameters up to that horizon: a shorter run or
  other parameters say nothing about the claim;
* ``not run``: the config runs none of the environments or algorithms needed.

Where the paper's settings are known, each algorithm of the claim is judged in the run
that plays it with the paper's parameters (a tuned variant of ``duels.tuned`` with the
same algorithm and parameters, whatever its name, or the algorithm itself where the paper
used its defaults), at the longest leaderboard horizon reached, which must be at least the
paper's; such a verdict comes from an opt-in run (``config/duels-large.yaml``), since the
default config runs no tuned variant. Where the paper's settings could not be read, the
verdict holds at the run's horizon with the default parameters, and says so.
Every row states what it is judged at (``judged_at``) and the paper's settings
(``paper_settings``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...karmed.published import (
    PUBLISHED_RESULTS,
    PublishedResult,
    TunedConfiguration,
    tuned_configuration,
)
from ...stats import mean_with_interval

__all__ = [
    "PUBLISHED_CHECKS",
    "VERDICTS",
    "PublishedCheck",
    "Variants",
    "paper_settings_text",
    "published_comparison",
    "published_markdown",
]

VERDICTS = (
    "reproduced",
    "consistent, not significant",
    "not reproduced",
    "inconclusive",
    "no claim to compare",
    "not run at the paper's settings",
    "not run",
)

#: The tuned variants of a run: name -> (algorithm, hyper-parameters), as ``duels.tuned``.
Variants = Mapping[str, tuple[str, Mapping[str, Any]]]


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
    regret: pd.DataFrame, check: PublishedCheck, horizons: tuple[int, ...], runs: Mapping[str, str]
) -> tuple[list[str], list[int], list[int]]:
    """Per environment: the text of our result, per baseline the sign of the difference, and
    the horizon each pair was compared at.

    ``runs`` names the run that plays each algorithm of the check. -1 / +1: significantly
    less / more regret than the baseline; -2 / +2: less / more on average, interval
    reaching 0. Each pair is compared at the longest horizon both reached.
    """
    texts, signs, compared_at = [], [], []
    played = runs[check.algorithm]
    for environment in check.environments:
        table = regret[regret["environment"] == environment]
        parts = []
        for baseline in check.compared_with:
            other = runs[baseline]
            horizon = _longest_common_horizon(table, (played, other), horizons)
            if horizon is None:
                continue
            at = table[table["round"] == horizon].pivot(
                index="seed", columns="algorithm", values="von_neumann"
            )
            difference = mean_with_interval((at[played] - at[other]).to_numpy())
            sign = -1 if difference["ci_high"] < 0 else 1 if difference["ci_low"] > 0 else 0
            signs.append(sign if sign else (-2 if difference["mean"] < 0 else 2))
            compared_at.append(horizon)
            parts.append(
                f"T = {horizon:,}: {at[played].mean():.1f} vs {other} "
                f"{at[other].mean():.1f} (difference [{difference['ci_low']:.1f}, "
                f"{difference['ci_high']:.1f}])"
            )
        if parts:
            texts.append(f"{environment}: {played} " + "; ".join(parts))
    return texts, signs, compared_at


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


def _same_parameters(given: Mapping[str, Any], paper: Mapping[str, float]) -> bool:
    if set(given) != set(paper):
        return False
    return all(
        given[key] == value
        or (
            isinstance(given[key], int | float)
            and math.isclose(float(given[key]), value, rel_tol=1e-9)
        )
        for key, value in paper.items()
    )


def _configured_run(
    configuration: TunedConfiguration, variants: Variants, ran: set[str]
) -> str | None:
    """The run of ``ran`` that plays ``configuration`` (None: none does)."""
    for name, (algorithm, parameters) in sorted(variants.items()):
        if (
            name in ran
            and algorithm == configuration.algorithm
            and _same_parameters(parameters, configuration.parameter_dict)
        ):
            return name
    return None


def _parameters_text(parameters: Mapping[str, Any]) -> str:
    return ", ".join(f"{key} = {value:.7g}" for key, value in parameters.items())


def paper_settings_text(result: PublishedResult) -> str:
    """The experiment settings of ``result`` as read, and where (or that they were not)."""
    if result.settings_evidence == "not-read":
        return "not read"
    parts = []
    if result.horizon is not None:
        parts.append(f"T = {result.horizon:,}")
    if result.n_arms is not None:
        parts.append(f"K = {result.n_arms}")
    if result.runs is not None:
        parts.append(f"{result.runs} runs")
    for name in result.configurations:
        configuration = tuned_configuration(name)
        parts.append(f"{configuration.algorithm} {_parameters_text(configuration.parameter_dict)}")
    source = "the authors' code" if result.settings_evidence == "authors-code" else "the paper"
    return "; ".join(parts) + f" (from {source})"


def _judged(
    result: PublishedResult,
    check: PublishedCheck,
    regret: pd.DataFrame,
    horizons: tuple[int, ...],
    variants: Variants,
) -> dict[str, str]:
    """The verdict of one published result, the text of our result and what it is judged at."""
    ran = set(regret["algorithm"])
    roles = (check.algorithm, *check.compared_with)
    if result.settings_evidence == "not-read":
        runs = {role: role for role in roles}
        texts, signs, compared_at = _compare(regret, check, horizons, runs)
        judged_at = (
            f"T = {max(compared_at):,}, default parameters; the paper's settings could not be read"
            if compared_at
            else "not run"
        )
        return {"texts": texts, "verdict": _verdict(result, signs), "judged_at": judged_at}
    configurations = {
        configuration.algorithm: configuration
        for configuration in map(tuned_configuration, result.configurations)
    }
    runs = {}
    for role in roles:
        configuration = configurations.get(role)
        runs[role] = (
            role if configuration is None else _configured_run(configuration, variants, ran)
        )
    missing = sorted(role for role, run in runs.items() if run is None or run not in ran)
    texts, signs, compared_at = _compare(
        regret, check, horizons, {role: run or role for role, run in runs.items()}
    )
    played = {*roles, *(run for run in runs.values() if run is not None)}
    if (
        not signs
        and not (
            regret["environment"].isin(check.environments) & regret["algorithm"].isin(played)
        ).any()
    ):
        return {"texts": texts, "verdict": "not run", "judged_at": "not run"}
    paper_horizon = result.horizon or 0
    short = [horizon for horizon in compared_at if horizon < paper_horizon]
    if missing or short:
        reasons = []
        if missing:
            reasons.append("no run with the paper's parameters of " + ", ".join(missing))
        if short:
            reasons.append(f"run to T = {max(compared_at):,} < the paper's T = {paper_horizon:,}")
        return {
            "texts": texts,
            "verdict": "not run at the paper's settings",
            "judged_at": "; ".join(reasons),
        }
    tuned = [runs[role] for role in roles if role in configurations]
    return {
        "texts": texts,
        "verdict": _verdict(result, signs),
        "judged_at": f"T = {max(compared_at):,}, the paper's parameters ("
        + ", ".join(tuned)
        + "), from the opt-in run",
    }


def published_comparison(
    regret: pd.DataFrame, horizons: tuple[int, ...], variants: Variants | None = None
) -> pd.DataFrame:
    """One row per published result: the paper's claim and settings, our measurement, the
    verdict and what it is judged at.

    Parameters
    ----------
    regret : DataFrame
        The combined regret table of the sweep (:mod:`.experiments` columns).
    horizons : tuple of int
        The leaderboard horizons.
    variants : mapping, optional
        The run's tuned variants, name -> (algorithm, hyper-parameters) (``duels.tuned``).
    """
    checks = {check.algorithm: check for check in PUBLISHED_CHECKS}
    rows: list[dict[str, Any]] = []
    for result in PUBLISHED_RESULTS:
        check = checks[result.algorithm]
        judged = _judged(result, check, regret, horizons, variants or {})
        rows.append(
            {
                "algorithm": result.algorithm,
                "paper": result.paper,
                "where": f"{result.location} ({result.source})",
                "paper_result": result.claim if result.claim is not None else result.note,
                "paper_value": np.nan if result.reported_value is None else result.reported_value,
                "paper_settings": paper_settings_text(result),
                "baselines": ", ".join(check.compared_with),
                "why_these_baselines": check.why_these,
                "our_result": " | ".join(judged["texts"])
                if judged["texts"]
                else "not run in this config",
                "judged_at": judged["judged_at"],
                "verdict": judged["verdict"],
            }
        )
    return pd.DataFrame(rows)


def published_markdown(table: pd.DataFrame) -> str:
    """The comparison as a markdown table (one row per paper)."""
    lines = [
        "| algorithm | paper's result | paper's settings "
        "| our result (mean vNW regret; paired difference, 95%) | judged at | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for row in table.itertuples():
        cells = [
            row.algorithm,
            row.paper_result,
            row.paper_settings,
            row.our_result,
            row.judged_at,
            f"**{row.verdict}**",
        ]
        lines.append("| " + " | ".join(str(cell).replace("|", "/") for cell in cells) + " |")
    return "\n".join(lines) + "\n"
