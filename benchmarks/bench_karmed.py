"""Duels per second of the K-armed algorithms: the numba kernel against the plain-Python loop.

For every algorithm of :mod:`cdbandits.karmed` and every repeat, the *same run* (the
informational MSLR matrix, ``K = 136``, horizon ``--horizon``, seed ``--seed + repeat``) is
played twice by :func:`cdbandits.karmed.simulate`: by the compiled kernel and by the
Python loop over ``select`` / ``update`` (the NumPy implementation written after the
paper's algorithm box, which is what a NumPy user would write). The two must play the
same duels; the ``same duels`` column says whether they did in every repeat. Reported:
the median duels per second of each engine with its range over the repeats, and the
median (range) of the per-repeat ratio compiled / Python.

A second table times the compiled kernel alone at a long horizon (``--long-horizon``,
default 10^5) for the algorithms in ``--long`` (by default all; RUCB and CCB track when
each confidence bound crosses 1/2, so their rounds cost O(K) amortised, and D-TS draws
one event per pair with an arm of its Copeland set, up to K (K - 1) / 2 per round).

Kernels are compiled (or loaded from numba's cache) by a warm-up run before any timing.
The machine's other load makes the numbers noisy; they are what was measured.

Run: ``.venv/bin/python benchmarks/bench_karmed.py --markdown bench.md --csv bench.csv``
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from cdbandits.datasets import DATA_FILES
from cdbandits.files import write_csv, write_text
from cdbandits.karmed import ALGORITHMS, make_algorithm, simulate
from cdbandits.matrix_io import load_matrix
from cdbandits.plotting import algorithm_style


def default_matrix() -> Path:
    """The informational MSLR matrix in $CDBANDITS_DATA_MIRROR, else in ../shared/data."""
    mirror = os.environ.get("CDBANDITS_DATA_MIRROR")
    root = Path(mirror) if mirror else Path(__file__).resolve().parents[1].parent / "shared/data"
    return root / DATA_FILES["mslr_informational"].mirror_path


def timed(name: str, matrix: np.ndarray, horizon: int, seed: int, engine: str):
    """One run: its seconds and its duels."""
    result = simulate(
        make_algorithm(name),
        matrix,
        horizon,
        np.random.default_rng(seed),
        engine=engine,
        record_duels=True,
    )
    return result.seconds, result.duels


def compare_engines(
    names: list[str], matrix: np.ndarray, horizon: int, repeats: int, seed: int
) -> pd.DataFrame:
    rows = []
    for name in names:
        for repeat in range(repeats):
            compiled_seconds, compiled_duels = timed(
                name, matrix, horizon, seed + repeat, "compiled"
            )
            python_seconds, python_duels = timed(name, matrix, horizon, seed + repeat, "python")
            same = bool(np.array_equal(compiled_duels, python_duels))
            for engine, seconds in (("compiled", compiled_seconds), ("python", python_seconds)):
                rows.append(
                    {
                        "algorithm": name,
                        "engine": engine,
                        "repeat": repeat,
                        "horizon": horizon,
                        "n_arms": matrix.shape[0],
                        "seconds": seconds,
                        "duels_per_second": horizon / seconds,
                        "same_duels": same,
                    }
                )
        print(f"{name}: done", flush=True)
    return pd.DataFrame(rows)


def time_long(
    names: list[str], matrix: np.ndarray, horizon: int, repeats: int, seed: int
) -> pd.DataFrame:
    rows = []
    for name in names:
        for repeat in range(repeats):
            result = simulate(
                make_algorithm(name), matrix, horizon, np.random.default_rng(seed + repeat)
            )
            rows.append(
                {
                    "algorithm": name,
                    "engine": "compiled",
                    "repeat": repeat,
                    "horizon": horizon,
                    "n_arms": matrix.shape[0],
                    "seconds": result.seconds,
                    "duels_per_second": horizon / result.seconds,
                    "same_duels": np.nan,
                }
            )
        print(f"{name}, long horizon: done", flush=True)
    return pd.DataFrame(rows)


def spread(values: pd.Series, digits: str = ",.0f") -> str:
    """``median (min-max)``."""
    return f"{values.median():{digits}} ({values.min():{digits}}-{values.max():{digits}})"


def markdown(engines: pd.DataFrame, long: pd.DataFrame) -> str:
    first = engines.iloc[0]
    lines = [
        f"Same run by both engines: K = {first.n_arms}, T = {first.horizon} rounds, "
        f"{engines.repeat.nunique()} repeats (seeds); duels per second, median (min-max).",
        "",
        "| algorithm | compiled duels/s | Python loop duels/s | compiled / Python | same duels |",
        "|---|---|---|---|---|",
    ]
    for name, group in engines.groupby("algorithm", sort=False):
        compiled = group[group.engine == "compiled"].set_index("repeat")
        python = group[group.engine == "python"].set_index("repeat")
        ratio = compiled.duels_per_second / python.duels_per_second
        lines.append(
            f"| {algorithm_style(name).label} | {spread(compiled.duels_per_second)} | "
            f"{spread(python.duels_per_second)} | {spread(ratio, ',.1f')}x | "
            f"{'yes' if group.same_duels.all() else 'no'} |"
        )
    if not long.empty:
        first = long.iloc[0]
        lines += [
            "",
            f"Compiled kernel alone: K = {first.n_arms}, T = {first.horizon:,} rounds, "
            f"{long.repeat.nunique()} repeats; median (min-max).",
            "",
            "| algorithm | seconds | duels/s |",
            "|---|---|---|",
        ]
        for name, group in long.groupby("algorithm", sort=False):
            lines.append(
                f"| {algorithm_style(name).label} | {spread(group.seconds, '.3f')} | "
                f"{spread(group.duels_per_second)} |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matrix", type=Path, default=None, help="preference matrix file")
    parser.add_argument("--horizon", type=int, default=2000, help="rounds of the engine comparison")
    parser.add_argument("--long-horizon", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2015)
    parser.add_argument(
        "--algorithms", nargs="+", default=list(ALGORITHMS), choices=list(ALGORITHMS)
    )
    parser.add_argument("--long", nargs="*", default=list(ALGORITHMS), choices=list(ALGORITHMS))
    parser.add_argument("--csv", type=Path, help="write every timing as CSV")
    parser.add_argument("--markdown", type=Path, help="write the summary as Markdown")
    args = parser.parse_args()

    matrix = load_matrix(args.matrix or default_matrix())
    for name in args.algorithms:  # compile or load every kernel before timing
        simulate(make_algorithm(name), matrix[:3, :3], 20, np.random.default_rng(0))
    engines = compare_engines(args.algorithms, matrix, args.horizon, args.repeats, args.seed)
    started = time.perf_counter()
    long = time_long(args.long, matrix, args.long_horizon, args.repeats, args.seed)
    print(f"long-horizon timings took {time.perf_counter() - started:.0f} s", flush=True)
    summary = markdown(engines, long)
    print(summary)
    if args.csv:
        write_csv(args.csv, pd.concat([engines, long], ignore_index=True))
    if args.markdown:
        write_text(args.markdown, summary)


if __name__ == "__main__":
    main()
