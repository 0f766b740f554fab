"""The ``oracle`` config section: one typed model of every key, and the rules across keys.

:class:`OracleSection` is the section (Sections 6-8 of the paper); the settings each of its
jobs runs with are made from it in :mod:`.jobs`. Two rules solve formulas of
:mod:`.budgets`: every horizon must leave rounds to exploit after Theorem main-regret's
exploration rounds ``m``, and every class size of the scaling must be a stump class. They
import :mod:`.budgets` only when they run, so the workflow parses its config without
importing the solvers.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, get_args

from pydantic import Field

from ..config_model import (
    Actions,
    ConfigError,
    ConfigModel,
    Fraction,
    Horizons,
    Margin,
    PositiveInt,
    Probability,
    distinct,
    rule,
)

__all__ = [
    "EXPERIMENTS",
    "PAPER_ESTIMATOR",
    "SKEW_ESTIMATOR",
    "SMALL_EXPERIMENTS",
    "DetectionEnvironmentSettings",
    "DetectionSection",
    "EnvironmentSettings",
    "Estimator",
    "OracleSection",
    "ScalingSection",
]

#: The sharded sweeps, in the order of :mod:`cdbandits.experiments.oracle.experiments`. The
#: ``small_*`` sweeps repeat ``explore_first`` and ``solvers`` on ``oracle.small_game``'s own
#: small environment, where the optimisation bounds can be informative at affordable budgets.
Experiment = Literal[
    "explore_first", "solvers", "regret", "learned", "small_explore_first", "small_solvers"
]
EXPERIMENTS: tuple[Experiment, ...] = get_args(Experiment)

#: The sweeps run on ``oracle.small_game.environment`` instead of ``oracle.environment``.
SMALL_EXPERIMENTS = ("small_explore_first", "small_solvers")

#: The estimators of :data:`cdbandits.oracle_methods.exploration.ESTIMATORS`.
Estimator = Literal["importance_weighted", "skew_symmetrised"]

#: The estimator every main-eps and explore-first check runs on (the paper's).
PAPER_ESTIMATOR: Estimator = "importance_weighted"

#: The estimator with ``L = 1`` with two actions, which makes the detection's main-eps and
#: main-regret checks with SparringFPL informative.
SKEW_ESTIMATOR: Estimator = "skew_symmetrised"

Rounds = Annotated[tuple[PositiveInt, ...], Field(min_length=1)]
Bins = Annotated[int, Field(ge=2)]


class EnvironmentSettings(ConfigModel):
    """The environment of the bound checks: a synthetic intransitive population with decision
    stumps on quantile bins (|Pi| = d (n_bins - 1) K^2), small enough for the ground-truth
    LPs."""

    n_actions: Actions = 3
    """Number of actions K (uniform exploration has L = V = K^2)."""
    n_features: PositiveInt = 3
    """Context dimension d."""
    n_contexts: PositiveInt = 100
    """Size of the finite context population (uniform)."""
    intransitivity: Fraction = 0.7
    """Weight of the context-dependent rock-paper-scissors part."""
    n_bins: Bins = 9
    """Quantile bins per feature of the stumps."""

    @property
    def n_policies(self) -> int:
        """``|Pi| = d (n_bins - 1) K^2`` of the stump class."""
        return self.n_features * (self.n_bins - 1) * self.n_actions**2


class ExploreFirstSection(ConfigModel):
    """Lemma eq. (f2), Lemma explore-first and Theorem main-eps against m: per estimator, m and
    seed, the exact LP maxmin of Mhat, SparringFPL and ProjectedGD."""

    estimators: distinct(Estimator) = ("importance_weighted", "skew_symmetrised")
    """The paper's K^2 estimator (importance_weighted, needed by the main-eps rows) and the
    skew-symmetrised one."""
    explore_rounds: Rounds = (100, 400, 1600, 6400)
    """Numbers of exploration rounds m."""
    fpl_rounds: PositiveInt = 100
    """SparringFPL's N (a practical budget; its bound is reported at it)."""
    pgd_iterations: PositiveInt = 8
    """ProjectedGD's T_in = T_out."""

    @rule("estimators")
    def _paper_estimator_is_run(self) -> None:
        if PAPER_ESTIMATOR not in self.estimators:
            raise ConfigError(
                f"must include {PAPER_ESTIMATOR} (the paper's estimator, on which Lemma "
                f"explore-first and Theorem main-eps are checked); got {list(self.estimators)}",
                "estimators",
            )


