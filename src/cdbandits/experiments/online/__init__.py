"""The online experiments of Section 5: SparringEXP4.P against baselines, regret against ``T``.

Reproduces Theorem sparring-exp4 of the paper on contextual dueling environments
(:mod:`cdbandits.contextual`): the exact regret (rd1) of SparringEXP4.P, uniform duels and
context-blind sparring EXP3 against the horizon ``T``, the coverage of the theorem's bound
with explicit constants over seeds, the online-to-batch exploitability ``eps`` of the
average policy distribution against ``m``, and the exact contextual von Neumann winners of
the small classes.

Rooms (import from them; this package imports none of them, so that each rule of the
workflow depends only on the code it runs):

* :mod:`.settings`: the typed model of the ``online`` config section
  (:class:`~.settings.OnlineSection`; :class:`~.settings.OnlineSweep` and
  :class:`~.settings.ExactWinnerSettings`, the keys its jobs read) and its rules;
* :mod:`.experiments`: the settings the section makes, one
  :class:`~.experiments.OnlineSetting` per environment and policy class, their instances
  and the episodes of a shard (:func:`run_online_shard`);
* :mod:`.tables`: the combined shards and the summary tables (:func:`summarise_online`),
  the headline numbers, the coverage table and the overview of RESULTS.md in Markdown, the
  exact winners;
* :mod:`.figures`: regret against ``T``, regret curves, ``eps`` against ``m``.
"""

__all__: list[str] = []
