"""The oracle-method sweeps of Sections 6-8: one function per trial, sharded by the workflow.

Every sweep runs on one fixed environment (:mod:`.environment`); trials differ in their
random streams only. Experiments (:data:`~.settings.EXPERIMENTS`):

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
* ``learned``: FPL and PGD with off-the-shelf scikit-learn oracles (:mod:`.learners`),
  audited against the exact oracle.

Randomness: :func:`~cdbandits.randomness.named_generator` streams of the master seed: the
population ``("oracle", "population")``; a trial ``("oracle", experiment, seed index,
*parameters)``. Results do not depend on the sharding (:func:`sweep_trials` lists every
trial; shard ``s`` runs trials ``s, s + S, ...``). The rows of each experiment are
identified by :data:`~.tables.EXPERIMENT_KEYS`.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...contextual.bounds import sparring_exp4p_regret_bound
from ...contextual.exp4p import SparringExp4P
from ...contextual.oracle import ActionTable
from ...contextual.regret import (
    contextual_exploitability,
    mixture_action_distributions,
    regret_curve,
)
from ...oracle_methods.bounds import (
    approx_project_factor,
    deviation_bound,
    fpl_gap_bound,
    main_eps_bound,
    pgd_bound,
    pgd_outer_bound,
)
from ...oracle_methods.compact_game import CompactGame
from ...oracle_methods.exploration import (
    FixedExploration,
    uniform_exploration,
)
from ...oracle_methods.explore_exploit import explore_then_exploit
from ...oracle_methods.fpl import SparringFPL
from ...oracle_methods.ground_truth import maxmin_strategy, policy_game_matrix
from ...oracle_methods.hull import PolicyMixture, column_security, duality_gap, row_security
from ...oracle_methods.learned_oracle import AuditedOracle, LearnedOracle
from ...oracle_methods.oracles import ExactOracle, PolicyOracle
from ...oracle_methods.pgd import ProjectedGD
from ...oracle_methods.theory import main_regret_bound, statistics_delta
from ...randomness import named_generator
from .environment import SweepEnvironment, build_environment
from .jobs import (
    ExperimentSettings,
    ExploreFirstSettings,
    LearnedSettings,
    RegretSettings,
    SolversSettings,
    SweepSettings,
)
from .learners import LEARNED_ORACLES, learned_estimator
from .settings import scheme_of

__all__ = [
    "CERTIFICATE_ROUNDING",
    "LIBRARY",
    "ExactMaxminSolver",
    "ExploreFirstTrial",
    "Implementations",
    "RegretTrial",
    "SeedTrial",
    "Trial",
    "explore_first_trial",
    "learned_trial",
    "regret_trial",
    "run_oracle_shard",
    "scheme_of",
    "solvers_trial",
    "sweep_trials",
]

logger = logging.getLogger(__name__)

Row = dict[str, Any]

#: Round-off allowed in ``certificate >= -bound`` (Theorem approx-proj): a projection of a
#: zero step has bound 0 and a certificate of about -1e-17.
CERTIFICATE_ROUNDING = 1e-12


@dataclass(frozen=True)
class ExploreFirstTrial:
    """A trial of ``explore_first``: seed index, estimator, exploration rounds ``m``."""

    seed: int
    estimator: str
    n_explore: int


@dataclass(frozen=True)
class RegretTrial:
    """A trial of ``regret``: seed index and horizon ``T``."""

    seed: int
    horizon: int


@dataclass(frozen=True)
class SeedTrial:
    """A trial of ``solvers`` or ``learned``: one seed index."""

    seed: int


Trial = ExploreFirstTrial | RegretTrial | SeedTrial


@dataclass(frozen=True)
class Implementations:
    """The code a trial runs: the library's by default (:data:`LIBRARY`).

    The detection of broken implementations
    (:mod:`cdbandits.experiments.oracle.detection`) runs the same trials with one of these
    replaced, so that the bound checks it applies are exactly the sweeps'.

    Attributes
    ----------
    scheme : callable
        ``scheme(estimator, K)``: the exploration scheme of an estimator name.
    fpl, pgd : type
        The game solvers (constructed with the trial's budget).
    sparring : type
        SparringEXP4.P (constructed with the action table and ``delta``).
    regret : callable
        ``regret(log, oracle, checkpoints)``: the regret (rd1) of an episode.
    """

    scheme: Callable[[str, int], FixedExploration]
    fpl: type[SparringFPL] = SparringFPL
    pgd: type[ProjectedGD] = ProjectedGD
    sparring: type[SparringExp4P] = SparringExp4P
    regret: Callable[..., Any] = regret_curve


#: The library's implementations, used by every sweep.
LIBRARY = Implementations(scheme=scheme_of)


def sweep_trials(settings: ExperimentSettings) -> list[Trial]:
    """Every trial of an experiment, in a fixed order."""
    if isinstance(settings, ExploreFirstSettings):
        return [
            ExploreFirstTrial(s, estimator, m)
            for s in range(settings.seeds)
            for estimator in settings.estimators
            for m in settings.explore_rounds
        ]
    if isinstance(settings, RegretSettings):
        return [RegretTrial(s, t) for s in range(settings.seeds) for t in settings.horizons]
    return [SeedTrial(s) for s in range(settings.seeds)]


def explore_first_trial(
    environment: SweepEnvironment,
    settings: ExploreFirstSettings,
    trial: ExploreFirstTrial,
    seed: int,
    implementations: Implementations = LIBRARY,
) -> list[Row]:
    """One (estimator, ``m``, seed) of the ``explore_first`` experiment (module docstring)."""
    delta = settings.delta
    estimator, m, index = trial.estimator, trial.n_explore, trial.seed
    rng = named_generator(seed, "oracle", settings.name, index, estimator, m)
    explore_rng, fpl_rng = rng.spawn(2)
    scheme = implementations.scheme(estimator, environment.n_actions)
    sample, game, oracle = environment.explore_game(scheme, m, explore_rng)
    mhat = environment.empirical_matrix(game, sample)
    deviation = float(np.abs(mhat - environment.true_matrix).max())
    solution = maxmin_strategy(mhat)
    n_policies = environment.n_policies
    bound, variance = game.bound, game.variance_bound
    base = {
        "estimator": estimator,
        "n_explore": m,
        "seed": index,
        "n_policies": n_policies,
        "bound_L": bound,
        "variance_V": variance,
        "delta": delta,
        "deviation": deviation,
        "deviation_bound": deviation_bound(m, n_policies, delta, bound, variance),
        "deviation_bound_two_tailed": deviation_bound(m, n_policies, delta, bound, variance, 2),
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
    ) -> Row:
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
            "exploitability": environment.exploitability(mixture),
            "exploitability_bound": main_eps_bound(eps_prime, eps_alg),
            "support_size": mixture.support_size,
        }

    lp_gap = solution.upper - solution.lower
    rows = [row("lp", 0, 0, environment.lp_mixture(solution), None, lp_gap, delta)]
    n_fpl = settings.fpl_rounds
    if n_fpl:  # 0: no SparringFPL row (the broken-variant detection's skew part)
        fpl = implementations.fpl(n_rounds=n_fpl, compiled=settings.compiled_fpl).fit(
            game, oracle, fpl_rng
        )
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
    n_pgd = settings.pgd_iterations
    pgd = implementations.pgd(n_outer=n_pgd, n_inner=n_pgd).fit(game, oracle)
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
    environment: SweepEnvironment,
    settings: SolversSettings,
    trial: SeedTrial,
    seed: int,
    implementations: Implementations = LIBRARY,
) -> list[Row]:
    """One seed of the ``solvers`` experiment: FPL for every ``N``, PGD for every ``T``.

    Besides the game's value, each row records the smallest and largest entries of ``Mhat``
    (the ceilings of the gaps, :mod:`.ceilings`).
    """
    delta, index, m = settings.delta, trial.seed, settings.explore_rounds
    sample, game, oracle = environment.explore_game(
        implementations.scheme(settings.estimator, environment.n_actions),
        m,
        named_generator(seed, "oracle", settings.name, index),
    )
    mhat = environment.empirical_matrix(game, sample)
    value = maxmin_strategy(mhat).value
    base = {
        "seed": index,
        "n_explore": m,
        "bound_L": game.bound,
        "delta": delta,
        "mhat_value": value,
        "mhat_min": float(mhat.min()),
        "mhat_max": float(mhat.max()),
    }
    rows = []
    for n in settings.fpl_rounds:
        rng = named_generator(seed, "oracle", settings.name, index, "fpl", n)
        fpl = implementations.fpl(n_rounds=n).fit(game, oracle, rng)
        rows.append(
            base
            | _solver_row(environment, game, oracle, fpl, value)
            | {
                "algorithm": "fpl",
                "budget": n,
                "gap_bound": fpl_gap_bound(game.bound, m, n, delta),
            }
        )
    for t in settings.pgd_iterations:
        pgd = implementations.pgd(n_outer=t, n_inner=t, record_projections=True).fit(game, oracle)
        records = pgd.projections_
        best_fixed = column_security(game, oracle, pgd.column_vector_).value
        rows.append(
            base
            | _solver_row(environment, game, oracle, pgd, value)
            | {
                "algorithm": "pgd",
                "budget": t,
                "gap_bound": pgd_bound(game.bound, t, t),
                "regret_gap": best_fixed - pgd.mean_payoff_,
                "regret_bound": pgd_outer_bound(game.bound, t, approx_project_factor(t)),
                "projections": len(records),
                "projections_held": sum(
                    r.certificate >= -r.bound - CERTIFICATE_ROUNDING for r in records
                ),
                # A projection of a zero step (B u_t = 0) has bound 0 and no shortfall.
                "projection_shortfall": max(
                    (-r.certificate / r.bound for r in records if r.bound > 0),
                    default=math.nan,
                ),
                "projection_distance": _mean([r.distance for r in records]),
                # Theorem approx-proj's quantity: the worst -min_s F(s, vbar) / ||z - v_1||.
                "certificate_shortfall": max(
                    (-r.certificate / r.distance for r in records if r.distance > 0),
                    default=math.nan,
                ),
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
    environment: SweepEnvironment,
    game: CompactGame,
    oracle: PolicyOracle,
    solver: Any,
    value: float,
) -> Row:
    security = row_security(game, oracle, solver.row_vector_).value
    return {
        "oracle_calls": solver.n_oracle_calls_,
        "gap": value - security,
        "duality_gap": duality_gap(game, oracle, solver.row_vector_, solver.column_vector_),
        "exploitability": environment.exploitability(solver.row_mixture_),
        "support_size": solver.row_mixture_.support_size,
    }


class ExactMaxminSolver:
    """The ``eps_alg -> 0`` limit of a game solver: the exact LP maxmin of ``Mhat``.

    Not an oracle method (it enumerates the class); the reference of the regret experiment.
    Has the solvers' interface: ``fit(game, oracle)``, ``row_mixture_``, ``n_oracle_calls_``.

    Parameters
    ----------
    environment : SweepEnvironment
    """

    def __init__(self, environment: SweepEnvironment) -> None:
        self.environment = environment

    def fit(self, game: CompactGame, oracle: ExactOracle) -> ExactMaxminSolver:
        """Solve the LP of ``Mhat`` over the class's distinct policies; return ``self``."""
        environment = self.environment
        blocks = game.context_blocks(oracle.context_ids_, environment.population.n_contexts)
        mhat = policy_game_matrix(blocks, environment.actions[:, environment.representatives])
        self.row_mixture_ = environment.lp_mixture(maxmin_strategy(mhat))
        self.n_oracle_calls_ = 0
        return self


def regret_trial(
    environment: SweepEnvironment,
    settings: RegretSettings,
    trial: RegretTrial,
    seed: int,
    implementations: Implementations = LIBRARY,
) -> list[Row]:
    """One (horizon, seed) of the ``regret`` experiment: explore-then-exploit and SparringEXP4.P."""
    delta, horizon, index = settings.delta, trial.horizon, trial.seed
    k = environment.n_actions
    n_policies = environment.n_policies
    scheme = implementations.scheme(settings.estimator, k)
    share = settings.failure_share
    m = settings.explore_rounds(horizon, n_policies, k)
    n_fpl = settings.fpl_rounds
    rows = []
    solvers = (
        (
            "explore_exploit_fpl",
            implementations.fpl(n_rounds=n_fpl, compiled=settings.compiled_fpl),
            n_fpl,
        ),
        ("explore_exploit_lp", ExactMaxminSolver(environment), None),
    )
    for name, solver, solver_rounds in solvers:
        if name not in settings.algorithms:
            continue
        rng = named_generator(seed, "oracle", "regret", index, horizon)
        run = explore_then_exploit(
            environment.environment, environment.stumps, horizon, m, solver, rng, scheme
        )
        explore_regret, regret = implementations.regret(
            run.log, environment.population_oracle, [m, horizon]
        )
        rows.append(
            {
                "algorithm": name,
                "horizon": horizon,
                "seed": index,
                "n_explore": m,
                "n_actions": k,
                "n_policies": n_policies,
                "delta": delta,
                "fpl_rounds": solver_rounds or 0,
                "oracle_calls": run.oracle_calls,
                "regret": regret,
                "explore_regret": explore_regret,
                "regret_bound": main_regret_bound(
                    horizon, n_policies, scheme.bound, scheme.variance_bound, share, solver_rounds
                ),
                "exploitability": environment.exploitability(run.mixture),
            }
        )
    if "sparring_exp4p" not in settings.algorithms:
        return rows
    table = ActionTable(np.ascontiguousarray(environment.actions), k)
    sparring = implementations.sparring(table, delta)
    log = sparring.run(
        environment.environment,
        horizon,
        named_generator(seed, "oracle", "regret", index, horizon),
    )
    weights, uniform = sparring.mean_policy_distribution()
    distributions = mixture_action_distributions(environment.actions, weights, k, uniform)
    rows.append(
        {
            "algorithm": "sparring_exp4p",
            "horizon": horizon,
            "seed": index,
            "n_explore": 0,
            "n_actions": k,
            "n_policies": n_policies,
            "delta": delta,
            "fpl_rounds": 0,
            "oracle_calls": 0,
            "regret": float(
                implementations.regret(log, environment.population_oracle, [horizon])[0]
            ),
            "explore_regret": 0.0,
            "regret_bound": sparring_exp4p_regret_bound(horizon, k, n_policies, delta).total,
            "exploitability": -contextual_exploitability(
                environment.population, environment.population_oracle, distributions
            ),
        }
    )
    return rows


def learned_trial(
    environment: SweepEnvironment, settings: LearnedSettings, trial: SeedTrial, seed: int
) -> list[Row]:
    """One seed of the ``learned`` experiment: exact and learned oracles inside FPL and PGD."""
    index, m = trial.seed, settings.explore_rounds
    sample, game, exact = environment.explore_game(
        uniform_exploration(environment.n_actions),
        m,
        named_generator(seed, "oracle", "learned", index),
    )
    value = maxmin_strategy(environment.empirical_matrix(game, sample)).value
    n_fpl, n_pgd = settings.fpl_rounds, settings.pgd_iterations
    rows = []
    for oracle_name in ("exact", *LEARNED_ORACLES):
        for algorithm in ("fpl", "pgd"):
            if oracle_name == "exact":
                used: PolicyOracle = exact
            else:
                reduction = LEARNED_ORACLES[oracle_name][0]
                learned = LearnedOracle(
                    learned_estimator(oracle_name, environment.stumps),
                    environment.population.features,
                    sample.context_ids,
                    environment.n_actions,
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
                    "exploitability": environment.exploitability(
                        solver.row_mixture_, None if oracle_name == "exact" else used
                    ),
                }
            )
    return rows


