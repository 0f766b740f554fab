"""Command line: ``cdbandits winners PATH [--json]`` and ``cdbandits winners --pairs LOG``.

Prints every winner notion of a preference matrix stored in a file (see
:mod:`cdbandits.matrix_io` for the formats), or the certified von Neumann winner of a log of
pairwise comparisons with its uncertainty (see :mod:`cdbandits.comparisons.cli`). Arms are
0-based. Exit status 0 on success; 2 for invalid arguments or input (the message names the
file and the line or entry), an option of the other input kind, a matrix beyond
``--max-items`` arms, an unknown ``--solver`` or a report that cannot be written; 3 when the
LP fails or its answer cannot be certified; 1 when the reader of standard output closed it
early; 130 when interrupted. Options cannot be abbreviated.

The module imports only the standard library at the top; everything else is imported by
the command that needs it, so ``cdbandits --help`` and argument errors stay fast.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["main"]

#: Exit status of invalid arguments or input (argparse uses it for its own errors too).
EXIT_INVALID_INPUT = 2
#: Exit status of an LP that fails or cannot be certified.
EXIT_SOLVER_FAILURE = 3
#: Exit status of an interrupted run (128 + SIGINT, as the shell reports it).
EXIT_INTERRUPTED = 130

_PROG = "cdbandits winners"


def _tolerance(text: str) -> float:
    """argparse type of ``--tol``: the library's own check, so both accept the same values."""
    from .preference import check_tolerance

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    try:
        return check_tolerance(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _parser() -> argparse.ArgumentParser:
    from .comparisons.arguments import Store, add_max_items_argument, add_pairs_arguments
    from .preference import SYMMETRY_TOL
    from .vnw_numpy import NUMPY_MAX_K

    parser = argparse.ArgumentParser(
        prog="cdbandits",
        description="Contextual dueling bandits: von Neumann winners and more.",
        allow_abbrev=False,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    winners = commands.add_parser(
        "winners",
        allow_abbrev=False,
        help="winners of a preference matrix in a file",
        description=(
            "Condorcet, Copeland (three variants), Borda, random-walk and certified von "
            "Neumann winners of a preference matrix. Formats: .npy, .npz, and text (.csv, "
            ".txt, ...; entries separated by ';', ',' or whitespace). Arms are 0-based. "
            "Exit status 0 on success, 2 for invalid input, 3 when the LP fails."
        ),
    )
    winners.add_argument(
        "path", nargs="?", help="matrix file (or give a comparison log with --pairs)"
    )
    winners.add_argument("--json", action="store_true", help="print JSON instead of text")
    winners.add_argument(
        "--convention",
        choices=("auto", "probability", "skew"),
        default="auto",
        action=Store,
        help="probability form Q (Q + Q^T = 1, diagonal 0.5) or skew form P = 2Q - 1 "
        "(P^T = -P) (default: auto, detect from the diagonal)",
    )
    winners.add_argument(
        "--key",
        action=Store,
        help="array name inside an .npz file (default: its only array, else PMat)",
    )
    winners.add_argument(
        "--solver",
        action=Store,
        help="solve the von Neumann winner with the cvxpy reference and this LP solver "
        "(e.g. CLARABEL, HIGHS) (default: none, see --engine)",
    )
    winners.add_argument(
        "--engine",
        choices=("auto", "compiled", "numpy"),
        default="auto",
        action=Store,
        help="solver of the von Neumann winner without --solver: the compiled kernel, plain "
        "NumPy (no numba to load: quicker for one small matrix), or auto: NumPy up "
        f"to {NUMPY_MAX_K} arms (default: auto)",
    )
    winners.add_argument(
        "--tol",
        type=_tolerance,
        default=SYMMETRY_TOL,
        action=Store,
        help=f"tolerance of the convention checks, 0 <= TOL < 0.25 (default: {SYMMETRY_TOL:g})",
    )
    add_max_items_argument(winners)
    add_pairs_arguments(winners)
    return parser


def _input_errors() -> tuple[type[Exception], ...]:
    """Exceptions of an input mode that mean invalid input (exit 2, message names the file)."""
    from .matrix_io import MatrixFileError

    return (MatrixFileError,)


def _read_input(arguments: argparse.Namespace) -> tuple[NDArray[np.float64], str]:
    """The validated skew-form matrix of the command's input, and its convention.

    Every input mode is one branch here (the matrix file is the only one so far); a mode
    raises one of :func:`_input_errors` with a message naming the file and the line or
    entry, and returns a matrix that :func:`cdbandits.preference.as_skew` has validated.
    """
    return _read_matrix_file(
        arguments.path, arguments.key, arguments.convention, arguments.tol, arguments.max_items
    )


def _read_matrix_file(
    path: str, key: str | None, convention: str, tol: float, max_arms: int
) -> tuple[NDArray[np.float64], str]:
    """Input mode: a preference matrix stored in a file (:mod:`cdbandits.matrix_io`)."""
    from .matrix_io import MatrixFileError, load_matrix
    from .preference import PreferenceMatrixError, as_skew, detect_convention

    matrix = load_matrix(path, key=key, max_arms=max_arms)
    try:
        if convention == "auto":
            convention = detect_convention(matrix, tol)
        return as_skew(matrix, convention, tol), convention
    except PreferenceMatrixError as error:
        raise MatrixFileError(f"{path}: {error}") from None


@contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Route file descriptor 1 to 2 so solver banners printed from C never reach JSON output."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _format_text(result: dict[str, Any], path: str) -> str:
    from .winners import COPELAND_VARIANTS

    def arms(values: Sequence[int]) -> str:
        return ", ".join(str(arm) for arm in values) or "none"

    vnw = result["von_neumann"]
    lines = [
        f"{path}: K = {result['K']} arms ({result['convention']} form), arms numbered from 0",
        f"Condorcet winner: {result['condorcet'] if result['condorcet'] is not None else 'none'}",
    ]
    for variant in COPELAND_VARIANTS:
        copeland = result["copeland"][variant]
        best = max(copeland["scores"])
        lines.append(f"Copeland winners ({variant}, score {best}): {arms(copeland['winners'])}")
    lines.append(
        f"Borda winners: {arms(result['borda']['winners'])} "
        f"(score {max(result['borda']['scores']):.6f})"
    )
    lines.append(f"Random-walk winners: {arms(result['random_walk']['winners'])}")
    weights = ", ".join(f"{arm}: {vnw['weights'][arm]:.6f}" for arm in vnw["support"])
    lines.append(f"von Neumann winner: {weights}")
    lines.append(
        f"  certificate min_b (w^T P)_b = {vnw['exploitability']:.3e} "
        f"(solver {vnw['solver']}, status {vnw['status']})"
    )
    return "\n".join(lines)


def _announce_compilation(arguments: argparse.Namespace, k: int) -> None:
    """Say so when the compiled kernel is about to be compiled (first use after installing)."""
    from .console import say
    from .vnw_numpy import NUMPY_MAX_K

    compiled = arguments.engine == "compiled" or (arguments.engine == "auto" and k > NUMPY_MAX_K)
    if arguments.solver is not None or not compiled:
        return
    from .comparisons.solving import numba_cache_ready
    from .vnw_kernels import solve_one

    if not numba_cache_ready(solve_one):
        say(
            _PROG,
            "compiling the von Neumann solver for this machine; the first run after "
            "installation takes about a minute for it, later runs load it from the cache",
        )


def _winners(arguments: argparse.Namespace) -> int:
    from .console import finite_json, json_text, say, write_report

    if arguments.pairs is not None:
        if arguments.path is not None:
            say(_PROG, "give a matrix file or --pairs LOG, not both")
            return EXIT_INVALID_INPUT
        from .comparisons.cli import run_pairs

        return run_pairs(arguments)
    if arguments.path is None:
        say(_PROG, "give a matrix file or --pairs LOG")
        return EXIT_INVALID_INPUT
    from .comparisons.arguments import option_conflicts

    conflict = option_conflicts(arguments)
    if conflict is not None:
        say(_PROG, conflict)
        return EXIT_INVALID_INPUT
    if sys.stdout is None:
        say(_PROG, "standard output is closed; the report cannot be written")
        return EXIT_INVALID_INPUT
    if arguments.solver is not None:
        from .reference import check_solver_name

        try:
            arguments.solver = check_solver_name(arguments.solver)
        except ValueError as error:
            say(_PROG, f"--solver: {error}")
            return EXIT_INVALID_INPUT
    try:
        P, convention = _read_input(arguments)
    except _input_errors() as error:
        say(_PROG, str(error))
        return EXIT_INVALID_INPUT
    from .winners import CertificationError, SolverError, all_winners

    _announce_compilation(arguments, P.shape[0])
    try:
        with _stdout_to_stderr():
            result = all_winners(P, solver=arguments.solver, engine=arguments.engine)
    except (SolverError, CertificationError) as error:
        say(_PROG, str(error))
        return EXIT_SOLVER_FAILURE
    result = {"convention": convention, **result}
    if arguments.json:
        report, non_finite = finite_json(result)
        if non_finite:
            report["non_finite"] = non_finite
            say(_PROG, f"warning: values that are not finite numbers written as null: {non_finite}")
        return write_report(_PROG, json_text(report))
    return write_report(_PROG, _format_text(result, arguments.path))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cdbandits`` command; returns the exit status.

    Invalid arguments make argparse exit with status 2 (:class:`SystemExit`).
    """
    arguments = _parser().parse_args(argv)
    if arguments.command != "winners":
        raise AssertionError(f"unhandled command {arguments.command!r}")
    try:
        return _winners(arguments)
    except KeyboardInterrupt:
        from .console import say

        say(_PROG, "interrupted")
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
