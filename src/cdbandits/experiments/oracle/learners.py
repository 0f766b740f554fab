"""The scikit-learn learners used as oracles by the ``learned`` sweep and the scaling runs.

Each entry of :data:`LEARNED_ORACLES` names a learner (:func:`learned_estimator`) and the
cost-sensitive reduction of :class:`~cdbandits.oracle_methods.learned_oracle.LearnedOracle`
that trains it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from ...contextual.policies import DecisionStumps

__all__ = ["LEARNED_ORACLES", "learned_estimator"]

#: The scikit-learn oracles of the ``learned`` experiment: name -> (reduction, description).
LEARNED_ORACLES = {
    "tree_on_bins": ("weighted_multiclass", "depth-1 decision tree on the stumps' bins (a stump)"),
    "regression_on_bins": ("cost_regression", "one depth-1 regression tree per action on the bins"),
    "tree_depth2": ("weighted_multiclass", "depth-2 decision tree on the raw features"),
}


@dataclass(frozen=True)
class _SharedBinning:
    """``stumps.bins`` as a transformer function that clones share instead of deep-copying.

    scikit-learn's ``clone`` deep-copies non-estimator parameters; without this every learned
    policy would carry its own copy of the class's bin edges (``O(|Pi|)`` memory each).
    """

    stumps: DecisionStumps

    def __call__(self, X: Any) -> NDArray[np.int64]:
        return self.stumps.bins(X)

    def __deepcopy__(self, memo: dict[int, Any]) -> _SharedBinning:
        return self


def learned_estimator(name: str, stumps: DecisionStumps) -> Any:
    """The scikit-learn estimator of a :data:`LEARNED_ORACLES` entry (``random_state=0``)."""
    bins = FunctionTransformer(_SharedBinning(stumps))
    if name == "tree_on_bins":
        return make_pipeline(bins, DecisionTreeClassifier(max_depth=1, random_state=0))
    if name == "regression_on_bins":
        return make_pipeline(bins, DecisionTreeRegressor(max_depth=1, random_state=0))
    if name == "tree_depth2":
        return DecisionTreeClassifier(max_depth=2, random_state=0)
    raise ValueError(f"learned oracle must be one of {tuple(LEARNED_ORACLES)}; got {name!r}")
