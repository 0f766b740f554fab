"""cdbandits: contextual dueling bandits and von Neumann winners.

Reference implementation of Dudik, Hofmann, Schapire, Slivkins and Zoghi, "Contextual
Dueling Bandits" (COLT 2015). The top level re-exports the winners API; the subpackages
hold the rest (see their ``__all__``).
"""

from .preference import (
    SYMMETRY_TOL,
    PreferenceMatrixError,
    as_skew,
    detect_convention,
    to_probability,
    to_skew,
)
from .winners import (
    CERTIFICATE_TOL,
    COPELAND_VARIANTS,
    CertificationError,
    SolverError,
    VonNeumannWinner,
    all_winners,
    borda_scores,
    condorcet_winner,
    copeland_losses,
    copeland_scores,
    copeland_winners,
    exploitability,
    random_walk_distribution,
    von_neumann_winner,
)

__version__ = "0.1.0"

__all__ = [
    "CERTIFICATE_TOL",
    "COPELAND_VARIANTS",
    "SYMMETRY_TOL",
    "CertificationError",
    "PreferenceMatrixError",
    "SolverError",
    "VonNeumannWinner",
    "__version__",
    "all_winners",
    "as_skew",
    "borda_scores",
    "condorcet_winner",
    "copeland_losses",
    "copeland_scores",
    "copeland_winners",
    "detect_convention",
    "exploitability",
    "random_walk_distribution",
    "to_probability",
    "to_skew",
    "von_neumann_winner",
]
