"""What is summarised: regret curves, the leaderboard per environment, timings.

* :func:`regret_curves`: mean regret over seeds with its 95% interval
  (:func:`cdbandits.stats.mean_with_interval`) at every checkpoint, per environment,
  algorithm and measure.
* :func:`leaderboard`: at each leaderboard horizon, every algorithm's mean regret against
  the von Neumann winner with its interval, its rank, and whether it is *statistically tied
  with the best* (the algorithm of least mean regret): the 95% interval of the mean
  per-seed difference ``regret(algorithm) - regret(best)`` reaches 0. The difference is
  paired by seed, which is sound because all algorithms of a seed meet the same arms and
  environment uniforms (:mod:`.experiments`). Copeland and Condorcet regret come alongside.
  An environment without a von Neumann winner (the adaptive adversary, :mod:`.adversarial`)
  is ranked by rd1 in hindsight instead (:func:`ranking_measure`); the ``measure`` column
  says which, and the curves carry its ``hindsight`` rows.
* :func:`timing_table`: wall time per round, median and range over the runs (wall times
  differ between runs: the workflow keeps them under ``results/benchmarks/duels/``, apart
  from the reproducible results).
* :func:`leaderboard_markdown`: one markdown table per environment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...plotting import ALGORITHM_STYLES
from ...stats import mean_with_interval
from ..shards import combine_shards
from .experiments import REGRET_COLUMNS, TIMING_COLUMNS

__all__ = [
    "CURVE_METRICS",
    "algorithm_labels",
    "LEADERBOARD_COLUMNS",
    "MEASURE_TEXT",
    "combine_duels_shards",
    "leaderboard",
    "leaderboard_markdown",
    "environments_table",
    "ranking_measure",
    "regret_curves",
    "summarise_duels",
    "timing_table",
    "with_condorcet_shares",
]

#: The measures the curves and the leaderboard report (rd1 in hindsight stays in the raw table,
#: except for an environment ranked by it, :func:`ranking_measure`).
CURVE_METRICS: tuple[str, ...] = ("von_neumann", "condorcet", "copeland")

#: The leaderboard's columns (:func:`leaderboard`).
LEADERBOARD_COLUMNS: tuple[str, ...] = (
    "environment",
    "horizon",
    "algorithm",
    "rank",
    *(f"{metric}{end}" for metric in CURVE_METRICS for end in ("", "_low", "_high")),
    "difference_low",
    "difference_high",
    "tied_with_best",
    "best",
    "n_seeds",
    "measure",
    "hindsight",
    "hindsight_low",
    "hindsight_high",
)

#: What each ranking measure is, for a reader.
MEASURE_TEXT = {
    "von_neumann": "regret against the von Neumann winner",
    "hindsight": "rd1 in hindsight (against the best policy of the class in hindsight)",
}

_RUN_KEYS = ("environment", "algorithm", "seed")


def combine_duels_shards(frames: Sequence[pd.DataFrame], timings: bool = False) -> pd.DataFrame:
    """The shards' regret (or, with ``timings``, timing) tables as one, whatever the sharding."""
    if timings:
        return combine_shards(frames, list(_RUN_KEYS))[list(TIMING_COLUMNS)]
    return combine_shards(frames, [*_RUN_KEYS, "round"])[list(REGRET_COLUMNS)]


def ranking_measure(regret: pd.DataFrame) -> str:
    """``"von_neumann"``, or ``"hindsight"`` for an environment's ``regret`` rows that have
    no von Neumann regret (no von Neumann winner) but rd1 in hindsight."""
    if regret["von_neumann"].isna().all() and regret["hindsight"].notna().any():
        return "hindsight"
    return "von_neumann"


def regret_curves(regret: pd.DataFrame) -> pd.DataFrame:
    """Mean and 95% interval over seeds of each measure at each checkpoint (long format);
    ``hindsight`` too for an environment ranked by it."""
    rows = []
    extra = {
        str(environment): ("hindsight",) if ranking_measure(table) == "hindsight" else ()
        for environment, table in regret.groupby("environment")
    }
    for (environment, algorithm, round_), group in regret.groupby(
        ["environment", "algorithm", "round"], sort=True
    ):
        for metric in CURVE_METRICS + extra[str(environment)]:
            values = group[metric].to_numpy()
            if np.isnan(values).all():
                continue
            rows.append(
                {"environment": environment, "algorithm": algorithm, "round": round_}
                | {"metric": metric}
                | mean_with_interval(values)
            )
    return pd.DataFrame(rows)


def _at_horizon(regret: pd.DataFrame, horizon: int) -> pd.DataFrame:
    return regret[regret["round"] == horizon]