class SolversSection(ConfigModel):
    """Theorems fpl, proj-out2, approx-proj and Lemma proj-out1 against the budget, on one game
    per seed, gaps measured against the LP value of Mhat."""

    explore_rounds: PositiveInt = 300
    """Exploration rounds m of each game."""
    fpl_rounds: Rounds = (10, 40, 160, 640, 2560)
    """SparringFPL budgets N (each run with alpha = sqrt(2 / (L^2 N)))."""
    pgd_iterations: Rounds = (4, 8, 16, 32)
    """ProjectedGD budgets T_in = T_out (every projection audited)."""


class SmallExploreFirstSection(ConfigModel):
    """Lemma eq. (f2), Lemma explore-first and Theorem main-eps (SparringFPL and ProjectedGD)
    on the small game."""

    estimators: distinct(Estimator) = ("skew_symmetrised",)
    """Estimators (any; the skew-symmetrised one has the smaller L)."""
    explore_rounds: Rounds = (3000,)
    """Numbers of exploration rounds m."""
    fpl_rounds: PositiveInt = 100
    """SparringFPL's N (Theorem main-eps with SparringFPL is informative against the true
    ceiling only at far larger budgets; the bound table gives the smallest)."""
    pgd_iterations: PositiveInt = 81
    """ProjectedGD's T_in = T_out."""


class SmallSolversSection(ConfigModel):
    """Theorems fpl, proj-out2, approx-proj and Lemma proj-out1 on one small game per seed."""

    estimator: Estimator = "skew_symmetrised"
    """The estimator of the games' Mhat."""
    explore_rounds: PositiveInt = 4
    """Exploration rounds m of each game (few, so that the gaps' ceilings are large)."""
    fpl_rounds: Rounds = (100, 2500)
    """SparringFPL budgets N."""
    pgd_iterations: Rounds = (16, 169)
    """ProjectedGD budgets T_in = T_out (every projection audited)."""


class SmallGameSection(ConfigModel):
    """The explore_first and solvers sweeps again (experiments small_explore_first and
    small_solvers, oracle.seeds seeds each) on a small game of its own, where the
    optimisation bounds fall below their ceilings at affordable budgets: 2 actions, a small
    stump class and the skew-symmetrised estimator (L = V = K(K-1)/2 = 1)."""

    environment: EnvironmentSettings = EnvironmentSettings(
        n_actions=2, n_features=2, n_contexts=20, intransitivity=0.7, n_bins=4
    )
    """The small game's population and stump class (as oracle.environment)."""

    explore_first: SmallExploreFirstSection = SmallExploreFirstSection()
    solvers: SmallSolversSection = SmallSolversSection()


class RegretSection(ConfigModel):
    """Theorem main-regret: explore-then-exploit with Theorem main-regret's m for each horizon
    (the game solved by SparringFPL, and exactly by the LP as the eps_alg -> 0 limit) against
    SparringEXP4.P on the same environment."""

    horizons: Annotated[Horizons, Field(min_length=1)] = (1000, 4000, 16000)
    """Horizons T (increasing); each must leave rounds to exploit after Theorem
    main-regret's m."""
    fpl_rounds: PositiveInt = 200
    """SparringFPL's N in every horizon."""


