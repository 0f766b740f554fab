"""Time certified von Neumann winners against the solvers people use, on the same matrices.

Solvers (each gets the same skew-form matrices, every answer is checked):

* ``cdbandits``: one :func:`cdbandits.winners.von_neumann_winner` call per matrix;
* ``batched``: :func:`cdbandits.batched.von_neumann_winners` on the stack of the cell's
  matrices (time per matrix);
* ``pref_voting``: ``pref_voting.probabilistic_methods.maximal_lottery`` (one scipy HiGHS
  LP) on a ``MarginGraph`` built beforehand (not timed);
* ``scipy_highs``: the plain LP ``max v  s.t.  P.T @ p >= v, sum(p) = 1, p >= 0`` by
  ``scipy.optimize.linprog(method="highs")``;
* ``nashpy``: ``nashpy.Game(P).linear_program()`` (scipy's LP behind nashpy's API);
* ``pygambit``: ``pygambit.nash.lp_solve`` in floating point, where pygambit is installed.

Matrices, for K in ``--ks`` (a category is skipped at a K it cannot supply): ``random dense``
(uniform upper triangle: supports of about K/2), ``integer margins`` (10 voters with random
rankings, ``P = margins / 10``: exact ties), ``clones`` (random dense with K/10 arms copied),
``MSLR`` (random K-subsets of the published informational matrix), ``ATP`` (head-to-head
win-rate differences of random K-subsets of the 1,000 players with most ATP matches
1990-2024, 0 for pairs that never met) and ``PrefLib`` (majority margins of the F1-season
and figure-skating elections; random K-subsets).

Threads: every solver runs at the machine's defaults (no thread variables: the command
refuses to run with ``OMP_NUM_THREADS``, ``OPENBLAS_NUM_THREADS``, ``MKL_NUM_THREADS`` or
``NUMBA_NUM_THREADS`` set), as a user's program does; ``cdbandits`` and ``batched`` are also
timed pinned to one BLAS and one numba thread (the ``1 thread`` columns). ``--busy-core``
keeps one core busy with another process during the whole run (as a parallel workflow or a
second program does). ``--threads`` measures only the cells of the thread targets
(``von_neumann_winner`` on random dense K = 136 and 500, the batched solver on 60 random
10 x 10 matrices) idle and with a busy core, into ``--markdown`` (within 1.5x of the
one-thread timings).

An answer is *valid* when it is a distribution whose certificate
``min_b (P.T @ p)[b] / max|P|`` is at least ``-1e-9`` (the library's own guarantee). Every
solver is timed over all matrices of a cell, ``--repeats`` times with the solvers
interleaved; the table shows the median time per matrix and the spread (min-max) over
the repeats, and the ratios of the peers' medians to ours.

Run in the benchmark environment (the peers are not in the main lock):
``envs/bench.sh python benchmarks/bench_von_neumann.py --markdown benchmarks/von_neumann.md``
(``--ks`` and ``--csv`` split a run over processes; ``--render`` joins their CSVs), and
``envs/bench.sh python benchmarks/bench_von_neumann.py --threads --markdown
benchmarks/von_neumann_threads.md``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import scipy.optimize
from threadpoolctl import threadpool_limits

from cdbandits.batched import von_neumann_winners
from cdbandits.datasets import DATA_FILES
from cdbandits.files import write_csv, write_text
from cdbandits.matrix_io import load_matrix
from cdbandits.preference import as_skew
from cdbandits.winners import von_neumann_winner

Solver = Callable[[np.ndarray], np.ndarray]
THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMBA_NUM_THREADS",
)
CATEGORIES = ("random dense", "integer margins", "clones", "MSLR", "ATP", "PrefLib")
PEERS = ("pref_voting", "scipy_highs", "nashpy", "pygambit")


@contextmanager
def one_thread() -> Iterator[None]:
    """One BLAS and one numba thread inside the block (the ``1 thread`` columns)."""
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        with threadpool_limits(limits=1):
            yield
    finally:
        numba.set_num_threads(threads)


@contextmanager
def busy_core(active: bool) -> Iterator[None]:
    """Another process spinning on one core for the duration of the block."""
    if not active:
        yield
        return
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def data_root() -> Path:
    mirror = os.environ.get("CDBANDITS_DATA_MIRROR")
    return Path(mirror) if mirror else Path(__file__).resolve().parents[2] / "shared/data"


def skew(upper: np.ndarray) -> np.ndarray:
    upper = np.triu(upper, 1)
    return upper - upper.T


def atp_matrix(root: Path, players: int = 1000) -> np.ndarray:
    """Win-rate differences among the ``players`` with most matches (0 if they never met)."""
    frames = [
        pd.read_csv(path, usecols=["winner_id", "loser_id"])
        for path in sorted((root / "tennis-atp-sackmann").glob("atp_matches_*.csv"))
    ]
    matches = pd.concat(frames)
    counts = pd.concat([matches["winner_id"], matches["loser_id"]]).value_counts()
    index = {player: i for i, player in enumerate(counts.index[:players])}
    wins = np.zeros((players, players))
    for winner, loser in zip(matches["winner_id"], matches["loser_id"], strict=True):
        if winner in index and loser in index:
            wins[index[winner], index[loser]] += 1
    met = wins + wins.T
    return np.divide(wins - wins.T, met, out=np.zeros_like(wins), where=met > 0)


def preflib_matrices(root: Path) -> list[np.ndarray]:
    """Majority margins ``(#i over j - #j over i) / voters`` of the complete-order elections."""
    matrices = []
    for path in sorted((root / "preflib-sports").glob("*/*.soc")):
        lines = path.read_text().splitlines()
        k = next(int(line.split(":")[1]) for line in lines if "NUMBER ALTERNATIVES" in line)
        margins, voters = np.zeros((k, k)), 0
        for line in lines:
            if line.startswith("#") or ":" not in line:
                continue
            count, order = line.split(":")
            ranking = [int(a) - 1 for a in order.split(",")]
            for position, better in enumerate(ranking):
                margins[better, ranking[position + 1 :]] += int(count)
            voters += int(count)
        matrices.append((margins - margins.T) / voters)
    return matrices


def sample(category: str, k: int, n: int, rng: np.random.Generator, real: dict) -> list:
    """``n`` matrices of one category at size ``k`` (empty if the category has none)."""

    def subsets(P: np.ndarray) -> list[np.ndarray]:
        if P.shape[0] < k:
            return []
        picks = [np.sort(rng.choice(P.shape[0], k, replace=False)) for _ in range(n)]
        return [P[np.ix_(arms, arms)] for arms in picks]

    if category == "random dense":
        return [skew(rng.uniform(-1, 1, (k, k))) for _ in range(n)]
    if category == "integer margins":
        voters = 10
        out = []
        for _ in range(n):
            ranks = np.argsort(rng.random((voters, k)), axis=1)
            above = (ranks[:, :, None] < ranks[:, None, :]).sum(axis=0)
            out.append((above - above.T) / voters)
        return out
    if category == "clones":
        copies = max(1, k // 10)
        out = []
        for _ in range(n):
            base = skew(rng.uniform(-1, 1, (k - copies, k - copies)))
            order = np.r_[np.arange(k - copies), rng.integers(0, k - copies, copies)]
            out.append(base[np.ix_(order, order)])
        return out
    if category == "MSLR":
        return subsets(real["MSLR"])
    if category == "ATP":
        return subsets(real["ATP"][: max(k, 200), : max(k, 200)])
    if category == "PrefLib":
        usable = [P for P in real["PrefLib"] if P.shape[0] >= k]
        return [] if not usable else subsets(usable[int(rng.integers(len(usable)))])
    raise ValueError(category)


def solve_highs(P: np.ndarray) -> np.ndarray:
    k = P.shape[0]
    result = scipy.optimize.linprog(
        np.r_[np.zeros(k), -1.0],
        A_ub=np.c_[-P.T, np.ones(k)],
        b_ub=np.zeros(k),
        A_eq=np.r_[np.ones(k), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * k + [(None, None)],
        method="highs",
    )
    return result.x[:k] if result.status == 0 else np.full(k, np.nan)


def peer_solvers() -> dict[str, Callable[[np.ndarray], Callable[[], np.ndarray]]]:
    """For each installed peer: a function preparing (untimed) a timed call for a matrix."""
    peers: dict[str, Callable[[np.ndarray], Callable[[], np.ndarray]]] = {
        "scipy_highs": lambda P: lambda: solve_highs(P)
    }
    try:
        from pref_voting.probabilistic_methods import maximal_lottery
        from pref_voting.weighted_majority_graphs import MarginGraph

        def pref_voting(P: np.ndarray) -> Callable[[], np.ndarray]:
            k = P.shape[0]
            edges = [(a, b, P[a, b]) for a in range(k) for b in range(k) if P[a, b] > 0]
            graph = MarginGraph(list(range(k)), edges)
            return lambda: np.array(list(maximal_lottery(graph).values()))

        peers["pref_voting"] = pref_voting
    except ImportError:
        pass
    try:
        import nashpy

        peers["nashpy"] = lambda P: lambda: np.asarray(nashpy.Game(P).linear_program()[0])
    except ImportError:
        pass
    try:
        import pygambit

        def gambit(P: np.ndarray) -> Callable[[], np.ndarray]:
            game = pygambit.Game.from_arrays(P, -P)
            return lambda: np.array(
                pygambit.nash.lp_solve(game, rational=False).equilibria[0][game.players[0]]
            )

        peers["pygambit"] = gambit
    except ImportError:
        pass
    return peers


def valid(P: np.ndarray, weights: np.ndarray) -> bool:
    """A distribution whose certificate is within 1e-9 of the game value 0 (relative)."""
    scale = np.abs(P).max() or 1.0
    return bool(
        np.isfinite(weights).all()
        and weights.min() >= -1e-12
        and abs(weights.sum() - 1) <= 1e-9
        and (weights @ P).min() / scale >= -1e-9
    )


def benchmark_cell(matrices: list[np.ndarray], repeats: int, peers: dict) -> dict[str, object]:
    """Time every solver on the same matrices, ``repeats`` times, solvers interleaved."""
    stack = np.stack(matrices)
    calls: dict[str, list[Callable[[], np.ndarray]]] = {
        "cdbandits": [lambda P=P: von_neumann_winner(P).weights for P in matrices],
        **{name: [prepare(P) for P in matrices] for name, prepare in peers.items()},
    }
    von_neumann_winners(stack)  # loads the compiled code
    pinned = ("cdbandits_1t", "batched_1t")
    seconds: dict[str, list[float]] = {name: [] for name in [*calls, "batched", *pinned]}
    answers: dict[str, list[np.ndarray]] = {}
    for _ in range(repeats):
        for name, functions in calls.items():
            start = time.perf_counter()
            answers[name] = [function() for function in functions]
            seconds[name].append((time.perf_counter() - start) / len(matrices))
        start = time.perf_counter()
        batched = von_neumann_winners(stack)
        seconds["batched"].append((time.perf_counter() - start) / len(matrices))
        with one_thread():
            start = time.perf_counter()
            answers["cdbandits_1t"] = [function() for function in calls["cdbandits"]]
            seconds["cdbandits_1t"].append((time.perf_counter() - start) / len(matrices))
            start = time.perf_counter()
            answers["batched_1t"] = list(von_neumann_winners(stack).weights)
            seconds["batched_1t"].append((time.perf_counter() - start) / len(matrices))
    answers["batched"] = list(batched.weights)
    row: dict[str, object] = {"matrices": len(matrices)}
    for name, times in seconds.items():
        row[f"{name}_ms"] = float(np.median(times)) * 1e3
        row[f"{name}_min_ms"] = float(np.min(times)) * 1e3
        row[f"{name}_max_ms"] = float(np.max(times)) * 1e3
        row[f"{name}_invalid"] = sum(
            not valid(P, w) for P, w in zip(matrices, answers[name], strict=True)
        )
    paths = Counter(von_neumann_winner(P).solver for P in matrices)
    row["paths"] = ", ".join(f"{count} {path}" for path, count in sorted(paths.items()))
    row["median_support"] = float(np.median(batched.support_size))
    return row


def _ratio(value: float) -> str:
    """A speed ratio with one decimal below 10 (so 0.4 does not print as 0), none above."""
    return f"{value:,.1f}" if value < 10 else f"{value:,.0f}"


def targets(row: pd.Series) -> str:
    """Which of the issue's targets this row meets (ratios of medians)."""
    notes = []
    for peer in ("pref_voting", "scipy_highs"):
        if pd.isna(row.get(f"{peer}_ms")):
            continue
        single = row[f"{peer}_ms"] / row["cdbandits_ms"]
        if single < 5:
            notes.append(f"single {single:.1f}x < 5x {peer}")
        need = 50 if row["K"] <= 20 else 5 if row["K"] <= 136 else None
        batched = row[f"{peer}_ms"] / row["batched_ms"]
        if need and batched < need:
            notes.append(f"batched {_ratio(batched)}x < {need}x {peer}")
    return "met" if not notes else "**not met**: " + "; ".join(notes)


def markdown(table: pd.DataFrame, peers: list[str]) -> str:
    solvers = ["cdbandits", "cdbandits_1t", "batched", "batched_1t", *peers]
    label = {"cdbandits_1t": "cdbandits 1 thread", "batched_1t": "batched 1 thread"}
    header = (
        "| matrices | K | n | "
        + " | ".join(f"{label.get(s, s)} ms" for s in solvers)
        + " | "
        + " | ".join(f"{p} / cdbandits" for p in peers)
        + " | pref_voting / batched | invalid answers | cdbandits paths | targets |"
    )
    lines = [header, "|" + "---|" * (header.count("|") - 1)]
    for _, row in table.iterrows():
        timed = [s for s in solvers if pd.notna(row.get(f"{s}_ms"))]
        cells = [
            f"{row[f'{s}_ms']:.3g} ({row[f'{s}_min_ms']:.3g}–{row[f'{s}_max_ms']:.3g})"
            if s in timed
            else "not run"
            for s in solvers
        ]
        ratios = [
            f"{row[f'{p}_ms'] / row['cdbandits_ms']:,.1f}×" if p in timed else "" for p in peers
        ]
        batched_ratio = ""
        if "pref_voting" in timed:
            batched_ratio = f"{_ratio(row['pref_voting_ms'] / row['batched_ms'])}×"
        invalid = ", ".join(f"{s} {int(row[f'{s}_invalid'])}" for s in timed if row[f"{s}_invalid"])
        lines.append(
            f"| {row['category']} | {row['K']} | {row['matrices']} | "
            + " | ".join(cells + ratios)
            + f" | {batched_ratio} | {invalid or 'none'} | {row['paths']} | {targets(row)} |"
        )
    return "\n".join(lines) + "\n"


def thread_cells(rng: np.random.Generator) -> dict[str, Callable[[], object]]:
    """The calls of the thread targets, on fixed random dense matrices."""
    dense = {k: skew(rng.uniform(-1, 1, (k, k))) for k in (136, 500)}
    stack = np.stack([skew(rng.uniform(-1, 1, (10, 10))) for _ in range(60)])
    return {
        "von_neumann_winner, random dense K = 136": lambda: von_neumann_winner(dense[136]),
        "von_neumann_winner, random dense K = 500": lambda: von_neumann_winner(dense[500]),
        "batched, 60 random dense 10 x 10": lambda: von_neumann_winners(stack),
    }


def thread_table(repeats: int, seed: int) -> str:
    """Defaults against one thread, idle and with a busy core (the thread targets)."""
    cells = thread_cells(np.random.default_rng(seed))
    for call in cells.values():
        call()  # loads the compiled code
    lines = [
        "| call | load | defaults ms | 1 thread ms | defaults / 1 thread | target (<= 1.5) |",
        "|---|---|---|---|---|---|",
    ]
    for busy in (False, True):
        with busy_core(busy):
            for name, call in cells.items():
                seconds: dict[str, list[float]] = {"defaults": [], "pinned": []}
                for _ in range(repeats):
                    for setting in seconds:
                        with one_thread() if setting == "pinned" else nullcontext():
                            start = time.perf_counter()
                            call()
                            seconds[setting].append(time.perf_counter() - start)
                default, pinned = (1e3 * np.median(seconds[key]) for key in seconds)
                spread = {
                    key: f"{1e3 * min(v):.3g}–{1e3 * max(v):.3g}" for key, v in seconds.items()
                }
                ratio = default / pinned
                lines.append(
                    f"| {name} | {'one core busy' if busy else 'idle'} | {default:.3g} "
                    f"({spread['defaults']}) | {pinned:.3g} ({spread['pinned']}) | "
                    f"{ratio:.2f} | {'met' if ratio <= 1.5 else '**not met**'} |"
                )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ks", type=int, nargs="+", default=[3, 10, 40, 136, 500, 1000])
    parser.add_argument("--categories", nargs="+", default=list(CATEGORIES), choices=CATEGORIES)
    parser.add_argument("--peers", nargs="+", default=list(PEERS), choices=PEERS)
    parser.add_argument("--repeats", type=int, default=5, help="timed rounds (>= 5)")
    parser.add_argument("--seed", type=int, default=2015)
    parser.add_argument("--csv", type=Path, help="write the full table as CSV")
    parser.add_argument("--markdown", type=Path, help="write the summary table as Markdown")
    parser.add_argument(
        "--render",
        type=Path,
        nargs="+",
        help="only write --markdown from these --csv outputs (runs split over processes)",
    )
    parser.add_argument(
        "--busy-core", action="store_true", help="keep one core busy with another process"
    )
    parser.add_argument(
        "--threads",
        action="store_true",
        help="only the thread targets, idle and with a busy core, defaults against one thread",
    )
    args = parser.parse_args()
    if args.repeats < 5:
        parser.error("--repeats must be at least 5")
    if args.render:
        table = pd.concat([pd.read_csv(path) for path in args.render], ignore_index=True)
        peers = [p for p in PEERS if f"{p}_ms" in table]
        order = table["category"].map(CATEGORIES.index)
        summary = markdown(table.assign(order=order).sort_values(["K", "order"]), peers)
        print(summary)
        if args.markdown:
            write_text(args.markdown, summary)
        return
    set_variables = [name for name in THREAD_VARIABLES if name in os.environ]
    if set_variables:
        parser.error(
            f"{', '.join(set_variables)} set: the table measures the machine's defaults; "
            "unset them (the one-thread columns are pinned by the benchmark itself)"
        )
    if args.threads:
        summary = thread_table(args.repeats, args.seed)
        print(summary)
        if args.markdown:
            write_text(args.markdown, summary)
        return
    root = data_root()
    real = {
        "MSLR": as_skew(load_matrix(root / DATA_FILES["mslr_informational"].mirror_path), "auto"),
        "ATP": atp_matrix(root),
        "PrefLib": preflib_matrices(root),
    }
    peers = {name: prepare for name, prepare in peer_solvers().items() if name in args.peers}
    rng = np.random.default_rng(args.seed)
    rows = []
    with busy_core(args.busy_core):
        for k in args.ks:
            n = 20 if k <= 40 else 5 if k <= 136 else 2 if k <= 500 else 1
            for category in args.categories:
                matrices = sample(category, k, n, rng, real)
                if not matrices:
                    continue
                row = benchmark_cell(matrices, args.repeats, peers)
                rows.append({"category": category, "K": k, **row})
                print(f"K = {k}, {category}: {row['cdbandits_ms']:.3g} ms per call", flush=True)
    table = pd.DataFrame(rows)
    summary = markdown(table, [p for p in PEERS if p in peers])
    print(summary)
    if args.csv:
        write_csv(args.csv, table)
    if args.markdown:
        write_text(args.markdown, summary)


if __name__ == "__main__":
    main()
