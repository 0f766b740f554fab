"""The ``online`` config section: one typed model of every key, and the rules across keys.

Its five environment sections (``synthetic``, ``long_horizon``, ``supervised``,
``adversarial``, ``mslr``) each make settings, an environment with a policy class and the
horizons to run it for (:func:`.experiments.online_settings`); an environment's parameters
are one of :class:`SyntheticParameters`, :class:`SupervisedParameters`,
:class:`AdversarialParameters` and :class:`MslrParameters` (an ``online`` environment of the
duels family takes the same parameters).

Each job reads only the keys it needs: :class:`OnlineSweep` (the sharded episodes and their
summaries) or :class:`ExactWinnerSettings` (the exact contextual von Neumann winners).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, get_args

from pydantic import Field

from ..config_model import (
    Actions,
    ConfigError,
    ConfigModel,
    CvxpySolver,
    Fraction,
    Horizons,
    Margin,
    NonNegativeInt,
    PositiveInt,
    Probability,
    distinct,
    rule,
)

__all__ = [
    "ALGORITHMS",
    "ENVIRONMENTS",
    "AdversarialParameters",
    "EnvironmentParameters",
    "EnvironmentSections",
    "ExactWinnerSettings",
    "MslrParameters",
    "OnlineSection",
    "OnlineSweep",
    "SupervisedParameters",
    "SyntheticParameters",
]

#: The algorithms compared, by the names used in the tables.
OnlineAlgorithm = Literal["sparring_exp4p", "sparring_exp3", "uniform"]
ALGORITHMS: tuple[OnlineAlgorithm, ...] = get_args(OnlineAlgorithm)

#: The environments a setting can use.
ENVIRONMENTS = ("synthetic", "supervised", "adversarial", "mslr")

#: The scikit-learn datasets of :data:`cdbandits.contextual.environments.SUPERVISED_DATASETS`.
SupervisedDataset = Literal["iris", "wine", "breast_cancer", "digits"]

ClassSize = Annotated[int, Field(ge=2)]
Bins = Annotated[int, Field(ge=2)]


class _Population(ConfigModel):
    n_features: PositiveInt = 5
    """Context dimension d."""
    n_contexts: PositiveInt = 200
    """Size of the finite context population (uniform)."""
    intransitivity: Fraction = 0.8
    """Weight gamma of the context-dependent cycle; 0 gives a Condorcet winner in every
    context (a Condorcet-winner policy), 1 pure rock-paper-scissors."""


class _Instance(ConfigModel):
    n_actions: Actions = 3
    """Number of actions K."""
    n_policies: ClassSize = 100
    """Class size |Pi| (random linear argmax policies)."""


class SyntheticParameters(_Instance, _Population):
    """A synthetic intransitive population with random linear argmax policies
    (cdbandits.contextual.synthetic_intransitive_population)."""

    environment: ClassVar[str] = "synthetic"


class _Supervised(ConfigModel):
    margin: Margin = 0.6
    """P_x(y(x), b) for every wrong label b."""
    n_bins: Bins = 4
    """Quantile bins per feature of the stumps (|Pi| = d (n_bins - 1) K^2)."""


class SupervisedParameters(_Supervised):
    """A scikit-learn dataset turned into duels, with decision stumps
    (cdbandits.contextual.supervised_population)."""

    environment: ClassVar[str] = "supervised"

    dataset: SupervisedDataset = "wine"
    """The scikit-learn dataset."""


class AdversarialParameters(ConfigModel):
    """The adaptive adversary over Gaussian contexts, with random linear policies
    (cdbandits.contextual.CounterPlayAdversary)."""

    environment: ClassVar[str] = "adversarial"

    n_actions: Actions = 3
    """Number of actions K."""
    n_policies: ClassSize = 1000
    """Class size |Pi|."""
    n_features: PositiveInt = 5
    """Context dimension."""
    n_contexts: PositiveInt = 50
    """Number of contexts (drawn uniformly each round)."""
    margin: Margin = 0.8
    """Strength of the round's Condorcet winner."""


#: The per-query matrices the letor rules build from the MSLR sample.
MSLR_SAMPLE_MATRICES = "results/letor/per_query/sample_informational.npz"


