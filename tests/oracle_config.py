"""The default oracle config section, and copies of it with one key changed."""

import copy

import yaml
from conftest import REPO_ROOT

DEFAULT = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())["oracle"]


def changed(path, value):
    """The default oracle section with the key at ``path`` (dotted) set to ``value``."""
    config = copy.deepcopy(DEFAULT)
    *parents, key = path.split(".")
    section = config
    for parent in parents:
        section = section[parent]
    section[key] = value
    return config
