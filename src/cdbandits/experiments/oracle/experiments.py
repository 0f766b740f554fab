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
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ...contextual.bounds import sparring_exp4p_regret_bound
from ...contextual.oracle import ActionTable
from ...contextual.regret import (
    contextual_exploitability,
    mixture_action_distributions,
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
    uniform_exploration,
)
from ...oracle_methods.explore_exploit import explore_then_exploit
from ...oracle_methods.fpl import SparringFPL
from ...oracle_methods.ground_truth import (
    MAXMIN_TOL,
    MaxminSolution,
    maxmin_strategy,
    policy_game_matrix,
)
from ...oracle_methods.hull import PolicyMixture, column_security, duality_gap, row_security
from ...oracle_methods.learned_oracle import AuditedOracle, LearnedOracle
from ...oracle_methods.oracles import ExactOracle, PolicyOracle
from ...oracle_methods.pgd import ProjectedGD
from ...oracle_methods.theory import main_regret_bound, statistics_delta
from ...randomness import named_generator
from .ceilings import (
    declared_constants,
    deviation_ceiling,
    exploitability_ceiling,
    projection_ceiling,
    regret_ceiling,
    regret_floor,
    round_agreement,
)
from .environment import SweepEnvironment, build_environment
from .jobs import (
    ExploreFirstSettings,
    LearnedSettings,
    RegretSettings,
    SolversSettings,
    SweepSettings,
)
from .learners import LEARNED_ORACLES, learned_estimator
from .trials import (
    LIBRARY,
    ExploreFirstTrial,
    Implementations,
    RegretTrial,
    Row,
    SeedTrial,
    Trial,
    sweep_trials,
)

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
    "solvers_trial",
    "sweep_trials",
]

logger = logging.getLogger(__name__)

#: Round-off allowed in ``certificate >= -bound`` (Theorem approx-proj): a projection of a
#: zero step has bound 0 and a certificate of about -1e-17.
CERTIFICATE_ROUNDING = 1e-12


