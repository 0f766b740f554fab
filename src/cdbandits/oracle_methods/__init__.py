"""Explore-then-exploit with a classification oracle (Sections 6-8 and Appendix D of the paper).

* :mod:`.exploration`: non-adaptive exploration and unbiased estimates ``Phat_i`` (the paper's
  ``K^2`` estimator, the skew-symmetrised one, any fixed distribution), each with its ``L``, ``V``;
* :mod:`.compact_game`: the compact game ``B = blockdiag(Phat_1..Phat_m)``, stored sparsely,
  and policy vectors;
* :mod:`.oracles`: oracle access to ``Pi`` on the exploration contexts (:class:`ExactOracle`);
* :mod:`.hull`: points of the policy hull as sparse mixtures, security levels (each one
  oracle call);
* :mod:`.fpl`: SparringFPL; :mod:`.pgd`: ProjectedGD with ApproxProject;
* :mod:`.theory`: the theory's settings (``alpha``, ``eta``, ``nu``, ``m``, ``N``,
  ``T_in``, ``T_out``); :mod:`.bounds`: every bound with its constants;
* :mod:`.ground_truth`: dense ``Mhat`` / ``M`` and the certified maxmin LP (cvxpy);
* :mod:`.learned_oracle`: scikit-learn learners as oracle, audited against the exact one;
* :mod:`.stump_oracle`: an exact stump oracle whose cost does not grow with ``|Pi|``;
* :mod:`.explore_exploit`: the full explore-then-exploit episode (Theorem main-regret).

The experiments of the paper's Sections 6-8 (sweeps, bound table, figures, scaling) are in
:mod:`cdbandits.experiments.oracle`.
"""

from .bounds import (
    approx_project_bound,
    approx_project_factor,
    deviation_bound,
    explore_exploit_regret_bound,
    explore_first_bound,
    fpl_gap_bound,
    fpl_regret,
    main_eps_bound,
    pgd_bound,
    pgd_outer_bound,
)
from .compact_game import CompactGame, policy_vectors
from .exploration import (
    ESTIMATORS,
    ExplorationSample,
    FixedExploration,
    explore,
    skew_symmetric_exploration,
    uniform_exploration,
)
from .explore_exploit import ExploreExploitRun, explore_then_exploit
from .fpl import SparringFPL
from .ground_truth import MAXMIN_TOL, MaxminSolution, maxmin_strategy, policy_game_matrix
from .hull import (
    BestResponse,
    Checkpoint,
    PolicyMixture,
    column_security,
    duality_gap,
    row_security,
)
from .learned_oracle import REDUCTIONS, AuditedOracle, AuditRecord, LearnedOracle
from .oracles import ExactOracle, PolicyOracle
from .pgd import ProjectedGD, Projection, ProjectionRecord, approx_project, projection_certificate
from .stump_oracle import CompressedStumpOracle
from .theory import (
    ALGORITHMS,
    TheoryParameters,
    approx_project_nu,
    exploration_rounds,
    explore_exploit_rounds,
    fpl_alpha,
    fpl_rounds,
    pgd_eta,
    pgd_iterations,
    statistics_delta,
    theory_parameters,
)

__all__ = [
    "ALGORITHMS",
    "ESTIMATORS",
    "MAXMIN_TOL",
    "REDUCTIONS",
    "AuditRecord",
    "AuditedOracle",
    "BestResponse",
    "Checkpoint",
    "CompactGame",
    "CompressedStumpOracle",
    "ExactOracle",
    "ExplorationSample",
    "ExploreExploitRun",
    "FixedExploration",
    "LearnedOracle",
    "MaxminSolution",
    "PolicyMixture",
    "PolicyOracle",
    "ProjectedGD",
    "Projection",
    "ProjectionRecord",
    "SparringFPL",
    "TheoryParameters",
    "approx_project",
    "approx_project_bound",
    "approx_project_factor",
    "approx_project_nu",
    "column_security",
    "deviation_bound",
    "duality_gap",
    "explore",
    "explore_exploit_regret_bound",
    "explore_exploit_rounds",
    "explore_first_bound",
    "explore_then_exploit",
    "exploration_rounds",
    "fpl_alpha",
    "fpl_gap_bound",
    "fpl_regret",
    "fpl_rounds",
    "main_eps_bound",
    "maxmin_strategy",
    "pgd_bound",
    "pgd_eta",
    "pgd_iterations",
    "pgd_outer_bound",
    "policy_game_matrix",
    "policy_vectors",
    "projection_certificate",
    "row_security",
    "skew_symmetric_exploration",
    "statistics_delta",
    "theory_parameters",
    "uniform_exploration",
]