class LearnedSection(ConfigModel):
    """SparringFPL and ProjectedGD with scikit-learn oracles (a stump on the bins, one
    regression stump per action, a depth-2 tree), each call audited against the exact
    oracle."""

    seeds: PositiveInt = 12
    """Seeds (not a bound check)."""
    explore_rounds: PositiveInt = 1000
    """Exploration rounds m."""
    fpl_rounds: PositiveInt = 100
    """SparringFPL's N."""
    pgd_iterations: PositiveInt = 6
    """ProjectedGD's T_in = T_out."""


Even = Annotated[int, Field(ge=2, multiple_of=2)]


class DetectionEnvironmentSettings(ConfigModel):
    """The two fixed populations of the detection (the same for every seed, so that a
    check's power does not depend on a drawn population), one feature, contexts
    (i + 1/2) / n_contexts, stumps with n_bins bins:
    cdbandits.experiments.oracle.environment.switching_population, 2 actions, action 0
    beating action 1 by margin below the median and losing by margin above it (|Pi| =
    (n_bins - 1) 4; its Condorcet winner is a stump, its opposite the worst policy,
    exploitability margin), and cyclic_population, 3 actions in a cycle that turns the other
    way at the median (|Pi| = (n_bins - 1) 9; a mixed von Neumann winner, every pure policy
    beaten by margin with two bins)."""

    n_features: ClassVar[int] = 1
    #: The populations, by name, and their numbers of actions.
    POPULATIONS: ClassVar[dict[str, int]] = {"switching": 2, "cyclic": 3}

    n_contexts: Even = 20
    """Size of the finite context population (uniform; even)."""
    margin: Margin = 1.0
    """|M_x(a, b)| of every pair of actions in every context: what a solver picking a wrong
    policy loses per context."""
    n_bins: Even = 2
    """Quantile bins of the stumps (even, so that the median is a bin edge)."""

    def n_policies(self, population: str) -> int:
        """``|Pi| = d (n_bins - 1) K^2`` of the stump class on ``population``."""
        return self.n_features * (self.n_bins - 1) * self.POPULATIONS[population] ** 2


class _DetectionExploreFirst(ConfigModel):
    """Lemma eq. (f2), Lemma explore-first and Theorem main-eps with the paper's estimator."""

    explore_rounds: PositiveInt = 4000
    """Exploration rounds m."""
    fpl_rounds: PositiveInt = 20
    """SparringFPL's N."""
    pgd_iterations: PositiveInt = 4
    """ProjectedGD's T_in = T_out."""


class _DetectionSmallExploreFirst(ConfigModel):
    """Lemma eq. (f2), Lemma explore-first and Theorem main-eps with ProjectedGD (rows of the
    small_explore_first sweep) with the skew-symmetrised estimator, whose L = 1 makes
    main-eps informative: 2 eps' + 6 L / sqrt(T) is 0.86 at m = 4000, T = 64 (0.91 at the
    tiny config's m = 2000), below the exploitability of the worst policy (margin). No
    SparringFPL (main_eps_fpl runs it)."""

    explore_rounds: PositiveInt = 4000
    """Exploration rounds m."""
    pgd_iterations: PositiveInt = 64
    """ProjectedGD's T_in = T_out."""


class _DetectionSolvers(ConfigModel):
    """Theorems fpl, proj-out2, approx-proj and Lemma proj-out1 on one game per seed."""

    explore_rounds: PositiveInt = 2
    """Exploration rounds m of each game (few rounds: payoffs span the range L allows, so
    broken solvers' gaps reach the bounds)."""
    fpl_rounds: PositiveInt = 3000
    """SparringFPL's N (alpha = sqrt(2 / (L^2 N)))."""
    pgd_iterations: PositiveInt = 169
    """ProjectedGD's T_in = T_out (every projection audited)."""


