"""What the three papers report, and on which data: none of it on data this project holds.

Rows follow :class:`cdbandits.karmed.published.PublishedResult`. Only what could be read is
recorded: the search tools gave each paper's abstract, not its figures or tables, so every
row holds the abstract's claim, no number, and ``datasets`` is empty because no paper reports
a result on the MSLR matrices, the arXiv matrix or the MSLR sample we hold:

* CoLSTIM (Bengs, Saha and Hüllermeier, ICML 2022) and MaxInP (Saha, NeurIPS 2021) report
  experiments on synthetic linear instances (as far as their abstracts say), which
  :func:`~cdbandits.linear_duels.environments.synthetic_linear_environment` resembles in kind
  but not in its parameters (not read).
* DBGD (Yue and Joachims, ICML 2009) was evaluated on web-search data of a commercial
  engine, which is not public.

Nothing here is estimated or copied from a figure we did not see.
"""

from __future__ import annotations

from ..karmed.published import PublishedResult

__all__ = ["PUBLISHED_RESULTS", "PublishedResult"]

#: The table; see the module docstring.
PUBLISHED_RESULTS: tuple[PublishedResult, ...] = (
    PublishedResult(
        algorithm="colstim",
        paper=(
            "V. Bengs, A. Saha, E. Hüllermeier, Stochastic Contextual Dueling Bandits under "
            "Linear Stochastic Transitivity Models, ICML 2022"
        ),
        source="https://arxiv.org/abs/2202.04593",
        location="abstract",
        datasets=(),
        dataset_evidence=(
            "the abstract names no data set; its experiments are on special cases of CoLST models"
        ),
        compared_with=(),
        claim=(
            "Our experiments demonstrate its superiority over state-of-art algorithms for "
            "special cases of CoLST models."
        ),
        metric=None,
        n_arms=None,
        horizon=None,
        runs=None,
        reported_value=None,
        evidence="abstract",
        note="the experiment section (instances, horizons, figures) was not readable here",
    ),
    PublishedResult(
        algorithm="maxinp",
        paper=(
            "A. Saha, Optimal Algorithms for Stochastic Contextual Preference Bandits, NeurIPS 2021"
        ),
        source="https://papers.nips.cc/paper/2021/hash/fc3cf452d3da8402bebb765225ce8c0e-Abstract.html",
        location="abstract",
        datasets=(),
        dataset_evidence="the abstract names no data set",
        compared_with=(),
        claim="All the results are corrobo[rated ...] (our copy of the abstract ends here)",
        metric=None,
        n_arms=None,
        horizon=None,
        runs=None,
        reported_value=None,
        evidence="abstract",
        note="what the experiments are run on was not readable; figures were not readable",
    ),
    PublishedResult(
        algorithm="dbgd",
        paper=(
            "Y. Yue, T. Joachims, Interactively Optimizing Information Retrieval Systems as a "
            "Dueling Bandits Problem, ICML 2009"
        ),
        source="https://www.cs.cornell.edu/people/tj/publications/yue_joachims_09a.pdf",
        location="not read",
        datasets=(),
        dataset_evidence="the paper's experiments use web-search data that is not public",
        compared_with=(),
        claim=None,
        metric=None,
        n_arms=None,
        horizon=None,
        runs=None,
        reported_value=None,
        evidence="not-read",
        note=(
            "no result on data we hold; simulate_dbgd on the MSLR sample measures the "
            "algorithm in the click-model setting the MSLR matrices come from instead"
        ),
    ),
)
