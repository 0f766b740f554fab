"""Preference matrices of learning-to-rank feature rankers from simulated clicks.

The pipeline that built the published MSLR matrices, step by step:
:mod:`~cdbandits.letor.reader` (LETOR files to arrays), :mod:`~cdbandits.letor.rankers`
(one ranker per feature), :mod:`~cdbandits.letor.click_models` (cascade users),
:mod:`~cdbandits.letor.interleave` (Probabilistic Interleave, Team-Draft),
:mod:`~cdbandits.letor.matrices` (aggregate and per-query matrices) and
:mod:`~cdbandits.letor.validation` (comparison with a published matrix).
"""

from .click_models import CLICK_MODELS, CascadeClickModel, click_model
from .interleave import (
    CREDIT_TIES,
    DEFAULT_LIST_LENGTH,
    DEFAULT_TAU,
    METHODS,
    TIE_TOLERANCE,
    CreditTies,
    InterleavedList,
    InterleaveMethod,
    duel_outcome_counts,
    probabilistic_credit,
    probabilistic_interleave,
    rank_weights,
    team_draft_interleave,
    team_draft_outcome,
)
from .matrices import (
    PerQueryMatrices,
    PreferenceEstimate,
    estimate_per_query_matrices,
    estimate_preference_matrix,
    ranker_pairs,
)
from .rankers import FeatureRankings, feature_rankings, rank_documents
from .reader import (
    LastQueryPolicy,
    LetorData,
    LetorFormatError,
    concatenate,
    read_letor,
    read_letor_files,
)
from .validation import MatrixComparison, compare_matrices, comparison_table, plot_comparison

__all__ = [
    "CLICK_MODELS",
    "CREDIT_TIES",
    "DEFAULT_LIST_LENGTH",
    "DEFAULT_TAU",
    "METHODS",
    "TIE_TOLERANCE",
    "CascadeClickModel",
    "CreditTies",
    "FeatureRankings",
    "InterleaveMethod",
    "InterleavedList",
    "LastQueryPolicy",
    "LetorData",
    "LetorFormatError",
    "MatrixComparison",
    "PerQueryMatrices",
    "PreferenceEstimate",
    "click_model",
    "compare_matrices",
    "comparison_table",
    "concatenate",
    "duel_outcome_counts",
    "estimate_per_query_matrices",
    "estimate_preference_matrix",
    "feature_rankings",
    "plot_comparison",
    "probabilistic_credit",
    "probabilistic_interleave",
    "rank_documents",
    "rank_weights",
    "ranker_pairs",
    "read_letor",
    "read_letor_files",
    "team_draft_interleave",
    "team_draft_outcome",
]
