"""The one-shot verbs and the batch adapter spell their keywords: a type checker catches a
misspelt option or a value of the wrong type before anything runs (mypy, when installed)."""

from __future__ import annotations

from pathlib import Path

import pytest

USE = """
import citecheck
from citecheck.batch import BatchVerifier

BatchVerifier("quotes", sources={"a": "b"}, candidates=5)
BatchVerifier("records", similarity_treshold=0.5)
BatchVerifier("references", against={"Bala": [3]}, threshold=0.9)
citecheck.verify("x", {"a": "b"}, treshold=0.9)
citecheck.verify("x", {"a": "b"}, threshold="high")
citecheck.verify_quotes(["x"], {"a": "b"}, candidates=3, threshold=0.8)
citecheck.verify_records([], similarity_threshold=0.5, embedding_model="m")
citecheck.verify_references("x", against={"Bala": [3]}, max_range=10)
"""


def test_a_type_checker_reads_every_door_s_options(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    use = tmp_path / "use.py"
    use.write_text(USE, encoding="utf-8")
    out, _, _ = api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(use)]
    )
    errors = sorted({int(line.split(":")[1]) for line in out.splitlines() if ": error:" in line})
    lines = USE.splitlines()
    assert [lines[n - 1] for n in errors] == [
        'BatchVerifier("records", similarity_treshold=0.5)',
        'citecheck.verify("x", {"a": "b"}, treshold=0.9)',
        'citecheck.verify("x", {"a": "b"}, threshold="high")',
    ], out
