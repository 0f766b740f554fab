"""Time and memory against ``|Pi|``: SparringEXP4.P against the oracle methods, side by side.

The class is :class:`~cdbandits.contextual.policies.DecisionStumps` with
``|Pi| = d (n_bins - 1) K^2``, grown through ``n_bins``; the environment a synthetic
population. Every method gets the same data budget ``T = m`` rounds and outputs a mixture
over policies:

* ``sparring_exp4p``: SparringEXP4.P for ``T`` rounds (its online-to-batch average). It needs
  every policy's advice on every context (the action table, ``n_contexts x |Pi|`` bytes)
  and keeps weights for every policy: time and memory linear in ``|Pi|``;
* ``fpl`` and ``pgd``: ``m`` rounds of uniform exploration, then SparringFPL or ProjectedGD
  with the exact :class:`~cdbandits.oracle_methods.stump_oracle.CompressedStumpOracle`,
  whose calls cost ``O(m d K^2)`` whatever ``n_bins``: only locating each context's bin
  grows with ``|Pi|`` (logarithmically);
* ``fpl_learned``: the same FPL with a scikit-learn decision stump (weighted multiclass
  reduction) as oracle.

Each measurement runs in its own process, forked from a fresh interpreter that has imported
the library (:class:`MeasurementServer`), so that measurements share no allocations or
caches: a warm-up on the smallest class loads the compiled kernels, the peak resident set
size is reset (``/proc/self/clear_refs``), and then the method is timed from building what
it needs (table or oracle) to its output.
``peak_mb`` is the peak resident memory above the process's size before the method started.
The output's exploitability in ``M`` is computed afterwards, exactly, with the compressed
oracle on the population (not timed). Every repeat of a measurement runs the same
computation (the same random stream), so the repeats show how much time and memory vary.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import subprocess
import sys
import time
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ...contextual.environments import StochasticEnvironment, synthetic_intransitive_population
from ...contextual.exp4p import SparringExp4P
from ...contextual.oracle import ActionTable
from ...contextual.policies import DecisionStumps
from ...contextual.regret import contextual_exploitability
from ...oracle_methods.compact_game import CompactGame
from ...oracle_methods.exploration import explore, uniform_exploration
from ...oracle_methods.fpl import SparringFPL
from ...oracle_methods.learned_oracle import LearnedOracle
from ...oracle_methods.oracles import ExactOracle, PolicyOracle
from ...oracle_methods.pgd import ProjectedGD
from ...oracle_methods.stump_oracle import CompressedStumpOracle
from ...randomness import named_generator
from .jobs import ScalingSettings
from .learners import learned_estimator

__all__ = [
    "SCALING_COLUMNS",
    "SCALING_METHODS",
    "MeasurementServer",
    "measure",
    "measure_here",
    "scaling_table",
    "serve",
]

logger = logging.getLogger(__name__)

#: The methods compared, by the names used in the tables.
SCALING_METHODS = ("sparring_exp4p", "fpl", "pgd", "fpl_learned")

#: Policies per chunk when building SparringEXP4.P's action table.
_TABLE_CHUNK = 65536


def _status_kb(field: str) -> int:
    """A memory field of ``/proc/self/status`` (``VmHWM``: peak, ``VmRSS``: current), kB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
    raise RuntimeError(f"/proc/self/status has no {field} line")


def _reset_peak() -> bool:
    """Reset the peak RSS to the current RSS (Linux >= 4.0); ``False`` if not allowed."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
            clear.write("5")
    except OSError:
        return False
    return True


def _action_table(stumps: DecisionStumps, X: NDArray[np.float64]) -> ActionTable:
    """The stumps' action table, filled in chunks of policies.

    :meth:`DecisionStumps.actions` on the whole class at once makes ``int64`` temporaries
    of ``8 n |Pi|`` bytes; chunking keeps the peak near the table's own ``n |Pi|`` bytes,
    the memory SparringEXP4.P actually needs for its advice.
    """
    actions = np.empty((X.shape[0], stumps.n_policies), dtype=np.uint8)
    for start in range(0, stumps.n_policies, _TABLE_CHUNK):
        ids = np.arange(start, min(stumps.n_policies, start + _TABLE_CHUNK))
        actions[:, ids] = stumps.actions(X, ids)
    return ActionTable(actions, stumps.n_actions)


def _distributions(
    actions: NDArray[np.uint8], weights: NDArray[np.float64], uniform: float, n_actions: int
) -> NDArray[np.float64]:
    """Per context, the mixture's action distribution (one pass per context row)."""
    rows = [np.bincount(row, weights=weights, minlength=n_actions) for row in actions]
    return np.stack(rows) + uniform / n_actions


