"""Microseconds per round of CoLSTIM, MaxInP and DBGD on the duels family's online
environments: numba kernel on the population's schedule against the NumPy round loop.

The three ``"online"`` environments of the duels sweep (the online family's synthetic
intransitive population, its supervised dataset and the MSLR per-query matrices, built by
:func:`cdbandits.experiments.duels.contextual.build_contextual_instance` for master seed
``--seed``) are played by :func:`cdbandits.linear_duels.contextual.population_duel_log`
(:func:`~cdbandits.linear_duels.contextual.dbgd_population_log` for DBGD) with
``compiled=True`` (the kernel on a
:class:`~cdbandits.linear_duels.environments.ScheduleArrays`) and ``compiled=False`` (the
NumPy ``select`` / ``update`` loop the duels family used before), the same run (seed
``repeat``) by both; ``same duels`` says whether both gave identical logs in every repeat.
Reported: median (min-max) microseconds per round over ``--repeats`` repeats and the median
(min-max) of the per-repeat ratio NumPy / compiled. A second table times the kernel alone at
``--long-horizon`` rounds. Kernels are compiled (or loaded from numba's cache) by a warm-up
run first. Other load on the machine makes the numbers noisy; they are what was measured.

Run from a directory holding the MSLR per-query matrices (``--matrices``, written by the
workflow's ``letor`` rules), e.g.
``.venv/bin/python benchmarks/bench_population_duels.py --markdown bench.md --csv bench.csv``
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from bench_karmed import spread

from cdbandits.experiments.duels.contextual import build_contextual_instance
from cdbandits.experiments.duels.settings import DuelsEnvironment
from cdbandits.files import write_csv, write_text
from cdbandits.linear_duels import DuelingBanditGradientDescent, make_algorithm
from cdbandits.linear_duels.contextual import dbgd_population_log, population_duel_log

ALGORITHMS = ("colstim", "maxinp", "dbgd")


def instances(matrices: str, seed: int) -> dict:
    """The duels sweep's online environments by setting."""
    parameters = {
        "synthetic": {},
        "supervised": {},
        "mslr": {"matrices": matrices, "n_bins": 2},
    }
    built = {}
    for setting, extra in parameters.items():
        config = {"name": f"online_{setting}", "kind": "online", "setting": setting}
        if extra:
            config["parameters"] = extra
        built[setting] = build_contextual_instance(
            DuelsEnvironment.from_config(config, "benchmark"), seed
        )
    return built


def run(name, instance, horizon, seed, compiled):
    """Seconds of one run and its log."""
    if name == "dbgd":
        algorithm, play = DuelingBanditGradientDescent(), dbgd_population_log
    else:
        algorithm, play = make_algorithm(name), population_duel_log
    started = time.perf_counter()
    log = play(
        algorithm, instance.population, instance.arm_features, horizon,
        np.random.default_rng(seed), compiled=compiled,
    )  # fmt: skip
    return time.perf_counter() - started, log


def same_log(first, second) -> bool:
    fields = ("context_ids", "first_actions", "second_actions", "outcomes", "gains")
    return all(np.array_equal(getattr(first, f), getattr(second, f)) for f in fields)


def row(setting, instance, name, engine, repeat, horizon, seconds, same):
    return {
        "environment": setting,
        "n_actions": instance.population.n_actions,
        "n_features": instance.arm_features.shape[2],
        "algorithm": name,
        "engine": engine,
        "repeat": repeat,
        "horizon": horizon,
        "seconds": seconds,
        "microseconds_per_round": 1e6 * seconds / horizon,
        "same_duels": same,
    }


def cases(built):
    """``(setting, instance, algorithm)`` of every timed run."""
    for setting, instance in built.items():
        for name in ALGORITHMS:
            yield setting, instance, name


def compare(built, horizon, repeats) -> pd.DataFrame:
    rows = []
    for setting, instance, name in cases(built):
        for repeat in range(repeats):
            compiled_seconds, compiled = run(name, instance, horizon, repeat, True)
            numpy_seconds, reference = run(name, instance, horizon, repeat, False)
            same = same_log(compiled, reference)
            for engine, seconds in (("compiled", compiled_seconds), ("numpy", numpy_seconds)):
                rows.append(row(setting, instance, name, engine, repeat, horizon, seconds, same))
        print(f"{setting} {name}: engines compared", flush=True)
    return pd.DataFrame(rows)


def time_long(built, horizon, repeats) -> pd.DataFrame:
    rows = []
    for setting, instance, name in cases(built):
        for repeat in range(repeats):
            seconds, _ = run(name, instance, horizon, repeat, True)
            rows.append(row(setting, instance, name, "compiled", repeat, horizon, seconds, np.nan))
        print(f"{setting} {name}: long horizon timed", flush=True)
    return pd.DataFrame(rows)


def markdown(engines: pd.DataFrame, long: pd.DataFrame) -> str:
    lines = [
        f"Same run by both paths, T = {engines.horizon.iloc[0]:,}, {engines.repeat.nunique()} "
        "repeats (seeds); microseconds per round, median (min-max).",
        "",
        "| environment | K | d | algorithm | compiled µs/round | NumPy loop µs/round | "
        "NumPy / compiled | same duels |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for (setting, name), group in engines.groupby(["environment", "algorithm"], sort=False):
        compiled = group[group.engine == "compiled"].set_index("repeat")
        reference = group[group.engine == "numpy"].set_index("repeat")
        ratio = reference.seconds / compiled.seconds
        lines.append(
            f"| {setting} | {group.n_actions.iloc[0]} | {group.n_features.iloc[0]} | {name} | "
            f"{spread(compiled.microseconds_per_round, '.1f')} | "
            f"{spread(reference.microseconds_per_round, '.1f')} | {spread(ratio, '.1f')}x | "
            f"{'yes' if group.same_duels.all() else 'no'} |"
        )
    lines += [
        "",
        f"Compiled path alone, T = {long.horizon.iloc[0]:,}, {long.repeat.nunique()} repeats; "
        "median (min-max).",
        "",
        "| environment | algorithm | seconds | µs/round |",
        "|---|---|---|---|",
    ]
    for (setting, name), group in long.groupby(["environment", "algorithm"], sort=False):
        lines.append(
            f"| {setting} | {name} | {spread(group.seconds, '.2f')} | "
            f"{spread(group.microseconds_per_round, '.1f')} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matrices", default="results/letor/per_query/sample_informational.npz")
    parser.add_argument("--horizon", type=int, default=10_000, help="rounds of the comparison")
    parser.add_argument("--long-horizon", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2015, help="master seed of the instances")
    parser.add_argument("--csv", type=Path, help="write every timing as CSV")
    parser.add_argument("--markdown", type=Path, help="write the summary as Markdown")
    args = parser.parse_args()

    built = instances(args.matrices, args.seed)
    for _, instance, name in cases(built):  # compile or load every kernel
        run(name, instance, 50, 0, True)
    engines = compare(built, args.horizon, args.repeats)
    long = time_long(built, args.long_horizon, args.repeats)
    summary = markdown(engines, long)
    print(summary)
    if args.csv:
        write_csv(args.csv, pd.concat([engines, long], ignore_index=True))
    if args.markdown:
        write_text(args.markdown, summary)


if __name__ == "__main__":
    main()
