"""Command line: ``cdbandits winners PATH [--json]``.

Prints every winner notion of a preference matrix stored in a file (see
:mod:`cdbandits.matrix_io` for the formats). Arms are 0-based. Exit status 0 on success,
2 for unreadable or invalid input, 3 when the LP fails or cannot be certified.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .matrix_io import MatrixFileError, load_matrix
from .preference import SYMMETRY_TOL, PreferenceMatrixError, as_skew, detect_convention
from .winners import COPELAND_VARIANTS, CertificationError, SolverError, all_winners

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cdbandits", description="Contextual dueling bandits: von Neumann winners and more."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    winners = commands.add_parser(
        "winners",
        help="winners of a preference matrix in a file",
        description=(
            "Condorcet, Copeland (three variants), Borda, random-walk and certified von "
            "Neumann winners of a preference matrix. Formats: .csv, whitespace text, .npy, "
            ".npz. Arms are 0-based."
        ),
    )
    winners.add_argument("path", help="matrix file")
    winners.add_argument("--json", action="store_true", help="print JSON instead of text")
    winners.add_argument(
        "--convention",
        choices=("auto", "probability", "skew"),
        default="auto",
        help="probability form Q (Q + Q^T = 1, diagonal 0.5) or skew form P = 2Q - 1 "
        "(P^T = -P); default: detect from the diagonal",
    )
    winners.add_argument("--key", help="array name inside an .npz file")
    winners.add_argument(
        "--solver", help="cvxpy LP solver for the von Neumann winner (default: cvxpy's choice)"
    )
    winners.add_argument(
        "--tol",
        type=float,
        default=SYMMETRY_TOL,
        help=f"tolerance of the convention checks (default {SYMMETRY_TOL:g})",
    )
    return parser


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


def _winners(arguments: argparse.Namespace) -> int:
    try:
        matrix = load_matrix(arguments.path, key=arguments.key)
        convention = arguments.convention
        if convention == "auto":
            convention = detect_convention(matrix, arguments.tol)
        P = as_skew(matrix, convention, arguments.tol)
    except (OSError, MatrixFileError, PreferenceMatrixError) as error:
        print(f"cdbandits winners: {error}", file=sys.stderr)
        return 2
    try:
        with _stdout_to_stderr():
            result = all_winners(P, solver=arguments.solver)
    except (SolverError, CertificationError) as error:
        print(f"cdbandits winners: {error}", file=sys.stderr)
        return 3
    result = {"convention": convention, **result}
    if arguments.json:
        print(json.dumps(result, indent=2))
    else:
        print(_format_text(result, arguments.path))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cdbandits`` command; returns the exit status."""
    arguments = _parser().parse_args(argv)
    if arguments.command == "winners":
        return _winners(arguments)
    raise AssertionError(f"unhandled command {arguments.command!r}")


if __name__ == "__main__":
    sys.exit(main())
