"""Backends by name: built-ins as ``"module:attribute"`` strings imported only when asked for,
third-party ones through entry points (one name loaded at a time).

Groups: ``matchers`` (entry points ``citecheck.matchers``), ``syntaxes``
(``citecheck.syntaxes``), ``indexes`` (``citecheck.indexes``) and ``schemes``
(``citecheck.schemes``: reference schemes, each a function returning a
:class:`~citecheck.references.ReferenceScheme`). A name nobody registered raises
:class:`~citecheck.errors.UnknownBackendError` listing the names that are known.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

from citecheck.errors import ConfigError, UnknownBackendError

__all__ = ["available", "create", "load"]

_BUILTINS: dict[str, dict[str, str]] = {
    "matchers": {
        "exact": "citecheck.matchers.exact:ExactMatcher",
        "fuzzy": "citecheck.matchers.fuzzy:FuzzyMatcher",
        "bm25": "citecheck.matchers.bm25:BM25Matcher",
        "embedding": "citecheck.matchers.embedding:EmbeddingMatcher",
        "overlap": "citecheck.matchers.overlap:OverlapMatcher",
    },
    "syntaxes": {
        "tip": "citecheck.syntax.tip:TipSyntax",
        "pandoc": "citecheck.syntax.pandoc:PandocSyntax",
        "numeric": "citecheck.syntax.numeric:NumericSyntax",
        "author_year": "citecheck.syntax.author_year:AuthorYearSyntax",
    },
    "indexes": {
        "memory": "citecheck.indexes.memory:MemoryIndex",
        "faiss": "citecheck.indexes.faiss:FaissIndex",
        "pinecone": "citecheck.indexes.pinecone:PineconeIndex",
    },
    "schemes": {
        "valmiki_ramayana": "citecheck.references.builtin:valmiki_ramayana",
        "bible": "citecheck.references.builtin:bible",
    },
}
_REQUIRED_METHOD = {"matchers": "find", "syntaxes": "scan", "indexes": "search", "schemes": "book"}
_SINGULAR = {"matchers": "matcher", "syntaxes": "syntax", "indexes": "index", "schemes": "scheme"}


def _group(group: str) -> dict[str, str]:
    if group not in _BUILTINS:
        raise ConfigError(f"unknown backend group {group!r}; expected one of {sorted(_BUILTINS)}")
    return _BUILTINS[group]


def available(group: str) -> list[str]:
    """Names registered in ``group``: built-ins first, then installed entry points."""
    names = list(_group(group))
    names += sorted(
        ep.name for ep in entry_points(group=f"citecheck.{group}") if ep.name not in names
    )
    return names


def load(group: str, name: str) -> Callable[..., Any]:
    """The factory (usually a class) registered as ``name`` in ``group``."""
    builtins = _group(group)
    if name in builtins:
        module, _, attribute = builtins[name].partition(":")
        factory: Callable[..., Any] = getattr(import_module(module), attribute)
        return factory
    for ep in entry_points(group=f"citecheck.{group}", name=name):
        loaded: Callable[..., Any] = ep.load()
        return loaded
    raise UnknownBackendError(
        f"no {_SINGULAR[group]} named {name!r}; known: {', '.join(available(group))}"
    )


def create(group: str, spec: Any, **options: Any) -> Any:
    """A backend from a name (built with ``options``), or an object already built, as is."""
    if isinstance(spec, str):
        return load(group, spec)(**options)
    method = _REQUIRED_METHOD.get(group)
    if method and not callable(getattr(spec, method, None)):
        raise ConfigError(f"{spec!r} is not a {_SINGULAR[group]}: it has no {method}() method")
    return spec
