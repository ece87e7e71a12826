"""Backends by name: built-ins as ``"module:attribute"`` strings imported only when asked for,
third-party ones through entry points (one name loaded at a time).

Groups: ``doors`` (entry points ``citecheck.doors``: each a class or function that, given
its options, builds a :class:`~citecheck.protocols.Verifier`, the door that takes a text or
items and sources and returns a Report), ``matchers`` (``citecheck.matchers``), ``syntaxes``
(``citecheck.syntaxes``), ``indexes`` (``citecheck.indexes``), ``schemes``
(``citecheck.schemes``: reference schemes, each a function returning a
:class:`~citecheck.references.ReferenceScheme`), ``formats`` (``citecheck.formats``: the file
formats a report is written in, each a :class:`~citecheck.protocols.Format` object),
``judges`` (``citecheck.judges``: judges of support by name, each a function that builds one
from its options, ``model=`` for ``nli``, ``openai`` and ``ollama``;
:func:`citecheck.judging.known.load_judge` reads ``nli:MODEL`` names) and
``views`` (``citecheck.views``: other shapes of a report, each a callable: ``html``, what a
notebook shows for a report, a result or a piece of evidence; ``pandas``, a data frame). A
name nobody registered raises :class:`~citecheck.errors.UnknownBackendError` listing the names
that are known.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from importlib import import_module
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from citecheck.errors import ConfigError, UnknownBackendError

__all__ = ["available", "create", "format_for", "load"]

_BUILTINS: dict[str, dict[str, str]] = {
    "doors": {
        "markers": "citecheck.verification.verifier:Verifier",
        "quotes": "citecheck.quotes.locator:QuoteLocator",
        "references": "citecheck.references.verify:ReferenceVerifier",
        "records": "citecheck.records.validate:RecordVerifier",
        "papers": "citecheck.papers.draft_verifier:DraftVerifier",
        "api": "citecheck.api_citations:ApiCitationVerifier",
    },
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
        "openai": "citecheck.syntax.file_search:FileSearchSyntax",
        "source": "citecheck.syntax.source_names:NamedSourceSyntax",
        "footnote": "citecheck.syntax.footnotes:FootnoteSyntax",
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
    "formats": {
        "json": "citecheck.exports.formats:JSON",
        "jsonl": "citecheck.exports.formats:JSONL",
        "csv": "citecheck.exports.formats:CSV",
        "xlsx": "citecheck.exports.formats:XLSX",
        "md": "citecheck.exports.formats:MARKDOWN",
        "html": "citecheck.exports.formats:HTML",
        "junit": "citecheck.exports.formats:JUNIT",
        "text": "citecheck.exports.formats:TEXT",
        "tip": "citecheck.exports.formats:TIP",
    },
    "judges": {
        "minicheck-roberta-large": "citecheck.judging.known:minicheck_roberta_large",
        "minicheck-deberta-v3-large": "citecheck.judging.known:minicheck_deberta_v3_large",
        "minicheck-flan-t5-large": "citecheck.judging.known:minicheck_flan_t5_large",
        "bespoke-minicheck-7b": "citecheck.judging.known:bespoke_minicheck_7b",
        "factcg-deberta-large": "citecheck.judging.known:factcg_deberta_large",
        "hhem-2.1-open": "citecheck.judging.known:hhem_2_1_open",
        "nli": "citecheck.judging.known:nli_judge",
        "openai": "citecheck.judging.known:openai_judge",
        "ollama": "citecheck.judging.known:ollama_judge",
    },
    "views": {
        "html": "citecheck.exports.formats:NOTEBOOK",
        "pandas": "citecheck.exports._table:to_pandas",
    },
}
_REQUIRED_METHOD = {
    "doors": "verify",
    "matchers": "find",
    "syntaxes": "scan",
    "indexes": "search",
    "schemes": "book",
    "formats": "render",
}
_SINGULAR = {
    "doors": "door",
    "matchers": "matcher",
    "syntaxes": "syntax",
    "indexes": "index",
    "schemes": "scheme",
    "formats": "format",
    "judges": "judge",
    "views": "view",
}


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


def format_for(path: str | os.PathLike[str], format: str | None = None) -> Any:
    """The registered :class:`~citecheck.protocols.Format` to write ``path`` in: ``format``
    when given (a format's name, or one of its suffixes such as ``markdown``, in any case),
    else the one whose suffixes hold the path's, in any case. Built-in formats are asked
    first. :class:`~citecheck.ConfigError` names the path and the known formats otherwise."""
    names = available("formats")
    if format is not None:
        wanted = format.strip().lower().lstrip(".")
        if wanted in names:
            return load("formats", wanted)
        for name in names:
            chosen: Any = load("formats", name)
            if f".{wanted}" in chosen.suffixes:
                return chosen
        raise ConfigError(f"unknown report format {format!r}; known: {', '.join(names)}")
    suffix = Path(path).suffix.lower()
    # A compound suffix (".tip.json") names its format before its last part (".json") does.
    compound = "".join(Path(path).suffixes[-2:]).lower()
    known: list[str] = []
    formats: list[Any] = [load("formats", name) for name in names]
    for found in formats:
        if compound != suffix and compound in found.suffixes:
            return found
    for found in formats:
        if suffix and suffix in found.suffixes:
            return found
        known.extend(found.suffixes)
    raise ConfigError(
        f"cannot tell the report format of {os.fspath(path)!r} from its suffix "
        f"{suffix or '(none)'!r}; use one of {', '.join(known)} or name the format "
        f"({', '.join(names)})"
    )