def _run(
    method: str,
    environment: StochasticEnvironment,
    stumps: DecisionStumps,
    settings: ScalingSettings,
    rng: np.random.Generator,
) -> tuple[NDArray[np.uint8], NDArray[np.float64], float]:
    """Run one method; return the output's (actions on the population, weights, uniform weight)."""
    features = environment.contexts
    rounds = settings.explore_rounds
    if method == "sparring_exp4p":
        table = _action_table(stumps, features)
        sparring = SparringExp4P(table, settings.delta)
        sparring.run(environment, rounds, rng)
        weights, uniform = sparring.mean_policy_distribution()
        return table.actions, weights, uniform
    scheme = uniform_exploration(stumps.n_actions)
    explore_rng, solver_rng = rng.spawn(2)
    sample = explore(environment, scheme, rounds, explore_rng)
    game = CompactGame.from_sample(sample, scheme)
    oracle: PolicyOracle
    if method == "fpl_learned":
        oracle = LearnedOracle(
            learned_estimator("tree_on_bins", stumps),
            features,
            sample.context_ids,
            stumps.n_actions,
        )
    else:
        oracle = ExactOracle(
            stumps, features, sample.context_ids, lambda X: CompressedStumpOracle(stumps, X)
        )
    if method == "pgd":
        iterations = settings.pgd_iterations
        solver: Any = ProjectedGD(n_outer=iterations, n_inner=iterations).fit(game, oracle)
    elif method in ("fpl", "fpl_learned"):
        solver = SparringFPL(n_rounds=settings.fpl_rounds).fit(game, oracle, solver_rng)
    else:
        raise ValueError(f"method must be one of {SCALING_METHODS}; got {method!r}")
    mixture = solver.row_mixture_
    return oracle.actions(features, mixture.policies), mixture.weights, 0.0


def measure_here(
    method: str, settings: ScalingSettings, class_size: int, seed: int
) -> dict[str, Any]:
    """One measurement in the current process (meant for a new one: :func:`measure`).

    Parameters
    ----------
    method : str
        One of :data:`SCALING_METHODS`.
    settings : ScalingSettings
        The population, budgets and ``delta``.
    class_size : int
        ``|Pi|``.
    seed : int
        Master seed; the population and the run come from the stream
        ``(id("oracle"), id("scaling"), |Pi|)``.

    Returns
    -------
    dict
        ``method``, ``n_policies``, ``seconds``, ``peak_mb``, ``peak_reset`` (whether the peak
        could be reset before the run), ``exploitability``.
    """
    k, d = settings.n_actions, settings.n_features
    rng = named_generator(seed, "oracle", "scaling", class_size)
    population_rng, warm_rng, run_rng = rng.spawn(3)
    population = synthetic_intransitive_population(
        k, d, settings.n_contexts, settings.intransitivity, population_rng
    )
    environment = StochasticEnvironment(population)
    smallest = DecisionStumps(k, 2).fit(population.features)
    warm_up = dataclasses.replace(settings, explore_rounds=50, fpl_rounds=2, pgd_iterations=2)
    _run(method, environment, smallest, warm_up, warm_rng)
    stumps = DecisionStumps(k, settings.stump_bins(class_size)).fit(population.features)
    reset = _reset_peak()
    before = _status_kb("VmRSS") if reset else _status_kb("VmHWM")
    start = time.perf_counter()
    actions, weights, uniform = _run(method, environment, stumps, settings, run_rng)
    seconds = time.perf_counter() - start
    peak_mb = (_status_kb("VmHWM") - before) / 1024.0
    distributions = _distributions(actions, weights, uniform, k)
    evaluator = CompressedStumpOracle(stumps, population.features)
    exploitability = -contextual_exploitability(population, evaluator, distributions)
    return {
        "method": method,
        "n_policies": class_size,
        "seconds": seconds,
        "peak_mb": peak_mb,
        "peak_reset": reset,
        "exploitability": exploitability,
    }


