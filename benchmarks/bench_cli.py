"""Time ``cdbandits winners`` as a whole command against one-shot scripts people would write.

Every command is a new process that reads the same file and prints a von Neumann winner,
start-up included (that is what the user waits for). Two inputs:

**A matrix file** (``--ks``, default 3 and 10): ``K = 3`` is rock-paper-scissors, larger ``K``
a random skew-symmetric matrix with uniform entries (seeded), redrawn until no arm is a
Condorcet winner, so that every command solves an LP.

* ``cdbandits``: ``cdbandits winners PATH --json`` (every winner notion; the vNW by the
  default ``--engine auto``, the NumPy path for small matrices);
* ``cdbandits_compiled``: the same with ``--engine compiled`` (the numba kernel);

**A comparison log** (``--log-items``, default 3 and 10): a CSV of ``first,second,outcome``
rows. For 3 items it is the three rows ``a>b, b>c, c>a``; for more, every pair compared
four times, each won by the first item with the probability of a random preference matrix
(seeded), so every pair has as many comparisons and the majority margins and the win rates
give the same von Neumann winner.

* ``cdbandits_pairs``: ``cdbandits winners --pairs LOG --json`` with its defaults (the point
  estimate, 2 x 1000 resamples with their intervals, and the rankings);
* ``cdbandits_pairs_point``: the same with ``--method none`` (the point estimate and the
  rankings, the work the peers do);

and for both inputs the peers, where installed:

* ``pref_voting``: ``python -c`` reading the file (the log with the ``csv`` module, into the
  majority margins), building a ``MarginGraph`` and calling
  ``pref_voting.probabilistic_methods.maximal_lottery`` (one scipy HiGHS LP);
* ``scipy_highs``: ``python -c`` reading the file (the log into win rates, ``P = 2Q - 1``) and
  solving ``max v  s.t.  P.T @ p >= v, sum(p) = 1, p >= 0`` by ``scipy.optimize.linprog``.

Each answer is checked (a distribution with ``min_b (P.T @ p)[b] / max|P| >= -1e-9`` for the
matrix, or for the log's ``P`` computed here). The commands run ``--runs`` times (at least 5)
in turn, after one warm-up round; printed: the median wall and CPU seconds with their range
(min-max) and the ratios of the peers' median wall times to ours (``cdbandits`` for a
matrix, ``cdbandits_pairs`` for a log).

Run in the benchmark environment (pref_voting is not in the main lock):
``envs/bench.sh python benchmarks/bench_cli.py [--ks 3 10] [--log-items 3 10] [--runs 7]
[--markdown FILE]``. The defaults are measured: no thread variables are set. On a shared
machine say so with the figures: the wall times grow with the machine's load, the CPU times
much less.
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from cdbandits.files import write_text

READ_MATRIX = (
    "import sys, json, numpy as np; P = np.loadtxt(sys.argv[1], delimiter=','); k = len(P)\n"
)

# The log read into per-pair counts: wins[i, j] (a tie counts half to each).
READ_LOG = (
    "import sys, csv, json, numpy as np\n"
    "rows = list(csv.DictReader(open(sys.argv[1], newline='')))\n"
    "items = list(dict.fromkeys(x for r in rows for x in (r['first'], r['second'])))\n"
    "at = {x: i for i, x in enumerate(items)}; k = len(items); wins = np.zeros((k, k))\n"
    "for r in rows:\n"
    "    i, j, o = at[r['first']], at[r['second']], float(r['outcome'])\n"
    "    wins[i, j] += o; wins[j, i] += 1 - o\n"
)

PREF_VOTING = (
    "from pref_voting.probabilistic_methods import maximal_lottery\n"
    "from pref_voting.weighted_majority_graphs import MarginGraph\n"
    "edges = [(a, b, P[a, b]) for a in range(k) for b in range(k) if P[a, b] > 0]\n"
    "lottery = maximal_lottery(MarginGraph(list(range(k)), edges))\n"
    "print(json.dumps([float(lottery.get(a, 0.0)) for a in range(k)]))\n"
)

SCIPY_HIGHS = (
    "from scipy.optimize import linprog\n"
    "result = linprog(np.r_[np.zeros(k), -1.0], A_ub=np.c_[-P.T, np.ones(k)], "
    "b_ub=np.zeros(k), A_eq=np.r_[np.ones(k), 0.0][None], b_eq=[1.0], "
    "bounds=[(0, None)] * k + [(None, None)], method='highs')\n"
    "assert result.status == 0, result.message\n"
    "print(json.dumps(result.x[:k].tolist()))\n"
)

MATRIX_SCRIPTS = {
    "pref_voting": READ_MATRIX + PREF_VOTING,
    "scipy_highs": READ_MATRIX + SCIPY_HIGHS,
}
LOG_SCRIPTS = {
    "pref_voting": READ_LOG + "P = wins - wins.T\n" + PREF_VOTING,
    "scipy_highs": READ_LOG
    + "n = wins + wins.T\n"
    + "P = np.where(n > 0, (wins - wins.T) / np.where(n > 0, n, 1), 0.0)\n"
    + SCIPY_HIGHS,
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


def comparison_log(k: int, rng: np.random.Generator) -> list[tuple[str, str, int]]:
    """The rows of the log of ``k`` items (module docstring)."""
    if k == 3:
        return [("a", "b", 1), ("b", "c", 1), ("c", "a", 1)]
    Q = (matrix(k, rng) + 1) / 2
    return [
        (f"item{i}", f"item{j}", int(rng.uniform() < Q[i, j]))
        for i in range(k)
        for j in range(i + 1, k)
        for _ in range(4)
    ]


def log_matrix(rows: list[tuple[str, str, int]]) -> tuple[list[str], np.ndarray]:
    """The items of a log (in order of appearance) and its skew matrix of win rates."""
    items = list(dict.fromkeys(name for first, second, _ in rows for name in (first, second)))
    at = {name: index for index, name in enumerate(items)}
    wins = np.zeros((len(items), len(items)))
    for first, second, outcome in rows:
        wins[at[first], at[second]] += outcome
        wins[at[second], at[first]] += 1 - outcome
    n = wins + wins.T
    return items, np.where(n > 0, (wins - wins.T) / np.where(n > 0, n, 1), 0.0)


def ours() -> list[str]:
    beside = Path(sys.executable).parent / "cdbandits"
    return [str(beside)] if beside.is_file() else [sys.executable, "-m", "cdbandits.cli"]


def peers(scripts: dict[str, str], path: Path) -> dict[str, list[str]]:
    """The command of every installed peer on ``path``."""
    found = {}
    for name, script in scripts.items():
        module = {"pref_voting": "pref_voting", "scipy_highs": "scipy.optimize"}[name]
        probe = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
        if probe.returncode == 0:
            found[name] = [sys.executable, "-c", script, str(path)]
        else:
            print(f"{name}: not installed, left out", file=sys.stderr)
    return found


def matrix_commands(path: Path) -> dict[str, list[str]]:
    return {
        "cdbandits": [*ours(), "winners", str(path), "--json"],
        "cdbandits_compiled": [*ours(), "winners", str(path), "--json", "--engine", "compiled"],
        **peers(MATRIX_SCRIPTS, path),
    }


def log_commands(path: Path) -> dict[str, list[str]]:
    return {
        "cdbandits_pairs": [*ours(), "winners", "--pairs", str(path), "--json"],
        "cdbandits_pairs_point": [
            *ours(),
            *["winners", "--pairs", str(path), "--json", "--method", "none"],
        ],
        **peers(LOG_SCRIPTS, path),
    }


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


def weights_of(name: str, output: str, items: list[str] | None) -> np.ndarray:
    parsed = json.loads(output)
    if name.startswith("cdbandits_pairs"):
        support = parsed["results"][0]["von_neumann"]["weights"]
        return np.array([support.get(item, 0.0) for item in items])
    return np.array(parsed["von_neumann"]["weights"] if name.startswith("cdbandits") else parsed)


def is_valid(P: np.ndarray, weights: np.ndarray) -> bool:
    return bool(
        weights.min() >= 0
        and abs(weights.sum() - 1) <= 1e-9
        and (weights @ P).min() / np.abs(P).max() >= -1e-9
    )


def spread(values: list[float]) -> str:
    return f"{np.median(values):.3f} ({min(values):.3f}–{max(values):.3f})"


def time_commands(
    label: str,
    commands: dict[str, list[str]],
    P: np.ndarray,
    items: list[str] | None,
    runs: int,
    reference: str,
) -> list[str]:
    """Table rows of ``commands`` run ``runs`` times in turn, after a warm-up round."""
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    valid = dict.fromkeys(commands, 0)
    for round_ in range(runs + 1):  # round 0 warms the file system caches
        for name, command in commands.items():
            wall, cpu, output = run_once(command)
            if round_ == 0:
                continue
            walls[name].append(wall)
            cpus[name].append(cpu)
            valid[name] += is_valid(P, weights_of(name, output, items))
    base = float(np.median(walls[reference]))
    return [
        f"| {label} | {name} | {spread(walls[name])} | {spread(cpus[name])} | "
        f"{float(np.median(walls[name])) / base:.2f}× | {valid[name]} of {runs} |"
        for name in commands
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ks", type=int, nargs="*", default=[3, 10], help="matrix sizes")
    parser.add_argument(
        "--log-items", type=int, nargs="*", default=[3, 10], help="items of the logs (>= 3)"
    )
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command (>= 5)")
    parser.add_argument("--seed", type=int, default=2015)
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    args = parser.parse_args()
    if args.runs < 5:
        parser.error("--runs must be at least 5")
    rng = np.random.default_rng(args.seed)
    lines = [
        "| input | command | wall s, median (min–max) | CPU s, median (min–max) | "
        "wall / cdbandits | valid answers |",
        "|---|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory() as folder:
        for k in args.ks:
            P = matrix(k, rng)
            path = Path(folder) / f"matrix_{k}.csv"
            np.savetxt(path, P, delimiter=",", fmt="%.17g")
            label = f"matrix, K = {k}"
            lines += time_commands(label, matrix_commands(path), P, None, args.runs, "cdbandits")
            print(f"{label} done", file=sys.stderr, flush=True)
        for k in args.log_items:
            rows = comparison_log(k, rng)
            path = Path(folder) / f"log_{k}.csv"
            with open(path, "w", newline="") as stream:
                csv.writer(stream).writerows([("first", "second", "outcome"), *rows])
            items, P = log_matrix(rows)
            label = f"log, {k} items, {len(rows)} rows"
            lines += time_commands(
                label, log_commands(path), P, items, args.runs, "cdbandits_pairs"
            )
            print(f"{label} done", file=sys.stderr, flush=True)
    table = "\n".join(lines) + "\n"
    print(table)
    if args.markdown:
        write_text(args.markdown, table)


if __name__ == "__main__":
    main()
