"""Time von Neumann winner solvers per matrix on random K-subsets of an MSLR matrix.

Every method solves the *same* matrices and returns a polished, certified vNW:

* ``reference``: :func:`cdbandits.winners.von_neumann_winner` (Condorcet shortcut, then a
  cvxpy LP per matrix and the exact polish);
* ``cvxpy``: a new cvxpy problem per matrix, default solver, no Condorcet shortcut;
* ``cvxpy_parameter``: one cvxpy problem per K with the matrix as a ``cp.Parameter``
  (DPP: compiled once, re-solved per matrix);
* ``highs``: ``scipy.optimize.linprog(method="highs")`` per matrix;
* ``batched``: :func:`cdbandits.batched.subset_von_neumann_winners` on the same matrices,
  repeated to a batch of at least ``--batch`` rows (as the appendix calls it: thousands of
  matrices per call, so the fixed cost of a call is shared); the best of ``--repeats``
  calls, after a warm-up that loads the compiled code.

The LP methods are polished with :func:`cdbandits.winners.polish_von_neumann` on the
support given by complementary slackness, after scaling the matrix to ``max |P| = 1``, as the
reference does, so all rows time the same deliverable; a solution that still fails the
certificate is counted in the ``uncertified`` column (the reference would then retry with
HiGHS). Ratios are (method time) / (batched time). With ``--without-condorcet`` only
sub-matrices without a Condorcet winner are used (the cases that need an LP; at small K most
random sub-matrices have one). The machine's other load makes the
numbers noisy; they are what was measured.

Run: ``.venv/bin/python benchmarks/bench_von_neumann.py --markdown bench.md --csv bench.csv``
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path

import cvxpy as cp
import numba
import numpy as np
import pandas as pd
import scipy.optimize

from cdbandits.batched import METHODS, subset_von_neumann_winners
from cdbandits.datasets import DATA_FILES
from cdbandits.experiments.appendix.sampling import sample_subsets
from cdbandits.files import write_csv, write_text
from cdbandits.matrix_io import load_matrix
from cdbandits.preference import as_skew
from cdbandits.winners import (
    CERTIFICATE_TOL,
    exploitability,
    polish_von_neumann,
    von_neumann_winner,
)

Solver = Callable[[np.ndarray], np.ndarray]


def default_matrix() -> Path:
    """The informational MSLR matrix in $CDBANDITS_DATA_MIRROR, else in ../shared/data."""
    mirror = os.environ.get("CDBANDITS_DATA_MIRROR")
    root = Path(mirror) if mirror else Path(__file__).resolve().parents[1].parent / "shared/data"
    return root / DATA_FILES["mslr_informational"].mirror_path


def scaled(P: np.ndarray) -> np.ndarray:
    """``P / max |P|``, as the reference scales before its LP (solver tolerances are absolute)."""
    return P / np.abs(P).max()


def polished(P: np.ndarray, raw: np.ndarray) -> np.ndarray:
    """The reference's polish of an LP solution; NaNs if it fails the certificate."""
    weights = polish_von_neumann(P, raw, np.flatnonzero(raw > P.T @ raw))
    if not exploitability(P, weights) >= -CERTIFICATE_TOL:
        return np.full(P.shape[0], np.nan)
    return weights


def solve_cvxpy(P: np.ndarray) -> np.ndarray:
    k = P.shape[0]
    w = cp.Variable(k, nonneg=True)
    t = cp.Variable()
    cp.Problem(cp.Maximize(t), [scaled(P).T @ w >= t, cp.sum(w) == 1]).solve()
    return polished(P, np.asarray(w.value))


def parameter_solver(k: int) -> Solver:
    """A cvxpy problem compiled once for K x K matrices; each call re-solves it."""
    matrix = cp.Parameter((k, k))
    w = cp.Variable(k, nonneg=True)
    t = cp.Variable()
    problem = cp.Problem(cp.Maximize(t), [matrix.T @ w >= t, cp.sum(w) == 1])
    assert problem.is_dpp()

    def solve(P: np.ndarray) -> np.ndarray:
        matrix.value = scaled(P)
        problem.solve()
        return polished(P, np.asarray(w.value))

    return solve