class _DetectionMainEpsFpl(ConfigModel):
    """Theorem main-eps with SparringFPL (rows of the small_explore_first sweep, its
    SparringFPL rows only) with the skew-symmetrised estimator (L = V = 1), on SparringFPL's
    compiled path: 2 eps' + 2 eps_fpl (eps' at delta / 2, Theorem fpl at delta / 2) is 0.94
    at m = 200, N = 70,000 (0.99 at the tiny config's m = 180, N = 60,000), below the
    exploitability of the worst policy (margin), which the sign-flipped estimator and the
    maximising oracle output."""

    explore_rounds: PositiveInt = 200
    """Exploration rounds m."""
    fpl_rounds: PositiveInt = 70000
    """SparringFPL's N."""


class _DetectionMainRegretFpl(ConfigModel):
    """Theorem main-regret with SparringFPL: explore-then-exploit with the skew-symmetrised
    estimator (L = V = 1, Theorem main-regret's m for that V), SparringFPL on its compiled
    path, no other algorithm. At T = 2400 (m = 430), N = 110,000 the bound is 2,135, below
    the regret T - m / 2 = 2,185 of a solver that outputs the worst policy (sign-flipped
    estimator, maximising oracle); at the tiny config's T = 2300 (m = 418), N = 106,000 it
    is 2,066 against 2,091."""

    horizon: PositiveInt = 2400
    """Horizon T (must leave rounds to exploit after Theorem main-regret's m)."""
    fpl_rounds: PositiveInt = 110000
    """SparringFPL's N inside explore-then-exploit."""


class DetectionSection(ConfigModel):
    """Power of the bound checks (cdbandits.experiments.oracle.detection): the correct
    implementation and every broken variant of cdbandits.experiments.oracle.broken_variants
    run through the checks of the bound table at these small settings (one m, one N, one
    T_in = T_out), on two fixed populations; a check detects a variant when its bound fails
    at more than delta of its informative trials (seed and sweep). The regret parts run at
    the horizon where a learner whose regret grows like 0.2 T exceeds the bound, SparringFPL
    on the cyclic population's games for the rounds where Theorem fpl's bound is half the
    margin (both solved from the formulas, cdbandits.experiments.oracle.detection_settings).
    The power curves (cdbandits.experiments.oracle.power, rule measure_check_power) run at
    the same settings. Writes results/oracle/detection.csv, .md and .json, power.csv and
    .md."""

    seeds: PositiveInt = 12
    """Seeds per variant and check (seed indices 0..seeds-1). The solver checks (fpl,
    proj-out1, proj-out2, approx-proj) catch their variant in 11 to 20 of 30 trials (their
    games come from two exploration rounds), so 6 seeds would miss a detection with
    probability up to 6%, 12 seeds with at most 0.4%."""
    environment: DetectionEnvironmentSettings = DetectionEnvironmentSettings()
    explore_first: _DetectionExploreFirst = _DetectionExploreFirst()
    small_explore_first: _DetectionSmallExploreFirst = _DetectionSmallExploreFirst()
    solvers: _DetectionSolvers = _DetectionSolvers()
    main_eps_fpl: _DetectionMainEpsFpl = _DetectionMainEpsFpl()
    main_regret_fpl: _DetectionMainRegretFpl = _DetectionMainRegretFpl()


class ScalingSection(ConfigModel):
    """Wall-clock time and peak memory against |Pi| (decision stumps, |Pi| grown through the
    bins) of SparringEXP4.P and the oracle methods on the same data budget, each measured in
    its own process. Timings vary between runs, so these outputs are not byte-reproducible."""

    n_actions: Actions = 5
    """Number of actions K."""
    n_features: PositiveInt = 4
    """Context dimension d."""
    n_contexts: PositiveInt = 200
    """Size of the context population."""
    intransitivity: Fraction = 0.7
    """Weight of the context-dependent rock-paper-scissors part."""
    class_sizes: tuple[PositiveInt, ...] = (100, 1000, 10000, 100000, 1000000)
    """Class sizes |Pi|, each a multiple of d K^2; empty skips the measurements (the test
    configuration, whose outputs must be byte-reproducible)."""
    explore_rounds: PositiveInt = 2000
    """The data budget, T = m rounds for every method."""
    fpl_rounds: PositiveInt = 100
    """SparringFPL's N."""
    pgd_iterations: PositiveInt = 8
    """ProjectedGD's T_in = T_out."""
    repeats: PositiveInt = 5
    """Measurements per (method, |Pi|), each in its own process; the tables and the
    crossovers report their median with the minimum and maximum."""

    @rule("class_sizes", "n_features", "n_actions")
    def _class_sizes_are_stump_classes(self) -> None:
        from .budgets import stump_bins

        for class_size in self.class_sizes:
            try:
                stump_bins(class_size, self.n_features, self.n_actions)
            except ValueError as error:
                raise ConfigError(str(error), "class_sizes") from None


