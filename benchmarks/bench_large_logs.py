"""Winners of large comparison logs: the sparse solver against HiGHS and pref_voting.

Inputs (every one a skew-form margin matrix that is zero for the pairs never compared):

* ``ATP 1990-2024``: Jeff Sackmann's ATP match results of every year (the ``atp`` preset of
  :data:`cdbandits.comparisons.LOG_PRESETS`: winner beat loser, walkovers dropped), all
  players; ``ATP 1990s`` ... ``ATP 2020s`` each decade;
* ``TREC-DL``: the passage preference judgments of Yan et al. (2022), every topic's passages
  in one log (passages of different topics are never compared);
* ``synthetic K x c``: ``K`` items with Bradley-Terry strengths drawn from a normal
  distribution with standard deviation ``--strength-sd`` (logits), each compared about ``c``
  times with uniformly drawn opponents plus one comparison along a random path through all
  items (so the log is connected), the winner drawn from the model; ``+ Condorcet``: one more
  item that beats every other item once (a Condorcet winner).

Solvers, each on the same matrix, each in a fresh process (its peak resident memory is
reported; the input is built before the timed calls, the first call loads the compiled code
and is not timed):

* ``cdbandits``: :func:`cdbandits.vnw_sparse.sparse_von_neumann_winner` on the matrix as a
  scipy sparse array;
* ``scipy_highs``: ``scipy.optimize.linprog(method="highs")`` on the LP
  ``max v  s.t.  P.T @ p >= v, sum(p) = 1, p >= 0`` with a sparse constraint matrix;
* ``pref_voting``: ``maximal_lottery`` on a ``MarginGraph`` of the positive margins (it
  builds a dense ``K x K`` matrix in Python: not run above ``--pref-voting-max-k`` items).

Every answer is checked: a distribution whose certificate ``min_b (P.T @ p)[b] / max |P|``
is at least ``-1e-9``. Each solver is timed ``--repeats`` (>= 5) calls; the table shows the
median and the range, and the peers' ratios to ours.

The command-line rows run ``cdbandits winners --pairs`` end to end on the full ATP log
(``--method none``, and ``--method bootstrap --resamples 200``) and on the synthetic log of
20,000 items (``--method none``, from a CSV written first), with ``--max-items`` raised above
their items, each repeat a fresh process:
wall time (reading, counting, solving, printing, numba's cache loading included) and peak
memory.

Run in the benchmark environment:
``envs/bench.sh python benchmarks/bench_large_logs.py --markdown benchmarks/large_logs.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse

from cdbandits.comparisons.counts import apply_policy, count_pairs
from cdbandits.comparisons.logs import LOG_PRESETS, LogSpec, read_logs
from cdbandits.files import write_csv, write_text

DECADES = {"1990s": range(1990, 2000), "2000s": range(2000, 2010), "2010s": range(2010, 2020)}
DECADES["2020s"] = range(2020, 2025)
SYNTHETIC = ((1000, 10), (1000, 50), (5000, 20), (20_000, 20))
INPUTS = (
    "ATP 1990-2024",
    *(f"ATP {decade}" for decade in DECADES),
    "TREC-DL",
    *(f"synthetic {k} x {c}" for k, c in SYNTHETIC),
    "synthetic 20000 x 20 + Condorcet",
)
SOLVERS = ("cdbandits", "scipy_highs", "pref_voting")
TARGETS = {  # command-line rows: (seconds, megabytes)
    "ATP 1990-2024, --method none": (10, 1000),
    "ATP 1990-2024, --method bootstrap --resamples 200": (120, 1000),
    "synthetic 20000 x 20, --method none": (60, 2000),
}


def data_root() -> Path:
    mirror = os.environ.get("CDBANDITS_DATA_MIRROR")
    return Path(mirror) if mirror else Path(__file__).resolve().parents[2] / "shared/data"


def atp_files(root: Path, years: range | None = None) -> list[Path]:
    files = sorted((root / "tennis-atp-sackmann").glob("atp_matches_*.csv"))
    return [f for f in files if years is None or int(f.stem[-4:]) in years]


def synthetic_log_table(
    k: int, per_item: int, condorcet: bool, strength_sd: float, seed: int
) -> pd.DataFrame:
    """A synthetic log (module docstring) as a table ``first, second, outcome``."""
    rng = np.random.default_rng(seed)
    draws = k * per_item // 2
    path = rng.permutation(k)
    first = np.concatenate([rng.integers(0, k, draws), path[:-1]])
    second = np.concatenate([rng.integers(0, k, draws), path[1:]])
    distinct = first != second
    first, second = first[distinct], second[distinct]
    strength = rng.normal(0.0, strength_sd, k)
    first_wins = rng.random(first.size) < 1.0 / (1.0 + np.exp(strength[second] - strength[first]))
    names = np.array([f"item{i}" for i in range(k + 1)])
    if condorcet:  # item k beats every other item once
        first = np.concatenate([first, np.full(k, k)])
        second = np.concatenate([second, np.arange(k)])
        first_wins = np.concatenate([first_wins, np.ones(k, dtype=bool)])
    return pd.DataFrame(
        {"first": names[first], "second": names[second], "outcome": first_wins.astype(int)}
    )


def skew_matrix(name: str, args: argparse.Namespace) -> sparse.csr_array:
    """The skew-form margin matrix of an input (counted with the default policy)."""
    root = data_root()
    if name.startswith("ATP"):
        years = DECADES.get(name.split()[1]) if name != "ATP 1990-2024" else None
        log = read_logs(atp_files(root, years), LOG_PRESETS["atp"])
    elif name == "TREC-DL":
        spec = replace(LOG_PRESETS["trec-dl"], context=None)
        log = read_logs([root / "trec-dl-human-preferences-yan2022" / "judgments.txt"], spec)
    else:
        sizes = name.removeprefix("synthetic ").removesuffix(" + Condorcet").split(" x ")
        table = synthetic_log_table(
            int(sizes[0]), int(sizes[1]), "Condorcet" in name, args.strength_sd, args.seed
        )
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / "log.csv"
            table.to_csv(path, index=False)
            log = read_logs([path], LogSpec())
    return count_pairs(apply_policy(log)).skew_sparse()


def solver_call(solver: str, P: sparse.csr_array) -> Callable[[], np.ndarray]:
    """A timed call of a solver on ``P`` (its preparation, untimed, done here)."""
    k = P.shape[0]
    if solver == "cdbandits":
        from cdbandits.vnw_sparse import sparse_von_neumann_winner

        return lambda: sparse_von_neumann_winner(P).weights
    if solver == "scipy_highs":
        from scipy.optimize import linprog

        bounds = [(0, None)] * k + [(None, None)]
        A_ub = sparse.hstack([-P.T, sparse.csr_array(np.ones((k, 1)))]).tocsr()
        A_eq = sparse.csr_array(np.r_[np.ones(k), 0.0][None])
        objective = np.r_[np.zeros(k), -1.0]

        def highs() -> np.ndarray:
            result = linprog(
                objective, A_ub=A_ub, b_ub=np.zeros(k), A_eq=A_eq, b_eq=[1.0], bounds=bounds
            )
            return result.x[:k] if result.status == 0 else np.full(k, np.nan)

        return highs
    from pref_voting.probabilistic_methods import maximal_lottery
    from pref_voting.weighted_majority_graphs import MarginGraph

    coo = P.tocoo()
    positive = coo.data > 0
    edges = list(
        zip(
            coo.row[positive].tolist(),
            coo.col[positive].tolist(),
            coo.data[positive].tolist(),
            strict=True,
        )
    )
    graph = MarginGraph(list(range(k)), edges)
    return lambda: np.array([maximal_lottery(graph)[c] for c in range(k)])


def valid(P: sparse.csr_array, weights: np.ndarray) -> bool:
    scale = np.abs(P.data).max() if P.nnz else 1.0
    return bool(
        np.isfinite(weights).all()
        and weights.min() >= -1e-12
        and abs(weights.sum() - 1) <= 1e-9
        and (P.T @ weights).min() / scale >= -1e-9
    )


def worker(args: argparse.Namespace) -> None:
    """Run one solver on one input in this process; print its timings as JSON."""
    P = skew_matrix(args.input, args)
    call = solver_call(args.solver, P)
    call()  # loads the compiled code / warms the solver
    seconds, answers = [], []
    for _ in range(args.repeats):
        start = time.perf_counter()
        answers.append(call())
        seconds.append(time.perf_counter() - start)
    print(
        json.dumps(
            {
                "K": P.shape[0],
                "pairs": P.nnz // 2,
                "seconds": seconds,
                "invalid": sum(not valid(P, w) for w in answers),
                "support": int(np.count_nonzero(answers[-1] > 1e-12)),
            }
        )
    )


def run_measured(command: list[str], timeout: float) -> dict[str, object]:
    """Wall seconds, peak resident megabytes, exit status and output of a child process."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=err, text=True)
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > timeout:
                child.kill()
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {
            "seconds": seconds,
            "megabytes": usage.ru_maxrss / 1024,
            "status": child.returncode,
            "stdout": out.read(),
            "stderr": err.read(),
            "timed_out": seconds > timeout,
        }