def solve_highs(P: np.ndarray) -> np.ndarray:
    k = P.shape[0]
    result = scipy.optimize.linprog(
        np.r_[np.zeros(k), -1.0],
        A_ub=np.c_[-scaled(P).T, np.ones(k)],
        b_ub=np.zeros(k),
        A_eq=np.r_[np.ones(k), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * k + [(None, None)],
        method="highs",
    )
    if result.status != 0:
        raise RuntimeError(f"HiGHS failed: {result.message}")
    return polished(P, result.x[:k])


def solve_reference(P: np.ndarray) -> np.ndarray:
    return von_neumann_winner(P).weights


def time_per_problem(solver: Solver, matrices: list[np.ndarray]) -> tuple[float, np.ndarray]:
    start = time.perf_counter()
    weights = np.stack([solver(P) for P in matrices])
    return (time.perf_counter() - start) / len(matrices), weights


def sample_without_condorcet(P: np.ndarray, k: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` random K-subsets whose sub-matrix has no Condorcet winner."""
    kept = np.empty((0, k), dtype=np.int64)
    while kept.shape[0] < n:
        subsets = sample_subsets(rng, P.shape[0], k, 20 * n)
        solved = subset_von_neumann_winners(P, subsets)
        kept = np.concatenate([kept, subsets[solved.method != METHODS.index("condorcet")]])
    return kept[:n]


def benchmark_k(
    P: np.ndarray,
    k: int,
    n: int,
    batch: int,
    repeats: int,
    rng: np.random.Generator,
    without_condorcet: bool,
) -> list[dict[str, object]]:
    if without_condorcet:
        subsets = sample_without_condorcet(P, k, n, rng)
    else:
        subsets = sample_subsets(rng, P.shape[0], k, n)
    matrices = [P[np.ix_(arms, arms)] for arms in subsets]
    batched = subset_von_neumann_winners(P, subsets)  # also loads the compiled code
    copies = np.tile(subsets, (-(-batch // n), 1))
    batched_seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        subset_von_neumann_winners(P, copies)
        batched_seconds.append((time.perf_counter() - start) / copies.shape[0])
    batched_time = min(batched_seconds)
    methods = {
        "reference": solve_reference,
        "cvxpy": solve_cvxpy,
        "cvxpy_parameter": parameter_solver(k),
        "highs": solve_highs,
    }
    timings = {name: time_per_problem(solver, matrices) for name, solver in methods.items()}
    _, cvxpy_weights = timings["cvxpy"]
    share = batched.method_counts()
    rows = []
    for name, (seconds, weights) in [
        *timings.items(),
        ("batched", (batched_time, batched.weights)),
    ]:
        rows.append(
            {
                "K": k,
                "method": name,
                "matrices": n,
                "microseconds_per_matrix": seconds * 1e6,
                "ratio_to_batched": seconds / batched_time,
                "uncertified": int(np.isnan(weights).any(axis=1).sum()),
                "max_abs_weight_difference_to_cvxpy": float(
                    np.nanmax(np.abs(weights - cvxpy_weights))
                ),
                "batched_share_condorcet": share["condorcet"] / n,
                "batched_share_double_oracle": share["double_oracle"] / n,
            }
        )
    return rows


def markdown(table: pd.DataFrame) -> str:
    """Table of times and ratios to the batched solver, one row per K."""
    times = table.pivot(index="K", columns="method", values="microseconds_per_matrix")
    order = ["cvxpy", "cvxpy_parameter", "highs", "reference", "batched"]
    lines = [
        "| K | "
        + " | ".join(f"{m} (us)" for m in order)
        + " | cvxpy / batched | cvxpy_parameter / batched | highs / batched | "
        "share solved by double oracle |",
        "|---" * (len(order) + 5) + "|",
    ]
    share = table.groupby("K")["batched_share_double_oracle"].first()
    for k, row in times.iterrows():
        cells = [f"{row[m]:.3g}" for m in order]
        ratios = [f"{row[m] / row['batched']:,.0f}x" for m in ("cvxpy", "cvxpy_parameter", "highs")]
        lines.append(f"| {k} | " + " | ".join(cells + ratios) + f" | {share[k]:.1%} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--matrix",
        type=Path,
        default=default_matrix(),
        help="preference matrix file (default: informational MSLR matrix)",
    )
    parser.add_argument("--ks", type=int, nargs="+", default=[5, 10, 20, 50, 136])
    parser.add_argument("--n", type=int, default=200, help="matrices per K")
    parser.add_argument(
        "--batch", type=int, default=20_000, help="rows per batched call (the n matrices repeated)"
    )
    parser.add_argument("--repeats", type=int, default=5, help="timed calls of the batched solver")
    parser.add_argument("--seed", type=int, default=2015)
    parser.add_argument(
        "--without-condorcet",
        action="store_true",
        help="time only sub-matrices without a Condorcet winner (the LP cases)",
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="numba threads of the batched solver"
    )
    parser.add_argument("--csv", type=Path, help="write the full table as CSV")
    parser.add_argument("--markdown", type=Path, help="write the summary as Markdown")
    args = parser.parse_args()

    numba.set_num_threads(args.threads)
    P = as_skew(load_matrix(args.matrix), "auto")
    rng = np.random.default_rng(args.seed)
    rows = []
    for k in args.ks:
        rows.extend(
            benchmark_k(P, k, args.n, args.batch, args.repeats, rng, args.without_condorcet)
        )
        print(f"K = {k}: done", flush=True)
    table = pd.DataFrame(rows)
    summary = markdown(table)
    print(summary)
    print("batched methods:", ", ".join(METHODS), "| max |w - w_cvxpy| per method:")
    print(
        table.groupby("method")[["max_abs_weight_difference_to_cvxpy", "uncertified"]]
        .max()
        .to_string()
    )
    if args.csv:
        write_csv(args.csv, table)
    if args.markdown:
        write_text(args.markdown, summary)


if __name__ == "__main__":
    main()