def leaderboard(regret: pd.DataFrame, horizons: Sequence[int]) -> pd.DataFrame:
    """Per environment and horizon, every algorithm that played that long (module docstring).

    Columns: ``environment``, ``horizon``, ``algorithm``, ``rank`` (1 = least mean regret
    against the vNW), ``von_neumann`` / ``von_neumann_low`` / ``von_neumann_high``, the
    same for ``condorcet`` and ``copeland``, ``difference_low`` / ``difference_high`` (the
    interval of the paired difference to the best), ``tied_with_best``, ``best``,
    ``n_seeds``, ``measure`` (what ``rank`` and the difference are of:
    :func:`ranking_measure`) and ``hindsight`` / ``hindsight_low`` / ``hindsight_high``
    (rd1 in hindsight, given where it is the measure, NaN elsewhere).
    """
    rows: list[dict[str, Any]] = []
    for environment, table in regret.groupby("environment", sort=True):
        measure = ranking_measure(table)
        metrics = CURVE_METRICS + (("hindsight",) if measure == "hindsight" else ())
        for horizon in horizons:
            at = _at_horizon(table, horizon)
            if at.empty:
                continue
            by_seed = at.pivot(index="seed", columns="algorithm", values=measure)
            means = by_seed.mean().sort_values(kind="stable")
            best = str(means.index[0])
            for rank, algorithm in enumerate(means.index, start=1):
                row: dict[str, Any] = {
                    "environment": environment,
                    "horizon": horizon,
                    "algorithm": algorithm,
                    "rank": rank,
                }
                runs = at[at["algorithm"] == algorithm]
                for metric in metrics:
                    values = runs[metric].to_numpy()
                    summary = mean_with_interval(values) if not np.isnan(values).all() else {}
                    row[metric] = summary.get("mean", np.nan)
                    row[f"{metric}_low"] = summary.get("ci_low", np.nan)
                    row[f"{metric}_high"] = summary.get("ci_high", np.nan)
                difference = mean_with_interval(
                    (by_seed[algorithm] - by_seed[best]).dropna().to_numpy()
                )
                row["difference_low"] = difference["ci_low"] if algorithm != best else 0.0
                row["difference_high"] = difference["ci_high"] if algorithm != best else 0.0
                row["tied_with_best"] = bool(algorithm == best or difference["ci_low"] <= 0.0)
                row["best"] = best
                row["n_seeds"] = len(runs)
                row["measure"] = measure
                rows.append(row)
    return pd.DataFrame(rows, columns=list(LEADERBOARD_COLUMNS))


def with_condorcet_shares(
    environments: Mapping[str, Mapping[str, Any]], regret: pd.DataFrame
) -> dict[str, dict[str, Any]]:
    """The environment summaries with ``condorcet_share``: the share of runs with a winner.

    A run has a Condorcet winner when its Condorcet regret is defined; for a subset
    environment this varies with the seed's arms.
    """
    share = regret.groupby("environment")["condorcet"].apply(lambda v: float(v.notna().mean()))
    return {
        name: dict(summary) | {"condorcet_share": float(share.get(name, np.nan))}
        for name, summary in environments.items()
    }


def timing_table(timings: pd.DataFrame) -> pd.DataFrame:
    """Wall time per round per environment and algorithm: median and range over the runs."""
    rows = []
    for (environment, algorithm), group in timings.groupby(["environment", "algorithm"]):
        per_round = group["seconds_per_round"]
        rows.append(
            {
                "environment": environment,
                "algorithm": algorithm,
                "n_arms": int(group["n_arms"].max()),
                "horizon": int(group["horizon"].max()),
                "runs": len(group),
                "microseconds_per_round": 1e6 * float(per_round.median()),
                "microseconds_per_round_min": 1e6 * float(per_round.min()),
                "microseconds_per_round_max": 1e6 * float(per_round.max()),
                "duels_per_second": float(1.0 / per_round.median()),
            }
        )
    return pd.DataFrame(rows)


def _cell(row: pd.Series) -> str:
    measure = row["measure"]
    text = f"{row[measure]:.1f} [{row[f'{measure}_low']:.1f}, {row[f'{measure}_high']:.1f}]"
    if row["rank"] == 1:
        return f"**{text}**"
    return f"{text} ≈" if row["tied_with_best"] else text


def _contextual_text(summary: Mapping[str, Any]) -> str:
    context = summary["contextual"]
    return (
        f"K = {summary['n_arms']} actions in each of {context['n_contexts']} contexts, "
        f"{context['n_policies']} {context.get('policy_class', 'linear argmax policies')}; "
        f"no action is best in more than "
        f"{context['context_free_best']:.0%} of the contexts; the contextual von Neumann "
        f"winner of the class (support: {context['winner_policies']} of "
        f"{context['distinct_policies']} distinct policies) plays a best action with "
        f"probability {context['winner_best_share']:.2f}. The K-armed algorithms see no "
        "context."
    )


def _adversary_text(summary: Mapping[str, Any]) -> str:
    """What the adaptive adversary is (the summary of :func:`~.adversarial.adversarial_summary`
    under ``contextual``)."""
    context = summary["contextual"]
    return (
        f"K = {summary['n_arms']} actions in each of {context['n_contexts']} contexts, "
        f"{context['n_policies']} {context['policy_class']} ({context['distinct_policies']} "
        "distinct on the contexts); an adaptive adversary: in each round the action after the "
        "learner's most played one in that context beats every other with margin "
        f"{context['margin']:g}, so there is no fixed matrix and no von Neumann winner. "
        f"Ranked by {MEASURE_TEXT['hindsight']}. The K-armed algorithms see no context."
    )


