"""The modules that moved into folders by layer, still importable by their old names for one
release, with a :class:`DeprecationWarning` that names the new one.

``import citecheck.semantic`` gives the very module ``citecheck.records.labels`` is, so code
written against the old paths (and objects pickled under them) keeps working while it moves.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import ModuleType

__all__ = ["MOVED", "install"]

MOVED = {
    "citecheck.text": "citecheck.language.text",
    "citecheck.tokens": "citecheck.language.tokens",
    "citecheck.numbers": "citecheck.language.numbers",
    "citecheck.quantities": "citecheck.language.quantities",
    "citecheck.chunking": "citecheck.documents.chunking",
    "citecheck.meaning": "citecheck.language.meaning",
    "citecheck.guard": "citecheck.judging.guard",
    "citecheck.support": "citecheck.judging.support",
    "citecheck.support_model": "citecheck.judging.support_model",
    "citecheck.judges": "citecheck.judging.judges",
    "citecheck.alignment": "citecheck.matchers.alignment",
    "citecheck.ellipsis": "citecheck.matchers.ellipsis",
    "citecheck.windows": "citecheck.matchers.windows",
    "citecheck.corpus": "citecheck.indexes.corpus",
    "citecheck.bibliography": "citecheck.documents.bibliography",
    "citecheck.verifier": "citecheck.verification.verifier",
    "citecheck.resolution": "citecheck.verification.resolution",
    "citecheck.semantic": "citecheck.records.labels",
    "citecheck.judging.cross_encoder": "citecheck.judging.onnx_pair_classifier",
    "citecheck.judging.windows": "citecheck.judging.judge_windows",
    "citecheck.judging.thresholds": "citecheck.thresholds",
    "citecheck.judging.meaning": "citecheck.language.meaning",
    "citecheck.language.chunking": "citecheck.documents.chunking",
    "citecheck.papers.model": "citecheck.papers.values",
    "citecheck.papers.errors": "citecheck.errors",
    "citecheck.papers.bibliography": "citecheck.papers.library_bibliography",
    "citecheck.records.files": "citecheck.records.record_files",
    "citecheck.testing.catalogs": "citecheck.testing.catalog_conformance",
    "citecheck.references.extract": "citecheck.references.finder",
    "citecheck.quotes.report": "citecheck.quotes.quote_report",
    "citecheck.references.report": "citecheck.references.reference_report",
}
"""Old module name → where it lives now."""


class _MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers an old name with the module under its new one."""

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new}; the old name goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(new)
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system set the old name's spec on the module: give it back its own.
        module.__spec__ = self._specs.pop(module.__spec__.name, module.__spec__)  # type: ignore[union-attr]

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}


def install() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(_MovedFinder())
