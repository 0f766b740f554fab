"""What is summarised: the appendix statistics of every real series, the paper's claims on
them, and the cross-data-set table.

Per series (:func:`series_tables`): the appendix's per-K table
(:func:`cdbandits.experiments.appendix.tables.per_k_table`: binomial intervals over the
sampled subsets) with the *data band* of each share (its equal-tailed quantiles over the
resampled data, :mod:`.experiments`), and the distribution of the support size
(:func:`~cdbandits.experiments.appendix.tables.distribution_table`).

The paper's claims (:data:`cdbandits.experiments.appendix.claims.CLAIMS`) are evaluated on
every series with the appendix's own criteria (:func:`series_claims`), and again on every
draw of the data band: ``draws_holding`` is the share of resampled data sets on which the
claim holds, so a verdict that the data's noise could flip shows. The claim "not one of over
a million matrices has a support larger than 5" is about the paper's sample size as well as
its matrices; here, as in the appendix's K-grid table, its criterion is "none among those
sampled" (the claim's ``on_grid`` criterion).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from ...stats import IntervalMethod
from ..appendix.claims import CLAIMS, Claim, evaluate_claim
from ..appendix.counts import AppendixCounts
from ..appendix.criteria import FallsBelowEarly, NoneAmong
from ..appendix.readings import PAPER_LARGEST_SUPPORT
from ..appendix.tables import distribution_table, markdown_table, per_k_table
from .experiments import SeriesCounts

__all__ = [
    "BAND_STATISTICS",
    "claim_cell",
    "cross_dataset_markdown",
    "cross_dataset_table",
    "read_series_counts",
    "read_stacked",
    "series_claims",
    "series_overview",
    "series_tables",
]

#: Shares of the per-K table that get a data band.
BAND_STATISTICS = ("condorcet", "all_copeland_in_support", "some_copeland_in_support")


def read_stacked(paths: Sequence[str | os.PathLike[str]]) -> pd.DataFrame:
    """The CSV tables of several data sets (or analyses), one under the other."""
    return pd.concat([pd.read_csv(path) for path in paths], ignore_index=True)


def read_series_counts(path: str | os.PathLike[str]) -> list[SeriesCounts]:
    """The series of a data set's counts file (written by the workflow's count job)."""
    with open(path, encoding="utf-8") as stream:
        payload = json.load(stream)
    return [SeriesCounts.from_jsonable(series) for series in payload["series"]]


def _band(
    draws: Sequence[AppendixCounts], ks: Sequence[int], confidence: float
) -> dict[str, list[float]]:
    """Quantiles over the draws of every banded share and of the mean support size, per K
    (NaN without draws)."""
    alpha = 1.0 - confidence
    columns: dict[str, list[float]] = {}
    for name in (*BAND_STATISTICS, "mean_support_size"):
        prefix = f"band_fraction_{name}" if name in BAND_STATISTICS else f"band_{name}"
        if not draws:
            columns[f"{prefix}_low"] = columns[f"{prefix}_high"] = [np.nan] * len(ks)
            continue
        values = np.array(
            [
                [_statistic(draw.per_k[k], name) if k in draw.per_k else np.nan for k in ks]
                for draw in draws
            ]
        )
        low, high = np.nanquantile(values, [alpha / 2, 1 - alpha / 2], axis=0)
        columns[f"{prefix}_low"] = low.tolist()
        columns[f"{prefix}_high"] = high.tolist()
    return columns


def _statistic(counts: Any, name: str) -> float:
    if name == "mean_support_size":
        return sum(v * c for v, c in counts.support_size.items()) / counts.matrices
    return getattr(counts, name) / counts.matrices


def series_tables(
    series: Sequence[SeriesCounts],
    matrices: pd.DataFrame,
    confidence: float = 0.95,
    method: IntervalMethod = "clopper-pearson",
) -> dict[str, pd.DataFrame]:
    """The per-K and support-size tables of a data set's series, stacked.

    Parameters
    ----------
    series : sequence of SeriesCounts
    matrices : pandas.DataFrame
        The data set's matrix table (:func:`.experiments.matrix_summary` rows): how many
        matrices of a series reach each K (``source_matrices``).
    confidence : float, optional
    method : {"clopper-pearson", "wilson"}, optional

    Returns
    -------
    dict with ``"per_k"`` and ``"support_size"``, each with a leading ``series`` column.
    The per-K table has ``band_*_low`` / ``band_*_high`` columns (NaN without a band).
    """
    per_k, support = [], []
    for part in series:
        table = per_k_table(part.point, confidence, method)
        table.insert(0, "series", part.series)
        sizes = matrices.loc[matrices["series"] == part.series, "items"].to_numpy()
        table.insert(2, "source_matrices", [int((sizes >= k).sum()) for k in table["K"]])
        table["draws"] = len(part.draws)
        for column, values in _band(part.draws, table["K"].tolist(), confidence).items():
            table[column] = values
        per_k.append(table)
        distribution = distribution_table(
            part.point, "support_size", confidence, method, include=(PAPER_LARGEST_SUPPORT,)
        )
        distribution.insert(0, "series", part.series)
        support.append(distribution)
    return {
        "per_k": pd.concat(per_k, ignore_index=True),
        "support_size": pd.concat(support, ignore_index=True),
    }


def _real_data_claim(claim: Claim) -> Claim:
    return replace(claim, criterion=claim.on_grid) if claim.on_grid is not None else claim


def series_claims(
    series: Sequence[SeriesCounts],
    confidence: float = 0.95,
    method: IntervalMethod = "clopper-pearson",
) -> pd.DataFrame:
    """Every claim of the paper on every series (module docstring).

    Returns
    -------
    pandas.DataFrame
        ``series``, the appendix claim columns (``claim``, ``source``, ``paper_statement``,
        ``criterion``, ``reading_note``, ``value``, ``ci_low``, ``ci_high``, ``value_text``,
        ``holds``, ``ci_agrees``), ``draws`` and ``draws_holding`` (NaN without draws).
    """
    rows = []
    for part in series:
        for claim in map(_real_data_claim, CLAIMS):
            row = {"series": part.series, **evaluate_claim(claim, part.point, confidence, method)}
            verdicts = [
                evaluate_claim(claim, draw, confidence, method)["holds"] for draw in part.draws
            ]
            row["draws"] = len(verdicts)
            row["draws_holding"] = float(np.mean(verdicts)) if verdicts else np.nan
            rows.append(row)
    return pd.DataFrame(rows)


def claim_cell(claim: str, value: float, holds: bool) -> str:
    """A short verdict for the cross-data-set table: ``yes (99.95%)``, ``**no** (K = 79)``."""
    criterion = next(c for c in map(_real_data_claim, CLAIMS) if c.name == claim).criterion
    if isinstance(criterion, FallsBelowEarly):
        shown = "never below 50%" if np.isnan(value) else f"below 50% from K = {value:g}"
    elif isinstance(criterion, NoneAmong):
        shown = "none" if value == 0 else f"{100 * value:.2f}%"
    else:
        shown = f"{100 * value:.2f}%"
    return f"{'yes' if holds else '**no**'} ({shown})"


def cross_dataset_table(
    claims: pd.DataFrame, reference: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Claims against series: one row per claim, one column per series, short verdicts.

    Parameters
    ----------
    claims : pandas.DataFrame
        :func:`series_claims` of every data set, stacked.
    reference : pandas.DataFrame, optional
        Rows of the appendix's claims table (``click_model``, ``claim``, ``value``,
        ``holds``) for the MSLR click models to show first, as ``MSLR <click model>``.
    """
    frames = [claims[["series", "claim", "value", "holds"]]]
    if reference is not None:
        known = {claim.name for claim in CLAIMS}
        mslr = reference[reference["claim"].isin(known)]
        frames.insert(
            0,
            mslr.assign(series="MSLR " + mslr["click_model"].astype(str))[
                ["series", "claim", "value", "holds"]
            ],
        )
    stacked = pd.concat(frames, ignore_index=True)
    stacked["cell"] = [
        claim_cell(c, float(v), bool(h))
        for c, v, h in zip(stacked["claim"], stacked["value"], stacked["holds"], strict=True)
    ]
    order = list(dict.fromkeys(stacked["series"]))
    wide = stacked.pivot(index="claim", columns="series", values="cell")
    wide = wide.reindex(index=[c.name for c in CLAIMS], columns=order)
    real = stacked[~stacked["series"].str.startswith("MSLR")]
    holding = real.groupby("claim")["holds"].agg(["sum", "size"])
    wide.insert(
        0, "holds_on", [f"{holding.loc[c, 'sum']} of {holding.loc[c, 'size']}" for c in wide.index]
    )
    return wide.reset_index()


