"""What the papers report on preference data this project holds, and how they ran it.

One :class:`PublishedResult` per (paper, algorithm) whose paper reports results on the MSLR
ranker matrices (``mslr-preference-matrices`` in the data mirror) or the arXiv 6-ranker
matrix (``arxiv-6rankers-yue-joachims``). Only what could be read is recorded: when the
search tools gave us a paper's abstract but not its figures, the row holds the abstract's
ordering claim, the numbers stay ``None`` and ``evidence`` says so. Nothing here is
estimated or copied from a figure we did not see.

The experiment behind a claim (its horizon, number of runs, arms, and the hyper-parameters
each algorithm ran with, :data:`TUNED_CONFIGURATIONS`) is recorded with where it was read
(``settings_evidence``, ``settings_source``). Of the papers below, only the experiments
sections' openings (title, abstract, introduction) were reachable with the search tools;
the settings recorded come from the authors' public experiment code where it states them,
and stay ``None`` otherwise.

Which data file a paper used comes from the data mirror's READMEs (which name the public
repositories the files were copied from) and is marked as such.

Algorithms whose papers report no results on data we hold, as far as we could establish:
RUCB (Zoghi et al., ICML 2014: "real data from an information retrieval application",
data set not identified), Self-Sparring (Sui et al., UAI 2017), Sparring EXP3 (Ailon et
al., ICML 2014) and Versatile-DB (Saha and Gaillard, ICML 2022).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "EVIDENCE",
    "PUBLISHED_RESULTS",
    "SETTINGS_EVIDENCE",
    "TUNED_CONFIGURATIONS",
    "Evidence",
    "PublishedResult",
    "SettingsEvidence",
    "TunedConfiguration",
    "tuned_configuration",
]

Evidence = Literal["abstract", "not-read"]

#: ``"abstract"``: the claim is the paper's abstract (read at ``source``); figures and
#: tables were not available. ``"not-read"``: the paper is known (from the data READMEs)
#: to use data we hold, but we could read no result of it.
EVIDENCE: tuple[Evidence, ...] = ("abstract", "not-read")

SettingsEvidence = Literal["paper", "authors-code", "not-read"]

#: Where a result's experiment settings (horizon, runs, hyper-parameters) were read:
#: ``"paper"``, its text; ``"authors-code"``, the authors' public code that ran the
#: paper's experiments (the paper's text was not readable); ``"not-read"``, nowhere.
SETTINGS_EVIDENCE: tuple[SettingsEvidence, ...] = ("paper", "authors-code", "not-read")


@dataclass(frozen=True)
class TunedConfiguration:
    """An algorithm with the hyper-parameters a paper's experiment ran it with.

    Attributes
    ----------
    name : str
        Identifier of the configuration (lower case, digits, ``_``), distinct from the
        algorithm identifiers.
    algorithm : str
        Identifier of the algorithm (a key of :data:`cdbandits.karmed.ALGORITHMS`).
    parameters : tuple of (str, float)
        Keyword arguments of the algorithm's constructor, by this package's names.
    source : str
        Where the values were read.
    location : str
        Where in ``source``.
    """

    name: str
    algorithm: str
    parameters: tuple[tuple[str, float], ...]
    source: str
    location: str

    @property
    def parameter_dict(self) -> dict[str, float]:
        """``parameters`` as keyword arguments."""
        return dict(self.parameters)


@dataclass(frozen=True)
class PublishedResult:
    """A result a paper reports on data this project holds.

    Attributes
    ----------
    algorithm : str
        Identifier of the algorithm (a key of :data:`cdbandits.karmed.ALGORITHMS`).
    paper : str
        Authors, title, venue, year.
    source : str
        Where the text recorded here was read.
    location : str
        Where in the paper (``"abstract"``, a figure or table number).
    datasets : tuple of str
        Files of the data mirror (paths relative to it) the result is about.
    dataset_evidence : str
        How we know the paper used those files.
    compared_with : tuple of str
        Algorithms the claim compares against, by identifier, when named in what we read;
        empty when the text says only "the state of the art" or similar.
    claim : str or None
        The reported ordering or statement, quoted from ``location``; None when not read.
    metric : str or None
        The regret notion of the claim, when stated.
    n_arms, horizon, runs : int or None
        The setting of the experiment behind the claim, when read (at ``settings_source``).
    reported_value : float or None
        A number reported in the paper, when read.
    evidence : {"abstract", "not-read"}
    note : str
        What is missing and where to find it.
    configurations : tuple of str
        Names of the :data:`TUNED_CONFIGURATIONS` the experiment ran: the claim's algorithm
        and its baselines with the hyper-parameters they were run with (an algorithm of the
        claim without one here ran with its defaults, or its parameters were not read).
    settings_evidence : {"paper", "authors-code", "not-read"}
        Where ``n_arms``, ``horizon``, ``runs`` and ``configurations`` were read.
    settings_source : str
        Where exactly (a file at a commit), or what is missing.
    """

    algorithm: str
    paper: str
    source: str
    location: str
    datasets: tuple[str, ...]
    dataset_evidence: str
    compared_with: tuple[str, ...]
    claim: str | None
    metric: str | None
    n_arms: int | None
    horizon: int | None
    runs: int | None
    reported_value: float | None
    evidence: Evidence
    note: str
    configurations: tuple[str, ...] = ()
    settings_evidence: SettingsEvidence = "not-read"
    settings_source: str = "not read"


_MSLR = "mslr-preference-matrices"
_ARXIV = "arxiv-6rankers-yue-joachims/pref_arxiv.txt"
_MERGE_DTS_CODE = (
    "https://github.com/chang-li/MergeDTS/blob/296f3e2943ac1291f2ca2316c5c75e9d0f1868c5"
)
_NOT_READ = (
    "not read: only the paper's title, abstract and introduction were reachable, and no "
    "public code of the authors states the experiment's settings"
)

#: The hyper-parameters of the MergeDTS paper's experiments, as its authors' experiment
#: script constructs its "BEST" (tuned) algorithms (``0.8**6`` and ``0.8**7`` written out).
TUNED_CONFIGURATIONS: tuple[TunedConfiguration, ...] = (
    TunedConfiguration(
        name="merge_dts_li2020",
        algorithm="merge_dts",
        parameters=(("alpha", 0.262144), ("time_offset", 400000.0), ("partition_size", 16)),
        source=f"{_MERGE_DTS_CODE}/individual_run.py",
        location="METHOD_INIT['MergeDTSBEST']: alpha = 0.8^6, C = 400000, batch_size = 16",
    ),
    TunedConfiguration(
        name="merge_rucb_li2020",
        algorithm="merge_rucb",
        parameters=(("alpha", 0.262144), ("time_offset", 400000.0), ("partition_size", 8)),
        source=f"{_MERGE_DTS_CODE}/individual_run.py",
        location="METHOD_INIT['MergeRUCBBEST']: alpha = 0.8^6, C = 400000, batch_size = 8",
    ),
    TunedConfiguration(
        name="dts_li2020",
        algorithm="dts",
        parameters=(("alpha", 0.2097152),),
        source=f"{_MERGE_DTS_CODE}/individual_run.py",
        location="METHOD_INIT['DTSBEST']: alpha = 0.8^7",
    ),
)


def tuned_configuration(name: str) -> TunedConfiguration:
    """The configuration of :data:`TUNED_CONFIGURATIONS` called ``name``."""
    for configuration in TUNED_CONFIGURATIONS:
        if configuration.name == name:
            return configuration
    known = [configuration.name for configuration in TUNED_CONFIGURATIONS]
    raise KeyError(f"no tuned configuration {name!r}; known: {known}")


#: The table; see the module docstring.
PUBLISHED_RESULTS: tuple[PublishedResult, ...] = (
    PublishedResult(
        algorithm="merge_rucb",
        paper=(
            "M. Zoghi, S. Whiteson, M. de Rijke, MergeRUCB: A Method for Large-Scale Online "
            "Ranker Evaluation, WSDM 2015"
        ),
        source="https://www.cs.ox.ac.uk/publications/publication9748-abstract.html",
        location="abstract",
        datasets=(
            f"{_MSLR}/nightingal3-duelling-bandits/MSLR_Informational_PMat.npz",
            f"{_MSLR}/nightingal3-duelling-bandits/MSLR_Navigational_PMat.npz",
            f"{_MSLR}/nightingal3-duelling-bandits/MSLR_Perfect_PMat.npz",
        ),
        dataset_evidence=(
            "inferred: the abstract says 'several large learning to rank datasets'; the "
            "mirror's README traces the 136-ranker MSLR matrices to Zoghi and co-authors"
        ),
        compared_with=(),
        claim=(
            "Empirical comparisons on several large learning to rank datasets show that "
            "mergeRUCB can substantially outperform the state of the art K-armed dueling "
            "bandit algorithms when many rankers must be compared."
        ),
        metric=None,
        n_arms=None,
        horizon=None,
        runs=None,
        configurations=(),
        settings_evidence="not-read",
        settings_source=_NOT_READ
        + " (the MergeDTS authors' code runs MergeRUCB as a baseline of their own paper, "
        "merge_rucb_li2020)",
        reported_value=None,
        evidence="abstract",
        note="the figures (regret against time per data set) were not readable here",
    ),
    PublishedResult(
        algorithm="merge_dts",
        paper=(
            "C. Li, I. Markov, M. de Rijke, M. Zoghi, MergeDTS: A Method for Effective "
            "Large-Scale Online Ranker Evaluation, ACM TOIS 38(4), 2020"
        ),
        source="https://arxiv.org/abs/1812.04412",
        location="abstract",
        datasets=(
            f"{_MSLR}/chang-li-MergeDTS/MSLR-Nabigational.txt",
            f"{_MSLR}/chang-li-MergeDTS/MSLR-Perfect.txt",
            f"{_MSLR}/chang-li-MergeDTS/MSLR-Informational-CDC.txt",
        ),
        dataset_evidence=(
            "the mirror's README: these files come from the MergeDTS authors' repository "
            "(chang-li/MergeDTS), 136 arms, and 135 for the Condorcet variant of the "
            "informational matrix"
        ),
        compared_with=(),
        claim=(
            "Our main finding is that for large-scale Condorcet ranker evaluation problems, "
            "MergeDTS outperforms the state-of-the-art dueling bandit algorithms."
        ),
        metric=None,
        n_arms=136,
        horizon=100_000_000,
        runs=None,
        configurations=("merge_dts_li2020", "merge_rucb_li2020", "dts_li2020"),
        settings_evidence="authors-code",
        settings_source=(
            f"{_MERGE_DTS_CODE}/individual_run.py: the 'BEST' configurations, and "
            "--iterations 10^8 by default for matrices of 100 arms or more (10^7 with 100 "
            "repeats below); the number of runs of the 136-arm experiments is a job "
            "argument (--repeat, default 1), not stated; RMED1, Self-Sparring and Sparring "
            "EXP3 run with their defaults"
        ),
        reported_value=None,
        evidence="abstract",
        note=(
            "the paper's figures and experimental-setup text were not readable here; the "
            "horizon, arms and tuned hyper-parameters are those of the authors' experiment "
            "code, which implements MergeRUCB, D-TS, RMED, Self-Sparring and Sparring EXP3 "
            "next to MergeDTS"
        ),
    ),
    PublishedResult(
        algorithm="dts",
        paper=("H. Wu, X. Liu, Double Thompson Sampling for Dueling Bandits, NeurIPS 2016"),
        source="https://ar5iv.labs.arxiv.org/html/1604.07101",
        location="abstract",
        datasets=(
            _ARXIV,
            f"{_MSLR}/HuasenWu-DuelingBandits/MSLR_Informational_5_Condorcet.txt",
        ),
        dataset_evidence=(
            "the mirror's READMEs: the arXiv matrix is 'used as the ArXiv instance ... in "
            "Double Thompson Sampling'; the 5-arm MSLR file comes from the D-TS authors' "
            "repository"
        ),
        compared_with=(),
        claim=(
            "Experiments based on both synthetic and real-world data demonstrate that D-TS "
            "and D-TS+ significantly improve the overall performance, in terms of regret "
            "and robustness."
        ),
        metric=None,
        n_arms=None,
        horizon=None,
        runs=None,
        configurations=(),
        settings_evidence="not-read",
        settings_source=_NOT_READ + " on the ArXiv instance",
        reported_value=None,
        evidence="abstract",
        note=(
            "the per-data-set regret figures were not readable here; the authors' public "
            "code runs the 5-arm MSLR matrix with 10 runs of 50,000 rounds (code, not paper)"
        ),
    ),
    PublishedResult(
        algorithm="rmed1",
        paper=(
            "J. Komiyama, J. Honda, H. Kashima, H. Nakagawa, Regret Lower Bound and Optimal "
            "Algorithm in Dueling Bandit Problem, COLT 2015"
        ),
        source="https://paperswithcode.com/paper/regret-lower-bound-and-optimal-algorithm-in",
        location="abstract",
        datasets=(_ARXIV,),
        dataset_evidence=(
            "the mirror's README: the file comes from the RMED authors' library "
            "(jkomiyama/duelingbanditlib) and is 'used as the ArXiv instance in RMED'"
        ),
        compared_with=(),
        claim=(
            "Experimental comparisons of dueling bandit algorithms show that the proposed "
            "algorithm significantly outperforms existing ones."
        ),
        metric=None,
        n_arms=6,
        horizon=None,
        runs=None,
        configurations=(),
        settings_evidence="not-read",
        settings_source=_NOT_READ,
        reported_value=None,
        evidence="abstract",
        note="the regret plots per data set were not readable here",
    ),
    PublishedResult(
        algorithm="ccb",
        paper=(
            "M. Zoghi, Z. Karnin, S. Whiteson, M. de Rijke, Copeland Dueling Bandits, NeurIPS 2015"
        ),
        source=(
            "https://object.cloud.sdsc.edu/v1/AUTH_da4962d3368042ac8337e2dfdd3e7bf3/"
            "ml-papers-txt/NeurIPS/2015/copeland_dueling_bandits__a0b70ac4.txt"
        ),
        location="abstract (no experimental claim)",
        datasets=(f"{_MSLR}/nightingal3-duelling-bandits/MSLR_Informational_PMat.npz",),
        dataset_evidence=(
            "the mirror's README: the matrices were 'provided by Zoghi, Karnin, Whiteson "
            "and Rijke', the CCB authors; which subsets the paper used is not known"
        ),
        compared_with=(),
        claim=None,
        metric="Copeland regret",
        n_arms=None,
        horizon=None,
        runs=None,
        configurations=(),
        settings_evidence="not-read",
        settings_source=_NOT_READ,
        reported_value=None,
        evidence="not-read",
        note="the abstract states bounds only; the experiments section was not readable here",
    ),
)
