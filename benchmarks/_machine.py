"""The machine a benchmark ran on, printed with its numbers and stored in its JSON."""

from __future__ import annotations

import os
import platform
from typing import Any

import citecheck


def machine() -> dict[str, Any]:
    """Python, platform, cores and citecheck's version."""
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "citecheck": citecheck.__version__,
    }
