"""How much an input file may ask for: the limits, and the memory and time they stand for.

A matrix file of ``K`` arms becomes several ``K x K`` arrays; a compressed ``.npz`` of a few
hundred kilobytes can declare one of gigabytes. The analysis of a comparison log
(:mod:`cdbandits.comparisons.analysis`) is dense too: the counts, the preference matrix, the
scales of its entries, the resampled matrices and the confidence set of lotteries are
``K x K`` arrays, and every resample keeps a weight per item. A file of a few kilobytes can
name thousands of items, and a PrefLib order over ``m`` alternatives stands for
``m (m - 1) / 2`` comparisons, so the readers and the command line check these limits before
allocating anything, and say what was found, what it would need and which option raises the
limit:

* :data:`MAX_ITEMS` arms of a matrix, or items of a log analysed together (one context,
  after ``--top``): ``--max-items``. A log of more than :data:`DENSE_MAX_K` items is
  analysed pair by pair, without ``K x K`` arrays (:mod:`cdbandits.comparisons.analysis`);
  the limit holds for it too;
* :data:`MAX_RECORDS` comparison records held in memory: ``--max-records``;
* :data:`MAX_RESAMPLES` resamples per method, and :data:`MAX_RESAMPLED_BYTES` for the
  resampled winners they keep;
* :data:`SUPPORT_ENUMERATION_MAX_ITEMS` items for the identified weight intervals, which
  enumerate the candidate supports;
* :data:`MAX_WEIGHT` for a weight, a count of voters and a log's total weight: the largest
  integer a float64 holds exactly, so that the counts and the bootstrap's draws are exact.

The memory and time figures (:func:`analysis_bytes`, :func:`analysis_seconds`) are rough
estimates from measured constants, for messages; nothing depends on them being exact. The
module holds no arrays (the command line imports it to build its options).
"""

from __future__ import annotations

__all__ = [
    "BYTES_PER_RECORD",
    "CHUNK_ARRAYS",
    "CHUNK_ENTRIES",
    "DENSE_ARRAYS",
    "DENSE_MAX_K",
    "LONG_RUN_SECONDS",
    "MATRIX_ARRAYS",
    "MAX_ITEMS",
    "MAX_RECORDS",
    "MAX_RESAMPLED_BYTES",
    "MAX_RESAMPLES",
    "MAX_WEIGHT",
    "SECONDS_PER_CUBED_ITEM",
    "SECONDS_PER_SPARSE_ITEM",
    "SUPPORT_ENUMERATION_MAX_ITEMS",
    "analysis_bytes",
    "analysis_seconds",
    "format_bytes",
    "format_seconds",
    "matrix_bytes",
    "records_bytes",
    "resampled_bytes",
]

#: Items analysed together by default (the ``K`` of the ``K x K`` arrays): about 1 GB.
MAX_ITEMS = 2000

#: Comparison records held in memory by default (about 0.3 GB, more while they are combined).
MAX_RECORDS = 5_000_000

#: Resamples per method at most.
MAX_RESAMPLES = 100_000

#: Memory the resampled winners of all methods may take (weights and statistics per resample).
MAX_RESAMPLED_BYTES = 2**30

#: The largest weight (or count of voters, or total weight of a log): ``2**53``, the largest
#: integer up to which every integer is a float64.
MAX_WEIGHT = 2**53

#: Logs of at most this many items are analysed with ``K x K`` matrices: the batched dense
#: solver, the weight intervals of :mod:`cdbandits.comparisons.near_optimal` and the
#: rankings of :mod:`cdbandits.comparisons.rankings`. Larger logs are solved pair by pair by
#: the sparse solver (:mod:`cdbandits.comparisons.sparse_resampling`), without those two
#: (each takes linear programs or solves over all ``K x K`` entries).
DENSE_MAX_K = 500

#: ``K x K`` float64 arrays alive at once in the analysis of one context, besides a chunk of
#: resamples (measured: the peak grows by about 16 such arrays from 300 to 600 items).
DENSE_ARRAYS = 16

