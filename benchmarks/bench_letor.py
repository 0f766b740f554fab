"""Throughput of the LETOR pipeline: reader MB/s and simulated comparisons per second.

Run from the repository root::

    .venv/bin/python benchmarks/bench_letor.py [--threads 2] [--queries 10000] [--output FILE.md]

Measures, on the real 86-query MSLR sample from the data mirror ($CDBANDITS_DATA_MIRROR or
../shared/data):

1. the reader's speed (MB/s) on the sample files and on a larger file made by repeating the
   sample with new qids (``--reader-copies``);
2. simulated comparisons per second at list length 10, for Probabilistic Interleave and
   Team-Draft with each standard click model, on a WEB10K-sized data set: ``--queries``
   queries drawn with replacement from the sample (WEB10K has 10,000 queries, about 120
   documents each), so memory traffic resembles the real one, and with ``--per-pair``
   comparisons per pair (default 2e5, as for the published matrices) for 45 pairs;
3. the projected time of the full 136 x 136 matrix at 2e5 comparisons per pair on WEB10K.

The numbers depend on the machine and on its load; they are printed, and written as a
markdown table with ``--output``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from cdbandits.letor import (
    CLICK_MODELS,
    LetorData,
    concatenate,
    estimate_preference_matrix,
    read_letor,
)

REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ("msn1.fold1.train.5k.txt", "msn1.fold1.test.5k.txt")
FULL_PAIRS = 136 * 135 // 2
FULL_COMPARISONS_PER_PAIR = 200_000


def _mirror() -> Path:
    configured = os.environ.get("CDBANDITS_DATA_MIRROR")
    root = Path(configured) if configured else REPO_ROOT.parent / "shared" / "data"
    folder = root / "mslr-web-rankeval-5k"
    if not folder.is_dir():
        raise SystemExit(f"MSLR sample not found in {folder}; set CDBANDITS_DATA_MIRROR")
    return folder


def _reader_speed(paths: list[Path]) -> float:
    """MB/s of reading ``paths`` (best of three)."""
    size = sum(path.stat().st_size for path in paths)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for path in paths:
            read_letor(path)
        best = min(best, time.perf_counter() - start)
    return size / 2**20 / best


def _repeated_file(source: list[Path], copies: int, folder: Path) -> Path:
    """The sample written ``copies`` times, each copy's qids shifted to stay distinct."""
    target = folder / "repeated.txt"
    with open(target, "w", encoding="ascii") as out:
        for copy in range(copies):
            for path in source:
                with open(path, encoding="ascii") as stream:
                    for line in stream:
                        label, qid, rest = line.split(" ", 2)
                        number = int(qid.split(":")[1]) + copy * 100_000
                        out.write(f"{label} qid:{number} {rest}")
    return target


def _resampled(data: LetorData, n_queries: int, rng: np.random.Generator) -> LetorData:
    """``n_queries`` queries drawn with replacement from ``data`` (complete queries only)."""
    complete = np.flatnonzero(~data.truncated)
    chosen = rng.choice(complete, size=n_queries)
    rows = np.concatenate(
        [np.arange(*data.query_slice(q).indices(data.n_documents)) for q in chosen]
    )
    sizes = data.documents_per_query[chosen]
    return LetorData(
        features=data.features[rows],
        labels=data.labels[rows],
        qids=np.arange(n_queries, dtype=np.int64),
        query_offsets=np.concatenate(([0], np.cumsum(sizes))).astype(np.int64),
    )


def _comparisons_per_second(
    data: LetorData,
    method: str,
    model: str,
    credit_ties: str,
    threads: int,
    per_pair: int,
    seed: int,
) -> float:
    rankers = list(range(0, 136, 15))  # 10 rankers, 45 pairs spread over the features
    rng = np.random.default_rng(seed)
    settings = {"method": method, "credit_ties": credit_ties, "threads": threads}
    estimate_preference_matrix(
        data, CLICK_MODELS[model], 10, rng, rankers=rankers[:3], progress=False, **settings
    )
    start = time.perf_counter()
    estimate_preference_matrix(
        data, CLICK_MODELS[model], per_pair, rng, rankers=rankers, progress=False, **settings
    )
    elapsed = time.perf_counter() - start
    n_pairs = len(rankers) * (len(rankers) - 1) // 2
    return n_pairs * per_pair / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--per-pair", type=int, default=FULL_COMPARISONS_PER_PAIR)
    parser.add_argument("--reader-copies", type=int, default=10)
    parser.add_argument("--output", type=Path)
    arguments = parser.parse_args()

    folder = _mirror()
    sample_paths = [folder / name for name in SAMPLE]
    rows: list[tuple[str, str]] = []

    read_letor(sample_paths[0])  # compile the parser
    rows.append(("reader, sample files (11 MB)", f"{_reader_speed(sample_paths):.0f} MB/s"))
    with tempfile.TemporaryDirectory() as scratch:
        repeated = _repeated_file(sample_paths, arguments.reader_copies, Path(scratch))
        megabytes = repeated.stat().st_size / 2**20
        rows.append((f"reader, {megabytes:.0f} MB file", f"{_reader_speed([repeated]):.0f} MB/s"))

    sample = concatenate([read_letor(path, last_query="flag") for path in sample_paths])
    data = _resampled(sample, arguments.queries, np.random.default_rng(0))
    rows.append(
        (
            "simulation data set",
            f"{data.n_queries} queries, {data.n_documents} documents (resampled sample)",
        )
    )
    configurations = [
        *(("probabilistic", model, "shared") for model in CLICK_MODELS),
        ("probabilistic", "informational", "redrawn"),
        *(("team_draft", model, "shared") for model in CLICK_MODELS),
    ]
    rates = {}
    for method, model, credit_ties in configurations:
        rate = _comparisons_per_second(
            data, method, model, credit_ties, arguments.threads, arguments.per_pair, seed=1
        )
        rates[method, model, credit_ties] = rate
        ties = f", {credit_ties} credit ties" if method == "probabilistic" else ""
        rows.append(
            (
                f"{method}{ties}, {model}, list length 10, {arguments.threads} threads",
                f"{rate:.3g} comparisons/s",
            )
        )
    for credit_ties in ("shared", "redrawn"):
        projected = (
            FULL_PAIRS
            * FULL_COMPARISONS_PER_PAIR
            / rates["probabilistic", "informational", credit_ties]
        )
        rows.append(
            (
                f"projected: 136x136 at 2e5 comparisons/pair on WEB10K, informational, "
                f"{credit_ties} credit ties",
                f"{projected / 60:.1f} min",
            )
        )

    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    if arguments.output is not None:
        table = "| measurement | value |\n|---|---|\n" + "".join(
            f"| {name} | {value} |\n" for name, value in rows
        )
        arguments.output.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