class ShardResources(ConfigModel):
    """A sweep's shard resources where they differ from the defaults."""

    runtime: PositiveInt | None = None
    """Wall-clock minutes (instead of shard_runtime)."""
    mem_mb: PositiveInt | None = None
    """Memory in MB (instead of 2000)."""


class OracleSection(ConfigModel):
    """Sections 6-8 of the paper (algorithms in cdbandits.oracle_methods, experiments in
    cdbandits.experiments.oracle): explore-then-exploit with a classification oracle.
    Sharded sweeps check every bound over seeds (Lemma eq. (f2), Lemma explore-first,
    Theorems fpl, proj-out1, proj-out2, approx-proj, main-eps, main-regret), compare the
    paper's estimator with the skew-symmetrised one and exact with scikit-learn oracles, and
    measure time and memory against SparringEXP4.P; the paper-wide bound table joins the
    Section 5 coverage table."""

    delta: Probability = 0.05
    """Failure probability of every checked statement; a bound passes when it held in at
    least 1 - delta of the seeds."""
    seeds: Annotated[int, Field(ge=2)] = 100
    """Seeds per setting of every bound check (seed indices 0..seeds-1)."""
    shards: PositiveInt = 2
    """Jobs each sweep is split into (trial i goes to shard i mod shards); results do not
    depend on it."""
    shard_runtime: PositiveInt = 30
    """Wall-clock minutes a shard job may take (its runtime resource, SLURM --time); raise it
    with the budgets (config/bounds-full.yaml)."""
    shard_resources: dict[Experiment, ShardResources] = {}
    """Per sweep, the resources of its shard jobs where they differ from shard_runtime and
    2000 MB (config/bounds-full.yaml: the regret sweep's longest horizon)."""
    theory_epsilons: Annotated[tuple[Annotated[float, Field(gt=0)], ...], Field(min_length=1)] = (
        0.5,
        0.2,
        0.1,
        0.05,
    )
    """Accuracies for which the table of Theorem main-eps's settings (m, N, T_in, T_out,
    oracle calls) is computed."""

    environment: EnvironmentSettings = EnvironmentSettings()
    explore_first: ExploreFirstSection = ExploreFirstSection()
    solvers: SolversSection = SolversSection()
    small_game: SmallGameSection = SmallGameSection()
    regret: RegretSection = RegretSection()
    learned: LearnedSection = LearnedSection()
    detection: DetectionSection = DetectionSection()
    scaling: ScalingSection = ScalingSection()

    @rule("delta", "regret", "environment")
    def _regret_horizons_exploit(self) -> None:
        from .budgets import check_exploits

        environment, delta = self.environment, self.delta
        k, n_policies = environment.n_actions, environment.n_policies
        horizons, key = self.regret.horizons, "regret.horizons"
        check_exploits(horizons, k, n_policies, PAPER_ESTIMATOR, delta, key)

    @rule("delta", "detection")
    def _detection_horizons_exploit(self) -> None:
        from .budgets import check_exploits

        horizon = self.detection.main_regret_fpl.horizon
        n_policies = self.detection.environment.n_policies("switching")
        key = "detection.main_regret_fpl.horizon"
        check_exploits((horizon,), 2, n_policies, SKEW_ESTIMATOR, self.delta, key)