def solver_rows(args: argparse.Namespace) -> list[dict[str, object]]:
    """Every solver on every input, each in a fresh process."""
    rows = []
    for name in args.inputs:
        row: dict[str, object] = {"input": name}
        for solver in args.solvers:
            k = _input_size(name)
            if solver == "pref_voting" and k is not None and k > args.pref_voting_max_k:
                row[f"{solver}_note"] = "not run: dense K x K in Python"
                continue
            command = [sys.executable, __file__, "--worker", "--input", name, "--solver", solver]
            command += ["--repeats", str(args.repeats), "--strength-sd", str(args.strength_sd)]
            command += ["--seed", str(args.seed)]
            result = run_measured(command, args.timeout)
            if result["status"] != 0:
                reason = "time limit" if result["timed_out"] else "failed"
                row[f"{solver}_note"] = f"{reason}: {str(result['stderr']).strip()[-200:]}"
                continue
            report = json.loads(str(result["stdout"]).strip().splitlines()[-1])
            row["K"], row["pairs"] = report["K"], report["pairs"]
            times = 1e3 * np.array(report["seconds"])
            row[f"{solver}_ms"] = float(np.median(times))
            row[f"{solver}_min_ms"], row[f"{solver}_max_ms"] = (
                float(times.min()),
                float(times.max()),
            )
            row[f"{solver}_mb"] = result["megabytes"]
            row[f"{solver}_invalid"] = report["invalid"]
            if solver == "cdbandits":
                row["support"] = report["support"]
        rows.append(row)
        print(f"{name}: {row}", flush=True)
    return rows


