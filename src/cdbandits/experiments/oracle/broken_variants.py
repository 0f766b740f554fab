"""Broken implementations a careless implementation could contain, to measure the checks' power.

Each :class:`BrokenVariant` is the library's code with one bug, given as the
:class:`~.experiments.Implementations` a sweep trial runs; :mod:`.detection` runs every
variant through the bound checks of the bound table and counts the trials at which each
check fails. These are verification objects, not part of the library's API: nothing
outside the verification code and its tests may use them. The bugs themselves are in
:mod:`.broken_solvers` (estimators, game solvers, exploitation) and
:mod:`.broken_sparring` (SparringEXP4.P, the regret measurement).

The variants (:data:`VARIANTS`), by the kind of bug (:attr:`BrokenVariant.kind`):

* *scale* and *sign*: ``Phat`` weighted by ``1/K`` instead of ``1/K^2``, or with its sign
  flipped; SparringFPL without perturbation or with perturbations a hundred times
  smaller; ProjectedGD with ``eta x 100`` (refused by the library: ApproxProject's
  ``nu > 1``), without its step, or with ApproxProject stopped after ``T_in / 10``;
  SparringEXP4.P without its confidence term, or with an exploration rate of one half;
* *outcome coding*: the estimator fed outcomes coded ``1`` / ``0`` instead of ``+1`` / ``-1``;
  SparringEXP4.P feeding each copy the other's reward;
* *indexing*: each exploration round's estimate filed under the next round (the duel paired
  with the next round's context); SparringEXP4.P reading the previous round's context;
  SparringFPL with an oracle that maximises the costs;
* *data handling*: the estimator sorting each dueled pair without flipping its outcome;
  SparringEXP4.P without importance weighting; exploitation that duels one draw with
  itself; regret (rd1) measured against the best fixed arm instead of the best policy;
* *last iterate*: SparringFPL's last row policy instead of its average;
* *frozen copy*: SparringEXP4.P whose column copy never learns;
* *wrong mixture*: explore-then-exploit exploiting the heaviest policy of ``What``;
* *winner concept*: the exact solver returning the Copeland winner of ``Mhat``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .broken_solvers import (
    EarlyStopPGD,
    LastIterateFPL,
    MaximisingFPL,
    StillPGD,
    broken_scheme,
    copeland_maxmin,
    exploit_heaviest_policy,
    exploit_one_draw,
    scaled_fpl,
    scaled_pgd,
)
from .broken_sparring import (
    SparringWithoutConfidence,
    broken_sparring,
    exploring_sparring,
    fixed_arm_regret,
)
from .trials import LIBRARY, Implementations

__all__ = ["CORRECT", "KINDS", "VARIANTS", "BrokenVariant", "variant_names"]

#: The kinds of bug, in the order of the detection table.
KINDS = (
    "scale",
    "sign",
    "outcome coding",
    "indexing",
    "data handling",
    "last iterate",
    "frozen copy",
    "wrong mixture",
    "winner concept",
)


@dataclass(frozen=True)
class BrokenVariant:
    """A named implementation with (at most) one bug.

    Attributes
    ----------
    name : str
    component : str
        The part of the code it breaks (``estimator``, ``fpl``, ``pgd``, ``lp``,
        ``exploitation``, ``exp4p``, ``regret``), or ``none`` for the correct
        implementation.
    kind : str
        The kind of bug (:data:`KINDS`), or ``none``.
    description : str
    implementations : Implementations
        What the sweep trials run.
    """

    name: str
    component: str
    kind: str
    description: str
    implementations: Implementations

    def __post_init__(self) -> None:
        if self.kind not in (*KINDS, "none"):
            raise ValueError(f"{self.name}: unknown kind {self.kind!r}; known: {KINDS}")


def _variant(name: str, component: str, kind: str, description: str, **parts) -> BrokenVariant:
    return BrokenVariant(name, component, kind, description, replace(LIBRARY, **parts))


#: The correct implementation (the control: no check may flag it).
CORRECT = BrokenVariant("correct", "none", "none", "the library's implementation", LIBRARY)

#: Every broken variant, in the order of the detection matrix.
VARIANTS: tuple[BrokenVariant, ...] = (
    _variant(
        "estimator_1_over_K",
        "estimator",
        "scale",
        "Phat weighted by 1/K instead of 1/K^2 (every estimate scaled by 1/K)",
        scheme=lambda estimator, k: broken_scheme("scaled", 1.0 / k)(estimator, k),
    ),
    _variant(
        "estimator_sign",
        "estimator",
        "sign",
        "Phat with its sign flipped (-r / q)",
        scheme=broken_scheme("scaled", -1.0),
    ),
    _variant(
        "estimator_outcome_01",
        "estimator",
        "outcome coding",
        "Phat of outcomes coded 1 / 0 instead of +1 / -1",
        scheme=broken_scheme("outcome_01"),
    ),
    _variant(
        "estimator_round_shift",
        "estimator",
        "indexing",
        "each exploration round's estimate filed under the next round (paired with its context)",
        scheme=broken_scheme("round_shift"),
    ),
    _variant(
        "estimator_unordered_pair",
        "estimator",
        "data handling",
        "each dueled pair sorted (a < b) without flipping its outcome",
        scheme=broken_scheme("unordered_pair"),
    ),
    _variant(
        "fpl_no_perturbation",
        "fpl",
        "scale",
        "SparringFPL without perturbation (follow the leader)",
        fpl=scaled_fpl(0.0),
    ),
    _variant(
        "fpl_alpha_x100",
        "fpl",
        "scale",
        "SparringFPL with alpha x 100 (perturbations 100 times smaller)",
        fpl=scaled_fpl(0.01),
    ),
    _variant(
        "fpl_maximising_oracle",
        "fpl",
        "indexing",
        "SparringFPL calling an oracle that maximises the costs (argmax for argmin)",
        fpl=MaximisingFPL,
    ),
    _variant(
        "fpl_last_iterate",
        "fpl",
        "last iterate",
        "SparringFPL returning its last row policy w_N instead of the average",
        fpl=LastIterateFPL,
    ),
    _variant("pgd_eta_x100", "pgd", "scale", "ProjectedGD with eta x 100", pgd=scaled_pgd(100.0)),
    _variant(
        "pgd_no_step",
        "pgd",
        "scale",
        "ProjectedGD whose projection returns its start (nu = 0): the step is discarded",
        pgd=StillPGD,
    ),
    _variant(
        "approx_project_early_stop",
        "pgd",
        "scale",
        "ApproxProject stopped after T_in / 10 iterations (bounds at T_in)",
        pgd=EarlyStopPGD,
    ),
    _variant(
        "lp_copeland_winner",
        "lp",
        "winner concept",
        "the exact solver returning the Copeland winner of Mhat instead of its maxmin mixture",
        maxmin=copeland_maxmin,
    ),
    _variant(
        "exploit_heaviest_policy",
        "exploitation",
        "wrong mixture",
        "explore-then-exploit exploiting the heaviest policy of What instead of What",
        exploitation=exploit_heaviest_policy,
    ),
    _variant(
        "exploit_one_draw",
        "exploitation",
        "data handling",
        "explore-then-exploit dueling one draw from What with itself (a_t = b_t)",
        exploitation=exploit_one_draw,
    ),
    _variant(
        "exp4p_no_confidence",
        "exp4p",
        "scale",
        "SparringEXP4.P without its confidence term",
        sparring=SparringWithoutConfidence,
    ),
    _variant(
        "exp4p_exploration_half",
        "exp4p",
        "scale",
        "SparringEXP4.P exploring uniformly half of the time (K p_min = 0.5)",
        sparring=exploring_sparring(exploration=0.5),
    ),
    _variant(
        "exp4p_frozen_column",
        "exp4p",
        "frozen copy",
        "SparringEXP4.P whose column copy is never updated",
        sparring=broken_sparring("frozen_column"),
    ),
    _variant(
        "exp4p_stale_context",
        "exp4p",
        "indexing",
        "SparringEXP4.P reading the previous round's context",
        sparring=broken_sparring("stale_context"),
    ),
    _variant(
        "exp4p_no_importance_weight",
        "exp4p",
        "data handling",
        "SparringEXP4.P estimating the drawn action's reward as r instead of r / p",
        sparring=broken_sparring("no_importance_weight"),
    ),
    _variant(
        "exp4p_flipped_outcome",
        "exp4p",
        "outcome coding",
        "SparringEXP4.P feeding each copy the other's reward (sign of the duel outcome)",
        sparring=broken_sparring("flipped_outcome"),
    ),
    _variant(
        "regret_fixed_arm",
        "regret",
        "data handling",
        "regret (rd1) measured against the best fixed arm instead of the best policy",
        regret=fixed_arm_regret,
    ),
)


def variant_names() -> tuple[str, ...]:
    """The names of :data:`CORRECT` and every :data:`VARIANTS` entry, in order."""
    return (CORRECT.name, *(variant.name for variant in VARIANTS))
