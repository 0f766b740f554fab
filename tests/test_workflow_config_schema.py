"""The workflow's JSON schema is generated from the config models and in sync with them
(cdbandits.workflow.config_schema)."""

import copy

import pytest
import yaml
from conftest import REPO_ROOT
from snakemake.utils import validate

from cdbandits.workflow.config import WorkflowConfig
from cdbandits.workflow.config_schema import (
    SCHEMA_PATH,
    config_schema,
    main,
    schema_text,
)

SCHEMA = REPO_ROOT / SCHEMA_PATH
DEFAULT = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    """``config`` with the defaults of the models' schema filled in, as the workflow does."""
    schema = tmp_path_factory.mktemp("schema") / "config.schema.yaml"
    schema.write_text(schema_text())

    def fill(config):
        config = copy.deepcopy(config)
        validate(config, schema=str(schema))
        return config

    return fill


def test_the_committed_schema_is_the_models_schema():
    # A failure here: run `python -m cdbandits.workflow.config_schema write`.
    assert SCHEMA.read_text(encoding="utf-8") == schema_text()


def test_check_fails_on_a_stale_schema_and_write_mends_it(tmp_path):
    path = tmp_path / "config.schema.yaml"
    path.write_text(schema_text().replace("default: 20150703", "default: 1"))
    messages = []
    assert main(["check", "--schema", str(path)], print_=lambda *a, **k: messages.append(a)) == 1
    assert "out of date" in messages[0][0]
    assert main(["write", "--schema", str(path)], print_=lambda *a, **k: None) == 0
    assert main(["check", "--schema", str(path)], print_=lambda *a, **k: None) == 0


def _sections(node, path=""):
    """Every key of a section (not of list entries or mapping values) and its schema."""
    for key, prop in node.get("properties", {}).items():
        yield f"{path}{key}", prop
        yield from _sections(prop, f"{path}{key}.")


def test_every_key_of_a_section_has_a_default_and_a_description():
    keys = dict(_sections(config_schema()))
    assert len(keys) > 200
    assert [key for key, prop in keys.items() if "default" not in prop] == []
    assert [key for key, prop in keys.items() if not prop.get("description")] == []
    assert "$ref" not in schema_text() and "$defs" not in schema_text()


def test_an_empty_config_gets_every_default_and_those_are_the_models_defaults(filled):
    empty = filled({})
    assert WorkflowConfig.from_config(empty) == WorkflowConfig()
    assert empty["oracle"]["small_game"]["environment"]["n_actions"] == 2
    assert empty["oracle"]["environment"]["n_actions"] == 3
    assert empty["duels"]["environments"][0] == {
        "name": "mslr_informational",
        "kind": "matrix",
        "data": ["mslr_informational"],
        "title": "MSLR informational, all 136 rankers",
    }


def test_list_entries_get_only_the_defaults_every_entry_takes(filled):
    section = filled({"duels": {"environments": [{"name": "c", "kind": "contextual"}]}})["duels"]
    assert section["environments"] == [{"name": "c", "kind": "contextual", "data": []}]


def test_the_default_config_spells_out_the_models_defaults(filled):
    assert filled(DEFAULT) == filled({})
    assert WorkflowConfig.from_config(filled(DEFAULT)) == WorkflowConfig()


@pytest.mark.parametrize(
    "name", ["test.yaml", "bounds-full.yaml", "duels-large.yaml", "online-long.yaml"]
)
def test_the_shipped_configs_validate(filled, name):
    # --configfile replaces the Snakefile's config/config.yaml; the defaults fill the rest
    WorkflowConfig.from_config(filled(yaml.safe_load((REPO_ROOT / "config" / name).read_text())))