def _input_size(name: str) -> int | None:
    """The number of items of a synthetic input (None for the real logs: read to know)."""
    if not name.startswith("synthetic"):
        return None
    return int(name.split()[1]) + ("Condorcet" in name)


#: ``--max-items`` of the command rows: their logs (3,679 and 20,000 items) exceed the
#: default limit, which a user raises the same way.
MAX_ITEMS_OF_COMMANDS = 25_000


def command_rows(args: argparse.Namespace, directory: Path) -> list[dict[str, object]]:
    """``cdbandits winners --pairs`` end to end, each repeat a fresh process."""
    executable = Path(sys.executable).parent / "cdbandits"
    atp = [str(path) for path in atp_files(data_root())]
    synthetic = directory / "synthetic_20000.csv"
    synthetic_log_table(20_000, 20, False, args.strength_sd, args.seed).to_csv(
        synthetic, index=False
    )
    atp_log = ["--pairs", *atp, "--preset", "atp"]
    commands = {
        "ATP 1990-2024, --method none": [*atp_log, "--method", "none"],
        "ATP 1990-2024, --method bootstrap --resamples 200": [
            *atp_log,
            "--method",
            "bootstrap",
            "--resamples",
            "200",
        ],
        "synthetic 20000 x 20, --method none": ["--pairs", str(synthetic), "--method", "none"],
    }
    rows = []
    for name, options in commands.items():
        options = [*options, "--max-items", str(MAX_ITEMS_OF_COMMANDS)]
        runs = [
            run_measured([str(executable), "winners", *options], args.timeout)
            for _ in range(args.command_repeats)
        ]
        failed = [run for run in runs if run["status"] != 0]
        seconds = np.array([run["seconds"] for run in runs])
        megabytes = np.array([run["megabytes"] for run in runs])
        rows.append(
            {
                "command": name,
                "seconds": float(np.median(seconds)),
                "min_seconds": float(seconds.min()),
                "max_seconds": float(seconds.max()),
                "megabytes": float(megabytes.max()),
                "failed": len(failed),
                "error": str(failed[0]["stderr"]).strip()[-300:] if failed else "",
            }
        )
        print(f"{name}: {rows[-1]}", flush=True)
    return rows


