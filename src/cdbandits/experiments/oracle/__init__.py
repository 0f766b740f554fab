"""The oracle-method experiments: Sections 6-8 and Appendix D of the paper, and its bounds.

Explore-then-exploit with a classification oracle (the algorithms are in
:mod:`cdbandits.oracle_methods`), checked over many seeds on one small synthetic
environment (and, for the optimisation bounds, on a smaller game of its own where they can
be informative), and measured against SparringEXP4.P as the policy class grows. Rooms:

* :mod:`.settings`: the typed model of the ``oracle`` config section
  (:class:`~.settings.OracleSection`) and its rules;
* :mod:`.jobs`: the settings each job runs with, made from the section
  (:mod:`.detection_settings` for the detection, with the budgets it solves from the
  bounds' formulas);
* :mod:`.environment`: the fixed environment of the sweeps, the detection's two fixed
  populations, and their ground truth;
* :mod:`.trials`, :mod:`.experiments`: what runs: the trials of the sharded sweeps
  (``explore_first``, ``solvers``, ``regret``, ``learned``, and ``small_explore_first``,
  ``small_solvers`` on the small game) and the code each runs, using the scikit-learn
  oracles of :mod:`.learners`;
* :mod:`.statements`: the paper's bounds as data (:data:`~.statements.STATEMENTS`);
* :mod:`.ceilings`: the largest value each bounded quantity can take, from the ground
  truth, and the constants each estimator declares;
* :mod:`.budgets`: the smallest budget at which each bound falls below its ceiling;
* :mod:`.bound_table`: the bound checks and the paper-wide bound table (with its Markdown):
  coverage on informative settings only, broken-variant detections joined by statement;
* :mod:`.broken_variants` (bugs in :mod:`.broken_solvers`, :mod:`.broken_sparring`),
  :mod:`.detection`, :mod:`.detection_tables`, :mod:`.power`: the checks' power: which
  broken implementations each check detects, and the smallest degradation it sees;
* :mod:`.tables`: what is summarised: combined shards, the theory's settings, the learned
  oracles, the scaling crossovers, and every table the workflow writes;
* :mod:`.figures`: what is drawn;
* :mod:`.scaling`: time and memory against ``|Pi|``, each measurement in its own process.

The modules are imported on demand (the workflow reads :mod:`.settings` when it starts).
"""

__all__: list[str] = []
