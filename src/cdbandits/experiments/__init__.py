"""The experiment families: what the workflow runs, summarises and draws.

Each family is a subpackage with the same rooms:

* ``settings.py``: its config section parsed once into typed, frozen dataclasses, with
  every cross-key check done there (so a bad config fails when the workflow starts);
* ``experiments.py``: what runs (the sweeps and their shards), producing raw tables;
* ``tables.py``: what is summarised (combined shards, summary tables, markdown);
* ``figures.py``: what is drawn (matplotlib figures from the tables, in the style of
  :mod:`cdbandits.plotting`).

The algorithms, environments and solvers the families run live in the library packages
(:mod:`cdbandits.winners`, :mod:`cdbandits.batched`, :mod:`cdbandits.contextual`,
:mod:`cdbandits.oracle_methods`, :mod:`cdbandits.letor`); statistics shared by the families
are in :mod:`cdbandits.stats`. :mod:`.shards` combines the tables of a sharded sweep.
"""

__all__: list[str] = []
