"""The real data sets as comparison logs and preference matrices.

Every data set is read with the readers of :mod:`cdbandits.comparisons` and turned into one
or more :class:`RealMatrix` (a named preference matrix with the log it was counted from):

* **ATP** (Sackmann's ``atp_matches_YYYY.csv``, preset ``atp``: walkovers dropped): one
  matrix per named period of seasons, over the ``top`` players with the most matches in
  that period (:func:`atp_matrices`). :func:`atp_log` reads seasons with a context per
  record: its period, or its court surface (rows without a surface dropped, with a
  warning).
* **PrefLib** sports elections (:data:`PREFLIB_COLLECTIONS`): figure skating 1998 (judges
  rank skaters; ``.soc`` and ``.toc``) and Formula 1 seasons 1950-2020 (each race ranks the
  classified drivers; the raw ``.soi`` files, drivers a race does not rank are not compared
  in it). One matrix per election; a voter's comparisons form one resampling group.
* **TREC-DL** human passage preferences (Yan et al. 2022, preset ``trec-dl``): one matrix
  per topic (:func:`trec_dl_matrices`); :func:`read_qrels` reads the authors' best passages.
* **arXiv**: the published 6 x 6 matrix of six rankers compared by interleaving (Yue and
  Joachims 2011). It comes without counts, so it has no log and no sampling uncertainty.

A count policy (:class:`cdbandits.comparisons.CountPolicy`) is applied to every log; every
choice it reports is kept with the matrix (:attr:`RealMatrix.warnings`), never dropped.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ...comparisons.counts import apply_policy, count_pairs
from ...comparisons.logs import LOG_PRESETS, read_log, read_logs, with_file_context
from ...comparisons.preflib import election_log, read_preflib
from ...comparisons.records import (
    ComparisonDataWarning,
    ComparisonLog,
    ComparisonLogError,
    concatenate_logs,
)
from ...comparisons.settings import CountPolicy
from ...comparisons.uncertainty import bootstrap_pair_wins, posterior_pair_wins, skew_stack
from ...datasets import DATA_FILES
from ...matrix_io import load_matrix
from ...preference import as_skew

__all__ = [
    "ARXIV_KEY",
    "PREFLIB_COLLECTIONS",
    "TREC_DL_JUDGMENTS_KEY",
    "PreflibCollection",
    "RealMatrix",
    "arxiv_matrix",
    "atp_key",
    "atp_log",
    "atp_matrices",
    "collect_warnings",
    "dataset_matrices",
    "preflib_keys",
    "preflib_matrices",
    "read_qrels",
    "resampled_matrices",
    "season_of",
    "trec_dl_log",
    "trec_dl_matrices",
]

ARXIV_KEY = "pref_arxiv"
TREC_DL_JUDGMENTS_KEY = "trec_dl_judgments"


@dataclass(frozen=True)
class PreflibCollection:
    """A PrefLib series held in :data:`cdbandits.datasets.DATA_FILES`.

    Attributes
    ----------
    series : str
        PrefLib series number, e.g. ``"00006"``.
    suffixes : tuple of str
        The order files used (``soc``, ``toc``, ``soi``, ``toi``).
    description : str
    """

    series: str
    suffixes: tuple[str, ...]
    description: str


#: The PrefLib sports collections.
PREFLIB_COLLECTIONS: dict[str, PreflibCollection] = {
    "skate": PreflibCollection(
        "00006",
        ("soc", "toc"),
        "figure skating 1998 (Euros, Olympics, World Juniors, Worlds): 7-9 judges rank "
        "14-30 skaters; .toc orders hold ties",
    ),
    "f1seasons": PreflibCollection(
        "00052",
        ("soi",),
        "Formula 1 seasons 1950-2020: each race ranks its classified drivers by total time "
        "(raw .soi files; a driver a race does not rank is not compared in it)",
    ),
}


def preflib_keys(collection: str, max_elections: int | None = None) -> list[str]:
    """The data keys of a collection's elections, by election number (the first ones only
    with ``max_elections``)."""
    spec = PREFLIB_COLLECTIONS[collection]
    pattern = re.compile(rf"preflib_{spec.series}_(\d+)_({'|'.join(spec.suffixes)})")
    keys = sorted(key for key in DATA_FILES if pattern.fullmatch(key))
    return keys if max_elections is None else keys[:max_elections]


def atp_key(season: int) -> str:
    """The data key of one season's ATP results."""
    return f"atp_matches_{season}"


def season_of(path: str | os.PathLike[str]) -> int:
    """The season of an ``atp_matches_YYYY.csv`` file."""
    match = re.fullmatch(r"atp_matches_(\d{4})\.csv", Path(path).name)
    if match is None:
        raise ComparisonLogError(f"{path}: not an ATP results file atp_matches_YYYY.csv")
    return int(match.group(1))


