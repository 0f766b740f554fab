"""Rounds per second of the linear contextual dueling algorithms: numba kernel against the
plain loop.

For CoLSTIM and MaxInP, every repeat plays the *same run* (a synthetic logistic environment
of ``--contexts`` contexts with ``K = --arms`` arms of ``d = --features`` features, horizon
``--horizon``, seed ``--seed + repeat``) twice with
:func:`cdbandits.linear_duels.simulate`: by the compiled kernel and by the Python loop over
``select`` / ``update`` (the NumPy implementation). For DBGD the same is done with
:func:`cdbandits.linear_duels.simulate_dbgd` on the MSLR sample of the data mirror (136
per-query normalised features, perfect clicks, Probabilistic Interleave). The ``same duels``
column says whether both engines played the same duels (the same comparisons for DBGD) in
every repeat. Reported: median rounds per second of each engine with its range over the
repeats, and the median (range) of the per-repeat ratio compiled / Python.

A second table times the compiled kernel alone at ``--long-horizon`` rounds (default
10^5), the size of the default workflow. Kernels are compiled (or loaded from numba's cache)
by a warm-up run before any timing. Other load on the machine makes the numbers noisy; they
are what was measured.

Run: ``.venv/bin/python benchmarks/bench_linear_duels.py --markdown bench.md --csv bench.csv``
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import numpy as np
import pandas as pd
from bench_karmed import spread

from cdbandits.files import write_csv, write_text
from cdbandits.letor import click_model, read_letor
from cdbandits.linear_duels import (
    ALGORITHMS,
    DuelingBanditGradientDescent,
    make_algorithm,
    ranking_environment,
    simulate,
    simulate_dbgd,
    synthetic_linear_environment,
)
from cdbandits.plotting import algorithm_style

SAMPLE = "mslr-web-rankeval-5k/msn1.fold1.train.5k.txt"


def data_mirror() -> Path:
    """$CDBANDITS_DATA_MIRROR, else ../shared/data."""
    mirror = os.environ.get("CDBANDITS_DATA_MIRROR")
    return Path(mirror) if mirror else Path(__file__).resolve().parents[1].parent / "shared/data"


def run(name, environment, horizon, seed, engine):
    """One run of ``name``: its seconds and what identifies its duels."""
    rng = np.random.default_rng(seed)
    if name == "dbgd":
        result = simulate_dbgd(DuelingBanditGradientDescent(), environment, horizon, rng,
                               engine=engine)  # fmt: skip
        return result.seconds, np.concatenate([result.weights, result.regret])
    result = simulate(make_algorithm(name), environment, horizon, rng, engine=engine,
                      record_duels=True)  # fmt: skip
    return result.seconds, result.duels


def row(name, engine, repeat, horizon, environment, seconds, same):
    return {
        "algorithm": name,
        "engine": engine,
        "repeat": repeat,
        "horizon": horizon,
        "environment": environment.name,
        "seconds": seconds,
        "rounds_per_second": horizon / seconds,
        "same_duels": same,
    }


def compare_engines(environments, horizons, repeats, seed) -> pd.DataFrame:
    rows = []
    for name, environment in environments.items():
        for repeat in range(repeats):
            compiled_seconds, compiled = run(name, environment, horizons[name], seed + repeat,
                                             "compiled")  # fmt: skip
            python_seconds, python = run(name, environment, horizons[name], seed + repeat,
                                         "python")  # fmt: skip
            same = bool(np.array_equal(compiled, python))
            for engine, seconds in (("compiled", compiled_seconds), ("python", python_seconds)):
                rows.append(row(name, engine, repeat, horizons[name], environment, seconds, same))
        print(f"{name}: engines compared", flush=True)
    return pd.DataFrame(rows)


def time_long(environments, horizon, repeats, seed) -> pd.DataFrame:
    rows = []
    for name, environment in environments.items():
        for repeat in range(repeats):
            seconds, _ = run(name, environment, horizon, seed + repeat, "compiled")
            rows.append(row(name, "compiled", repeat, horizon, environment, seconds, np.nan))
        print(f"{name}: long horizon timed", flush=True)
    return pd.DataFrame(rows)


def markdown(engines: pd.DataFrame, long: pd.DataFrame) -> str:
    lines = [
        f"Same run by both engines, {engines.repeat.nunique()} repeats (seeds); rounds per "
        "second, median (min-max).",
        "",
        "| algorithm | environment | T | compiled rounds/s | Python loop rounds/s | "
        "compiled / Python | same duels |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, group in engines.groupby("algorithm", sort=False):
        compiled = group[group.engine == "compiled"].set_index("repeat")
        python = group[group.engine == "python"].set_index("repeat")
        ratio = compiled.rounds_per_second / python.rounds_per_second
        lines.append(
            f"| {algorithm_style(name).label} | {group.environment.iloc[0]} | "
            f"{group.horizon.iloc[0]:,} | {spread(compiled.rounds_per_second)} | "
            f"{spread(python.rounds_per_second)} | {spread(ratio, ',.1f')}x | "
            f"{'yes' if group.same_duels.all() else 'no'} |"
        )
    lines += [
        "",
        f"Compiled kernel alone, {long.repeat.nunique()} repeats; median (min-max).",
        "",
        "| algorithm | environment | T | seconds | rounds/s |",
        "|---|---|---|---|---|",
    ]
    for name, group in long.groupby("algorithm", sort=False):
        lines.append(
            f"| {algorithm_style(name).label} | {group.environment.iloc[0]} | "
            f"{group.horizon.iloc[0]:,} | {spread(group.seconds, '.2f')} | "
            f"{spread(group.rounds_per_second)} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arms", type=int, default=20)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--contexts", type=int, default=500)
    parser.add_argument("--horizon", type=int, default=2000, help="rounds of the comparison")
    parser.add_argument("--long-horizon", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2015)
    parser.add_argument("--no-dbgd", action="store_true", help="skip DBGD (needs the mirror)")
    parser.add_argument("--csv", type=Path, help="write every timing as CSV")
    parser.add_argument("--markdown", type=Path, help="write the summary as Markdown")
    args = parser.parse_args()

    synthetic = synthetic_linear_environment(
        args.contexts, args.arms, args.features, np.random.default_rng(args.seed)
    )
    environments = {name: synthetic for name in ALGORITHMS}
    if not args.no_dbgd:
        sample = read_letor(data_mirror() / SAMPLE, last_query="drop")
        environments["dbgd"] = ranking_environment(sample, click_model("perfect"))
    for name, environment in environments.items():  # compile or load every kernel
        run(name, environment, 50, 0, "compiled")
    horizons = dict.fromkeys(environments, args.horizon)
    engines = compare_engines(environments, horizons, args.repeats, args.seed)
    long = time_long(environments, args.long_horizon, args.repeats, args.seed)
    summary = markdown(engines, long)
    print(summary)
    if args.csv:
        write_csv(args.csv, pd.concat([engines, long], ignore_index=True))
    if args.markdown:
        write_text(args.markdown, summary)


if __name__ == "__main__":
    main()
