"""Whether the libraries citecheck runs may talk: their progress bars and their logs.

By default citecheck keeps them quiet while it works: transformers' "Loading weights" bar while
a PyTorch model loads, Ray's start-up lines, Ray Data's execution plan and progress bars. They
would cut into citecheck's own progress bar (one a command) and say nothing a user needs.
``citecheck --verbose``, or ``CITECHECK_VERBOSE=1`` in the environment (which the workers of a
Ray cluster started for the run inherit), lets them through: a slow or failing model load or
cluster then says what it is doing.
"""

from __future__ import annotations

import os

__all__ = ["VERBOSE_VARIABLE", "verbose"]

VERBOSE_VARIABLE = "CITECHECK_VERBOSE"
"""The environment variable that asks for the libraries' own output: 1, true, yes or on."""

_ON = frozenset({"1", "true", "yes", "on"})


def verbose() -> bool:
    """Whether :data:`VERBOSE_VARIABLE` asks for the libraries' own bars and logs."""
    return os.environ.get(VERBOSE_VARIABLE, "").strip().lower() in _ON
