"""Our K-armed dueling algorithms against their authors' public code, run for run.

The reference is C. Li's repository https://github.com/chang-li/MergeDTS (GPL-3.0), which
holds MergeDTS and the baselines its paper (Li, Markov, de Rijke and Zoghi, ACM TOIS 2020,
arXiv 1812.04412) ran: D-TS, MergeRUCB, RMED1, Self-Sparring and Sparring EXP3. None of its
code is in this repository: pass the path of a checkout (``--reference PATH``, e.g.
``git clone https://github.com/chang-li/MergeDTS PATH``); the script checks that it is at
commit :data:`REFERENCE_COMMIT` with the files it runs unmodified, and loads them at run
time with the fixes it needs to run on Python 3 and NumPy 2, and one its Sparring EXP3 needs to
run 10^5 rounds on 16 arms at all (:data:`REFERENCE_FIXES`, each a textual replacement with
its reason, checked to occur exactly as often as stated).

**The runs.** For each environment (the MSLR navigational and perfect matrices, all 136
rankers and the 16-ranker subsets of the duels experiment, read from the data mirror as
the workflow reads them) and each seed index ``s``: the arms of seed ``s`` (for a subset,
the draw of :func:`cdbandits.experiments.duels.environments.subset_arms`, the same as in
the duels sweep), put in a random order drawn from the stream
``reference_duels/<environment>/<s>/permutation`` of the master seed; then every
configuration of :data:`PAIRS` plays ``--horizon`` rounds on that matrix twice, ours
(:func:`cdbandits.karmed.simulate`) and the authors' code (the run loop of their
``individual_run.py``: ``get_arms``, one uniform ``u`` of a ``numpy.random.RandomState``, the
first arm wins iff ``u <= P[l, r]``, ``update_scores(winner, loser)``), each from its own
stream of the same name. Their code breaks ties with NumPy's global generator, which is
seeded too, so every run is reproducible.

**What is compared.** The regret their run loop records: ``(P[w, a] + P[w, b] - 1) / 2``
per round, ``w`` the arm of highest Copeland score (the Condorcet winner whenever there is
one), summed over the horizon. Per configuration and environment the table gives the mean
and standard deviation over the seeds of both implementations, the ratio of the means
(ours / theirs) and the paired z-score of their difference (the two runs of a seed play the
same matrix): ``z = mean(d) / (sd(d) / sqrt(n))`` with ``d`` the per-seed differences
ours - theirs; the ratio's standard error by the delta method on the same pairs,
``sd(ours - ratio * theirs) / (sqrt(n) mean(theirs))``; and the median CPU seconds of one
run of each (``time.process_time``, so that the other load of a shared machine does not
count).

Each run is written to ``--csv`` as it finishes; a rerun with the same file skips the runs
it holds, so an interrupted benchmark resumes. Algorithms without public code of their
authors (RUCB, CCB, Versatile-DB; the contextual CoLSTIM, MaxInP) are listed under the
table as having no reference.

Run::

    nice -n 10 envs/venv.sh python benchmarks/bench_reference_duels.py \\
        --reference ../mergedts-ref --seeds 10 --jobs 2 \\
        --csv reference_duels.csv --markdown benchmarks/reference_duels.md
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import time
import types
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

from cdbandits.datasets import DATA_FILES, mirror_candidates, sha256_of
from cdbandits.experiments.duels.environments import build_environment, subset_arms
from cdbandits.experiments.duels.settings import DuelsSection
from cdbandits.files import write_csv, write_text
from cdbandits.karmed import make_algorithm, simulate
from cdbandits.randomness import named_generator
from cdbandits.winners import copeland_scores

ROOT = Path(__file__).resolve().parents[1]

#: The commit of github.com/chang-li/MergeDTS the fixes and the pairs were written for.
REFERENCE_COMMIT = "296f3e2943ac1291f2ca2316c5c75e9d0f1868c5"
REFERENCE_URL = "https://github.com/chang-li/MergeDTS"

#: Their modules, in import order (each imports ``abstract_duel`` or ``sparring`` by name).
REFERENCE_MODULES = (
    "abstract_duel",
    "sparring",
    "double_thompson_sampling",
    "merge_dts",
    "merge_rucb",
    "rmed",
    "self_sparring",
    "sparring_exp3",
)


@dataclass(frozen=True)
class SourceFix:
    """A textual replacement in one of their modules, made when it is loaded.

    ``old`` must occur exactly ``count`` times in the pinned file; all are replaced.
    """

    module: str
    old: str
    new: str
    count: int
    reason: str


_MERGE_FIXES = tuple(
    (old, new, count, reason)
    for old, new, count, reason in (
        ("np.int(", "int(", 3, "numpy.int was removed in NumPy 1.24; it was the builtin int"),
        ("np.float(", "float(", 1, "numpy.float was removed in NumPy 1.24; it was float"),
        (
            "self.i_arms = range(self.n_arms)",
            "self.i_arms = list(range(self.n_arms))",
            1,
            "Python 2's range() was a list, which ArmTree shuffles and whose slices it pops "
            "from; Python 3's range object allows neither",
        ),
        (
            "old_batches.sort(cmp=lambda x, y: cmp(len(x), len(y)))",
            "old_batches.sort(key=len)",
            1,
            "Python 3 has no cmp argument or builtin; both sorts are stable, by length",
        ),
        (
            "self.n_arms / (2 ** self.stage)",
            "self.n_arms // (2 ** self.stage)",
            1,
            "the stage test divides two ints, which Python 2 floored",
        ),
    )
)

#: Every fix applied to their code, with its reason (see :class:`SourceFix`).
REFERENCE_FIXES: tuple[SourceFix, ...] = (
    *(
        SourceFix(module, old, new, count, reason)
        for module in ("merge_dts", "merge_rucb")
        for old, new, count, reason in _MERGE_FIXES
    ),
    SourceFix(
        "sparring_exp3",
        "        ucb_l = self.w_l / np.sum(self.w_l)\n",
        "        self.w_l /= self.w_l.max()\n"
        "        self.w_r /= self.w_r.max()\n"
        "        ucb_l = self.w_l / np.sum(self.w_l)\n",
        1,
        "its EXP3 weights are kept as such, not as logarithms: with 16 arms and its rate "
        "0.51 the leading arm's weight passes 1e308 after about 12,000 of its wins, the "
        "probabilities become NaN and numpy.random.choice (any version) refuses them; "
        "dividing each weight vector by its maximum before the probabilities are formed "
        "changes none of them",
    ),
)


@dataclass(frozen=True)
class Pair:
    """One configuration run by both implementations.

    Attributes
    ----------
    name : str
        Row label.
    algorithm : str
        Our identifier (:data:`cdbandits.karmed.ALGORITHMS`).
    parameters : dict
        Our constructor's arguments.
    reference_class : tuple of str
        Their module and class.
    reference_arguments : str
        Their argument string, without ``--random_seed``.
    source : str
        Where the reference configuration comes from.
    """

    name: str
    algorithm: str
    parameters: dict[str, Any]
    reference_class: tuple[str, str]
    reference_arguments: str
    source: str = field(default="")


_TUNED = 0.8**6  # the exploration constant of MergeDTSBest and MergeRUCBBEST

#: The configurations compared: the authors' settings of their ``individual_run.py``.
PAIRS: tuple[Pair, ...] = (
    Pair(
        "merge_dts (tuned)",
        "merge_dts",
        {"alpha": _TUNED, "time_offset": 4e5, "partition_size": 16},
        ("merge_dts", "MergeDTS"),
        f"--alpha={_TUNED:f} --C=400000 --batch_size=16",
        "MergeDTSBest",
    ),
    Pair(
        "merge_dts (tuned, D-TS's second arm)",
        "merge_dts",
        {"alpha": _TUNED, "time_offset": 4e5, "partition_size": 16, "second_arm": "strongest"},
        ("merge_dts", "MergeDTS"),
        f"--alpha={_TUNED:f} --C=400000 --batch_size=16",
        "MergeDTSBest; ours with the challenger most likely to beat c, theirs unchanged",
    ),
    Pair(
        "merge_rucb (tuned)",
        "merge_rucb",
        {"alpha": _TUNED, "time_offset": 4e5, "partition_size": 8},
        ("merge_rucb", "MergeRUCB"),
        f"--alpha={_TUNED:f} --C=400000 --batch_size=8",
        "MergeRUCBBEST",
    ),
    Pair(
        "dts",
        "dts",
        {"alpha": 0.51},
        ("double_thompson_sampling", "DoubleThompsonSampling"),
        "--alpha=0.51",
        "DTS",
    ),
    Pair("rmed1", "rmed1", {}, ("rmed", "RMED1"), "", "RMED1"),
    Pair(
        "self_sparring", "self_sparring", {}, ("self_sparring", "SelfSparring"), "", "SelfSparring"
    ),
    Pair(
        "sparring_exp3 (gamma 0.51)",
        "sparring_exp3_karmed",
        {"gamma": 0.51},
        ("sparring_exp3", "SparringEXP3"),
        "",
        "Sparring-EXP3: its gamma is Sparring's --alpha, 0.51",
    ),
)

#: Algorithms of this project without public code of their authors to run against.
NO_REFERENCE = {
    "rucb": "no public code of its authors (Zoghi et al., ICML 2014) is known to us",
    "ccb": "no public code of its authors (Zoghi et al., NeurIPS 2015) is known to us",
    "versatile_db": "no public code of its authors (Saha and Gaillard, ICML 2022)",
    "colstim": "contextual; no public code of its authors (Bengs et al., ICML 2022)",
    "maxinp": "contextual; no public code of its authors (Saha, ICML 2021)",
}

ENVIRONMENTS = (
    "mslr_navigational",
    "mslr_perfect",
    "mslr_navigational_k16",
    "mslr_perfect_k16",
)


# ---------------------------------------------------------------------------------------
# The reference code


def check_reference(path: Path) -> None:
    """Raise ``SystemExit`` unless ``path`` is a checkout of :data:`REFERENCE_COMMIT` whose
    modules (:data:`REFERENCE_MODULES`) are unmodified."""
    files = [f"dueling_bandits/{module}.py" for module in REFERENCE_MODULES]
    missing = [name for name in files if not (path / name).is_file()]
    if missing:
        raise SystemExit(f"{path}: not a checkout of {REFERENCE_URL} (missing {missing})")

    def git(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", "-C", str(path), *arguments], capture_output=True, text=True, check=False
        )

    head = git("rev-parse", "HEAD")
    if head.returncode != 0:
        raise SystemExit(f"{path}: not a git checkout ({head.stderr.strip()})")
    if head.stdout.strip() != REFERENCE_COMMIT:
        raise SystemExit(
            f"{path}: at commit {head.stdout.strip()}; this benchmark is pinned to "
            f"{REFERENCE_COMMIT} (git -C {path} checkout {REFERENCE_COMMIT})"
        )
    changed = git("diff", "--name-only", "HEAD", "--", *files)
    if changed.returncode != 0 or changed.stdout.strip():
        raise SystemExit(
            f"{path}: modified files {changed.stdout.split()}; the comparison needs them as "
            f"committed ({changed.stderr.strip()})"
        )


def load_reference(path: Path) -> dict[str, types.ModuleType]:
    """Their modules, loaded from ``path/dueling_bandits`` with :data:`REFERENCE_FIXES`.

    They import each other by bare name (Python 2's implicit relative imports), so each is
    registered in ``sys.modules`` under its own name before the next is executed.
    """
    modules = {}
    for name in REFERENCE_MODULES:
        source_path = path / "dueling_bandits" / f"{name}.py"
        source = source_path.read_text(encoding="utf-8")
        for fix in REFERENCE_FIXES:
            if fix.module != name:
                continue
            found = source.count(fix.old)
            if found != fix.count:
                raise SystemExit(
                    f"{source_path}: expected {fix.count} occurrences of {fix.old!r} to fix "
                    f"({fix.reason}); found {found}"
                )
            source = source.replace(fix.old, fix.new)
        module = types.ModuleType(name)
        module.__file__ = str(source_path)
        sys.modules[name] = module
        exec(compile(source, str(source_path), "exec"), module.__dict__)  # noqa: S102
        modules[name] = module
    return modules


_REFERENCE: dict[str, types.ModuleType] = {}


def _load_in_worker(path: str, warm_up: Sequence[str]) -> None:
    """Load their modules, and the kernels of our configurations ``warm_up`` (compiled or
    from numba's cache, so that no run is charged for it), in a worker."""
    _REFERENCE.update(load_reference(Path(path)))
    matrix = np.array([[0.5, 0.6, 0.7], [0.4, 0.5, 0.6], [0.3, 0.4, 0.5]])
    for pair in PAIRS:
        if pair.name in warm_up:
            algorithm = make_algorithm(pair.algorithm, **pair.parameters)
            simulate(algorithm, matrix, 50, np.random.default_rng(0))


def reference_regret(
    pair: Pair, matrix: np.ndarray, gap: np.ndarray, horizon: int, seed: int
) -> float:
    """Their run loop (``individual_run.py``) on ``matrix``; the regret it records."""
    module, name = pair.reference_class
    environment = np.random.RandomState(seed)
    # their ties (my_argmax) draw from NumPy's global generator, which must be seeded
    np.random.seed(seed)  # noqa: NPY002
    algorithm = getattr(_REFERENCE[module], name)(
        list(range(matrix.shape[0])), f"{pair.reference_arguments} --random_seed={seed}"
    )
    regret = 0.0
    for _ in range(horizon):
        left, right = algorithm.get_arms()
        if environment.rand() <= matrix[left][right]:
            algorithm.update_scores(left, right)
        else:
            algorithm.update_scores(right, left)
        regret += 0.5 * (gap[left] + gap[right])
    return regret


def our_regret(
    pair: Pair, matrix: np.ndarray, gap: np.ndarray, horizon: int, rng: np.random.Generator
) -> float:
    """Our compiled run on ``matrix``; the same regret from its arm counts."""
    result = simulate(
        make_algorithm(pair.algorithm, **pair.parameters),
        matrix,
        horizon,
        rng,
        convention="probability",
    )
    return float(result.arm_counts[-1] @ gap / 2.0)


# ---------------------------------------------------------------------------------------
# Environments and runs


@dataclass(frozen=True)
class Run:
    """One run: a configuration, an environment, a seed index and an implementation."""

    pair: str
    environment: str
    seed: int
    implementation: str  # "ours" or "reference"


def environment_matrices(
    names: Sequence[str], config: Path, mirror: Path, master_seed: int, seeds: int
) -> dict[tuple[str, int], np.ndarray]:
    """The permuted probability matrix of every environment and seed index."""
    with config.open(encoding="utf-8") as handle:
        sweep = DuelsSection.from_config(yaml.safe_load(handle)["duels"])
    matrices = {}
    for name in names:
        settings = sweep.environment(name)
        paths = []
        for key in settings.data:
            entry = DATA_FILES[key]
            found = [path for path in mirror_candidates(entry, mirror) if path.is_file()]
            if not found or sha256_of(found[0]) != entry.sha256:
                raise SystemExit(
                    f"{entry.mirror_path}: not in the data mirror {mirror}, or altered"
                )
            paths.append(found[0])
        full, _ = build_environment(settings, paths)
        for seed in range(seeds):
            arms = subset_arms(settings, full.shape[0], master_seed, seed)
            order = named_generator(master_seed, "reference_duels", name, seed, "permutation")
            arms = arms[order.permutation(arms.size)]
            matrices[name, seed] = full[np.ix_(arms, arms)]
    return matrices


def copeland_gap(matrix: np.ndarray) -> np.ndarray:
    """``P[w, :] - 1/2`` for ``w`` the arm of highest Copeland score (first on ties)."""
    winner = int(np.argmax(copeland_scores(2.0 * matrix - 1.0)))
    return matrix[winner] - 0.5


def play(run: Run, matrix: np.ndarray, horizon: int, master_seed: int) -> dict[str, Any]:
    """Play one run; its row of the CSV."""
    pair = next(pair for pair in PAIRS if pair.name == run.pair)
    gap = copeland_gap(matrix)
    stream = named_generator(master_seed, "reference_duels", run.environment, run.seed, pair.name)
    started = time.process_time()
    if run.implementation == "ours":
        regret = our_regret(pair, matrix, gap, horizon, stream)
    else:
        seed = int(stream.integers(2**31 - 1))
        regret = reference_regret(pair, matrix, gap, horizon, seed)
    return {
        "pair": run.pair,
        "environment": run.environment,
        "n_arms": matrix.shape[0],
        "horizon": horizon,
        "seed": run.seed,
        "implementation": run.implementation,
        "regret": regret,
        "cpu_seconds": time.process_time() - started,
    }


# ---------------------------------------------------------------------------------------
# The table


def summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Per configuration and environment: both means and sds, ratio, z, CPU seconds."""
    records = []
    for (pair, environment), group in rows.groupby(["pair", "environment"], sort=False):
        ours = group[group.implementation == "ours"].set_index("seed")
        theirs = group[group.implementation == "reference"].set_index("seed")
        seeds = ours.index.intersection(theirs.index)
        if seeds.empty:
            continue
        a, b = ours.loc[seeds, "regret"], theirs.loc[seeds, "regret"]
        n = seeds.size
        spread = (a - b).std(ddof=1) / math.sqrt(n) if n > 1 else math.nan
        ratio = a.mean() / b.mean()
        records.append(
            {
                "configuration": pair,
                "environment": environment,
                "K": int(group.n_arms.iloc[0]),
                "T": int(group.horizon.iloc[0]),
                "runs": n,
                "ours_mean": a.mean(),
                "ours_sd": a.std(ddof=1),
                "reference_mean": b.mean(),
                "reference_sd": b.std(ddof=1),
                "ratio": ratio,
                "ratio_se": (a - ratio * b).std(ddof=1) / (math.sqrt(n) * b.mean())
                if n > 1
                else math.nan,
                "z": (a.mean() - b.mean()) / spread if spread > 0 else math.nan,
                "ours_cpu_s": ours.loc[seeds, "cpu_seconds"].median(),
                "reference_cpu_s": theirs.loc[seeds, "cpu_seconds"].median(),
            }
        )
    return pd.DataFrame(records)


def markdown(table: pd.DataFrame, tolerance: float) -> str:
    """The summary as Markdown, with the reference commit and the algorithms without one."""
    lines = [
        f"Reference: {REFERENCE_URL} at commit {REFERENCE_COMMIT}, run with "
        f"the {len(REFERENCE_FIXES)} fixes of REFERENCE_FIXES "
        "(benchmarks/bench_reference_duels.py). Regret against the Copeland winner "
        "(the Condorcet winner where there is one), probability units, summed over T rounds; "
        "mean ± sd over the seeds; ratio = ours / reference ± its standard error (delta "
        "method on the paired seeds); z: paired z-score of the "
        "per-seed differences (both runs of a seed play the same matrix); median CPU "
        "seconds per run.",
        "",
        "| configuration | environment | K | T | runs | ours | reference | ratio | z "
        "| ours CPU s | reference CPU s |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in table.itertuples():
        ratio = f"{row.ratio:.3f}"
        if abs(row.ratio - 1.0) > tolerance:
            ratio = f"**{ratio}**"
        ratio = f"{ratio} ± {row.ratio_se:.3f}"
        lines.append(
            f"| {row.configuration} | {row.environment} | {row.K} | {row.T:,} | {row.runs} | "
            f"{row.ours_mean:,.1f} ± {row.ours_sd:,.1f} | "
            f"{row.reference_mean:,.1f} ± {row.reference_sd:,.1f} | {ratio} | {row.z:+.2f} | "
            f"{row.ours_cpu_s:.2f} | {row.reference_cpu_s:.1f} |"
        )
    lines += [
        "",
        f"Ratios further than {tolerance:.0%} from 1 are in bold.",
        "",
        "No reference: " + "; ".join(f"{name}: {why}" for name, why in NO_REFERENCE.items()) + ".",
    ]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", type=Path, required=True, help="checkout of the reference")
    parser.add_argument("--horizon", type=int, default=100_000)
    parser.add_argument("--seeds", type=int, default=10, help="seed indices 0 .. seeds - 1")
    parser.add_argument("--first-seed", type=int, default=0, help="skip the seed indices below")
    parser.add_argument("--pairs", nargs="+", default=[pair.name for pair in PAIRS])
    parser.add_argument("--environments", nargs="+", default=list(ENVIRONMENTS))
    parser.add_argument("--implementations", nargs="+", default=["ours", "reference"])
    parser.add_argument("--config", type=Path, default=ROOT / "config/config.yaml")
    parser.add_argument(
        "--mirror",
        type=Path,
        default=None,
        help="data mirror (default: $CDBANDITS_DATA_MIRROR, else the config's data_mirror)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--tolerance", type=float, default=0.15, help="ratio flagged beyond")
    parser.add_argument("--csv", type=Path, help="every run (read first: its runs are skipped)")
    parser.add_argument("--markdown", type=Path, help="write the table as Markdown")
    args = parser.parse_args(argv)

    unknown = sorted(set(args.pairs) - {pair.name for pair in PAIRS})
    if unknown:
        parser.error(f"unknown --pairs {unknown}; known: {[pair.name for pair in PAIRS]}")
    reference = args.reference.resolve()
    check_reference(reference)
    load_reference(reference)  # every fix must apply before any run starts
    with args.config.open(encoding="utf-8") as handle:
        config = yaml.safe_load(handle)
    mirror = args.mirror or Path(
        os.environ.get("CDBANDITS_DATA_MIRROR") or ROOT / config["data_mirror"]
    )
    master_seed = int(config["seed"])
    matrices = environment_matrices(args.environments, args.config, mirror, master_seed, args.seeds)

    done = pd.read_csv(args.csv) if args.csv and args.csv.is_file() else pd.DataFrame()
    finished = set()
    if not done.empty:
        done = done[done.horizon == args.horizon]
        finished = set(
            zip(done.pair, done.environment, done.seed, done.implementation, strict=True)
        )
    runs = [
        Run(pair, environment, seed, implementation)
        for pair in args.pairs
        for environment in args.environments
        for seed in range(args.first_seed, args.seeds)
        for implementation in args.implementations
        if (pair, environment, seed, implementation) not in finished
    ]
    # the slowest runs first, so that the processes finish together
    runs.sort(key=lambda run: (run.implementation == "ours", "k16" in run.environment))
    print(f"{len(runs)} runs to play ({len(finished)} read from {args.csv})", flush=True)

    rows = done.to_dict("records") if not done.empty else []
    with ProcessPoolExecutor(
        max_workers=args.jobs,
        initializer=_load_in_worker,
        initargs=(str(reference), args.pairs if "ours" in args.implementations else ()),
    ) as pool:
        futures = [
            pool.submit(play, run, matrices[run.environment, run.seed], args.horizon, master_seed)
            for run in runs
        ]
        for number, future in enumerate(as_completed(futures), start=1):
            row = future.result()
            rows.append(row)
            print(
                f"{number}/{len(runs)} {row['pair']} {row['environment']} seed {row['seed']} "
                f"{row['implementation']}: regret {row['regret']:,.1f} in "
                f"{row['cpu_seconds']:.1f} CPU s",
                flush=True,
            )
            if args.csv:
                write_csv(args.csv, pd.DataFrame(rows))
    table = summary(pd.DataFrame(rows))
    text = markdown(table, args.tolerance)
    print(text)
    if args.markdown:
        write_text(args.markdown, text)


if __name__ == "__main__":
    main()
