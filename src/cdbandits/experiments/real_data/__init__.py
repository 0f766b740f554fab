"""Real preference data: do the paper's observations hold beyond MSLR?

The statistics of Appendices A and B (Condorcet winner's existence against K, Copeland
winners in the von Neumann support, support sizes) on every real data set we hold (ATP
tennis head-to-head per period, the PrefLib sports elections, the TREC-DL human passage
preferences per topic, the arXiv 6-ranker matrix), with binomial intervals and a band for
the data's own noise; whether context matters (ATP players by court surface and by period:
what a per-context lottery gains over the best single one); the TREC-DL winners against the
best passages the data's authors published; the coverage of the intervals of
``cdbandits winners --pairs`` at the size of real logs; and the worked examples of RESULTS.md.

Rooms (import from them; this package imports none of them, so that each rule of the
workflow depends only on the code it runs):

* :mod:`.settings`: the typed model of the ``real_data`` config section and the settings
  of its jobs;
* :mod:`.sources`: the data sets as comparison logs and preference matrices;
* :mod:`.experiments`: sample, solve and count the K-subsets of every matrix;
* :mod:`.tables`: per-K and support-size tables, the paper's claims per series, the
  cross-data-set table;
* :mod:`.contexts`: the gain of a per-context lottery, with bootstrap and permutations;
* :mod:`.trec_dl`: each topic's winners against the published best passages;
* :mod:`.coverage`: interval coverage at the size of real logs;
* :mod:`.examples`: the worked examples of ``cdbandits winners --pairs``;
* :mod:`.figures`: what is drawn;
* :mod:`.readme`: the paragraphs of RESULTS.md on what generalises, numbers from the tables.
"""

__all__: list[str] = []
