"""Time the exact classification oracle and Exp4.P against their baselines.

Run from the repository root::

    .venv/bin/python benchmarks/bench_oracle.py [--policies 100000] [--contexts 10000]
        [--actions 5] [--output FILE.md]

Measures, on a random action table (actions uniform in 0..K-1, the worst case for any
compression) of ``--policies`` policies on ``--contexts`` contexts:

1. :class:`~cdbandits.contextual.oracle.TableOracle` (packed table, one pass) per call, and
   per call of a batch of two cost tables (what SparringFPL asks per round);
2. a naive numpy gather ``costs[i, table[i, pi]]`` summed over contexts (in chunks of
   contexts, to bound memory);
3. the streaming floor: the time to read the table once (``numpy.max`` over its bytes),
   for the raw ``uint8`` table and for the packed copy the oracle reads;
4. the structured :class:`~cdbandits.contextual.policies.StumpOracle` on a stump class of
   similar size (``500`` features, ``9`` bins);
5. the time per round of the compiled SparringEXP4.P episode for class sizes 1e2 to 1e6
   (``--exp4p-contexts`` contexts), which is linear in ``|Pi|``.

Times are the best of ``--repeats`` after a warm-up; the machine's other load makes them
noisy. The issue's reference on this machine (|Pi| = 1e5, m = 1e4, K = 5): naive gather
3.6 s, packed numba loop 0.08 s, streaming the table once 0.034 s.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from cdbandits.contextual.environments import ContextPopulation, StochasticEnvironment
from cdbandits.contextual.exp4p import SparringExp4P
from cdbandits.contextual.oracle import ActionTable, TableOracle
from cdbandits.contextual.policies import DecisionStumps

ISSUE_REFERENCE = {"naive gather": 3.6, "packed numba loop": 0.08, "streaming floor": 0.034}


def best_time(function: Callable[[], object], repeats: int) -> float:
    """Best wall time of ``repeats`` calls after one warm-up call."""
    function()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def naive_gather(actions: np.ndarray, costs: np.ndarray, chunk: int = 100) -> np.ndarray:
    """``sum_i costs[i, actions[i, pi]]`` by numpy fancy indexing, ``chunk`` contexts at once."""
    totals = np.zeros(actions.shape[1])
    for start in range(0, actions.shape[0], chunk):
        rows = np.arange(start, min(actions.shape[0], start + chunk))
        totals += costs[rows[:, None], actions[rows]].sum(axis=0)
    return totals


def bench_oracle(n_policies: int, n_contexts: int, n_actions: int, repeats: int) -> list[tuple]:
    rng = np.random.default_rng(0)
    actions = rng.integers(0, n_actions, (n_contexts, n_policies), dtype=np.uint8)
    costs = rng.standard_normal((n_contexts, n_actions))
    start = time.perf_counter()
    oracle = TableOracle(ActionTable(actions, n_actions))
    packing = time.perf_counter() - start
    oracle_time = best_time(lambda: oracle.argmin(costs), repeats)
    batch = np.stack([costs, -costs])
    batch_time = best_time(lambda: oracle.argmin_batch(batch), repeats) / 2
    naive_time = best_time(lambda: naive_gather(actions, costs), 1)
    np.testing.assert_allclose(oracle.total_costs(costs), naive_gather(actions, costs), atol=1e-9)
    raw_floor = best_time(lambda: actions.max(), repeats)
    packed_floor = best_time(lambda: oracle.packed.max(), repeats)

    features = rng.standard_normal((n_contexts, 500))
    stumps = DecisionStumps(n_actions, n_bins=9).fit(features)
    stump_oracle = stumps.oracle(features)
    stump_time = best_time(lambda: stump_oracle.argmin(costs), repeats)

    return [
        ("packing the table (once)", packing, None),
        ("TableOracle.argmin", oracle_time, oracle_time / raw_floor),
        ("TableOracle.argmin_batch, per cost table (B = 2)", batch_time, batch_time / raw_floor),
        ("naive numpy gather", naive_time, naive_time / raw_floor),
        ("streaming floor: read the uint8 table once", raw_floor, 1.0),
        ("streaming floor: read the packed table once", packed_floor, packed_floor / raw_floor),
        (f"StumpOracle.argmin (|Pi| = {stumps.n_policies})", stump_time, stump_time / raw_floor),
    ]


def bench_exp4p(sizes: list[int], n_contexts: int, n_actions: int, repeats: int) -> list[tuple]:
    rng = np.random.default_rng(1)
    upper = np.triu(rng.uniform(-1, 1, (n_contexts, n_actions, n_actions)), 1)
    population = ContextPopulation(
        rng.standard_normal((n_contexts, 2)),
        upper - upper.transpose(0, 2, 1),
        np.full(n_contexts, 1.0 / n_contexts),
    )
    environment = StochasticEnvironment(population)
    rows = []
    for size in sizes:
        table = ActionTable(
            rng.integers(0, n_actions, (n_contexts, size), dtype=np.uint8), n_actions
        )
        rounds = max(200, int(2e7 // size))
        sparring = SparringExp4P(table)
        seconds = best_time(
            lambda s=sparring, t=rounds: s.run(environment, t, np.random.default_rng(2)), repeats
        )
        rows.append((size, rounds, seconds / rounds * 1e6, seconds / rounds / size * 1e9))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--policies", type=int, default=100_000)
    parser.add_argument("--contexts", type=int, default=10_000)
    parser.add_argument("--actions", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--exp4p-contexts", type=int, default=200)
    parser.add_argument(
        "--exp4p-sizes", type=int, nargs="+", default=[100, 1000, 10**4, 10**5, 10**6]
    )
    parser.add_argument("--output", type=Path, help="also write the tables as markdown")
    arguments = parser.parse_args()

    oracle_rows = bench_oracle(
        arguments.policies, arguments.contexts, arguments.actions, arguments.repeats
    )
    lines = [
        f"## Oracle, |Pi| = {arguments.policies}, m = {arguments.contexts}, "
        f"K = {arguments.actions}",
        "",
        "| what | seconds per call | / raw streaming floor |",
        "|---|---:|---:|",
    ]
    for name, seconds, ratio in oracle_rows:
        lines.append(f"| {name} | {seconds:.4f} | {'' if ratio is None else f'{ratio:.2f}'} |")
    measured = dict((name, seconds) for name, seconds, _ in oracle_rows)
    oracle_time = measured["TableOracle.argmin"]
    lines += [
        "",
        f"Naive gather / oracle: {measured['naive numpy gather'] / oracle_time:.1f}x. "
        f"Oracle / issue's streaming floor ({ISSUE_REFERENCE['streaming floor']} s): "
        f"{oracle_time / ISSUE_REFERENCE['streaming floor']:.2f}x (target <= 5x). "
        f"Oracle / issue's packed numba loop ({ISSUE_REFERENCE['packed numba loop']} s): "
        f"{oracle_time / ISSUE_REFERENCE['packed numba loop']:.2f}x.",
        "",
        f"## SparringEXP4.P episode, {arguments.exp4p_contexts} contexts, K = {arguments.actions}",
        "",
        "| policies | rounds timed | microseconds per round | ns per policy per round |",
        "|---:|---:|---:|---:|",
    ]
    for size, rounds, per_round, per_policy in bench_exp4p(
        arguments.exp4p_sizes, arguments.exp4p_contexts, arguments.actions, 1
    ):
        lines.append(f"| {size} | {rounds} | {per_round:.1f} | {per_policy:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if arguments.output is not None:
        arguments.output.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
