"""Short, readable messages for configs the workflow's JSON schema rejects.

Snakemake's own message for a schema violation prints the whole schema and config (thousands
of lines for this workflow) around the one line that matters. :func:`config_error_message`
turns the validation error into that line: the config key, the value and what was expected,
in the form of the config models' :class:`~cdbandits.experiments.config_model.ConfigError`.
"""

from __future__ import annotations

from ..experiments.config_model import key_path

__all__ = ["config_error_message"]


def config_error_message(error: BaseException) -> str | None:
    """One line describing the schema violation inside ``error``, or None if it holds none.

    ``error`` is the exception ``snakemake.utils.validate`` raised (a ``WorkflowError``
    raised while handling a ``jsonschema.ValidationError``) or the validation error itself.
    """
    import jsonschema

    candidates = [error, error.__cause__, error.__context__, *error.args]
    violation = next(
        (item for item in candidates if isinstance(item, jsonschema.ValidationError)), None
    )
    if violation is None:
        return None
    # The most specific error (deepest path) is the most useful one.
    best = jsonschema.exceptions.best_match([violation, *violation.context]) or violation
    where = f"config key {key_path(*best.absolute_path)}" if best.absolute_path else "config"
    if best.validator == "additionalProperties":
        allowed = sorted(best.schema.get("properties", {}))
        return f"{where}: {best.message}; allowed keys: {', '.join(allowed)}"
    return f"{where}: {best.message}"
