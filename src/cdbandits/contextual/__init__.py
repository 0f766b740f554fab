"""Contextual dueling bandits: Sections 3-5 of the paper.

* :mod:`.environments`: contexts with hidden preference matrices (synthetic intransitive,
  supervised, MSLR per-query, adaptive adversary);
* :mod:`.policies`: finite policy classes (decision stumps, random linear argmax) and their
  action tables;
* :mod:`.oracle`: the exact cost-sensitive classification oracle (eq. (f5));
* :mod:`.duels`: the episode loop and its log;
* :mod:`.exp4p`: Exp4.P and SparringEXP4.P; :mod:`.baselines`: uniform duels, sparring EXP3;
* :mod:`.regret`: exact regret (rd1), the policy game ``M``, exploitability, exact vNW;
* :mod:`.bounds`: explicit constants of Theorem sparring-exp4.
"""

from .baselines import Exp3, SparringExp3, UniformDuels, exp3_exploration_rate
from .bounds import (
    SparringExp4PBound,
    azuma_union_bound,
    exp4p_reward_bound,
    sparring_exp4p_regret_bound,
)
from .duels import DuelingAlgorithm, DuelLog, draw_action, schedule_log
from .environments import (
    SUPERVISED_DATASETS,
    ContextPopulation,
    CounterPlayAdversary,
    DuelingEnvironment,
    StochasticEnvironment,
    condorcet_fraction,
    cyclic_tournament,
    load_mslr_population,
    supervised_population,
    synthetic_intransitive_population,
)
from .exp4p import Exp4P, SparringExp4P
from .oracle import (
    ActionTable,
    ClassificationOracle,
    OracleAnswer,
    TableOracle,
    aggregate_costs,
    contexts_per_byte,
)
from .policies import DecisionStumps, PolicyClass, RandomLinearPolicies, StumpOracle
from .regret import (
    ContextualVonNeumannWinner,
    contextual_exploitability,
    contextual_von_neumann_winner,
    mixture_action_distributions,
    policy_matrix,
    regret_curve,
)

__all__ = [
    "SUPERVISED_DATASETS",
    "ActionTable",
    "ClassificationOracle",
    "ContextPopulation",
    "ContextualVonNeumannWinner",
    "CounterPlayAdversary",
    "DecisionStumps",
    "DuelLog",
    "DuelingAlgorithm",
    "DuelingEnvironment",
    "Exp3",
    "Exp4P",
    "OracleAnswer",
    "PolicyClass",
    "RandomLinearPolicies",
    "SparringExp3",
    "SparringExp4P",
    "SparringExp4PBound",
    "StochasticEnvironment",
    "StumpOracle",
    "TableOracle",
    "UniformDuels",
    "aggregate_costs",
    "azuma_union_bound",
    "condorcet_fraction",
    "contexts_per_byte",
    "contextual_exploitability",
    "contextual_von_neumann_winner",
    "cyclic_tournament",
    "draw_action",
    "exp3_exploration_rate",
    "exp4p_reward_bound",
    "load_mslr_population",
    "mixture_action_distributions",
    "policy_matrix",
    "regret_curve",
    "schedule_log",
    "sparring_exp4p_regret_bound",
    "supervised_population",
    "synthetic_intransitive_population",
]
