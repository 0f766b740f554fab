"""The compiled byte-level parser of LETOR lines (used by :mod:`cdbandits.letor.reader`).

:func:`parse_block` parses a block of whole lines of raw bytes into the result arrays and
returns an error code (a key of :data:`ERRORS`) with the line and column of the first
malformed line; the reader turns that into a message naming the file and line.
"""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import NDArray

__all__ = ["ERRORS", "EXACT_POWERS", "NEWLINE", "parse_block"]

# Error codes of the compiled parser, with the message each one becomes.
ERRORS = {
    1: "the relevance label is not an integer",
    2: "expected 'qid:<integer>' after the label",
    3: "a feature must look like '<index>:<value>' with an integer index",
    4: "a feature value is not a finite decimal number",
    5: "a feature index is outside 1..n_features",
    6: "feature indices must increase strictly along a line",
    7: "the relevance label is outside 0..127",
}

NEWLINE = 10
_RETURN = 13
_SPACE = 32
_TAB = 9
_HASH = 35
_COLON = 58
_MINUS = 45
_PLUS = 43
_DOT = 46
_ZERO = 48
_NINE = 57

# The parser allocates nothing, so it is compiled without numba's reference counting, which
# otherwise costs atomic operations on every helper call of the byte loop.
_parser = numba.njit(cache=True, _nrt=False)

EXACT_POWERS = np.array([10.0**k for k in range(23)])


@_parser
def _skip_blanks(buffer: NDArray[np.uint8], position: int, end: int) -> int:
    while position < end and (buffer[position] == _SPACE or buffer[position] == _TAB):
        position += 1
    return position


@_parser
def _parse_integer(buffer: NDArray[np.uint8], position: int, end: int) -> tuple[int, int, bool]:
    """Parse ``[+-]digits``; return (value, next position, ok)."""
    sign = 1
    if position < end and (buffer[position] == _MINUS or buffer[position] == _PLUS):
        if buffer[position] == _MINUS:
            sign = -1
        position += 1
    start = position
    value = 0
    while position < end and _ZERO <= buffer[position] <= _NINE and position - start < 18:
        value = value * 10 + (buffer[position] - _ZERO)
        position += 1
    return sign * value, position, position > start


@_parser
def _parse_float(
    buffer: NDArray[np.uint8], position: int, end: int, powers: NDArray[np.float64]
) -> tuple[float, int, bool]:
    """Parse a decimal number ``[+-]digits[.digits][(e|E)[+-]digits]``.

    The value is ``mantissa / 10**k`` (or ``* 10**k``) from the first 18 significant
    digits. With a mantissa below 2**53 (15 digits) and ``k <= 22`` that is one correctly
    rounded IEEE operation on two exact operands, hence the same double as ``strtod``;
    longer mantissas or exponents may differ from it in the last bit.
    """
    negative = False
    if position < end and (buffer[position] == _MINUS or buffer[position] == _PLUS):
        negative = buffer[position] == _MINUS
        position += 1
    mantissa = 0
    exponent = 0
    digits = 0
    significant = 0
    while position < end and _ZERO <= buffer[position] <= _NINE:
        if significant < 18:
            mantissa = mantissa * 10 + (buffer[position] - _ZERO)
            if mantissa > 0:
                significant += 1
        else:
            exponent += 1
        digits += 1
        position += 1
    if position < end and buffer[position] == _DOT:
        position += 1
        while position < end and _ZERO <= buffer[position] <= _NINE:
            if significant < 18:
                mantissa = mantissa * 10 + (buffer[position] - _ZERO)
                exponent -= 1
                if mantissa > 0:
                    significant += 1
            digits += 1
            position += 1
    if digits == 0:
        return 0.0, position, False
    if position < end and (buffer[position] == 101 or buffer[position] == 69):  # e, E
        written, position, ok = _parse_integer(buffer, position + 1, end)
        if not ok:
            return 0.0, position, False
        exponent += written
    value = float(mantissa)
    if 0 <= exponent <= 22:
        value = value * powers[exponent]
    elif -22 <= exponent < 0:
        value = value / powers[-exponent]
    else:
        value = value * 10.0**exponent
    if negative:
        value = -value
    return value, position, True


@_parser
def parse_block(
    buffer: NDArray[np.uint8],
    n_features: int,
    labels: NDArray[np.int8],
    qids: NDArray[np.int64],
    features: NDArray[np.float64],
    row_lines: NDArray[np.int64],
    powers: NDArray[np.float64],
) -> tuple[int, int, int, int, int]:
    """Parse whole lines of ``buffer`` into the output arrays.

    Returns ``(rows, lines, error_code, error_line, error_column)``: rows written, lines
    consumed (blank and comment-only lines count as lines, not rows), and for the first
    malformed line its code, 0-based line index in the block and 0-based byte column.
    """
    size = buffer.size
    position = 0
    line = 0
    row = 0
    while position < size:
        line_start = position
        line_end = position
        while line_end < size and buffer[line_end] != NEWLINE:
            line_end += 1
        end = line_end
        while end > line_start and (
            buffer[end - 1] == _RETURN or buffer[end - 1] == _SPACE or buffer[end - 1] == _TAB
        ):
            end -= 1
        for scan in range(line_start, end):
            if buffer[scan] == _HASH:
                end = scan
                break
        position = _skip_blanks(buffer, line_start, end)
        if position < end:
            label, position, ok = _parse_integer(buffer, position, end)
            if not ok or (
                position < end and buffer[position] != _SPACE and buffer[position] != _TAB
            ):
                return row, line, 1, line, position - line_start
            if label < 0 or label > 127:
                return row, line, 7, line, position - line_start
            position = _skip_blanks(buffer, position, end)
            if not (
                position + 4 <= end
                and (buffer[position] == 113 or buffer[position] == 81)  # q
                and (buffer[position + 1] == 105 or buffer[position + 1] == 73)  # i
                and (buffer[position + 2] == 100 or buffer[position + 2] == 68)  # d
                and buffer[position + 3] == _COLON
            ):
                return row, line, 2, line, position - line_start
            qid, position, ok = _parse_integer(buffer, position + 4, end)
            if not ok:
                return row, line, 2, line, position - line_start
            for column in range(n_features):
                features[row, column] = 0.0
            previous_index = 0
            while True:
                after_value = position
                position = _skip_blanks(buffer, position, end)
                if position >= end:
                    break
                if position == after_value:
                    return row, line, 3, line, position - line_start
                index, position, ok = _parse_integer(buffer, position, end)
                if not ok or position >= end or buffer[position] != _COLON:
                    return row, line, 3, line, position - line_start
                if index < 1 or index > n_features:
                    return row, line, 5, line, position - line_start
                if index <= previous_index:
                    return row, line, 6, line, position - line_start
                previous_index = index
                value, position, ok = _parse_float(buffer, position + 1, end, powers)
                if not ok or (
                    position < end and buffer[position] != _SPACE and buffer[position] != _TAB
                ):
                    return row, line, 4, line, position - line_start
                features[row, index - 1] = value
            labels[row] = label
            qids[row] = qid
            row_lines[row] = line
            row += 1
        line += 1
        position = line_end + 1
    return row, line, 0, -1, -1