class MeasurementServer:
    """A fresh Python process that forks one child per measurement (a context manager).

    The server (``python -m`` this module) imports the library once, with one thread for the
    numerical libraries, and then forks a child for each request: every measurement starts
    from the state of a fresh interpreter after its imports, shares no allocation or cache
    with any other measurement, and does not pay the imports again. (A fork of the calling
    process would not do: the child would reuse the caller's freed memory without it showing
    in its resident size.)
    """

    def __enter__(self) -> MeasurementServer:
        single_thread = {
            name: "1"
            for name in (
                "OMP_NUM_THREADS",
                "OPENBLAS_NUM_THREADS",
                "MKL_NUM_THREADS",
                "NUMBA_NUM_THREADS",
            )
        }
        self._process = subprocess.Popen(
            [sys.executable, "-m", __name__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=os.environ | single_thread,
        )
        return self

    def __exit__(self, *exception: object) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait()

    def measure(
        self, method: str, settings: ScalingSettings, class_size: int, seed: int
    ) -> dict[str, Any]:
        """:func:`measure_here` in a child of the server."""
        assert self._process.stdin is not None and self._process.stdout is not None
        request = {
            "method": method,
            "settings": dataclasses.asdict(settings),
            "class_size": class_size,
            "seed": seed,
        }
        self._process.stdin.write(json.dumps(request) + "\n")
        self._process.stdin.flush()
        answer = json.loads(self._process.stdout.readline() or '{"error": "no answer"}')
        if "error" in answer:
            raise RuntimeError(
                f"the {method} measurement at |Pi| = {class_size} failed: {answer['error']}"
            )
        return answer


def measure(method: str, settings: ScalingSettings, class_size: int, seed: int) -> dict[str, Any]:
    """:func:`measure_here` in a new process (one :class:`MeasurementServer` request)."""
    with MeasurementServer() as server:
        return server.measure(method, settings, class_size, seed)


#: Columns of :func:`scaling_table`.
SCALING_COLUMNS = (
    "method",
    "n_policies",
    "repeat",
    "seconds",
    "peak_mb",
    "peak_reset",
    "exploitability",
)


def scaling_table(settings: ScalingSettings, seed: int) -> pd.DataFrame:
    """Every method at every class size, ``settings.repeats`` times, each in its own process.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`SCALING_COLUMNS`; no rows when no class size is configured.
    """
    rows: list[dict[str, Any]] = []
    if not settings.class_sizes:
        return pd.DataFrame(rows, columns=list(SCALING_COLUMNS))
    with MeasurementServer() as server:
        for repeat in range(settings.repeats):
            for class_size in settings.class_sizes:
                for method in SCALING_METHODS:
                    result = server.measure(method, settings, class_size, seed)
                    rows.append(result | {"repeat": repeat})
                    logger.info("%s", rows[-1])
    return pd.DataFrame(rows, columns=list(SCALING_COLUMNS))


def _answer(request: dict[str, Any]) -> str:
    """The JSON answer to one request: the measurement, or the error that stopped it."""
    fields = request["settings"]
    settings = ScalingSettings(**fields | {"class_sizes": tuple(fields["class_sizes"])})
    try:
        result = measure_here(
            request["method"], settings, int(request["class_size"]), int(request["seed"])
        )
    except Exception as error:  # reported to the caller, which raises it
        return json.dumps({"error": repr(error)})
    return json.dumps(result)


def serve() -> None:
    """The server's loop: per JSON request on stdin, fork a child that measures, and pass
    its JSON answer on to stdout."""
    for line in sys.stdin:
        read, write = os.pipe()
        child = os.fork()
        if child == 0:
            os.close(read)
            with os.fdopen(write, "w") as answer:
                answer.write(_answer(json.loads(line)))
            os._exit(0)
        os.close(write)
        with os.fdopen(read) as answer:
            text = answer.read()
        os.waitpid(child, 0)
        print(text or '{"error": "the measuring process died"}', flush=True)


if __name__ == "__main__":
    serve()