class MslrParameters(ConfigModel):
    """The MSLR per-query population, with decision stumps on the query features
    (cdbandits.contextual.load_mslr_population)."""

    environment: ClassVar[str] = "mslr"

    matrices: str = MSLR_SAMPLE_MATRICES
    """Per-query matrices (.npz with matrices (n_queries, K, K), features, qids, rankers, as
    written by cdbandits.letor.PerQueryMatrices.save); the rule that builds it runs first."""
    n_bins: Bins = 2
    """Quantile bins per feature of the stumps (|Pi| = 136 (n_bins - 1) K^2)."""


EnvironmentParameters = (
    SyntheticParameters | SupervisedParameters | AdversarialParameters | MslrParameters
)

#: The parameters of each environment, by name.
PARAMETERS: dict[str, type[EnvironmentParameters]] = {
    kind.environment: kind
    for kind in (SyntheticParameters, SupervisedParameters, MslrParameters, AdversarialParameters)
}

_HORIZONS = (1000, 3000, 10000, 30000, 100000)


class SyntheticSection(_Population):
    """Synthetic context-dependent intransitive environment (utility part plus
    rock-paper-scissors weighted by the context) with random linear argmax policies: one
    setting per (n_actions, n_policies)."""

    n_actions: distinct(Actions, min_length=0) = (3, 5)
    """Numbers of actions K; empty leaves the synthetic settings out."""
    n_policies: distinct(ClassSize) = (100, 1000, 10000)
    """Class sizes |Pi| (random linear argmax policies)."""
    horizons: Annotated[Horizons, Field(min_length=1)] = _HORIZONS
    """Horizons T (increasing); each is a separate episode tuned to T."""


class LongHorizonSection(_Instance):
    """One synthetic setting (the same instance as synthetic_K{K}_N{N}) run to longer
    horizons, to see the regret's slope approach the theory's 1/2."""

    horizons: Horizons = (10000, 100000, 1000000)
    """Horizons T (increasing); empty disables the setting."""
    last_decade_checkpoints: NonNegativeInt = 10
    """Log-spaced checkpoints of each long-run regret curve within its last decade (T/10 to
    T), added to online.checkpoints, for the log-log slope of the mean regret over that
    decade with its bootstrap interval over seeds (results/online/last_decade.csv and .md);
    0 adds none, 1 is rejected (a slope needs two points)."""

    @rule("last_decade_checkpoints")
    def _a_slope_needs_two_points(self) -> None:
        if self.last_decade_checkpoints == 1:
            raise ConfigError(
                "0 (none) or at least 2 (a slope needs two points); got 1",
                "last_decade_checkpoints",
            )


class SupervisedSection(_Supervised):
    """Supervised-to-dueling environment from a dataset bundled with scikit-learn: the true
    label beats every other label with probability (1 + margin)/2, wrong labels tie;
    decision stumps on quantile bins as policies."""

    dataset: SupervisedDataset | None = "wine"
    """The scikit-learn dataset; null disables the setting."""
    horizons: Annotated[Horizons, Field(min_length=1)] = _HORIZONS
    """Horizons T (increasing)."""


class AdversarialSection(AdversarialParameters):
    """Adaptive adversary (CounterPlayAdversary): in each context the action the learner has
    played most often so far is beaten by the next action, a Condorcet winner of that round.
    Random linear policies over Gaussian contexts. Played round by round, so kept short."""

    horizons: Horizons = (1000, 3000, 10000)
    """Horizons T (increasing); empty disables the setting."""


class MslrSection(MslrParameters):
    """MSLR per-query environment: queries (their mean document features) as contexts, drawn
    uniformly, each with its K x K matrix of the chosen rankers; decision stumps on the query
    features as policies."""

    matrices: str | None = MSLR_SAMPLE_MATRICES
    """Per-query matrices (.npz with matrices (n_queries, K, K), features, qids, rankers, as
    written by cdbandits.letor.PerQueryMatrices.save); the rule that builds it runs first.
    null leaves the MSLR setting out."""
    horizons: Annotated[Horizons, Field(min_length=1)] = _HORIZONS
    """Horizons T (increasing)."""


