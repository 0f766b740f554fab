"""What every model of a config section shares: one definition per key, one error per value.

A section of the workflow's config is a :class:`ConfigModel`: frozen, unknown keys rejected,
and for every key its type, default, bounds or choices (``Field``, ``Literal``) and its
description (the docstring under the attribute). The JSON schema the workflow validates
against is generated from these models (:mod:`cdbandits.workflow.config_schema`), so the
schema and the code cannot disagree. A rule across keys is a validator declared with
:func:`rule` (the keys it reads named). Every rejected value raises one :class:`ConfigError`
whose message names the full key path, e.g.
``online.synthetic.horizons: must be increasing; got [1000, 200]``.

Light to import (pydantic only): the workflow parses its config with it when it starts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    model_validator,
)

__all__ = [
    "Actions",
    "ConfigError",
    "ConfigModel",
    "CvxpySolver",
    "Fraction",
    "Horizons",
    "Increasing",
    "Margin",
    "NonNegativeInt",
    "PositiveInt",
    "Probability",
    "config_error",
    "distinct",
    "key_path",
    "not_filled_in",
    "rule",
]


class ConfigError(ValueError):
    """A config value the code cannot run with.

    Parameters
    ----------
    problem : str
        What is wrong and what was expected.
    key : str, optional
        Path of the rejected key, relative to where the error is raised (a validator names
        the key of its model; :meth:`ConfigModel.from_config` prefixes the model's path).
    """

    def __init__(self, problem: str, key: str = "") -> None:
        super().__init__(f"{key}: {problem}" if key else problem)
        self.problem = problem
        self.key = key


def key_path(*parts: str | int) -> str:
    """Join key names with dots and list indices in brackets: ``duels.environments[2].arms``."""
    path = ""
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part:
            path = f"{path}.{part}" if path else part
    return path


def _shown(value: Any) -> str:
    text = repr(list(value) if isinstance(value, tuple) else value)
    return text if len(text) <= 80 else text[:77] + "..."


def config_error(error: ValidationError, path: str = "") -> ConfigError:
    """The first problem of a pydantic ``error`` as a :class:`ConfigError` under ``path``."""
    first = error.errors(include_url=False)[0]
    where = key_path(path, *first["loc"])
    cause = first.get("ctx", {}).get("error")
    if isinstance(cause, ConfigError):
        return ConfigError(cause.problem, key_path(where, cause.key))
    if first["type"] == "missing":
        return ConfigError("missing", where)
    if first["type"] == "extra_forbidden":
        return ConfigError("unknown key", where)
    return ConfigError(f"{first['msg']}; got {_shown(first['input'])}", where)


class ConfigModel(BaseModel):
    """A config section (see the module docstring)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    @classmethod
    def from_config(
        cls, mapping: Mapping[str, Any], path: str = "", *, partial: bool = False
    ) -> Self:
        """Validate the section ``mapping`` found at ``path`` of the config.

        With ``partial``, ``mapping`` holds only some keys of a section checked as a whole
        before (the keys one workflow job reads): the others take their defaults, and a
        rule across keys is checked only if all of its keys are given.

        Raises
        ------
        ConfigError
            Naming the first rejected key (its full path) and the problem.
        """
        try:
            return cls.model_validate(mapping, context={"partial": partial})
        except ValidationError as error:
            raise config_error(error, path) from None


def rule(*keys: str) -> Callable[[Callable[[Any], None]], Any]:
    """Declare ``check(model)`` a rule across ``keys`` of a :class:`ConfigModel`.

    The check raises :class:`ConfigError` naming the rejected key; it runs after every key
    is validated (skipped in a partial parse that lacks one of ``keys``).
    """

    def declare(check: Callable[[Any], None]) -> Any:
        def validate(model: Any, info: ValidationInfo) -> Any:
            partial = (info.context or {}).get("partial", False)
            if not partial or set(keys) <= model.model_fields_set:
                check(model)
            return model

        validate.__name__ = check.__name__
        validate.__doc__ = check.__doc__
        return model_validator(mode="after")(validate)

    return declare


def not_filled_in(schema: dict[str, Any]) -> None:
    """Leave a key's default out of the generated schema (``json_schema_extra``).

    Snakemake writes every default of the schema into the config, in each entry of a list
    too: a key that only some kinds of entry take keeps its default in the model alone.
    """
    schema.pop("default", None)


def _distinct(values: tuple[Any, ...]) -> tuple[Any, ...]:
    if len(set(values)) != len(values):
        raise ConfigError(f"values repeat; got {list(values)}")
    return values


def distinct(item: Any, min_length: int = 1) -> Any:
    """The type of a list of distinct ``item`` values (at least ``min_length``) as a tuple."""
    return Annotated[
        tuple[item, ...],
        Field(min_length=min_length, json_schema_extra={"uniqueItems": True}),
        AfterValidator(_distinct),
    ]


def _increasing(values: tuple[int, ...]) -> tuple[int, ...]:
    if list(values) != sorted(set(values)):
        raise ConfigError(f"must be increasing; got {list(values)}")
    return values


def _installed_solver(name: str) -> str:
    from ..reference import check_solver_name  # imports cvxpy, only for a named solver

    try:
        check_solver_name(name)
    except ValueError as error:
        raise ConfigError(str(error)) from None
    return name


PositiveInt = Annotated[int, Field(ge=1)]
NonNegativeInt = Annotated[int, Field(ge=0)]
#: A probability strictly between 0 and 1 (a confidence level, a failure probability).
Probability = Annotated[float, Field(gt=0, lt=1)]
#: A weight in [0, 1].
Fraction = Annotated[float, Field(ge=0, le=1)]
#: A margin of victory in (0, 1].
Margin = Annotated[float, Field(gt=0, le=1)]
#: A number of actions (stored as uint8 by the contextual code).
Actions = Annotated[int, Field(ge=2, le=255)]
#: The rule of a tuple of increasing values.
Increasing = AfterValidator(_increasing)
#: Increasing horizons ``T``.
Horizons = Annotated[tuple[PositiveInt, ...], Increasing]
#: The name of an installed cvxpy LP solver (case-insensitive).
CvxpySolver = Annotated[str, AfterValidator(_installed_solver)]
