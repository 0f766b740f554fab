"""The oracle-method experiments: Sections 6-8 and Appendix D of the paper, and its bounds.

Explore-then-exploit with a classification oracle (the algorithms are in
:mod:`cdbandits.oracle_methods`), checked over many seeds on one small synthetic
environment, and measured against SparringEXP4.P as the policy class grows. Rooms:

* :mod:`.settings`: the ``oracle`` config section parsed once into frozen settings, with the
  checks the code needs (:class:`~.settings.OracleSettings`);
* :mod:`.environment`: the fixed environment of the sweeps and its ground truth;
* :mod:`.experiments`: what runs: the trials of the sharded sweeps (``explore_first``,
  ``solvers``, ``regret``, ``learned``), using the scikit-learn oracles of :mod:`.learners`;
* :mod:`.statements`: the paper's bounds as data (:data:`~.statements.STATEMENTS`);
* :mod:`.tables`: what is summarised: combined shards, the bound checks and the paper-wide
  bound table (with its Markdown), the theory's settings, the learned oracles, the scaling
  crossovers;
* :mod:`.figures`: what is drawn;
* :mod:`.scaling`: time and memory against ``|Pi|``, each measurement in its own process.

The modules are imported on demand (the workflow reads :mod:`.settings` when it starts).
"""

__all__: list[str] = []
