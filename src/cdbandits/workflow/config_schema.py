"""The workflow's JSON schema, generated from :class:`~.config.WorkflowConfig`.

``python -m cdbandits.workflow.config_schema write`` writes
``workflow/schemas/config.schema.yaml``; ``check`` exits 1 when the file is stale. The
generated schema is what Snakemake's ``validate`` needs: every reference inlined (its
default-filling walks ``properties`` only), every key of a section with its ``default`` and
``description`` (a nested section's default ``{}``, its keys filled in turn), and no
``null`` default inside list entries or mapping values (Snakemake would write those into
every entry); ``X or null`` is written ``type: [X, "null"]``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema

from ..files import write_text
from .config import WorkflowConfig

__all__ = ["SCHEMA_PATH", "config_schema", "main", "schema_text"]

#: Where the workflow reads its schema (relative to the repository root).
SCHEMA_PATH = Path("workflow/schemas/config.schema.yaml")

_HEADER = (
    "# Generated from cdbandits.workflow.config.WorkflowConfig by\n"
    "# `python -m cdbandits.workflow.config_schema write`; do not edit.\n"
)

#: The order of a schema's keywords in the file (others follow, sorted).
_ORDER = (
    "$schema", "type", "enum", "const", "pattern", "minimum", "exclusiveMinimum", "maximum",
    "exclusiveMaximum", "multipleOf", "items", "prefixItems", "minItems", "maxItems",
    "uniqueItems", "minProperties", "propertyNames", "required", "default", "description",
    "additionalProperties", "properties",
)  # fmt: skip


class _Generator(GenerateJsonSchema):
    """A nested section's default as ``{}`` when it is its model's default (its keys' own
    defaults then fill it in), else as the values given."""

    def encode_default(self, dft: Any) -> Any:
        if isinstance(dft, BaseModel):
            return {} if dft == type(dft)() else dft.model_dump(mode="json")
        if isinstance(dft, list | tuple) and all(isinstance(item, dict) for item in dft):
            return list(dft)
        return super().encode_default(dft)


def _inline(node: Any, definitions: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_inline(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = definitions[node["$ref"].rsplit("/", 1)[-1]]
        return _inline({**target, **{k: v for k, v in node.items() if k != "$ref"}}, definitions)
    return {key: _inline(value, definitions) for key, value in node.items()}


def _or_null(node: dict[str, Any]) -> dict[str, Any]:
    """``anyOf: [X, {type: null}]`` as X with ``null`` allowed."""
    options = node.get("anyOf", [])
    others = [option for option in options if option != {"type": "null"}]
    if len(options) != 2 or len(others) != 1 or "type" not in others[0]:
        return node
    merged = {**others[0], **{k: v for k, v in node.items() if k != "anyOf"}}
    merged["type"] = [others[0]["type"], "null"]
    if "enum" in merged:
        merged["enum"] = [*merged["enum"], None]
    return merged


def _clean(node: Any, in_entry: bool = False) -> Any:
    if isinstance(node, list):
        return [_clean(item, in_entry) for item in node]
    if not isinstance(node, dict):
        return node
    node = _or_null({key: value for key, value in node.items() if key != "title"})
    cleaned: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties":
            value = {name: _property(prop, in_entry) for name, prop in value.items()}
        elif key in ("items", "additionalProperties", "prefixItems"):
            value = _clean(value, in_entry=True)
        elif key == "description":
            value = re.sub(r"\s+", " ", value).strip()
        elif key in ("default", "enum", "const"):
            pass  # values, not schemas
        else:
            value = _clean(value, in_entry)
        cleaned[key] = value
    order = {key: index for index, key in enumerate(_ORDER)}
    return dict(sorted(cleaned.items(), key=lambda item: (order.get(item[0], len(order)), item[0])))


def _property(prop: dict[str, Any], in_entry: bool) -> dict[str, Any]:
    prop = _clean(prop, in_entry)
    if in_entry and "default" in prop and prop["default"] is None:
        del prop["default"]
    return prop


def config_schema() -> dict[str, Any]:
    """The workflow's JSON schema (draft 2020-12) as a mapping."""
    raw = WorkflowConfig.model_json_schema(schema_generator=_Generator)
    definitions = raw.pop("$defs", {})
    schema = _clean(_inline(raw, definitions))
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


class _Dumper(yaml.SafeDumper):
    """Lists of plain values on one line (``[3, 5]``), the rest in block style."""


def _represent_list(dumper: yaml.SafeDumper, values: list[Any]) -> yaml.Node:
    flow = not any(isinstance(value, dict | list) for value in values)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", values, flow_style=flow)


_Dumper.add_representer(list, _represent_list)


def schema_text() -> str:
    """The schema file's text."""
    body = yaml.dump(config_schema(), Dumper=_Dumper, sort_keys=False, width=96, allow_unicode=True)
    return _HEADER + body


def main(argv: Sequence[str] | None = None, print_: Callable[..., None] = print) -> int:
    """``python -m cdbandits.workflow.config_schema {write,check} [--schema FILE]``.

    ``check`` exits 1 when the file differs from the models' schema.
    """
    parser = argparse.ArgumentParser(prog="python -m cdbandits.workflow.config_schema")
    parser.add_argument("action", choices=("write", "check"))
    parser.add_argument("--schema", type=Path, default=SCHEMA_PATH)
    arguments = parser.parse_args(argv)
    text = schema_text()
    if arguments.action == "write":
        write_text(arguments.schema, text)
        print_(f"{arguments.schema}: written from the config models")
        return 0
    current = arguments.schema.read_text(encoding="utf-8") if arguments.schema.exists() else ""
    if current != text:
        print_(
            f"{arguments.schema} is out of date; run python -m cdbandits.workflow.config_schema "
            "write",
            file=sys.stderr,
        )
        return 1
    print_(f"{arguments.schema}: matches the config models")
    return 0


if __name__ == "__main__":
    sys.exit(main())
