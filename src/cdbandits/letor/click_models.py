"""Cascade click models (Lerot semantics) with the standard 5-grade MSLR parameters.

A simulated user scans the shown list from the top. At a document of relevance grade ``R``
the user clicks with probability ``c(R)``; *only after a click* the user stops with
probability ``s(R)``, otherwise goes on to the next document. Without a click the user never
stops early.

:data:`CLICK_MODELS` holds the three models of Hofmann et al. (2013) for the 5-grade MSLR
labels; :func:`click_model` returns one of them or builds a user-defined
model from a config mapping ``{"click": [...], "stop": [...]}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["CLICK_MODELS", "CascadeClickModel", "click_model"]


@dataclass(frozen=True)
class CascadeClickModel:
    """A cascade click model: click and stop probability per relevance grade.

    Attributes
    ----------
    name : str
        Name used in file names and tables.
    click : tuple of float
        ``click[R]`` = probability of a click on a document of grade ``R``.
    stop : tuple of float
        ``stop[R]`` = probability of stopping right after clicking a document of grade ``R``.
    """

    name: str
    click: tuple[float, ...]
    stop: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.click) != len(self.stop) or not self.click:
            raise ValueError(
                f"click model {self.name!r}: click ({len(self.click)} values) and stop "
                f"({len(self.stop)} values) need one probability per relevance grade each"
            )
        for kind, values in (("click", self.click), ("stop", self.stop)):
            for grade, value in enumerate(values):
                if not 0.0 <= value <= 1.0:
                    raise ValueError(
                        f"click model {self.name!r}: {kind} probability of grade {grade} is "
                        f"{value!r}, outside [0, 1]"
                    )

    @property
    def n_grades(self) -> int:
        """Number of relevance grades (labels ``0 .. n_grades - 1``)."""
        return len(self.click)

    @property
    def click_array(self) -> NDArray[np.float64]:
        """Click probabilities as an array (for the compiled kernels)."""
        return np.asarray(self.click, dtype=np.float64)

    @property
    def stop_array(self) -> NDArray[np.float64]:
        """Stop probabilities as an array (for the compiled kernels)."""
        return np.asarray(self.stop, dtype=np.float64)

    def check_labels(self, labels: ArrayLike) -> None:
        """Raise ``ValueError`` unless every label is a grade of this model."""
        values = np.asarray(labels)
        bad = np.flatnonzero((values < 0) | (values >= self.n_grades))
        if bad.size:
            raise ValueError(
                f"label {values[bad[0]].item()!r} (document {int(bad[0])}) is not a grade of click "
                f"model {self.name!r}, which has grades 0..{self.n_grades - 1}"
            )

    def simulate(self, labels: ArrayLike, rng: np.random.Generator) -> NDArray[np.bool_]:
        """Clicks of one user on a shown list.

        Parameters
        ----------
        labels : array_like of int, shape (L,)
            Relevance grades of the shown documents, top first.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of bool, shape (L,)
            True where the user clicked.
        """
        grades = np.asarray(labels, dtype=np.int64)
        self.check_labels(grades)
        clicks = np.zeros(grades.size, dtype=bool)
        for position, grade in enumerate(grades):
            if rng.random() < self.click[grade]:
                clicks[position] = True
                if rng.random() < self.stop[grade]:
                    break
        return clicks

    def examination_click_rates(self, labels: ArrayLike) -> NDArray[np.float64]:
        """Exact probability of a click at each position of a list with these labels.

        Position ``k`` is examined with probability ``prod_{j<k} (1 - c_j s_j)``; it is
        clicked with that times ``c_k``.
        """
        grades = np.asarray(labels, dtype=np.int64)
        self.check_labels(grades)
        click = self.click_array[grades]
        go_on = 1.0 - click * self.stop_array[grades]
        examined = np.concatenate(([1.0], np.cumprod(go_on)[:-1]))
        return examined * click


#: The standard 5-grade models (perfect, navigational, informational) of Hofmann et al. (2013).
CLICK_MODELS: dict[str, CascadeClickModel] = {
    model.name: model
    for model in (
        CascadeClickModel("perfect", (0.0, 0.2, 0.4, 0.8, 1.0), (0.0, 0.0, 0.0, 0.0, 0.0)),
        CascadeClickModel("navigational", (0.05, 0.3, 0.5, 0.7, 0.95), (0.2, 0.3, 0.5, 0.7, 0.9)),
        CascadeClickModel("informational", (0.4, 0.6, 0.7, 0.8, 0.9), (0.1, 0.2, 0.3, 0.4, 0.5)),
    )
}


def click_model(
    name: str, custom: Mapping[str, Mapping[str, Sequence[float]]] | None = None
) -> CascadeClickModel:
    """The click model called ``name``: a standard one or one defined in ``custom``.

    Parameters
    ----------
    name : str
        A key of :data:`CLICK_MODELS` or of ``custom``.
    custom : mapping, optional
        User-defined models, ``{name: {"click": [c_0, ...], "stop": [s_0, ...]}}`` (as in
        the workflow config); a name here overrides a standard model of the same name.

    Returns
    -------
    CascadeClickModel

    Raises
    ------
    KeyError
        If ``name`` is defined nowhere.
    ValueError
        If a custom definition is malformed.
    """
    definitions: dict[str, Any] = dict(custom or {})
    if name in definitions:
        spec = definitions[name]
        missing = {"click", "stop"} - set(spec)
        if missing:
            raise ValueError(
                f"click model {name!r} in the config lacks {sorted(missing)}; give "
                "'click' and 'stop' lists, one probability per relevance grade"
            )
        return CascadeClickModel(
            name, tuple(float(v) for v in spec["click"]), tuple(float(v) for v in spec["stop"])
        )
    if name in CLICK_MODELS:
        return CLICK_MODELS[name]
    known = sorted(set(CLICK_MODELS) | set(definitions))
    raise KeyError(f"unknown click model {name!r}; known: {', '.join(known)}")
