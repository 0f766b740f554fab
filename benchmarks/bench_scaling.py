"""Time and memory against |Pi|: SparringEXP4.P against the oracle methods, side by side.

Run from the repository root::

    .venv/bin/python benchmarks/bench_scaling.py [--sizes 100 1000 10000 100000 1000000]
        [--rounds 2000] [--fpl-rounds 100] [--pgd-iterations 8] [--repeats 1] [--output FILE.md]

Every measurement runs in a new process (:func:`cdbandits.experiments.oracle.scaling.measure`):
decision stumps with ``|Pi| = d (n_bins - 1) K^2`` (``d = 4``, ``K = 5``), a synthetic
population of 200 contexts, the same data budget ``T = m = --rounds`` for every method.
SparringEXP4.P needs the action table and a weight per policy (linear in ``|Pi|``); SparringFPL
and ProjectedGD use the exact compressed stump oracle, whose calls do not depend on
``|Pi|``; ``fpl_learned`` uses a scikit-learn stump as oracle. Printed (and written as a
markdown file with ``--output``): seconds, peak MB above the process's size before the run,
the achieved exploitability in ``M``, and from which ``|Pi|`` on each oracle method beats
SparringEXP4.P in time and in memory. The workflow's ``measure_oracle_scaling`` rule runs the
same measurements on the config's sizes.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from cdbandits.experiments.oracle.jobs import ScalingSettings
from cdbandits.experiments.oracle.scaling import scaling_table
from cdbandits.experiments.oracle.tables import scaling_crossovers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000, 100000, 1000000])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--fpl-rounds", type=int, default=100)
    parser.add_argument("--pgd-iterations", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--seed", type=int, default=20150703)
    parser.add_argument("--output", type=Path)
    arguments = parser.parse_args()
    settings = ScalingSettings(
        delta=0.05,
        n_actions=5,
        n_features=4,
        n_contexts=200,
        intransitivity=0.7,
        class_sizes=tuple(arguments.sizes),
        explore_rounds=arguments.rounds,
        fpl_rounds=arguments.fpl_rounds,
        pgd_iterations=arguments.pgd_iterations,
        repeats=arguments.repeats,
    )
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    table = scaling_table(settings, arguments.seed)
    medians = table.groupby(["n_policies", "method"])[["seconds", "peak_mb", "exploitability"]]
    report = medians.median().unstack("method").to_string(float_format="{:.3g}".format)
    crossovers = scaling_crossovers(table).to_string(index=False, float_format="{:.3g}".format)
    text = f"```\n{report}\n```\n\nCrossovers against SparringEXP4.P:\n\n```\n{crossovers}\n```\n"
    print(text)
    if arguments.output:
        arguments.output.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
