"""The examples in the docs and the README run and print what the docs say they print."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PAGES = sorted((ROOT / "docs").glob("*.md"))
NEEDS = {
    "quotes.md": ("bm25s", "rank_bm25", "openpyxl", "yaml"),
    "judge.md": ("onnxruntime", "tokenizers"),
    "langchain.md": ("langchain_core",),
    "llamaindex.md": ("llama_index.core",),
    "batch.md": ("pandas", "dask.dataframe", "bm25s"),
    "mcp.md": ("mcp",),
}
"""Pages whose examples use optional extras: skipped when those are not installed."""


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_doc_examples(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for module in NEEDS.get(page.name, ()):
        pytest.importorskip(module)
    monkeypatch.chdir(ROOT)
    failures, _ = doctest.testfile(
        str(page),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        verbose=False,
    )
    assert failures == 0, f"{failures} example(s) in {page.name} do not print what the page says"
