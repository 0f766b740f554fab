"""The field's K-armed dueling-bandit algorithms on real preference data.

Runs the nine algorithms of :mod:`cdbandits.karmed` on preference matrices built from the
public data the workflow fetches (the MSLR ranker matrices, whole and as random K-subsets,
the arXiv 6-ranker matrix, ATP head-to-head records, PrefLib sports elections) and
measures regret against the von Neumann winner (the paper's eq. rd1 with a constant
context), Condorcet and Copeland regret and the wall time per round over many seeds.

Rooms (import from them; this package imports none of them, so that each rule of the
workflow depends only on the code it runs):

* :mod:`.settings`: the typed model of the ``duels`` config section
  (:class:`~.settings.DuelsSection`, one :class:`~.settings.DuelsEnvironment` per
  environment);
* :mod:`.environments`: the matrices built from the data files, their winners;
* :mod:`.contextual`: the contextual environments (synthetic linear, the online family's
  populations), every algorithm on them;
* :mod:`.adversarial`: the online family's adaptive adversary, played round by round and
  ranked by rd1 in hindsight;
* :mod:`.experiments`: the runs the section makes, dealt to shards, and the runs of one
  shard (:func:`run_duels_shard`);
* :mod:`.tables`: regret curves, the leaderboard with ties to the best, timings;
* :mod:`.published`: each paper's reported result next to ours, with a verdict;
* :mod:`.readme`: the section of RESULTS.md, which algorithm to use when;
* :mod:`.figures`: regret against ``T``, time per round.
"""

__all__: list[str] = []
