"""Shared fixtures: the repository root and the local data mirror."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run (reproducible CI); set
# HYPOTHESIS_PROFILE=explore to draw new ones.
settings.register_profile("reproducible", derandomize=True, deadline=None, database=None)
settings.register_profile("explore", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "reproducible"))

REPO_ROOT = Path(__file__).resolve().parents[1]


def find_data_mirror() -> Path | None:
    """The local copy of the public data: $CDBANDITS_DATA_MIRROR, else <repo>/../shared/data."""
    configured = os.environ.get("CDBANDITS_DATA_MIRROR")
    candidate = Path(configured) if configured else REPO_ROOT.parent / "shared" / "data"
    return candidate.resolve() if candidate.is_dir() else None


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def data_mirror() -> Path:
    """Folder laid out like ``../shared/data``; tests that need real data fail without it."""
    mirror = find_data_mirror()
    if mirror is None:
        pytest.fail(
            "no data mirror: set CDBANDITS_DATA_MIRROR to a folder laid out like ../shared/data "
            "(the tests use the real MSLR files and never download them)"
        )
    return mirror