class EnvironmentSections(ConfigModel):
    """The sections that make the settings (see the module docstring)."""

    synthetic: SyntheticSection = SyntheticSection()
    long_horizon: LongHorizonSection = LongHorizonSection()
    supervised: SupervisedSection = SupervisedSection()
    adversarial: AdversarialSection = AdversarialSection()
    mslr: MslrSection = MslrSection()

    @rule("synthetic", "long_horizon", "supervised", "adversarial", "mslr")
    def _a_population_is_enabled(self) -> None:
        finite = (
            bool(self.synthetic.n_actions)
            or bool(self.long_horizon.horizons)
            or self.supervised.dataset is not None
            or self.mslr.matrices is not None
        )
        if not finite and not self.adversarial.horizons:
            raise ConfigError(
                "every setting is disabled (synthetic.n_actions is empty, the horizons of "
                "long_horizon and adversarial are empty, supervised.dataset and mslr.matrices "
                "are null); enable at least one"
            )
        if not finite:
            raise ConfigError(
                "the online-to-batch table needs a setting with a finite context population "
                "(synthetic, long_horizon, supervised or mslr); only the adversarial one is "
                "enabled"
            )


class OnlineSweep(EnvironmentSections):
    """The sweep: every setting, seed index, horizon and algorithm, dealt to shards."""

    seeds: Annotated[int, Field(ge=2)] = 15
    """Episodes per setting and horizon (seed indices 0..seeds-1). All algorithms of a
    (setting, seed, T) meet the same contexts and duel outcomes' uniforms."""
    delta: Probability = 0.05
    """Confidence of Theorem sparring-exp4: SparringEXP4.P runs each Exp4.P copy with
    delta/4, and the coverage table checks that at least 1 - delta of the seeds stay under
    the bound."""
    uniform_expert: bool = True
    """Give both Exp4.P copies the uniformly random expert that Beygelzimer et al.'s Theorem 2
    assumes (the bound then counts N = |Pi| + 1 experts)."""
    algorithms: distinct(OnlineAlgorithm) = ALGORITHMS
    """Algorithms run in every setting; must include sparring_exp4p, which the coverage and
    online-to-batch tables are about."""
    checkpoints: Annotated[int, Field(ge=2)] = 16
    """About this many log-spaced rounds (from 10 to T) at which each episode's regret curve
    is evaluated exactly (one batched oracle call)."""
    shards: PositiveInt = 4
    """Jobs the sweep is split into; (setting, seed) units are dealt to them by decreasing
    cost. Results do not depend on it."""

    @rule("algorithms")
    def _sparring_exp4p_is_run(self) -> None:
        if "sparring_exp4p" not in self.algorithms:
            raise ConfigError(
                "must include sparring_exp4p (the coverage and online-to-batch tables are "
                f"about it); got {list(self.algorithms)}",
                "algorithms",
            )


class ExactWinnerSettings(EnvironmentSections):
    """The exact contextual von Neumann winners of the settings with small classes (the
    adversarial setting, which has no population, is skipped)."""

    lp_solver: CvxpySolver | None = "HIGHS"
    """cvxpy LP solver of the reference that computes the exact contextual von Neumann
    winners of the policy game M (HIGHS is much faster than cvxpy's default Clarabel on
    these dense LPs; must be an installed cvxpy solver); null uses the compiled certified
    solver instead (cdbandits.winners.von_neumann_winner)."""
    lp_max_policies: PositiveInt = 1000
    """Largest number of distinct policies (action vectors on the contexts) for which the
    exact contextual vNW of M is computed by the LP."""


class OnlineSection(OnlineSweep, ExactWinnerSettings):
    """Section 5 of the paper (cdbandits.experiments.online, running cdbandits.contextual):
    SparringEXP4.P against uniform duels and context-blind sparring EXP3 on contextual
    dueling environments; exact regret (rd1) against T with log-log slopes, the coverage of
    the explicit bound of Theorem sparring-exp4 over seeds, the online-to-batch epsilon
    against m, and the exact contextual von Neumann winners of the small classes. At least
    one setting with a finite context population (synthetic, long_horizon, supervised or
    mslr) must be enabled; horizons must be increasing."""
