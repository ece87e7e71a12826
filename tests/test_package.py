from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import citecheck
from citecheck import registry
from citecheck._moved import MOVED
from citecheck.errors import (
    BackendError,
    CitecheckError,
    ConfigError,
    InputError,
    LocationError,
    MissingDependencyError,
    SourceError,
    StructureMapError,
    UnknownBackendError,
)


def test_public_names_are_pinned() -> None:
    assert sorted(citecheck.__all__) == sorted(
        [
            "BackendError",
            "Citation",
            "CitecheckError",
            "ConfigError",
            "Corpus",
            "Document",
            "Evidence",
            "InputError",
            "Location",
            "LocationError",
            "LocationKindError",
            "MissingDependencyError",
            "Page",
            "PaperLibrary",
            "Report",
            "Result",
            "Section",
            "Segment",
            "SourceError",
            "Span",
            "Status",
            "StructureMapError",
            "UnknownBackendError",
            "Verifier",
            "__version__",
            "evaluate_dataset",
            "extract",
            "load_paths",
            "locate",
            "split_sources",
            "validate_records",
            "verify",
            "verify_quotes",
            "verify_api_citations",
            "verify_records",
            "verify_references",
        ]
    )
    for name in citecheck.__all__:
        assert hasattr(citecheck, name)


def test_importing_citecheck_stays_light() -> None:
    code = (
        "import sys, citecheck; "
        "heavy = [m for m in ('numpy', 'rapidfuzz', 'markdown_it', 'pypdf', 'torch', 'faiss', "
        "'pinecone', 'pythonbible', 'langchain_core', 'llama_index', 'ray', 'dask', 'pandas') "
        "if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_error_tree() -> None:
    for error in (InputError, UnknownBackendError, MissingDependencyError, BackendError):
        assert issubclass(error, CitecheckError)
    for error in (LocationError, SourceError, ConfigError, StructureMapError):
        assert issubclass(error, InputError)
        assert issubclass(error, ValueError)
    assert issubclass(UnknownBackendError, LookupError)
    assert issubclass(MissingDependencyError, ImportError)
    message = str(MissingDependencyError("pypdf", "pdf"))
    assert 'pip install "pycitecheck[pdf]"' in message


def test_statuses_are_lowercase_string_values() -> None:
    assert [s.value for s in citecheck.Status] == [
        "verified",
        "partial",
        "wrong_location",
        "unsupported",
        "not_found",
        "unchecked",
    ]
    assert citecheck.Status("wrong_location") == "wrong_location"


def test_registry_lists_builtins_and_rejects_unknown_names() -> None:
    assert registry.available("matchers")[:3] == ["exact", "fuzzy", "bm25"]
    assert registry.available("syntaxes")[:3] == ["tip", "pandoc", "numeric"]
    with pytest.raises(UnknownBackendError, match="known: exact, fuzzy, bm25"):
        registry.load("matchers", "levenshtein-deluxe")
    with pytest.raises(ConfigError):
        registry.available("widgets")


def test_third_party_matchers_load_through_entry_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "shout_matcher.py").write_text(
        "from citecheck.matchers import ExactMatcher\n"
        "class ShoutMatcher:\n"
        "    name = 'shout'\n"
        "    def find(self, query, document, within=None):\n"
        "        return ExactMatcher().find(query.lower(), document, within)\n"
    )
    dist = tmp_path / "shout_matcher-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: shout-matcher\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[citecheck.matchers]\nshout = shout_matcher:ShoutMatcher\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "shout" in registry.available("matchers")
    report = citecheck.verify('"HELLO WORLD" [[d]]', {"d": "hello world"}, matchers=("shout",))
    assert report.passed
    assert report.results[0].evidence[0].method == "exact"


def test_pdf_extra_missing_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pypdf", None)
    with pytest.raises(MissingDependencyError, match=r'pip install "pycitecheck\[pdf\]"'):
        citecheck.Document.from_pdf("x", b"%PDF-1.4")


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("citecheck.integrations.langchain", "langchain_core", "langchain"),
        ("citecheck.integrations.llamaindex", "llama_index", "llamaindex"),
        ("citecheck.integrations.mcp_server", "mcp", "mcp"),
    ],
)
def test_an_integration_without_its_extra_names_the_install_command(
    module: str, blocked: str, extra: str
) -> None:
    code = (
        f"import sys; sys.modules[{blocked!r}] = None; "
        "from citecheck.errors import MissingDependencyError\n"
        f"try:\n    import {module}\nexcept MissingDependencyError as exc:\n    print(exc)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert f'pip install "pycitecheck[{extra}]"' in out.stdout


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_moved_module_still_imports_by_its_old_name_for_one_release(old: str) -> None:
    import importlib

    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} moved to {MOVED[old]}"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(MOVED[old])
    assert module.__spec__ is not None
    assert module.__spec__.name == MOVED[old]
