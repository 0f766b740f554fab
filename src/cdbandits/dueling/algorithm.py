"""The base of the dueling algorithms an outside loop drives round by round.

An algorithm of :mod:`cdbandits.karmed` or :mod:`cdbandits.linear_duels` is configured by its
hyper-parameters (``__init__``, validated at once), started on a run with a generator of its
own, and then driven in rounds: ``select`` the pair to duel (from the round's observations,
if any), ``update`` with its outcome; or ``run_compiled`` plays many rounds in the
algorithm's numba kernel, which consumes the generator exactly as the NumPy rounds do.
:class:`RoundAlgorithm` holds what this protocol shares: the round counter, the check that
``update`` follows ``select`` with the pair it returned, and the call of the kernel.

The contextual learners of :mod:`cdbandits.contextual` have a base of their own,
:class:`cdbandits.contextual.duels.DuelingAlgorithm`, because nothing of this protocol
applies to them: they play whole episodes against an environment (``run``), get each
round's uniforms from the episode's streams instead of owning a generator, and have no
``select`` / ``update`` for an outside loop to call.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

__all__ = ["RoundAlgorithm"]


class RoundAlgorithm(ABC):
    """Base of the algorithms driven round by round; see the module docstring.

    A subclass's ``start`` checks its arguments, sets its run's sizes and calls
    :meth:`_restart`; its ``select`` calls :meth:`_check_selectable` and then
    :meth:`_select_round` with the round's observations, which :meth:`update` hands back to
    ``_update``.

    Attributes
    ----------
    round_ : int
        Duels completed so far; the next ``select`` plays round ``round_ + 1``.
    rng_ : numpy.random.Generator
        The algorithm's source of randomness.
    """

    #: Identifier of the algorithm in result tables and :data:`cdbandits.plotting.ALGORITHM_STYLES`.
    name: ClassVar[str]

    #: The numba kernel that plays rounds: ``_kernel(*self._kernel_state(), start_round,
    #: n_rounds, rng, *environment)`` plays rounds ``start_round + 1 ... start_round +
    #: n_rounds``, updating the state arrays in place and returning the new values of the
    #: scalar state (see :meth:`_kernel_result`).
    _kernel: ClassVar[Callable[..., Any]]

    def _restart(self, rng: np.random.Generator) -> None:
        """Start a run on ``rng`` (checked by the caller): round 0, then :meth:`_start`."""
        self.rng_ = rng
        self.round_ = 0
        self._selected: tuple[int, int] | None = None
        self._observations: tuple[Any, ...] = ()
        self._start()

    def _check_started(self) -> None:
        if not hasattr(self, "round_"):
            raise RuntimeError(f"{type(self).__name__}: call start(...) first")

    def _check_selectable(self) -> None:
        """Raise unless the run has started and the last selected pair was updated."""
        self._check_started()
        if self._selected is not None:
            raise RuntimeError(
                f"select() called twice without update(); round {self.round_ + 1} already "
                f"selected {self._selected}"
            )

    def _select_round(self, *observations: Any) -> tuple[int, int]:
        """The pair of round ``round_ + 1`` from :meth:`_select` on the round's observations."""
        a, b = self._select(self.round_ + 1, *observations)
        self._selected = (int(a), int(b))
        self._observations = observations
        return self._selected

    def update(self, a: int, b: int, outcome: int) -> None:
        """Learn from the duel of the pair ``select`` returned: ``outcome`` 1 if ``a`` won."""
        self._check_started()
        if self._selected is None:
            raise RuntimeError("update() needs a preceding select()")
        if (a, b) != self._selected:
            raise ValueError(f"update() got the pair {(a, b)}; select() returned {self._selected}")
        if isinstance(outcome, bool) or outcome not in (0, 1):
            raise ValueError(f"outcome must be 1 (a won) or 0 (b won); got {outcome!r}")
        self._update(self.round_ + 1, *self._observations, int(a), int(b), int(outcome))
        self.round_ += 1
        self._selected = None

    def _check_between_rounds(self) -> None:
        """Raise unless the run has started and no selected pair waits for its update."""
        self._check_started()
        if self._selected is not None:
            raise RuntimeError("run_compiled() between select() and update()")

    def _play_compiled(self, n_rounds: int, *environment: Any) -> None:
        """Play ``n_rounds`` rounds of :attr:`_kernel` on ``environment`` from the current state."""
        result = self._kernel(
            *self._kernel_state(), self.round_, int(n_rounds), self.rng_, *environment
        )
        self._kernel_result(result)
        self.round_ += int(n_rounds)

    @abstractmethod
    def _start(self) -> None:
        """Set the learned state for a new run (the run's sizes and ``rng_`` are set)."""

    @abstractmethod
    def _select(self, t: int, *observations: Any) -> tuple[int, int]:
        """The pair of round ``t`` (1-based), NumPy implementation."""

    @abstractmethod
    def _update(self, t: int, *duel: Any) -> None:
        """Learn from round ``t``'s observations and duel ``(a, b, outcome)`` (NumPy)."""

    @abstractmethod
    def _kernel_state(self) -> tuple[Any, ...]:
        """The kernel's leading arguments: the learned state and the hyper-parameters."""

    def _kernel_result(self, result: Any) -> None:
        """Store what the kernel returns (scalar state it cannot update in place).

        Kernels that update everything in place return None, which is all the default
        accepts.
        """
        if result is not None:
            raise TypeError(f"{type(self).__name__}: unexpected kernel result {result!r}")

    def __repr__(self) -> str:
        parameters = ", ".join(
            f"{name}={value!r}"
            for name, value in vars(self).items()
            if not name.startswith("_") and not name.endswith("_")
        )
        return f"{type(self).__name__}({parameters})"