#: Matrix entries of the resampled matrices solved at once (a chunk of resamples; the
#: resampling of :mod:`cdbandits.comparisons.uncertainty` works chunk by chunk).
CHUNK_ENTRIES = 2_000_000

#: Float64 arrays of a chunk's size alive at once while it is solved and summarised
#: (measured: about 6 traced by Python, the rest in the compiled solver).
CHUNK_ARRAYS = 12

#: ``K x K`` float64 arrays alive at once while the winners of a matrix file are computed.
MATRIX_ARRAYS = 8

#: Bytes per comparison record (items, outcome, weight, group, context and origin; measured
#: at the peak of reading a million rows).
BYTES_PER_RECORD = 72

#: Seconds of one von Neumann winner of ``K`` items, over ``K**3`` (measured on one core on the
#: analyses of synthetic logs of 100 and 200 items, whose solves take most of the time).
SECONDS_PER_CUBED_ITEM = 2e-8

#: Seconds of one sparse von Neumann winner of a log of more than :data:`DENSE_MAX_K` items,
#: per item (measured: the ATP log of 1990-2024, 3,679 items and 62,271 compared pairs, in
#: about 9 seconds; warm-started resamples take less).
SECONDS_PER_SPARSE_ITEM = 2.5e-3

#: Items at most for the identified weight intervals
#: (:mod:`cdbandits.comparisons.identified`): they test every one of the ``2**(K - 1)``
#: subsets of odd size as the support, one linear program each, and keep the projections of
#: the kept ones (2,048 candidates at 12 items, about 10 CPU seconds when most are kept; each
#: item more doubles both).
SUPPORT_ENUMERATION_MAX_ITEMS = 12

#: Runs estimated to take longer print the estimate first (and show progress).
LONG_RUN_SECONDS = 10.0


def matrix_bytes(arms: int) -> int:
    """Memory of the winners of a matrix of ``arms`` arms."""
    return MATRIX_ARRAYS * arms * arms * 8


def records_bytes(records: int) -> int:
    """Memory of ``records`` comparison records."""
    return records * BYTES_PER_RECORD


def resampled_bytes(items: int, resamples: int, methods: int) -> int:
    """Memory of the resampled winners: per resample a weight and a statistic per item."""
    return methods * resamples * (2 * items + 64) * 8


def analysis_bytes(items: int, resamples: int, methods: int) -> int:
    """Memory of the analysis of one context of ``items`` items (at most :data:`DENSE_MAX_K`).

    A larger log is analysed pair by pair: its memory grows with the compared pairs and the
    resamples (:func:`resampled_bytes`), not with ``items ** 2``.
    """
    square = items * items
    chunk = max(square, min(resamples * square, CHUNK_ENTRIES)) if methods else 0
    return 8 * (DENSE_ARRAYS * square + CHUNK_ARRAYS * chunk) + resampled_bytes(
        items, resamples, methods
    )


def analysis_seconds(items: int, resamples: int, methods: int) -> float:
    """Rough time of the analysis of one context: one solve per resample, tier and estimate.

    Above :data:`DENSE_MAX_K` items, sparse solves and no tiers (no rankings).
    """
    if items > DENSE_MAX_K:
        return (1 + resamples * methods) * SECONDS_PER_SPARSE_ITEM * items
    solves = 1 + resamples * methods + items
    return solves * SECONDS_PER_CUBED_ITEM * items**3


def format_bytes(count: float) -> str:
    """``"512 MB"``, ``"3.2 GB"``: memory for messages (powers of 1000)."""
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count:.0f} bytes"


def format_seconds(seconds: float) -> str:
    """``"40 seconds"``, ``"12 minutes"``, ``"3.5 hours"``, ``"2 days"``."""
    for unit, size in (("days", 86400.0), ("hours", 3600.0), ("minutes", 60.0)):
        if seconds >= 2 * size:
            value = seconds / size
            return f"{value:.0f} {unit}" if value >= 10 else f"{value:.1f} {unit}"
    return f"{seconds:.0f} seconds"