def _range(row: pd.Series | dict, key: str) -> str:
    if pd.isna(row.get(f"{key}_ms")):
        return row.get(f"{key}_note") or "not run"
    return f"{row[f'{key}_ms']:.4g} ({row[f'{key}_min_ms']:.4g}–{row[f'{key}_max_ms']:.4g})"


def markdown(solvers: list[dict[str, object]], commands: list[dict[str, object]]) -> str:
    """The two tables: solvers on each input, and the command line end to end."""
    peers = ("scipy_highs", "pref_voting")
    lines = [
        "| input | K | compared pairs | cdbandits ms | scipy_highs ms | pref_voting ms | "
        "cdbandits MB | scipy_highs MB | pref_voting MB | scipy_highs / cdbandits | "
        "pref_voting / cdbandits | support | invalid answers |",
        "|" + "---|" * 13,
    ]
    for row in solvers:
        ratios = [
            f"{row[f'{p}_ms'] / row['cdbandits_ms']:,.1f}×"
            if pd.notna(row.get(f"{p}_ms")) and pd.notna(row.get("cdbandits_ms"))
            else ""
            for p in peers
        ]
        memory = [f"{row[f'{s}_mb']:.0f}" if pd.notna(row.get(f"{s}_mb")) else "" for s in SOLVERS]
        invalid = ", ".join(
            f"{s} {int(row[f'{s}_invalid'])}" for s in SOLVERS if row.get(f"{s}_invalid")
        )
        lines.append(
            f"| {row['input']} | {row.get('K', '')} | {row.get('pairs', '')} | "
            + " | ".join(_range(row, s) for s in SOLVERS)
            + " | "
            + " | ".join(memory + ratios)
            + f" | {row.get('support', '')} | {invalid or 'none'} |"
        )
    lines += [
        "",
        "| command (cdbandits winners) | seconds | peak MB | target | |",
        "|---|---|---|---|---|",
    ]
    for row in commands:
        seconds, megabytes = TARGETS[row["command"]]
        met = not row["failed"] and row["seconds"] < seconds and row["megabytes"] < megabytes
        verdict = "met" if met else "**not met**" + (f": {row['error']}" if row["failed"] else "")
        lines.append(
            f"| {row['command']} | {row['seconds']:.3g} ({row['min_seconds']:.3g}–"
            f"{row['max_seconds']:.3g}) | {row['megabytes']:.0f} | < {seconds} s, "
            f"< {megabytes} MB | {verdict} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", nargs="+", default=list(INPUTS), choices=INPUTS)
    parser.add_argument("--solvers", nargs="+", default=list(SOLVERS), choices=SOLVERS)
    parser.add_argument("--repeats", type=int, default=5, help="timed calls per solver (>= 5)")
    parser.add_argument("--command-repeats", type=int, default=5, help="runs per command")
    parser.add_argument("--no-commands", action="store_true", help="skip the command rows")
    parser.add_argument("--strength-sd", type=float, default=2.0, help="synthetic strengths")
    parser.add_argument("--seed", type=int, default=2015)
    parser.add_argument("--pref-voting-max-k", type=int, default=5000)
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per process")
    parser.add_argument("--csv", type=Path, help="write the solver table as CSV")
    parser.add_argument("--markdown", type=Path, help="write both tables as Markdown")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--input", help=argparse.SUPPRESS)
    parser.add_argument("--solver", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    if args.repeats < 5 or args.command_repeats < 5:
        parser.error("--repeats and --command-repeats must be at least 5")
    solvers = solver_rows(args)
    with tempfile.TemporaryDirectory() as directory:
        commands = [] if args.no_commands else command_rows(args, Path(directory))
    summary = markdown(solvers, commands)
    print(summary)
    if args.csv:
        write_csv(args.csv, pd.DataFrame(solvers))
    if args.markdown:
        write_text(args.markdown, summary)


if __name__ == "__main__":
    main()
