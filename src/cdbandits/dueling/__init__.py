"""What every dueling learner shares, below the K-armed, linear and contextual packages.

* :mod:`~cdbandits.dueling.draws`: the random-draw rules, in NumPy and compiled, that make
  a learner's NumPy round and its numba kernel play the same duels on the same seed;
* :mod:`~cdbandits.dueling.counter_play`: a round's win probability in the kernels, from
  fixed matrices or the adaptive counter-play adversary (:class:`CounterPlayRounds`);
* :mod:`~cdbandits.dueling.checks`: the checks of hyper-parameters, generators and
  simulation rounds;
* :mod:`~cdbandits.dueling.algorithm`: :class:`RoundAlgorithm`, the base of the algorithms
  an outside loop drives round by round (``select``, ``update``, ``run_compiled``).

:mod:`cdbandits.karmed`, :mod:`cdbandits.linear_duels` and :mod:`cdbandits.contextual` build
on these; this package imports none of them.
"""

from .algorithm import RoundAlgorithm
from .checks import (
    ENGINES,
    Engine,
    check_generator,
    check_integer,
    check_positive,
    checked_rounds,
)
from .counter_play import CounterPlayRounds, checked_counter_play_rounds
from .draws import coin, draw_arm, pick, pick_from

__all__ = [
    "ENGINES",
    "CounterPlayRounds",
    "Engine",
    "RoundAlgorithm",
    "check_generator",
    "check_integer",
    "check_positive",
    "checked_counter_play_rounds",
    "checked_rounds",
    "coin",
    "draw_arm",
    "pick",
    "pick_from",
]
