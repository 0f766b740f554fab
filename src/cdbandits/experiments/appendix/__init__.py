"""Appendices A and B at the paper's scale: sampled sub-matrices, their statistics, the claims.

The paper samples K-subsets of the 136 MSLR rankers ("over a million" matrices) and reports,
per K, how often a Condorcet winner exists (Appendix A, Fig. 1) and how the von Neumann
winner (vNW) relates to the Copeland winners (Appendix B, Figs. 2-4). The rooms:

* :mod:`.settings`: the typed model of the ``appendix`` config section and the key groups
  its jobs read;
* :mod:`.sampling`: uniform K-subsets in blocks with their own random streams
  (:class:`~.sampling.SamplingPlan`), so any sharding gives the same subsets;
* :mod:`.kernels`: the compiled kernels (subset shuffles, Copeland scores from bit sets);
* :mod:`.counts`: per-matrix summaries and per-K counts, additive over shards;
* :mod:`.experiments`: what runs: sample, solve (:mod:`cdbandits.batched`) and count a shard;
* :mod:`.tables`: what is summarised: per-K proportions and distributions with intervals;
* :mod:`.claims`: every quantitative claim of the appendices, declared as data, decided by
  the criteria of :mod:`.criteria`, with the paper's numbers and our readings of its words
  in :mod:`.readings`; :mod:`.worked_examples`: the claims about the paper's two worked
  examples; :mod:`.k_grid`: on which grids K = 2...K_max each claim holds;
* :mod:`.verification`: the batched solver re-checked against the cvxpy reference;
* :mod:`.figures`: what is drawn: Figures 1-4;
* :mod:`.readme`: the account of all this in RESULTS.md, written from the tables.
"""

__all__ = [
    "claims",
    "counts",
    "criteria",
    "experiments",
    "figures",
    "k_grid",
    "kernels",
    "readings",
    "readme",
    "sampling",
    "settings",
    "tables",
    "verification",
    "worked_examples",
]