def series_overview(matrices: pd.DataFrame, per_k: pd.DataFrame) -> pd.DataFrame:
    """One row per series: its matrices, their sizes and counts, what was sampled.

    Parameters
    ----------
    matrices : pandas.DataFrame
        The matrix tables of the data sets (:func:`.experiments.matrix_summary` rows).
    per_k : pandas.DataFrame
        Their per-K tables (:func:`series_tables`).
    """
    grouped = matrices.groupby("series", sort=False)
    overview = grouped.agg(
        dataset=("dataset", "first"),
        matrices=("matrix", "size"),
        smallest=("items", "min"),
        largest=("items", "max"),
        comparisons=("comparisons", "sum"),
        with_condorcet_winner=("condorcet_winner", lambda c: int(c.notna().sum())),
        mean_support_size=("support_size", "mean"),
    ).reset_index()
    sampled = per_k.groupby("series", sort=False).agg(
        sub_matrices=("matrices", "sum"), draws=("draws", "first")
    )
    return overview.merge(sampled, left_on="series", right_index=True, how="left")


def cross_dataset_markdown(wide: pd.DataFrame) -> str:
    """The cross-data-set table (:func:`cross_dataset_table`) in Markdown."""
    headers = {"claim": "paper's claim", "holds_on": "holds on (real series)"}
    return markdown_table(wide, {column: headers.get(column, column) for column in wide}, {})