def explore_first_trial(
    environment: SweepEnvironment,
    settings: ExploreFirstSettings,
    trial: ExploreFirstTrial,
    seed: int,
    implementations: Implementations = LIBRARY,
    compiled: bool = False,
) -> list[Row]:
    """One (estimator, ``m``, seed) of the ``explore_first`` experiment (module docstring).

    Every bound takes the ``L`` and ``V`` declared for the estimator
    (:func:`~.ceilings.declared_constants`), and the exact solver's ``eps_alg`` is the
    tolerance its certificate accepts (``MAXMIN_TOL max |Mhat|``), not what the solver
    reports; the rows carry the ceilings of the ground truth (:mod:`.ceilings`). SparringFPL
    and ProjectedGD run on their compiled paths when ``compiled`` (SparringFPL also when
    the settings ask for it).
    """
    delta = settings.delta
    estimator, m, index = trial.estimator, trial.n_explore, trial.seed
    rng = named_generator(seed, "oracle", settings.name, index, estimator, m)
    explore_rng, fpl_rng = rng.spawn(2)
    scheme = implementations.scheme(estimator, environment.n_actions)
    sample, game, oracle = environment.explore_game(scheme, m, explore_rng)
    mhat = environment.empirical_matrix(game, sample)
    true_matrix = environment.true_matrix
    deviation = float(np.abs(mhat - true_matrix).max())
    reference = maxmin_strategy(mhat)  # the verifier's value of Mhat
    n_policies = environment.n_policies
    bound, variance = declared_constants(estimator, environment.n_actions)
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
        "deviation_ceiling": deviation_ceiling(true_matrix, bound),
        "exploitability_ceiling": exploitability_ceiling(true_matrix),
        "mhat_value": reference.value,
    }

    def row(
        solver: str,
        budget: int,
        calls: int,
        mixture: PolicyMixture,
        security: float,
        eps_alg: float,
        stat_delta: float,
    ) -> Row:
        eps_prime = deviation_bound(m, n_policies, stat_delta, bound, variance)
        return base | {
            "solver": solver,
            "budget": budget,
            "oracle_calls": calls,
            "mhat_gap": reference.value - security,
            "algorithm_bound": eps_alg,
            "exploitability": environment.exploitability(mixture),
            "exploitability_bound": main_eps_bound(eps_prime, eps_alg),
            "support_size": mixture.support_size,
        }

    # The library's solver is the reference itself: it is not solved twice.
    exact = reference if implementations.maxmin is maxmin_strategy else implementations.maxmin(mhat)
    lp_security = float((exact.row_strategy @ mhat).min())
    lp_tolerance = MAXMIN_TOL * float(np.abs(mhat).max())
    rows = [row("lp", 0, 0, environment.lp_mixture(exact), lp_security, lp_tolerance, delta)]
    n_fpl = settings.fpl_rounds
    if n_fpl:  # 0: no SparringFPL row (the broken-variant detection's skew part)
        fpl = implementations.fpl(n_rounds=n_fpl, compiled=compiled or settings.compiled_fpl).fit(
            game, oracle, fpl_rng
        )
        rows.append(
            row(
                "fpl",
                n_fpl,
                fpl.n_oracle_calls_,
                fpl.row_mixture_,
                row_security(game, oracle, fpl.row_vector_).value,
                fpl_gap_bound(bound, m, n_fpl, delta / 2.0),
                statistics_delta(delta, "fpl"),
            )
        )
    n_pgd = settings.pgd_iterations
    pgd = implementations.pgd(n_outer=n_pgd, n_inner=n_pgd, compiled=compiled).fit(game, oracle)
    rows.append(
        row(
            "pgd",
            n_pgd,
            pgd.n_oracle_calls_,
            pgd.row_mixture_,
            row_security(game, oracle, pgd.row_vector_).value,
            pgd_bound(bound, n_pgd, n_pgd),
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
    compiled: bool = False,
) -> list[Row]:
    """One seed of the ``solvers`` experiment: FPL for every ``N``, PGD for every ``T``.

    Besides the game's value, each row records the smallest and largest entries of ``Mhat``
    (the ceilings of the gaps) and, for ProjectedGD, the largest value Theorem
    approx-proj's quantity can take in the run (:func:`~.ceilings.projection_ceiling`);
    the bounds take the estimator's declared ``L`` and the nominal ``T_in``. SparringFPL and
    ProjectedGD run on their compiled paths when ``compiled``.
    """
    delta, index, m = settings.delta, trial.seed, settings.explore_rounds
    sample, game, oracle = environment.explore_game(
        implementations.scheme(settings.estimator, environment.n_actions),
        m,
        named_generator(seed, "oracle", settings.name, index),
    )
    mhat = environment.empirical_matrix(game, sample)
    value = maxmin_strategy(mhat).value
    bound, _ = declared_constants(settings.estimator, environment.n_actions)
    base = {
        "seed": index,
        "n_explore": m,
        "bound_L": bound,
        "delta": delta,
        "mhat_value": value,
        "mhat_min": float(mhat.min()),
        "mhat_max": float(mhat.max()),
    }
    rows = []
    for n in settings.fpl_rounds:
        rng = named_generator(seed, "oracle", settings.name, index, "fpl", n)
        fpl = implementations.fpl(n_rounds=n, compiled=compiled).fit(game, oracle, rng)
        rows.append(
            base
            | _solver_row(environment, game, oracle, fpl, value)
            | {"algorithm": "fpl", "budget": n, "gap_bound": fpl_gap_bound(bound, m, n, delta)}
        )
    if settings.pgd_iterations:
        round_actions = environment.actions[sample.context_ids][:, environment.representatives]
        least_agreement = round_agreement(round_actions)
    for t in settings.pgd_iterations:
        pgd = implementations.pgd(
            n_outer=t, n_inner=t, record_projections=True, compiled=compiled
        ).fit(game, oracle)
        # A projection of a zero step (B u_t = 0, ||z - v_1|| = 0) has bound 0 and no
        # shortfall; the others are audited at the nominal T_in.
        records = [r for r in pgd.projections_ if r.distance > 0]
        factor = approx_project_factor(t)
        best_fixed = column_security(game, oracle, pgd.column_vector_).value
        rows.append(
            base
            | _solver_row(environment, game, oracle, pgd, value)
            | {
                "algorithm": "pgd",
                "budget": t,
                "gap_bound": pgd_bound(bound, t, t),
                "regret_gap": best_fixed - pgd.mean_payoff_,
                "regret_bound": pgd_outer_bound(bound, t, factor),
                "projections": len(records),
                "projections_held": sum(
                    r.certificate >= -factor * r.distance - CERTIFICATE_ROUNDING for r in records
                ),
                "projection_distance": _mean([r.distance for r in records]),
                # Theorem approx-proj's quantity: the worst -min_s F(s, vbar) / ||z - v_1||,
                # and the largest value it can take in the run.
                "certificate_shortfall": max(
                    (-r.certificate / r.distance for r in records), default=math.nan
                ),
                "certificate_ceiling": max(
                    (
                        projection_ceiling(r.target, round_actions, least_agreement) / r.distance
                        for r in records
                    ),
                    default=math.nan,
                ),
                # Certified suboptimality of vbar in the projection game, per unit ||z - v_1||.
                "projection_gap": _mean(
                    [(r.output_distance - r.certificate) / r.distance for r in records]
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
    maxmin : callable, optional
        The LP solver (:attr:`Implementations.maxmin`).
    """

    def __init__(
        self,
        environment: SweepEnvironment,
        maxmin: Callable[[NDArray[np.float64]], MaxminSolution] = maxmin_strategy,
    ) -> None:
        self.environment = environment
        self.maxmin = maxmin

    def fit(self, game: CompactGame, oracle: ExactOracle) -> ExactMaxminSolver:
        """Solve the LP of ``Mhat`` over the class's distinct policies; return ``self``."""
        environment = self.environment
        blocks = game.context_blocks(oracle.context_ids_, environment.population.n_contexts)
        mhat = policy_game_matrix(blocks, environment.actions[:, environment.representatives])
        self.row_mixture_ = environment.lp_mixture(self.maxmin(mhat))
        self.n_oracle_calls_ = 0
        return self


def regret_trial(
    environment: SweepEnvironment,
    settings: RegretSettings,
    trial: RegretTrial,
    seed: int,
    implementations: Implementations = LIBRARY,
) -> list[Row]:
    """One (horizon, seed) of the ``regret`` experiment: explore-then-exploit and SparringEXP4.P.

    Theorem main-regret's bound takes the ``L`` and ``V`` declared for the estimator; every
    row carries the largest and the smallest regret any learner can have on its episode's
    contexts (:func:`~.ceilings.regret_ceiling`, :func:`~.ceilings.regret_floor`).
    """
    delta, horizon, index = settings.delta, trial.horizon, trial.seed
    k = environment.n_actions
    n_policies = environment.n_policies
    scheme = implementations.scheme(settings.estimator, k)
    bound, variance = declared_constants(settings.estimator, k)
    share = settings.failure_share
    m = implementations.explore_rounds(settings, horizon, n_policies, k)
    n_fpl = settings.fpl_rounds
    distinct_actions = environment.actions[:, environment.representatives]
    rows = []
    solvers = (
        (
            "explore_exploit_fpl",
            implementations.fpl(n_rounds=n_fpl, compiled=settings.compiled_fpl),
            n_fpl,
        ),
        ("explore_exploit_lp", ExactMaxminSolver(environment, implementations.maxmin), None),
    )
    for name, solver, solver_rounds in solvers:
        if name not in settings.algorithms:
            continue
        rng = named_generator(seed, "oracle", "regret", index, horizon)
        run = explore_then_exploit(
            environment.environment,
            environment.stumps,
            horizon,
            m,
            solver,
            rng,
            scheme,
            implementations.exploitation,
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
                    horizon, n_policies, bound, variance, share, solver_rounds
                ),
                "regret_ceiling": regret_ceiling(
                    environment.population, environment.population_oracle, run.log.context_ids
                ),
                "regret_floor": regret_floor(
                    environment.population, distinct_actions, run.log.context_ids
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
            "regret_ceiling": regret_ceiling(
                environment.population, environment.population_oracle, log.context_ids
            ),
            "regret_floor": regret_floor(environment.population, distinct_actions, log.context_ids),
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


#: The experiments whose game solvers run on their compiled paths.
_COMPILED = ("explore_first", "small_explore_first", "solvers", "small_solvers")


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

    Notes
    -----
    The sweeps' classes are small enough to enumerate, so SparringFPL and ProjectedGD run on
    their compiled paths (the ``learned`` sweep's oracles have no policy table).
    """
    if not 0 <= shard < sweep.shards:
        raise ValueError(f"shard must be in 0..{sweep.shards - 1}; got {shard}")
    experiment = sweep.experiment
    environment = build_environment(sweep.environment, seed)
    trials = sweep_trials(experiment)[shard :: sweep.shards]
    run_trial: Any = _TRIALS[experiment.name]
    compiled = {"compiled": True} if experiment.name in _COMPILED else {}
    rows: list[Row] = []
    for number, trial in enumerate(trials, start=1):
        rows.extend(run_trial(environment, experiment, trial, seed, **compiled))
        logger.info(
            "%s shard %d: trial %d/%d %s", experiment.name, shard, number, len(trials), trial
        )
    return pd.DataFrame(rows)
