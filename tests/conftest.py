"""What every test shares: the command line's embedding cache kept in the session's temporary
folder, never in the user's own cache folder (``CITECHECK_CACHE_DIR``, which the commands run
in a subprocess inherit)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def _embedding_cache_in_a_temporary_folder(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[None]:
    before = os.environ.get("CITECHECK_CACHE_DIR")
    os.environ["CITECHECK_CACHE_DIR"] = str(tmp_path_factory.mktemp("embedding-cache"))
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("CITECHECK_CACHE_DIR", None)
        else:
            os.environ["CITECHECK_CACHE_DIR"] = before
