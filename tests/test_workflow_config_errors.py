"""One-line messages for schema violations (cdbandits.workflow.config_errors)."""

import jsonschema
import pytest

from cdbandits.workflow.config_errors import config_error_message

SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "seed": {"type": "integer", "minimum": 0},
        "appendix": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"ks": {"type": "array", "items": {"type": "integer", "minimum": 2}}},
        },
    },
}


def violation(config):
    with pytest.raises(jsonschema.ValidationError) as caught:
        jsonschema.validate(config, SCHEMA)
    return caught.value


@pytest.mark.parametrize(
    "config, expected",
    [
        ({"seed": -1}, "config key seed: -1 is less than the minimum of 0"),
        (
            {"appendix": {"ks": [2, 1]}},
            "config key appendix.ks[1]: 1 is less than the minimum of 2",
        ),
        (
            {"sed": 1},
            "config: Additional properties are not allowed ('sed' was unexpected); "
            "allowed keys: appendix, seed",
        ),
    ],
)
def test_message_names_the_key(config, expected):
    assert config_error_message(violation(config)) == expected


def test_error_wrapped_by_snakemake_is_found_through_its_context():
    try:
        try:
            raise violation({"seed": -1})
        except jsonschema.ValidationError:
            raise RuntimeError("Error validating config file.") from None
    except RuntimeError as wrapped:
        assert config_error_message(wrapped) == "config key seed: -1 is less than the minimum of 0"


def test_other_errors_are_left_alone():
    assert config_error_message(KeyError("x")) is None
