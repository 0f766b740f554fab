"""The oracle-method sweeps of Sections 6-8: one function per trial, sharded by the workflow.

Every sweep runs on one fixed environment (a synthetic intransitive population with a
decision-stump class small enough for the ground-truth LPs, :func:`build_setting`); trials
differ in their random streams only. Experiments (:data:`EXPERIMENTS`):

* ``explore_first`` (Lemma eq. (f2), Lemma explore-first, Theorem main-eps, and the paper's
  estimator against the skew-symmetrised one): per estimator, ``m`` and seed, explore, form
  ``Mhat``, measure ``max |Mhat - M|``, and solve the compact game three ways: the exact LP
  maxmin of ``Mhat`` (cvxpy), SparringFPL and ProjectedGD at practical budgets; record
  each output's exploitability in ``M`` and every bound at the parameters used.
* ``solvers`` (Theorem fpl, Lemma proj-out1, Theorem proj-out2, Theorem approx-proj): per
  seed, one game; FPL for each ``N`` (with the theory's ``alpha`` for that ``N``) and PGD
  for each ``T_in = T_out``, every projection audited; gaps measured against the LP value.
* ``regret`` (Theorem main-regret): per horizon and seed, explore-then-exploit with
  Theorem main-regret's ``m``, the game solved by FPL at a practical budget and, as the
  ``eps_alg -> 0`` limit, by the exact LP; SparringEXP4.P on the same environment.
* ``learned``: FPL and PGD with off-the-shelf scikit-learn oracles, audited against the exact
  oracle.

Randomness: ``SeedSequence(seed, spawn_key=key)`` with named keys (``id`` a stable 32-bit
hash): the population from ``(id("oracle"), id("population"))``; a trial from
``(id("oracle"), id(experiment), seed index, *parameters)``. Results do not depend on the
sharding (:func:`experiment_tasks` lists every trial; shard ``s`` runs trials
``s, s + S, ...``).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from ..contextual.bounds import sparring_exp4p_regret_bound
from ..contextual.environments import (
    ContextPopulation,
    StochasticEnvironment,
    synthetic_intransitive_population,
)
from ..contextual.exp4p import SparringExp4P
from ..contextual.oracle import ActionTable, ClassificationOracle
from ..contextual.policies import DecisionStumps
from ..contextual.regret import (
    contextual_exploitability,
    mixture_action_distributions,
    policy_matrix,
    regret_curve,
)
from ..randomness import named_generator
from .bounds import (
    approx_project_factor,
    deviation_bound,
    explore_exploit_regret_bound,
    fpl_gap_bound,
    main_eps_bound,
    pgd_bound,
    pgd_outer_bound,
)
from .compact_game import CompactGame
from .exploration import (
    ExplorationSample,
    FixedExploration,
    explore,
    skew_symmetric_exploration,
    uniform_exploration,
)
from .explore_exploit import explore_then_exploit
from .fpl import SparringFPL
from .ground_truth import MaxminSolution, maxmin_strategy, policy_game_matrix
from .hull import (
    ExactOracle,
    PolicyMixture,
    PolicyOracle,
    column_security,
    duality_gap,
    row_security,
)
from .learned_oracle import AuditedOracle, LearnedOracle
from .parameters import explore_exploit_rounds, statistics_delta
from .pgd import ProjectedGD

__all__ = [
    "EXPERIMENTS",
    "EXPERIMENT_KEYS",
    "ExactMaxminSolver",
    "combine_shards",
    "explore_first_trial",
    "learned_estimator",
    "learned_trial",
    "regret_trial",
    "scheme_of",
    "solvers_trial",
    "LEARNED_ORACLES",
    "OracleSetting",
    "build_setting",
    "experiment_tasks",
    "run_oracle_shard",
]

logger = logging.getLogger(__name__)

#: The sharded experiments, in the order of the module docstring.
EXPERIMENTS = ("explore_first", "solvers", "regret", "learned")

#: Columns identifying a row of each experiment (the combined tables are sorted by them).
EXPERIMENT_KEYS = {
    "explore_first": ("estimator", "n_explore", "solver", "seed"),
    "solvers": ("algorithm", "budget", "seed"),
    "regret": ("algorithm", "horizon", "seed"),
    "learned": ("oracle", "algorithm", "seed"),
}

#: The scikit-learn oracles of the ``learned`` experiment: name -> (reduction, description).
LEARNED_ORACLES = {
    "tree_on_bins": ("weighted_multiclass", "depth-1 decision tree on the stumps' bins (a stump)"),
    "regression_on_bins": ("cost_regression", "one depth-1 regression tree per action on the bins"),
    "tree_depth2": ("weighted_multiclass", "depth-2 decision tree on the raw features"),
}


def scheme_of(estimator: str, n_actions: int) -> FixedExploration:
    """The uniform scheme of an estimator name of :data:`~.exploration.ESTIMATORS`."""
    if estimator == "importance_weighted":
        return uniform_exploration(n_actions)
    if estimator == "skew_symmetrised":
        return skew_symmetric_exploration(n_actions)
    raise ValueError(f"unknown estimator {estimator!r}")


@dataclass(frozen=True)
class OracleSetting:
    """The environment and class of the sweeps, with their ground truth.

    Attributes
    ----------
    population : ContextPopulation
    environment : StochasticEnvironment
    stumps : DecisionStumps
        The class ``Pi`` (fitted on the population's contexts).
    actions : ndarray of uint8, shape (n_contexts, |Pi|)
    representatives : ndarray of int64
        One policy per distinct action vector on the population (the smallest id).
    true_matrix : ndarray of float64
        ``M`` over the representatives.
    population_oracle : ClassificationOracle
        The exact oracle of ``Pi`` on the population's contexts.
    """

    population: ContextPopulation
    environment: StochasticEnvironment
    stumps: DecisionStumps
    actions: NDArray[np.uint8]
    representatives: NDArray[np.int64]
    true_matrix: NDArray[np.float64]
    population_oracle: ClassificationOracle

    @property
    def n_policies(self) -> int:
        """``|Pi|`` (duplicates included, as in the union bounds)."""
        return self.stumps.n_policies

    @property
    def n_actions(self) -> int:
        """``K``."""
        return self.population.n_actions

    def exploitability(self, mixture: PolicyMixture, oracle: PolicyOracle | None = None) -> float:
        """``-min_rho W^T M rho`` over ``Pi`` (the achieved ``eps`` of ``W`` in ``M``).

        ``oracle`` supplies the mixture's policies when they are not ids of ``Pi`` (learned).
        """
        features = self.population.features
        actions = (
            self.stumps.actions(features, mixture.policies)
            if oracle is None
            else oracle.actions(features, mixture.policies)
        )
        distributions = mixture_action_distributions(actions, mixture.weights, self.n_actions)
        return -contextual_exploitability(self.population, self.population_oracle, distributions)

    def empirical_matrix(self, game: CompactGame, sample: ExplorationSample) -> NDArray[np.float64]:
        """``Mhat`` over the representatives."""
        blocks = game.context_blocks(sample.context_ids, self.population.n_contexts)
        return policy_game_matrix(blocks, self.actions[:, self.representatives])

    def lp_mixture(self, solution: MaxminSolution) -> PolicyMixture:
        """The LP's row strategy as a mixture over ``Pi``."""
        keep = solution.row_strategy > 0
        return PolicyMixture.from_weights(self.representatives[keep], solution.row_strategy[keep])


def build_setting(environment: Mapping[str, Any], seed: int) -> OracleSetting:
    """The sweeps' environment from the ``oracle.environment`` config."""
    population = synthetic_intransitive_population(
        int(environment["n_actions"]),
        int(environment["n_features"]),
        int(environment["n_contexts"]),
        float(environment["intransitivity"]),
        named_generator(seed, "oracle", "population"),
    )
    stumps = DecisionStumps(population.n_actions, int(environment["n_bins"])).fit(
        population.features
    )
    actions = stumps.actions(population.features)
    _, first = np.unique(actions.T, axis=0, return_index=True)
    representatives = np.sort(first).astype(np.int64)
    return OracleSetting(
        population=population,
        environment=StochasticEnvironment(population),
        stumps=stumps,
        actions=actions,
        representatives=representatives,
        true_matrix=policy_matrix(population, np.ascontiguousarray(actions[:, representatives])),
        population_oracle=stumps.oracle(population.features),
    )


def experiment_tasks(oracle: Mapping[str, Any], experiment: str) -> list[dict[str, Any]]:
    """Every trial of an experiment, in a fixed order (``seed`` is the seed index)."""
    seeds = range(int(oracle["seeds"]))
    if experiment == "explore_first":
        section = oracle["explore_first"]
        return [
            {"estimator": estimator, "n_explore": int(m), "seed": s}
            for s in seeds
            for estimator in section["estimators"]
            for m in section["explore_rounds"]
        ]
    if experiment == "solvers":
        return [{"seed": s} for s in seeds]
    if experiment == "regret":
        return [{"horizon": int(t), "seed": s} for s in seeds for t in oracle["regret"]["horizons"]]
    if experiment == "learned":
        return [{"seed": s} for s in range(int(oracle["learned"]["seeds"]))]
    raise ValueError(f"experiment must be one of {EXPERIMENTS}; got {experiment!r}")


def _game(
    setting: OracleSetting, scheme: FixedExploration, n_explore: int, rng: np.random.Generator
) -> tuple[ExplorationSample, CompactGame, ExactOracle]:
    sample = explore(setting.environment, scheme, n_explore, rng)
    game = CompactGame.from_sample(sample, scheme)
    oracle = ExactOracle(setting.stumps, setting.population.features, sample.context_ids)
    return sample, game, oracle


def explore_first_trial(
    setting: OracleSetting, oracle_config: Mapping[str, Any], task: Mapping[str, Any], seed: int
) -> list[dict[str, Any]]:
    """One (estimator, ``m``, seed) of the ``explore_first`` experiment (module docstring)."""
    delta = float(oracle_config["delta"])
    section = oracle_config["explore_first"]
    estimator, m, index = task["estimator"], task["n_explore"], task["seed"]
    rng = named_generator(seed, "oracle", "explore_first", index, estimator, m)
    explore_rng, fpl_rng = rng.spawn(2)
    scheme = scheme_of(estimator, setting.n_actions)
    sample, game, oracle = _game(setting, scheme, m, explore_rng)
    mhat = setting.empirical_matrix(game, sample)
    deviation = float(np.abs(mhat - setting.true_matrix).max())
    solution = maxmin_strategy(mhat)
    n_policies = setting.n_policies
    base = {
        "estimator": estimator,
        "n_explore": m,
        "seed": index,
        "n_policies": n_policies,
        "bound_L": game.bound,
        "variance_V": game.variance_bound,
        "delta": delta,
        "deviation": deviation,
        "deviation_bound": deviation_bound(m, n_policies, delta, game.bound, game.variance_bound),
        "mhat_value": solution.value,
    }

    def row(
        solver: str,
        budget: int,
        calls: int,
        mixture: PolicyMixture,
        vector: Any,
        eps_alg: float,
        stat_delta: float,
    ) -> dict[str, Any]:
        gap = solution.value - (
            solution.lower if vector is None else row_security(game, oracle, vector).value
        )
        eps_prime = deviation_bound(m, n_policies, stat_delta, game.bound, game.variance_bound)
        return base | {
            "solver": solver,
            "budget": budget,
            "oracle_calls": calls,
            "mhat_gap": gap,
            "algorithm_bound": eps_alg,
            "exploitability": setting.exploitability(mixture),
            "exploitability_bound": main_eps_bound(eps_prime, eps_alg),
            "support_size": mixture.support_size,
        }

    rows = [
        row("lp", 0, 0, setting.lp_mixture(solution), None, solution.upper - solution.lower, delta)
    ]
    n_fpl = int(section["fpl_rounds"])
    fpl = SparringFPL(n_rounds=n_fpl).fit(game, oracle, fpl_rng)
    rows.append(
        row(
            "fpl",
            n_fpl,
            fpl.n_oracle_calls_,
            fpl.row_mixture_,
            fpl.row_vector_,
            fpl_gap_bound(game.bound, m, n_fpl, delta / 2.0),
            statistics_delta(delta, "fpl"),
        )
    )
    n_pgd = int(section["pgd_iterations"])
    pgd = ProjectedGD(n_outer=n_pgd, n_inner=n_pgd).fit(game, oracle)
    rows.append(
        row(
            "pgd",
            n_pgd,
            pgd.n_oracle_calls_,
            pgd.row_mixture_,
            pgd.row_vector_,
            pgd_bound(game.bound, n_pgd, n_pgd),
            statistics_delta(delta, "pgd"),
        )
    )
    return rows


def solvers_trial(
    setting: OracleSetting, oracle_config: Mapping[str, Any], task: Mapping[str, Any], seed: int
) -> list[dict[str, Any]]:
    """One seed of the ``solvers`` experiment: FPL for every ``N``, PGD for every ``T``."""
    delta = float(oracle_config["delta"])
    section = oracle_config["solvers"]
    index = task["seed"]
    m = int(section["explore_rounds"])
    sample, game, oracle = _game(
        setting,
        uniform_exploration(setting.n_actions),
        m,
        named_generator(seed, "oracle", "solvers", index),
    )
    value = maxmin_strategy(setting.empirical_matrix(game, sample)).value
    base = {
        "seed": index,
        "n_explore": m,
        "bound_L": game.bound,
        "delta": delta,
        "mhat_value": value,
    }
    rows = []
    for n in section["fpl_rounds"]:
        n = int(n)
        rng = named_generator(seed, "oracle", "solvers", index, "fpl", n)
        fpl = SparringFPL(n_rounds=n).fit(game, oracle, rng)
        rows.append(
            base
            | _solver_row(setting, game, oracle, fpl, value)
            | {
                "algorithm": "fpl",
                "budget": n,
                "gap_bound": fpl_gap_bound(game.bound, m, n, delta),
            }
        )
    for t in section["pgd_iterations"]:
        t = int(t)
        pgd = ProjectedGD(n_outer=t, n_inner=t, record_projections=True).fit(game, oracle)
        records = pgd.projections_
        best_fixed = column_security(game, oracle, pgd.column_vector_).value
        rows.append(
            base
            | _solver_row(setting, game, oracle, pgd, value)
            | {
                "algorithm": "pgd",
                "budget": t,
                "gap_bound": pgd_bound(game.bound, t, t),
                "regret_gap": best_fixed - pgd.mean_payoff_,
                "regret_bound": pgd_outer_bound(game.bound, t, approx_project_factor(t)),
                "projections": len(records),
                "projections_held": sum(r.certificate >= -r.bound for r in records),
                "projection_shortfall": max(
                    (-r.certificate / r.bound for r in records), default=math.nan
                ),
                "projection_distance": _mean([r.distance for r in records]),
                # Certified suboptimality of vbar in the projection game, per unit ||z - v_1||.
                "projection_gap": _mean(
                    [
                        (r.output_distance - r.certificate) / r.distance
                        for r in records
                        if r.distance > 0
                    ]
                ),
            }
        )
    return rows


def _mean(values: list[float]) -> float:
    return float(np.mean(values)) if values else math.nan


def _solver_row(
    setting: OracleSetting, game: CompactGame, oracle: PolicyOracle, solver: Any, value: float
) -> dict[str, Any]:
    security = row_security(game, oracle, solver.row_vector_).value
    return {
        "oracle_calls": solver.n_oracle_calls_,
        "gap": value - security,
        "duality_gap": duality_gap(game, oracle, solver.row_vector_, solver.column_vector_),
        "exploitability": setting.exploitability(solver.row_mixture_),
        "support_size": solver.row_mixture_.support_size,
    }


class ExactMaxminSolver:
    """The ``eps_alg -> 0`` limit of a game solver: the exact LP maxmin of ``Mhat``.

    Not an oracle method (it enumerates the class); the reference of the regret experiment.
    Has the solvers' interface: ``fit(game, oracle)``, ``row_mixture_``, ``n_oracle_calls_``.

    Parameters
    ----------
    setting : OracleSetting
    """

    def __init__(self, setting: OracleSetting) -> None:
        self.setting = setting

    def fit(self, game: CompactGame, oracle: ExactOracle) -> ExactMaxminSolver:
        """Solve the LP of ``Mhat`` over the class's distinct policies; return ``self``."""
        blocks = game.context_blocks(oracle.context_ids_, self.setting.population.n_contexts)
        mhat = policy_game_matrix(blocks, self.setting.actions[:, self.setting.representatives])
        self.row_mixture_ = self.setting.lp_mixture(maxmin_strategy(mhat))
        self.n_oracle_calls_ = 0
        return self


def regret_trial(
    setting: OracleSetting, oracle_config: Mapping[str, Any], task: Mapping[str, Any], seed: int
) -> list[dict[str, Any]]:
    """One (horizon, seed) of the ``regret`` experiment: explore-then-exploit and SparringEXP4.P."""
    delta = float(oracle_config["delta"])
    horizon, index = task["horizon"], task["seed"]
    k = setting.n_actions
    n_policies = setting.n_policies
    scheme = uniform_exploration(k)
    # Theorem main-regret's failure probability, split over eq. (f2), FPL and Hoeffding.
    share = delta / 3.0
    m = explore_exploit_rounds(horizon, n_policies, share, scheme.variance_bound)
    eps_prime = deviation_bound(m, n_policies, share, scheme.bound, scheme.variance_bound)
    n_fpl = int(oracle_config["regret"]["fpl_rounds"])
    rows = []
    for name, solver, eps_alg in (
        (
            "explore_exploit_fpl",
            SparringFPL(n_rounds=n_fpl),
            fpl_gap_bound(scheme.bound, m, n_fpl, share),
        ),
        ("explore_exploit_lp", ExactMaxminSolver(setting), 0.0),
    ):
        rng = named_generator(seed, "oracle", "regret", index, horizon)
        run = explore_then_exploit(
            setting.environment, setting.stumps, horizon, m, solver, rng, scheme
        )
        explore_regret, regret = regret_curve(run.log, setting.population_oracle, [m, horizon])
        rows.append(
            {
                "algorithm": name,
                "horizon": horizon,
                "seed": index,
                "n_explore": m,
                "oracle_calls": run.oracle_calls,
                "regret": regret,
                "explore_regret": explore_regret,
                "regret_bound": explore_exploit_regret_bound(
                    horizon, m, main_eps_bound(eps_prime, eps_alg), n_policies, share
                ),
                "exploitability": setting.exploitability(run.mixture),
            }
        )
    table = ActionTable(np.ascontiguousarray(setting.actions), k)
    sparring = SparringExp4P(table, delta)
    log = sparring.run(
        setting.environment, horizon, named_generator(seed, "oracle", "regret", index, horizon)
    )
    weights, uniform = sparring.mean_policy_distribution()
    distributions = mixture_action_distributions(setting.actions, weights, k, uniform)
    rows.append(
        {
            "algorithm": "sparring_exp4p",
            "horizon": horizon,
            "seed": index,
            "n_explore": 0,
            "oracle_calls": 0,
            "regret": float(regret_curve(log, setting.population_oracle, [horizon])[0]),
            "explore_regret": 0.0,
            "regret_bound": sparring_exp4p_regret_bound(horizon, k, n_policies, delta).total,
            "exploitability": -contextual_exploitability(
                setting.population, setting.population_oracle, distributions
            ),
        }
    )
    return rows


@dataclass(frozen=True)
class _SharedBinning:
    """``stumps.bins`` as a transformer function that clones share instead of deep-copying.

    scikit-learn's ``clone`` deep-copies non-estimator parameters; without this every learned
    policy would carry its own copy of the class's bin edges (``O(|Pi|)`` memory each).
    """

    stumps: DecisionStumps

    def __call__(self, X: Any) -> NDArray[np.int64]:
        return self.stumps.bins(X)

    def __deepcopy__(self, memo: dict[int, Any]) -> _SharedBinning:
        return self


def learned_estimator(name: str, stumps: DecisionStumps) -> Any:
    """The scikit-learn estimator of a :data:`LEARNED_ORACLES` entry (``random_state=0``)."""
    bins = FunctionTransformer(_SharedBinning(stumps))
    if name == "tree_on_bins":
        return make_pipeline(bins, DecisionTreeClassifier(max_depth=1, random_state=0))
    if name == "regression_on_bins":
        return make_pipeline(bins, DecisionTreeRegressor(max_depth=1, random_state=0))
    if name == "tree_depth2":
        return DecisionTreeClassifier(max_depth=2, random_state=0)
    raise ValueError(f"learned oracle must be one of {tuple(LEARNED_ORACLES)}; got {name!r}")


def learned_trial(
    setting: OracleSetting, oracle_config: Mapping[str, Any], task: Mapping[str, Any], seed: int
) -> list[dict[str, Any]]:
    """One seed of the ``learned`` experiment: exact and learned oracles inside FPL and PGD."""
    section = oracle_config["learned"]
    index = task["seed"]
    m = int(section["explore_rounds"])
    sample, game, exact = _game(
        setting,
        uniform_exploration(setting.n_actions),
        m,
        named_generator(seed, "oracle", "learned", index),
    )
    value = maxmin_strategy(setting.empirical_matrix(game, sample)).value
    n_fpl, n_pgd = int(section["fpl_rounds"]), int(section["pgd_iterations"])
    rows = []
    for oracle_name in ("exact", *LEARNED_ORACLES):
        for algorithm in ("fpl", "pgd"):
            if oracle_name == "exact":
                used: PolicyOracle = exact
            else:
                reduction = LEARNED_ORACLES[oracle_name][0]
                learned = LearnedOracle(
                    learned_estimator(oracle_name, setting.stumps),
                    setting.population.features,
                    sample.context_ids,
                    setting.n_actions,
                    reduction,
                )
                used = AuditedOracle(learned, exact)
            if algorithm == "fpl":
                rng = named_generator(seed, "oracle", "learned", index, "fpl")
                solver: Any = SparringFPL(n_rounds=n_fpl).fit(game, used, rng)
            else:
                solver = ProjectedGD(n_outer=n_pgd, n_inner=n_pgd).fit(game, used)
            records = getattr(used, "records_", [])
            excess = np.array([record.relative_excess for record in records])
            rows.append(
                {
                    "seed": index,
                    "n_explore": m,
                    "oracle": oracle_name,
                    "algorithm": algorithm,
                    "oracle_calls": solver.n_oracle_calls_,
                    "mean_relative_excess": float(excess.mean()) if excess.size else 0.0,
                    "max_relative_excess": float(excess.max()) if excess.size else 0.0,
                    "fraction_inexact": float((excess > 1e-12).mean()) if excess.size else 0.0,
                    "fraction_better": float((excess < -1e-12).mean()) if excess.size else 0.0,
                    # Security in Mhat against the exact class, and exploitability in M.
                    "gap": value - row_security(game, exact, solver.row_vector_).value,
                    "exploitability": setting.exploitability(
                        solver.row_mixture_, None if oracle_name == "exact" else used
                    ),
                }
            )
    return rows


_TRIALS = {
    "explore_first": explore_first_trial,
    "solvers": solvers_trial,
    "regret": regret_trial,
    "learned": learned_trial,
}


def run_oracle_shard(
    oracle_config: Mapping[str, Any], seed: int, experiment: str, shard: int
) -> pd.DataFrame:
    """The rows of every trial of ``experiment`` assigned to ``shard``.

    Parameters
    ----------
    oracle_config : mapping
        The workflow's ``oracle`` config.
    seed : int
        The master seed.
    experiment : str
        One of :data:`EXPERIMENTS`.
    shard : int
        In ``0 .. shards - 1``.

    Returns
    -------
    pandas.DataFrame
        One row per (trial, solver); columns depend on the experiment.
    """
    shards = int(oracle_config["shards"])
    if not 0 <= shard < shards:
        raise ValueError(f"shard must be in 0..{shards - 1}; got {shard}")
    setting = build_setting(oracle_config["environment"], seed)
    tasks = experiment_tasks(oracle_config, experiment)[shard::shards]
    rows: list[dict[str, Any]] = []
    for number, task in enumerate(tasks, start=1):
        rows.extend(_TRIALS[experiment](setting, oracle_config, task, seed))
        logger.info("%s shard %d: trial %d/%d %s", experiment, shard, number, len(tasks), task)
    return pd.DataFrame(rows)


def combine_shards(frames: list[pd.DataFrame], experiment: str) -> pd.DataFrame:
    """The shards of an experiment as one table sorted by :data:`EXPERIMENT_KEYS`.

    The order does not depend on the number of shards.
    """
    combined = pd.concat([frame for frame in frames if not frame.empty], ignore_index=True)
    return combined.sort_values(list(EXPERIMENT_KEYS[experiment]), kind="stable").reset_index(
        drop=True
    )
