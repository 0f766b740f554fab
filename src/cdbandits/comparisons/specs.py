"""How a comparison log file is laid out: :class:`LogSpec` and the presets of known logs.

The specs live apart from the readers of :mod:`.logs` so that the command line can list the
presets and check the options without loading pandas (see :mod:`.arguments`). The layout
itself is described in :mod:`.logs`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "LOG_PRESETS",
    "OUTCOME_SOURCES",
    "TABLE_FORMATS",
    "LogSpec",
    "OutcomeSource",
    "TableFormat",
    "outcome_token",
]

OutcomeSource = Literal["outcome", "winner", "first_wins"]
OUTCOME_SOURCES: tuple[OutcomeSource, ...] = ("outcome", "winner", "first_wins")

TableFormat = Literal["auto", "csv", "tsv", "parquet", "json", "whitespace"]
TABLE_FORMATS: tuple[TableFormat, ...] = ("auto", "csv", "tsv", "parquet", "json", "whitespace")


def outcome_token(value: object) -> str:
    """Canonical form of an outcome value: numbers as numbers, words in lower case."""
    text = str(value).strip()
    try:
        number = float(text)
    except ValueError:
        return text.lower()
    return repr(number) if math.isfinite(number) else text.lower()


@dataclass(frozen=True)
class LogSpec:
    """How to read a comparison log file (see the module docstring).

    Attributes
    ----------
    first, second : str
        Columns of the two items.
    outcome_from : {"outcome", "winner", "first_wins"}
        Where the outcome comes from.
    outcome : str
        Outcome column (with ``outcome_from="outcome"``).
    winner : str
        Column naming the preferred item (with ``outcome_from="winner"``).
    first_values, second_values, tie_values : tuple of str
        Outcome values meaning the first item won, the second won, a tie.
    context, weight, group : str or None
        Optional columns.
    drop : tuple of (column, pattern)
        Rows whose ``column`` matches ``pattern`` (:func:`re.search`) are dropped.
    format : {"auto", "csv", "tsv", "parquet", "json", "whitespace"}
        File format; ``"auto"`` goes by the suffix.
    names : tuple of str or None
        Column names of a text file without a header line.
    description : str
        What the spec is for (shown in messages and ``--help``).
    """

    first: str = "first"
    second: str = "second"
    outcome_from: OutcomeSource = "outcome"
    outcome: str = "outcome"
    winner: str = "winner"
    first_values: tuple[str, ...] = ("1", "first")
    second_values: tuple[str, ...] = ("0", "second")
    tie_values: tuple[str, ...] = ("0.5", "tie")
    context: str | None = None
    weight: str | None = None
    group: str | None = None
    drop: tuple[tuple[str, str], ...] = ()
    format: TableFormat = "auto"
    names: tuple[str, ...] | None = None
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.outcome_from not in OUTCOME_SOURCES:
            raise ValueError(
                f"outcome_from must be one of {OUTCOME_SOURCES}, got {self.outcome_from!r}"
            )
        if self.format not in TABLE_FORMATS:
            raise ValueError(f"format must be one of {TABLE_FORMATS}, got {self.format!r}")
        codes = [
            outcome_token(v) for v in (*self.first_values, *self.second_values, *self.tie_values)
        ]
        if len(set(codes)) != len(codes):
            raise ValueError("an outcome value is listed for more than one outcome")
        for column, pattern in self.drop:
            try:
                re.compile(pattern)
            except re.error as error:
                raise ValueError(f"drop rule for column {column!r}: bad pattern: {error}") from None

    @property
    def columns(self) -> tuple[str, ...]:
        """Every column the spec reads (each once, in a fixed order)."""
        needed = [self.first, self.second]
        if self.outcome_from == "outcome":
            needed.append(self.outcome)
        elif self.outcome_from == "winner":
            needed.append(self.winner)
        needed += [c for c in (self.context, self.weight, self.group) if c is not None]
        needed += [column for column, _ in self.drop]
        return tuple(dict.fromkeys(needed))


#: Specs of the public logs used by the project. ``atp``: Jeff Sackmann's ``atp_matches_YYYY.csv``
#: (players by name; walkovers, whose score says ``W/O`` or ``Walkover``, were never played
#: and are dropped; retirements and defaults keep their recorded winner). ``trec-dl``: the
#: judgments of Yan et al. (2022), ``topic_id passage_A passage_B preferred_passage``
#: without a header, one tournament per topic (the topic is the context).
LOG_PRESETS: dict[str, LogSpec] = {
    "atp": LogSpec(
        first="winner_name",
        second="loser_name",
        outcome_from="first_wins",
        drop=(("score", r"(?i)W/O|walkover"),),
        format="csv",
        description="Sackmann's ATP results: winner_name beat loser_name; walkovers dropped",
    ),
    "trec-dl": LogSpec(
        names=("topic", "first", "second", "winner"),
        outcome_from="winner",
        winner="winner",
        context="topic",
        format="whitespace",
        description="TREC-DL preference judgments: topic first second winner, no header",
    ),
}