def collect_warnings(action: Callable[[], object]) -> tuple[object, tuple[str, ...]]:
    """Run ``action`` and return its result with the data warnings it issued (re-issued)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ComparisonDataWarning)
        result = action()
    messages = []
    for record in caught:
        if issubclass(record.category, ComparisonDataWarning):
            messages.append(str(record.message))
        warnings.warn_explicit(record.message, record.category, record.filename, record.lineno)
    return result, tuple(messages)


@dataclass(frozen=True, eq=False)
class RealMatrix:
    """One preference matrix of a real data set.

    Attributes
    ----------
    dataset : str
        ``"atp"``, ``"skate"``, ``"f1seasons"``, ``"trec_dl"`` or ``"arxiv"``.
    name : str
        The matrix within its data set: a period, an election file, a topic id.
    title : str
        What it is, for readers (an election's title; empty when the name says it).
    items : tuple of str
    matrix : ndarray, shape (K, K)
        Skew form: ``P[i, j] = 2 Pr(i beats j) - 1`` (pairs never compared: 0 under the
        policy ``unobserved="half"``).
    log : ComparisonLog or None
        The log after the count policy (None for a published matrix without counts).
    warnings : tuple of str
        Every choice the count policy reported.
    """

    dataset: str
    name: str
    title: str
    items: tuple[str, ...]
    matrix: NDArray[np.float64]
    log: ComparisonLog | None
    warnings: tuple[str, ...] = ()

    @property
    def k(self) -> int:
        return len(self.items)

    @property
    def comparisons(self) -> float | None:
        """The comparisons the matrix was counted from (None without counts)."""
        return None if self.log is None else self.log.n_comparisons


def _from_log(
    log: ComparisonLog, policy: CountPolicy, dataset: str, name: str, title: str = ""
) -> RealMatrix:
    counted, notes = collect_warnings(lambda: apply_policy(log, policy))
    assert isinstance(counted, ComparisonLog)
    return RealMatrix(
        dataset=dataset,
        name=name,
        title=title,
        items=counted.items,
        matrix=count_pairs(counted).skew_matrix(),
        log=counted,
        warnings=tuple(f"{dataset} {name}: {note}" for note in notes),
    )


def atp_log(
    paths: Sequence[str | os.PathLike[str]],
    context: str | None = None,
    periods: Mapping[str, tuple[int, int]] | None = None,
) -> ComparisonLog:
    """Read ATP results files (preset ``atp``), optionally with a context per record.

    Parameters
    ----------
    paths : sequence of path-like
        ``atp_matches_YYYY.csv`` files.
    context : {None, "surface", "period"}, optional
        ``"surface"``: the court surface (rows without one dropped, with a warning);
        ``"period"``: the name of the period of ``periods`` holding the season (every file
        must belong to one).
    periods : mapping of str to (int, int), optional
        Named ranges of seasons, for ``context="period"``.
    """
    spec = LOG_PRESETS["atp"]
    if context is None:
        return read_logs(paths, spec)
    if context == "surface":
        spec = replace(spec, context="surface", drop=(*spec.drop, ("surface", r"^\s*$")))
        return read_logs(paths, spec)
    if context != "period" or periods is None:
        raise ValueError(
            f"context must be None, 'surface' or 'period' (with periods), got {context!r}"
        )
    logs = []
    for path in paths:
        season = season_of(path)
        names = [name for name, (a, b) in periods.items() if a <= season <= b]
        if len(names) != 1:
            raise ComparisonLogError(
                f"{path}: season {season} lies in {len(names)} of the periods {dict(periods)}; "
                "a period context needs exactly one"
            )
        logs.append(with_file_context(read_logs([path], spec), names[0]))
    return concatenate_logs(logs)


def _by_season(paths: Sequence[str | os.PathLike[str]]) -> dict[int, str]:
    return {season_of(path): str(path) for path in paths}


def atp_matrices(
    paths: Sequence[str | os.PathLike[str]],
    periods: Mapping[str, tuple[int, int]],
    top: int,
    policy: CountPolicy,
) -> list[RealMatrix]:
    """One matrix per period over its ``top`` players with the most matches.

    Parameters
    ----------
    paths : sequence of path-like
        ATP results files covering every season of ``periods`` (others are ignored).
    periods : mapping of str to (int, int)
        Named ranges of seasons.
    top : int
    policy : CountPolicy
    """
    files = _by_season(paths)
    matrices = []
    for name, (first, last) in periods.items():
        missing = [year for year in range(first, last + 1) if year not in files]
        if missing:
            raise ComparisonLogError(f"period {name}: no ATP results file for {missing}")
        log = atp_log([files[year] for year in range(first, last + 1)])
        log = log.restrict(log.top_items(min(top, len(log.items))))
        matrices.append(_from_log(log, policy, "atp", name, f"seasons {first}-{last}"))
    return matrices


def preflib_matrices(
    paths: Sequence[str | os.PathLike[str]], dataset: str, policy: CountPolicy
) -> list[RealMatrix]:
    """One matrix per PrefLib election file (majority comparisons of its voters)."""
    matrices = []
    for path in paths:
        election = read_preflib(path)
        matrices.append(
            _from_log(election_log(election), policy, dataset, Path(path).stem, election.title)
        )
    return matrices


def trec_dl_log(path: str | os.PathLike[str]) -> ComparisonLog:
    """The TREC-DL judgments (preset ``trec-dl``: the topic is the context)."""
    return read_log(path, LOG_PRESETS["trec-dl"])


def trec_dl_matrices(
    path: str | os.PathLike[str], topics: Sequence[str] | None, policy: CountPolicy
) -> list[RealMatrix]:
    """One matrix per topic (every topic of the file, or ``topics`` in that order)."""
    log = trec_dl_log(path)
    chosen = list(topics) if topics is not None else list(log.contexts)
    return [_from_log(log.for_context(topic), policy, "trec_dl", topic) for topic in chosen]


def arxiv_matrix(path: str | os.PathLike[str]) -> RealMatrix:
    """The published arXiv matrix (rankers named ``ranker 1`` ... as in its rows)."""
    P = as_skew(load_matrix(path), "auto")
    return RealMatrix(
        dataset="arxiv",
        name="arxiv",
        title="six arXiv.org rankers compared by interleaving (Yue and Joachims 2011)",
        items=tuple(f"ranker {i + 1}" for i in range(P.shape[0])),
        matrix=P,
        log=None,
    )


def dataset_matrices(
    dataset: str,
    paths: Sequence[str | os.PathLike[str]],
    policy: CountPolicy,
    *,
    periods: Mapping[str, tuple[int, int]] | None = None,
    top: int | None = None,
    topics: Sequence[str] | None = None,
) -> list[RealMatrix]:
    """The matrices of one data set of :data:`.settings.DATASETS` from its files.

    ``periods`` and ``top`` are needed for ``"atp"``; ``topics`` chooses TREC-DL topics.
    """
    if dataset == "atp":
        if periods is None or top is None:
            raise ValueError("the ATP matrices need periods and top")
        return atp_matrices(paths, periods, top, policy)
    if dataset in PREFLIB_COLLECTIONS:
        return preflib_matrices(paths, dataset, policy)
    if dataset == "trec_dl":
        (path,) = paths
        return trec_dl_matrices(path, topics, policy)
    if dataset == "arxiv":
        (path,) = paths
        return [arxiv_matrix(path)]
    raise ValueError(f"unknown data set {dataset!r}")


def read_qrels(path: str | os.PathLike[str]) -> dict[str, tuple[str, ...]]:
    """The passages of a qrels file by topic (``topic Q0 passage relevance``; relevance > 0).

    Raises
    ------
    ComparisonLogError
        On a line that is not ``topic Q0 passage relevance``, naming the file and line.
    """
    best: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as stream:
        for number, line in enumerate(stream, start=1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 4 or not fields[3].lstrip("-").isdigit():
                raise ComparisonLogError(
                    f"{path}:{number}: expected 'topic Q0 passage relevance', got {line.strip()!r}"
                )
            if int(fields[3]) > 0:
                best.setdefault(fields[0], []).append(fields[2])
    return {topic: tuple(passages) for topic, passages in best.items()}


def resampled_matrices(
    matrix: RealMatrix, count: int, rng: np.random.Generator
) -> NDArray[np.float64]:
    """Matrices the data could equally have produced: ``count`` draws, shape (count, K, K).

    An election (a log with resampling groups: its voters) is resampled by voter, with the
    bootstrap (a voter's comparisons are not independent: they come from one ranking); a
    log of independent comparisons by the Beta posterior of every pair (prior Beta(1, 1);
    continuous draws, so no exact ties). See :mod:`cdbandits.comparisons.uncertainty`.

    Raises
    ------
    ValueError
        For a matrix without counts (the published arXiv matrix).
    """
    if matrix.log is None:
        raise ValueError(f"{matrix.dataset} {matrix.name}: a published matrix has no counts")
    if matrix.log.group is not None:
        chunks = bootstrap_pair_wins(matrix.log, count, rng)
    else:
        chunks = posterior_pair_wins(count_pairs(matrix.log), count, rng)
    return np.concatenate([skew_stack(chunk, matrix.k) for chunk in chunks])