def _is_adversary(summary: Mapping[str, Any]) -> bool:
    return bool((summary.get("contextual") or {}).get("adversary"))


def leaderboard_markdown(
    board: pd.DataFrame,
    environments: Mapping[str, Mapping[str, Any]],
    algorithm_labels: Mapping[str, str],
) -> str:
    """One table per environment: mean vNW regret [95% interval] per algorithm and horizon.

    ``environments`` maps each environment to its summary
    (:func:`~.environments.environment_summary`); the best at each horizon is in bold, the
    algorithms statistically tied with it are marked ≈, a dash marks a horizon an
    algorithm was not run to. An environment ranked by rd1 in hindsight (``measure``) says
    so under its title.
    """
    hindsight = (
        " On an environment without a von Neumann winner (an adaptive adversary) the table "
        f"shows {MEASURE_TEXT['hindsight']} instead, and says so."
        if "measure" in board and (board["measure"] == "hindsight").any()
        else ""
    )
    parts = [
        "Mean cumulative regret against the von Neumann winner (skew units, eq. rd1: with a "
        "constant context for a preference matrix, against the contextual von Neumann winner "
        "of the policy class for a contextual environment) over the seeds, with its 95% "
        "interval; a negative regret beats that winner. **Bold**: least mean "
        "regret at that horizon; ≈: statistically tied with it (the 95% interval of the "
        f"paired per-seed difference reaches 0); -: not run that long.{hindsight}\n"
    ]
    for environment, table in board.groupby("environment", sort=False):
        summary = environments[str(environment)]
        winner, share = summary["condorcet_winner"], summary["condorcet_share"]
        if summary["subset"]:
            condorcet = f"a Condorcet winner in {share:.0%} of the seeds' subsets"
        else:
            condorcet = (
                f"Condorcet winner: {winner}" if winner is not None else "no Condorcet winner"
            )
        arms = summary["arms_per_seed"]
        subset = " (a random subset per seed)" if summary["subset"] else ""
        if _is_adversary(summary):
            parts.append(f"### {summary['title']}\n\n{_adversary_text(summary)}\n")
        elif summary.get("contextual"):
            parts.append(f"### {summary['title']}\n\n{_contextual_text(summary)}\n")
        else:
            parts.append(f"### {summary['title']}\n\nK = {arms}{subset}; {condorcet}.\n")
        horizons = sorted(table["horizon"].unique())
        header = "| algorithm | " + " | ".join(f"T = {h:,}" for h in horizons) + " |"
        lines = [header, "|" + "---|" * (len(horizons) + 1)]
        # rows: those run longest first, each group by its rank at its longest horizon
        longest = table.sort_values("horizon").drop_duplicates("algorithm", keep="last")
        order = longest.sort_values(["horizon", "rank"], ascending=[False, True])
        for algorithm in order["algorithm"]:
            cells = []
            for horizon in horizons:
                match = table[(table["algorithm"] == algorithm) & (table["horizon"] == horizon)]
                cells.append(_cell(match.iloc[0]) if len(match) else "-")
            lines.append(
                f"| {algorithm_labels.get(algorithm, algorithm)} | " + " | ".join(cells) + " |"
            )
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def environments_table(environments: Mapping[str, Mapping[str, Any]]) -> pd.DataFrame:
    """One row per environment: K, its winners (in config order)."""
    return pd.DataFrame(
        [
            {
                "environment": name,
                "title": summary["title"],
                "kind": summary["kind"],
                "n_arms": summary["n_arms"],
                "arms_per_seed": summary["arms_per_seed"],
                "condorcet_winner": summary["condorcet_winner"],
                "condorcet_share": summary["condorcet_share"],
                "von_neumann_support": (
                    "none: " + _adversary_text(summary)
                    if _is_adversary(summary)
                    else "; ".join(
                        f"{arm} {weight:.3f}"
                        for arm, weight in summary["von_neumann_support"].items()
                    )
                ),
                "copeland_winners": "; ".join(summary["copeland_winners"]),
            }
            for name, summary in environments.items()
        ]
    )


def summarise_duels(
    regret: pd.DataFrame, environments: Mapping[str, Mapping[str, Any]], horizons: Sequence[int]
) -> dict[str, Any]:
    """Every summary of the regret: ``curves``, ``leaderboard`` and ``environments`` (tables)
    and ``summaries`` (the environment summaries with their Condorcet shares)."""
    summaries = with_condorcet_shares(environments, regret)
    return {
        "curves": regret_curves(regret),
        "leaderboard": leaderboard(regret, horizons),
        "environments": environments_table(summaries),
        "summaries": summaries,
    }


def algorithm_labels(tuned: Mapping[str, str]) -> dict[str, str]:
    """Each algorithm's label in tables and text, and each tuned variant's: its algorithm's
    label and its name (``tuned``: variant name -> algorithm identifier)."""
    labels = {name: style.label for name, style in ALGORITHM_STYLES.items()}
    return labels | {name: f"{labels[algorithm]} ({name})" for name, algorithm in tuned.items()}
