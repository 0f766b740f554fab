"""Named random streams shared by every experiment of the workflow.

Each stream is ``default_rng(SeedSequence(seed, spawn_key=key))`` where the key names what
the stream is for (strings are hashed by :func:`stable_id`). A named result gets the same
stream in every process, however the work is sharded and whatever else is computed.
"""

from __future__ import annotations

import hashlib

import numpy as np

__all__ = ["named_generator", "stable_id"]


def stable_id(name: str) -> int:
    """A 32-bit integer derived from ``name``, the same in every Python process."""
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:4], "little")


def named_generator(seed: int, *key: int | str) -> np.random.Generator:
    """The generator of the stream ``key`` of master seed ``seed``.

    Parameters
    ----------
    seed : int
        Master seed (the workflow's ``seed`` key).
    *key : int or str
        Names and indices of the stream; strings go through :func:`stable_id`.

    Returns
    -------
    numpy.random.Generator
    """
    spawn_key = tuple(stable_id(part) if isinstance(part, str) else int(part) for part in key)
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=spawn_key))
