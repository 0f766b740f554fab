"""One BLAS thread inside the von Neumann solvers, whatever the environment says.

The solvers factor many small matrices (one LU per interior point iteration, an SVD per
centring). OpenBLAS, the BLAS that numpy and scipy ship with, splits a factorisation of
about 100 rows or more over every core by default; for matrices of a few hundred rows the
threads cost more than they save, and when another process holds a core the waiting
threads make each factorisation 10 to 100 times slower. :func:`one_blas_thread` limits
every loaded BLAS to one thread for the duration of a solve (through :mod:`threadpoolctl`,
so OpenBLAS, MKL and BLIS alike) and restores the previous limits afterwards. Parallelism
belongs one level up: :mod:`cdbandits.batched` solves several matrices at once, each on
one thread.

Below :data:`THREADED_BLAS_K` rows OpenBLAS works on one thread anyway, so smaller solves
skip the limit (and do not import :mod:`threadpoolctl`, which the command line's
small-matrix path never needs).

Nested uses keep the limit until the outermost one ends. OpenBLAS has one thread pool for
the whole process, so :mod:`threadpoolctl` lets one Python thread at a time change its
limits: a solve that starts while another thread's solve holds the limit runs under it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["THREADED_BLAS_K", "one_blas_thread"]

#: Solves of matrices with fewer rows than this run without a limit: OpenBLAS keeps an LU
#: factorisation of fewer than 10,000 entries, and a matrix-vector product of fewer than
#: about 9,000, on one thread.
THREADED_BLAS_K = 64


@contextmanager
def one_blas_thread(rows: int) -> Iterator[None]:
    """Run the block with one BLAS thread if the solve involves ``rows`` rows or more.

    Parameters
    ----------
    rows : int
        The largest matrix dimension the block factors or multiplies.
    """
    if rows < THREADED_BLAS_K:
        yield
        return
    from threadpoolctl import get_cached_controller

    with get_cached_controller().limit(limits=1, user_api="blas"):
        yield