_TRIALS = {
    "explore_first": explore_first_trial,
    "small_explore_first": explore_first_trial,
    "solvers": solvers_trial,
    "small_solvers": solvers_trial,
    "regret": regret_trial,
    "learned": learned_trial,
}


def run_oracle_shard(sweep: SweepSettings, seed: int, shard: int) -> pd.DataFrame:
    """The rows of every trial of ``sweep`` assigned to ``shard``.

    Parameters
    ----------
    sweep : SweepSettings
        The sweep (its experiment, environment and number of shards).
    seed : int
        The master seed.
    shard : int
        In ``0 .. sweep.shards - 1``.

    Returns
    -------
    pandas.DataFrame
        One row per (trial, solver); columns depend on the experiment.
    """
    if not 0 <= shard < sweep.shards:
        raise ValueError(f"shard must be in 0..{sweep.shards - 1}; got {shard}")
    experiment = sweep.experiment
    environment = build_environment(sweep.environment, seed)
    trials = sweep_trials(experiment)[shard :: sweep.shards]
    run_trial: Any = _TRIALS[experiment.name]
    rows: list[Row] = []
    for number, trial in enumerate(trials, start=1):
        rows.extend(run_trial(environment, experiment, trial, seed))
        logger.info(
            "%s shard %d: trial %d/%d %s", experiment.name, shard, number, len(trials), trial
        )
    return pd.DataFrame(rows)
