"""The numbers the paper states in Appendices A and B, and our readings of its vaguer words.

One place for each, used by the claims (:mod:`.claims`) and drawn as reference lines in the
figures (:mod:`.figures`). A reading is our choice, stated in the claims table next to the
paper's words; where the words allow several readings, the claim gives the reason for its
own (its ``note``).
"""

from __future__ import annotations

from fractions import Fraction

__all__ = [
    "LOSS_SHARE_OF_K",
    "MAJORITY",
    "PAPER_LARGEST_SUPPORT",
    "PAPER_MATRICES",
    "PAPER_SOME_COPELAND",
    "PAPER_SUPPORT_5",
    "RAPID_HALF",
    "SLIGHTLY",
]

#: "In over 99.9% of the examples, the von Neumann winner contained at least one Copeland
#: winner" (pooled over the paper's unstated K grid).
PAPER_SOME_COPELAND = 0.999
#: "Fewer than 0.03% of preference matrices had von Neumann winners whose support contains
#: 5 arms".
PAPER_SUPPORT_5 = 0.0003
#: "Not a single one had a von Neumann winner that assigned non-zero probability to more
#: than 5 arms" ...
PAPER_LARGEST_SUPPORT = 5
#: ... "among the over a million preference matrices sampled".
PAPER_MATRICES = 1_000_000

#: "Overwhelming", "vast" majority; arms that "tend to" have low losses: more than 90%.
MAJORITY = 0.9
#: "Drops rapidly": below one half before K reaches half of the largest K sampled.
RAPID_HALF = 0.5
#: "Slightly lower than 99.9%": at most one percentage point lower.
SLIGHTLY = 0.01
#: A low Copeland loss relative to K: at most this share of the K - 1 possible (exact).
LOSS_SHARE_OF_K = Fraction(1, 10)
