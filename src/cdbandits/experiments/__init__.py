"""The experiment families: what the workflow runs, summarises and draws.

Each family is a subpackage with the same rooms:

* ``settings.py``: the typed model of its config section (:mod:`.config_model`): every
  key's type, default, bounds and description, and the rules across keys (the workflow
  checks the whole config when it starts, and generates its JSON schema from the models);
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
