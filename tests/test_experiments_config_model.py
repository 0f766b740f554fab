"""The conventions of the config models (cdbandits.experiments.config_model)."""

import pytest
from pydantic import Field

from cdbandits.experiments.config_model import (
    ConfigError,
    ConfigModel,
    Horizons,
    PositiveInt,
    distinct,
    key_path,
    not_filled_in,
    rule,
)


class Inner(ConfigModel):
    """An inner section."""

    horizons: Horizons = (10, 100)
    """Horizons."""

    names: distinct(str) = ("a",)
    """Names."""


class Outer(ConfigModel):
    """An outer section."""

    size: PositiveInt = 3
    """A size."""

    limit: PositiveInt = 5
    """A limit."""

    inner: Inner = Inner()
    entries: tuple[Inner, ...] = ()
    hidden: int = Field(7, json_schema_extra=not_filled_in)
    """A key whose default the schema does not show."""

    @rule("size", "limit")
    def _size_within_limit(self) -> None:
        if self.size > self.limit:
            raise ConfigError(
                f"must be at most outer.limit = {self.limit}; got {self.size}", "size"
            )


def test_key_paths_join_names_with_dots_and_indices_in_brackets():
    assert key_path("duels", "environments", 2, "arms") == "duels.environments[2].arms"
    assert key_path("", "seed") == "seed"
    assert str(ConfigError("must be increasing", "a.b")) == "a.b: must be increasing"


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({"inner": {"horizons": [1000, 200]}},
         "inner.horizons: must be increasing; got [1000, 200]"),
        ({"entries": [{}, {"names": ["x", "x"]}]},
         "entries[1].names: values repeat; got ['x', 'x']"),
        ({"size": 0}, "size: Input should be greater than or equal to 1; got 0"),
        ({"size": "many"}, "size: Input should be a valid integer, unable to parse string as an "
         "integer; got 'many'"),
        ({"sise": 1}, "sise: unknown key"),
        ({"entries": [{"names": []}]}, "entries[0].names: Tuple should have at least 1 item after "
         "validation, not 0; got []"),
        ({"size": 6}, "size: must be at most outer.limit = 5; got 6"),
    ],
)  # fmt: skip
def test_every_rejected_value_is_one_line_naming_its_full_key_path(mapping, message):
    with pytest.raises(ConfigError) as raised:
        Outer.from_config(mapping, "outer")
    assert str(raised.value) == f"outer.{message}"


def test_models_are_frozen_and_hashable():
    outer = Outer.from_config({"inner": {"horizons": [1, 2]}})
    assert outer.inner.horizons == (1, 2)
    with pytest.raises(ValueError, match="frozen"):
        outer.size = 4  # type: ignore[misc]
    assert hash(outer) == hash(Outer.from_config({"inner": {"horizons": (1, 2)}}))


def test_a_partial_parse_checks_a_rule_only_with_all_of_its_keys():
    # the keys one job reads, from a section checked as a whole when the workflow started
    assert Outer.from_config({"size": 6}, partial=True).size == 6
    with pytest.raises(ConfigError, match="size: must be at most"):
        Outer.from_config({"size": 6, "limit": 5}, partial=True)
    with pytest.raises(ConfigError, match="must be increasing"):
        Outer.from_config({"inner": {"horizons": [3, 2]}}, partial=True)


def test_a_default_can_be_left_out_of_the_schema():
    properties = Outer.model_json_schema()["properties"]
    assert "default" not in properties["hidden"] and Outer().hidden == 7
    assert properties["size"]["default"] == 3
    assert properties["inner"]["$ref"]
