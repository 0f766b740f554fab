"""Time ``cdbandits winners`` as a whole command against one-shot scripts people would write.

Every command is a new process that reads the same matrix file and prints its von Neumann
winner, start-up included (that is what the user waits for):

* ``cdbandits``: ``cdbandits winners PATH --json`` (every winner notion; the vNW by the
  default ``--engine auto``, the NumPy path for small matrices);
* ``cdbandits_compiled``: the same with ``--engine compiled`` (the numba kernel, as before
  the NumPy path existed);
* ``pref_voting``: ``python -c`` reading the file with NumPy, building a ``MarginGraph`` and
  calling ``pref_voting.probabilistic_methods.maximal_lottery`` (one scipy HiGHS LP), where
  pref_voting is installed;
* ``scipy_highs``: ``python -c`` reading the file and solving the LP
  ``max v  s.t.  P.T @ p >= v, sum(p) = 1, p >= 0`` by ``scipy.optimize.linprog``.

Matrices (``--ks``, default 3 and 10): ``K = 3`` is rock-paper-scissors, larger ``K`` a
random skew-symmetric matrix with uniform entries (seeded), redrawn until no arm is a
Condorcet winner, so that every command solves an LP. Each answer is checked (a distribution
with ``min_b (P.T @ p)[b] / max|P| >= -1e-9``). The commands run ``--runs`` times (at least 5)
in turn, after one warm-up round; printed: the median wall and CPU seconds with their range
(min-max) and the ratios of the peers' median wall times to ours.

Run in the benchmark environment (pref_voting is not in the main lock):
``envs/bench.sh python benchmarks/bench_cli.py [--ks 3 10] [--runs 7] [--markdown FILE]``.
Set ``NUMBA_NUM_THREADS=1`` (and, on a shared machine, say so with the figures: the wall
times grow with the machine's load, the CPU times much less).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from cdbandits.files import write_text

READ = "import sys, json, numpy as np; P = np.loadtxt(sys.argv[1], delimiter=','); k = len(P)\n"

SCRIPTS = {
    "pref_voting": READ
    + "from pref_voting.probabilistic_methods import maximal_lottery\n"
    + "from pref_voting.weighted_majority_graphs import MarginGraph\n"
    + "edges = [(a, b, P[a, b]) for a in range(k) for b in range(k) if P[a, b] > 0]\n"
    + "lottery = maximal_lottery(MarginGraph(list(range(k)), edges))\n"
    + "print(json.dumps([float(lottery.get(a, 0.0)) for a in range(k)]))\n",
    "scipy_highs": READ
    + "from scipy.optimize import linprog\n"
    + "result = linprog(np.r_[np.zeros(k), -1.0], A_ub=np.c_[-P.T, np.ones(k)], "
    + "b_ub=np.zeros(k), A_eq=np.r_[np.ones(k), 0.0][None], b_eq=[1.0], "
    + "bounds=[(0, None)] * k + [(None, None)], method='highs')\n"
    + "assert result.status == 0, result.message\n"
    + "print(json.dumps(result.x[:k].tolist()))\n",
}


def matrix(k: int, rng: np.random.Generator) -> np.ndarray:
    """Rock-paper-scissors for ``k = 3``, else random skew entries without a Condorcet winner."""
    if k == 3:
        return np.array([[0.0, 1.0, -1.0], [-1.0, 0.0, 1.0], [1.0, -1.0, 0.0]])
    while True:
        upper = np.triu(rng.uniform(-1, 1, (k, k)), 1)
        P = upper - upper.T
        if not np.any(np.count_nonzero(P > 0, axis=1) == k - 1):
            return P


def commands(path: Path) -> dict[str, list[str]]:
    """The command of every available solver on the matrix file ``path``."""
    beside = Path(sys.executable).parent / "cdbandits"
    ours = [str(beside)] if beside.is_file() else [sys.executable, "-m", "cdbandits.cli"]
    found = {
        "cdbandits": [*ours, "winners", str(path), "--json"],
        "cdbandits_compiled": [*ours, "winners", str(path), "--json", "--engine", "compiled"],
    }
    for name, script in SCRIPTS.items():
        module = {"pref_voting": "pref_voting", "scipy_highs": "scipy.optimize"}[name]
        probe = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
        if probe.returncode == 0:
            found[name] = [sys.executable, "-c", script, str(path)]
        else:
            print(f"{name}: not installed, left out", file=sys.stderr)
    return found


def run_once(command: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system of the child) of one run, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{completed.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, completed.stdout


def weights_of(name: str, output: str) -> np.ndarray:
    parsed = json.loads(output)
    return np.array(parsed["von_neumann"]["weights"] if name.startswith("cdbandits") else parsed)


def is_valid(P: np.ndarray, weights: np.ndarray) -> bool:
    return bool(
        weights.min() >= 0
        and abs(weights.sum() - 1) <= 1e-9
        and (weights @ P).min() / np.abs(P).max() >= -1e-9
    )


def spread(values: list[float]) -> str:
    return f"{np.median(values):.3f} ({min(values):.3f}–{max(values):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ks", type=int, nargs="+", default=[3, 10])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command (>= 5)")
    parser.add_argument("--seed", type=int, default=2015)
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    args = parser.parse_args()
    if args.runs < 5:
        parser.error("--runs must be at least 5")
    rng = np.random.default_rng(args.seed)
    lines = [
        "| K | command | wall s, median (min–max) | CPU s, median (min–max) | "
        "wall / cdbandits | valid answers |",
        "|---|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory() as folder:
        for k in args.ks:
            P = matrix(k, rng)
            path = Path(folder) / f"matrix_{k}.csv"
            np.savetxt(path, P, delimiter=",", fmt="%.17g")
            solvers = commands(path)
            walls: dict[str, list[float]] = {name: [] for name in solvers}
            cpus: dict[str, list[float]] = {name: [] for name in solvers}
            valid = dict.fromkeys(solvers, 0)
            for round_ in range(args.runs + 1):  # round 0 warms the file system caches
                for name, command in solvers.items():
                    wall, cpu, output = run_once(command)
                    if round_ == 0:
                        continue
                    walls[name].append(wall)
                    cpus[name].append(cpu)
                    valid[name] += is_valid(P, weights_of(name, output))
            ours = float(np.median(walls["cdbandits"]))
            for name in solvers:
                ratio = float(np.median(walls[name])) / ours
                lines.append(
                    f"| {k} | {name} | {spread(walls[name])} | {spread(cpus[name])} | "
                    f"{ratio:.2f}× | {valid[name]} of {args.runs} |"
                )
            print(f"K = {k} done", file=sys.stderr, flush=True)
    table = "\n".join(lines) + "\n"
    print(table)
    if args.markdown:
        write_text(args.markdown, table)


if __name__ == "__main__":
    main()
