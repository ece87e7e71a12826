"""citecheck as a Model Context Protocol server: its doors as tools an AI assistant calls over
stdio (``citecheck mcp``, the ``mcp`` extra).

Each tool takes typed arguments (the JSON schema a client reads says what each one is) and
answers with the report's JSON as structured content, the shape of the ``json`` format
(:meth:`~citecheck.Report.to_dict`), plus a short verdict for the model to read
(:func:`~citecheck.integrations.answers.verdict`). What goes wrong in a call (a
:class:`~citecheck.errors.CitecheckError`, a file that cannot be read, an argument the schema
refuses) is a tool error with the message: the server keeps answering.

Every path a tool is given is confined to the folders the server was started with (the
*roots*; the paper library named at start counts as one): a path that leads outside them, by
``..`` or through a symbolic link, is a tool error naming it and the roots, and nothing outside
is read or written. A relative path is read from the first root.

Built on the official SDK (``mcp`` 2.x, whose server is ``MCPServer``; 1.2x's ``FastMCP`` is
used when that is what is installed). Imported only when the command runs.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import sys
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from citecheck import registry
from citecheck.documents.files import SourceFiles, load_paths, source_files
from citecheck.embedders.cache import default_cache_dir
from citecheck.embedders.named import EMBEDDER_NAMES, EmbedderName, embedder_named
from citecheck.errors import CitecheckError, ConfigError, InputError, MissingDependencyError
from citecheck.integrations.answers import verdict
from citecheck.language.text import SURROGATE, without_surrogates
from citecheck.thresholds import WORDS_VERIFIED

try:
    from mcp.types import CallToolResult, ToolAnnotations
    from pydantic import BaseModel, ConfigDict, Field
except ImportError:  # pragma: no cover - the extra's absence is tested in a bare environment
    raise MissingDependencyError("mcp", "mcp") from None

if TYPE_CHECKING:
    from citecheck.papers import PaperLibrary
    from citecheck.report import Report

__all__ = [
    "EMBEDDERS",
    "TOOLS",
    "CitecheckTools",
    "OutsideRoots",
    "Roots",
    "build_server",
    "run",
]

SERVER_NAME = "citecheck"
EMBEDDERS = EMBEDDER_NAMES
"""The embedders a paper library or a claim check can use, by the command line's names
(:data:`citecheck.embedders.named.EMBEDDER_NAMES`)."""

TOOLS = (
    "verify_answer",
    "verify_quotes",
    "verify_references",
    "verify_records",
    "verify_api_citations",
    "papers_list",
    "papers_search",
    "papers_cite",
    "papers_validate",
    "papers_validate_doc",
    "papers_add",
)
"""The tools the server offers, in the order it lists them."""


class OutsideRoots(InputError):
    """A path that leads outside the folders the server may use."""


# -- where a tool may read and write ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Roots:
    """The folders the server may read and write in, each resolved (symbolic links followed):
    a path is allowed when what it resolves to lies in one of them. The first is where a
    relative path is read from."""

    folders: tuple[Path, ...]

    @classmethod
    def of(cls, folders: Iterable[str | PathLike[str]]) -> Roots:
        """The roots from the folders given; one that is not an existing folder is an error."""
        resolved: list[Path] = []
        for folder in folders:
            path = Path(folder).expanduser().resolve()
            if not path.is_dir():
                raise ConfigError(f"--root {folder}: no such folder")
            if path not in resolved:
                resolved.append(path)
        if not resolved:
            raise ConfigError("give at least one --root folder")
        return cls(tuple(resolved))

    def __str__(self) -> str:
        return ", ".join(str(folder) for folder in self.folders)

    def allows(self, path: Path) -> bool:
        """True when ``path``, resolved, lies in one of the roots."""
        target = _resolved(path)
        return any(target.is_relative_to(folder) for folder in self.folders)

    def path(self, given: str | PathLike[str], what: str = "path") -> Path:
        """``given`` as a path the server may use: relative to the first root, its folders
        resolved and its own name kept (a source's id is its file's name, even through a
        link); an :class:`OutsideRoots` error when it, or what it links to, lies outside."""
        try:
            raw = Path(given).expanduser()
        except RuntimeError:  # ~someone who is no user here
            raw = Path(given)
        joined = raw if raw.is_absolute() else self.folders[0] / raw
        name = joined.name
        path = _resolved(joined) if name in ("", ".", "..") else _resolved(joined.parent) / name
        if not self.allows(path):
            target = _resolved(path)
            shown = f"{given} (which resolves to {target})" if str(target) != str(given) else given
            raise OutsideRoots(
                f"the {what} {shown} is outside the folders this server may use ({self}): "
                "give a path inside them, or start the server with --root naming its folder"
            )
        return path

    def sources(self, given: Sequence[str]) -> list[Path]:
        """The source files ``given`` names, each folder replaced by its files (as
        :func:`~citecheck.documents.files.load_paths` reads a folder), every one confined."""
        if not given:
            raise InputError("give at least one source file or folder")
        files: list[Path] = []
        for item in given:
            path = self.path(item, "source")
            for file in source_files([path]) if path.is_dir() else [path]:
                if file != path and not self.allows(file):
                    raise OutsideRoots(
                        f"the source {file} links to {_resolved(file)}, outside the folders this "
                        f"server may use ({self})"
                    )
                files.append(file)
        return files


def _resolved(path: Path) -> Path:
    """``path`` with every symbolic link and ``..`` resolved; a loop of links is an error."""
    try:
        return path.resolve()
    except RuntimeError:  # Python < 3.13 says a loop so
        raise InputError(f"{path}: a loop of symbolic links") from None


# -- what the tools answer ----------------------------------------------------------------

StatusName = Literal[
    "verified", "partial", "wrong_location", "unsupported", "not_found", "unchecked"
]
OutcomeName = Literal["PASS", "FAIL", "UNCHECKED"]


class SummaryOut(BaseModel):
    """The summary every report has (:meth:`~citecheck.Report.summary`)."""

    model_config = ConfigDict(extra="allow")

    total: int = Field(description="citations checked (distinct ones, for references)")
    occurrences: int = Field(description="every result, repeated citations each counted")
    passed: bool
    outcome: OutcomeName
    counts: dict[str, int] = Field(description="results per status")
    pass_rate: float | None = Field(description="accepted / total; null without citations")
    mean_confidence: float | None


class ResultOut(BaseModel):
    """One citation's verdict (:meth:`~citecheck.Result.to_dict`)."""

    model_config = ConfigDict(extra="allow")

    citation: dict[str, Any] = Field(
        description="source_id, location, locator, excerpt, claim, raw, syntax, span, text_span"
    )
    status: StatusName
    confidence: float = Field(ge=0, le=1)
    confidence_label: Literal["high", "medium", "low", "failed"]
    excerpt_verified: bool
    reason: str = Field(description="one sentence: why this status")
    evidence: list[dict[str, Any]] = Field(
        description="passages, best first: source_id, start, end, text, score, page, line, …"
    )
    details: dict[str, Any] = Field(description="what only this door knows")


class ReportOut(BaseModel):
    """A citecheck report, as the ``json`` format writes it (:meth:`~citecheck.Report.to_dict`)."""

    model_config = ConfigDict(extra="allow")

    kind: str = Field(description="what made the report: verify, quotes, references, …")
    passed: bool = Field(description="true exactly when outcome is PASS")
    outcome: OutcomeName = Field(
        description="FAIL when a citation failed, UNCHECKED when nothing failed but something "
        "could not be checked, else PASS"
    )
    summary: SummaryOut
    metrics: dict[str, Any]
    warnings: list[str]
    mappings: list[dict[str, Any]] = Field(description="which source a number or key meant")
    phantom_citations: list[str] = Field(description="sources or locations that do not exist")
    metadata: dict[str, Any] = Field(description="the run's settings")
    results: list[ResultOut]


class PaperOut(BaseModel):
    """A paper of a library."""

    key: str
    title: str | None
    authors: list[str]
    year: str | None
    format: str | None
    pages: str = Field(description="the printed page labels it spans, such as 'pp. 1-12'")


class PapersOut(BaseModel):
    library: str
    papers: list[PaperOut]


class PassageOut(BaseModel):
    """A passage of a paper: a search hit or a quote."""

    model_config = ConfigDict(extra="allow")

    key: str = Field(description="the paper's key")
    text: str
    pages: str = Field(description="'p. 12', 'pp. 12–13', or '' off the numbered pages")
    page_start: int | None
    page_end: int | None
    section: str | None
    start: int = Field(description="offset of the passage in the paper's text")
    end: int


class PassagesOut(BaseModel):
    library: str
    passages: list[PassageOut]


class AddedOut(BaseModel):
    file: str
    key: str | None = Field(description="the paper's key; null when it could not be added")
    pages: int | None = None
    error: str | None = None


class BibliographyOut(BaseModel):
    file: str
    keys: list[str] = Field(default_factory=list, description="every entry's key")
    added: list[str] = Field(default_factory=list, description="the keys whose text was read")
    warnings: list[str] = Field(default_factory=list)
    error: str | None = None


class AddOut(BaseModel):
    library: str
    papers: list[AddedOut]
    bibliographies: list[BibliographyOut]


# -- the tools' arguments -----------------------------------------------------------------

Sources = Annotated[
    list[str],
    Field(
        min_length=1,
        description="source files or folders (a folder: its files, not recursing); a source is "
        "cited by its file name without the extension (ctx-1.md is [[ctx-1]])",
    ),
]
Library = Annotated[
    str | None,
    Field(description="the paper library's folder (default: the one the server was started with)"),
]
PaperKey = Annotated[str, Field(min_length=1, description="the paper's key in the library")]


@dataclass
class _Opened:
    library: PaperLibrary
    lock: threading.Lock = field(default_factory=threading.Lock)


class CitecheckTools:
    """The tools, over one set of :class:`Roots` and a default paper library. Each method is
    one tool; its signature is the tool's input schema and its docstring the description a
    model reads. A paper library is opened once and kept (one call at a time uses it)."""

    def __init__(
        self,
        roots: Roots,
        library: Path | None = None,
        embedder: EmbedderName = "auto",
    ) -> None:
        self.roots = roots
        self.library = library
        self.embedder = embedder
        self._libraries: dict[Path, _Opened] = {}
        self._opening = threading.Lock()

    # -- the doors over files ------------------------------------------------------------

    def verify_answer(
        self,
        sources: Sources,
        text: Annotated[
            str | None, Field(description="the text whose citations are checked")
        ] = None,
        answer_file: Annotated[
            str | None, Field(description="a file holding the text, instead of text")
        ] = None,
        syntax: Annotated[
            str,
            Field(
                description="the citation syntax: auto (every built-in one), tip ([[id:p12]]), "
                "pandoc ([@key, p. 3]), numeric ([1]), author_year ((Smith 2020)), or another "
                "registered name"
            ),
        ] = "auto",
        threshold: Annotated[
            float, Field(ge=0, le=1, description="the fuzzy similarity an excerpt needs")
        ] = WORDS_VERIFIED,
        matchers: Annotated[
            list[str] | None,
            Field(
                description="matchers, cheap first (default exact, fuzzy; ['exact'] for no fuzzy "
                "matching; 'overlap' is the TIP protocol's 80 % word overlap)"
            ),
        ] = None,
        lines_per_page: Annotated[
            int,
            Field(
                ge=0,
                description="read a page of a source without page numbers as this many lines "
                "(0: such a page is not checked)",
            ),
        ] = 50,
        require_citations: Annotated[
            bool, Field(description="fail a text that cites nothing")
        ] = False,
        accept: Annotated[
            Sequence[StatusName], Field(min_length=1, description="the statuses that pass")
        ] = ("verified",),
        numeric_sources: Annotated[
            dict[str, str] | None,
            Field(
                description="which source each number [n] cites: number to file name or id, "
                "such as {'1': 'smith.pdf'} (default: the text's reference list, else the "
                "order of the sources, with a warning)"
            ),
        ] = None,
        bibliography: Annotated[
            str | None,
            Field(description="a .bib or CSL .json file for author-year citations and keys"),
        ] = None,
        embedder: Annotated[
            EmbedderName,
            Field(
                description="check a paraphrased claim by meaning with this embedder: minilm, "
                "multilingual, onnx, auto (the first installed) or none (words only)"
            ),
        ] = "none",
        judge: Annotated[
            str,
            Field(
                description="the judge of support: auto (citecheck's trained judge when an "
                "embedder is used), none, or a known judge's name (see citecheck judges)"
            ),
        ] = "auto",
    ) -> Annotated[CallToolResult, ReportOut]:
        """Check every citation in a text against source files: does the cited source exist,
        does the cited location (page, line, section) exist in it, and does the quoted
        excerpt or the claim stand there? Give the text, or a file holding it. Returns the
        report (one result per citation, each with a status, confidence, reason and
        evidence) and a short verdict."""

        def check() -> CallToolResult:
            answer = self._text(text, answer_file, "answer_file")
            documents = load_paths(self.roots.sources(sources))
            door = registry.create(
                "doors",
                "markers",
                matchers=matchers or ["exact", "fuzzy"],
                lines_per_page=lines_per_page or None,
                syntax=syntax,
                threshold=threshold,
                accept=list(accept),
                require_citations=require_citations,
                numeric_sources=(_numbers(numeric_sources, documents) if numeric_sources else None),
                bibliography=(
                    None if bibliography is None else self.roots.path(bibliography, "bibliography")
                ),
                embedder=embedder_named(embedder, default_cache_dir()),
                judge=_judge(judge),
            )
            return _report_result(door.verify(answer, documents))

        return _guarded(check)

    def verify_quotes(
        self,
        quotes: Annotated[
            list[str], Field(min_length=1, description="the quotes, each located on its own")
        ],
        sources: Sources,
        match_threshold: Annotated[
            float | None,
            Field(ge=0, le=1, description="the similarity a quote needs to count as verified"),
        ] = None,
        config: Annotated[
            str | None,
            Field(description="options from a .toml, .yaml or .json file (QuoteConfig)"),
        ] = None,
    ) -> Annotated[CallToolResult, ReportOut]:
        """Locate quotes in source files, no location needed: for each, the source and passage
        where it stands, how exactly (verbatim, near-verbatim, with a change of meaning, or
        not at all) and the statistics of the run (in metrics). Returns the report and a
        short verdict."""

        def check() -> CallToolResult:
            from citecheck.quotes import QuoteConfig

            options = (
                QuoteConfig.from_file(self.roots.path(config, "config"))
                if config
                else QuoteConfig()
            )
            if match_threshold is not None:
                options = QuoteConfig.from_mapping(
                    {**options.to_dict(), "match_threshold": match_threshold}
                )
            documents = load_paths(self.roots.sources(sources))
            door = registry.create("doors", "quotes", config=options)
            return _report_result(
                door.run(list(quotes), documents.documents, None, documents.warnings)
            )

        return _guarded(check)

    def verify_references(
        self,
        text: Annotated[str, Field(description="the answer whose references are checked")],
        scheme: Annotated[
            str,
            Field(description="the reference scheme: valmiki_ramayana or bible (or registered)"),
        ] = "valmiki_ramayana",
        structure_map: Annotated[
            str | None,
            Field(
                description="a structure map (JSON) to check against; without one, bible is "
                "checked with pythonbible (the bible extra)"
            ),
        ] = None,
        texts: Annotated[
            str | None,
            Field(
                description="verse texts for quotes: a JSON object of reference to text, or "
                "the Valmiki Ramayana 'sargas' folder"
            ),
        ] = None,
        require_citations: Annotated[
            bool, Field(description="fail an answer that cites nothing")
        ] = False,
        template: Annotated[
            str | None,
            Field(description="the answer's template; its policy says whether it must cite"),
        ] = None,
    ) -> Annotated[CallToolResult, ReportOut]:
        """Check structured references in a text, such as [Bala Kanda 1.1] or John 3:16:
        does each book, chapter and verse exist, and does a quoted verse say what the quote
        says? Returns the report and a short verdict."""

        def check() -> CallToolResult:
            from citecheck.references import read_verse_texts, scheme_named

            door = registry.create(
                "doors",
                "references",
                scheme=scheme_named(scheme),
                against=(None if structure_map is None else self.roots.path(structure_map, "map")),
                texts=(
                    None if texts is None else read_verse_texts(self.roots.path(texts, "texts"))
                ),
                require_citations=require_citations,
            )
            return _report_result(door.verify(text, template=template))

        return _guarded(check)

    def verify_records(
        self,
        records: Annotated[
            list[dict[str, Any]] | None,
            Field(
                description="the records: each an object with a source text and a list of "
                "citation objects (the fields the config names; by default source_text and "
                "citations)"
            ),
        ] = None,
        records_file: Annotated[
            str | None, Field(description="a .json or .jsonl file of records, instead of records")
        ] = None,
        config: Annotated[
            str | None,
            Field(description="options from a .toml, .yaml or .json file (RecordConfig)"),
        ] = None,
        embedder: Annotated[
            EmbedderName,
            Field(
                description="the embedder that compares each citation with its source: auto "
                "(the records' model_name, all-MiniLM-L6-v2 by default), minilm, multilingual "
                "or onnx"
            ),
        ] = "auto",
    ) -> Annotated[CallToolResult, ReportOut]:
        """Label the citations of data records by their meaning against each record's source
        text (very likely true ... very likely untrue, too short, no source text): the records
        door. Give the records, or a file of them. Returns the report (one result per
        citation, each naming its record) and a short verdict."""

        def check() -> CallToolResult:
            from citecheck.records.record_files import read_records
            from citecheck.records.validate import RecordConfig

            if (records is None) == (records_file is None):
                raise InputError("give the records as records or as records_file (one of them)")
            items = (
                list(records)
                if records is not None
                else read_records(self.roots.path(records_file or "", "records file"))
            )
            options = (
                RecordConfig.from_file(self.roots.path(config, "config"))
                if config
                else RecordConfig()
            )
            if embedder == "none":
                raise InputError("the records door compares meaning: it needs an embedder")
            door = registry.create(
                "doors",
                "records",
                config=options,
                embedder=None
                if embedder == "auto"
                else embedder_named(embedder, default_cache_dir()),
            )
            return _report_result(door.verify(items, None))

        return _guarded(check)

    def verify_api_citations(
        self,
        response: Annotated[
            dict[str, Any] | list[Any],
            Field(
                description="what the LLM API returned, as its JSON: an Anthropic Messages "
                "response (or its content blocks), an OpenAI Responses response, chat "
                "completion or Assistants message (or its output items)"
            ),
        ],
        request: Annotated[
            dict[str, Any] | None,
            Field(
                description="Anthropic: the request the response answers (its document blocks "
                "are the documents sent, in order)"
            ),
        ] = None,
        documents: Annotated[
            list[str] | None,
            Field(description="Anthropic: the files sent as documents, in the order sent"),
        ] = None,
        files: Annotated[
            dict[str, str] | None,
            Field(
                description="OpenAI: each cited file id, file name or URL, and the file that "
                "holds its text"
            ),
        ] = None,
        provider: Annotated[
            Literal["auto", "anthropic", "openai"],
            Field(description="whose response it is (auto: told by its shape)"),
        ] = "auto",
        embedder: Annotated[
            EmbedderName,
            Field(description="check the answer's words by meaning with this embedder"),
        ] = "none",
    ) -> Annotated[CallToolResult, ReportOut]:
        """Check the citations an LLM API returned as objects (Anthropic's citation blocks,
        OpenAI's file and URL annotations) against the documents it was sent: does the cited
        text stand at the range the citation claims (the real range when it stands
        elsewhere), and does the sentence that carries it say what the cited text says?
        Returns the report and a short verdict."""

        def check() -> CallToolResult:
            from citecheck.api_citations import verify_api_citations
            from citecheck.documents.files import load_file

            given = [request is not None, documents is not None, files is not None]
            if sum(given) > 1:
                raise InputError("give the documents sent as one of request, documents, files")
            sent: Any = request
            if documents is not None:
                sent = [load_file(self.roots.path(d, "document")) for d in documents]
            elif files is not None:
                sent = {
                    key: replace(load_file(self.roots.path(f, "file")), id=key)
                    for key, f in files.items()
                }
            report = verify_api_citations(
                response,
                sent,
                provider=provider,
                embedder=embedder_named(embedder, default_cache_dir()),
            )
            return _report_result(report)

        return _guarded(check)

    # -- the paper library ---------------------------------------------------------------

    def papers_list(self, library: Library = None) -> Annotated[CallToolResult, PapersOut]:
        """The papers of a paper library: key, title, authors, year and printed pages."""

        def answer() -> CallToolResult:
            opened = self._library(library)
            with opened.lock:
                papers = [_paper(opened.library, key) for key in opened.library]
            lines = [f"{p['key']}\t{p['pages'] or 'no pages'}\t{p['title'] or ''}" for p in papers]
            head = f"{len(papers)} papers in {opened.library.path}"
            data = {"library": str(opened.library.path), "papers": papers}
            return _result("\n".join([head, *lines]), data)

        return _guarded(answer)

    def papers_search(
        self,
        query: Annotated[str, Field(min_length=1, description="a claim or search terms")],
        key: Annotated[
            str | None, Field(description="search only this paper (default: every paper)")
        ] = None,
        k: Annotated[int, Field(ge=1, le=100, description="how many passages")] = 5,
        mode: Annotated[
            Literal["hybrid", "bm25", "vector"] | None,
            Field(description="the ranking (default: the library's, hybrid with an embedder)"),
        ] = None,
        library: Library = None,
    ) -> Annotated[CallToolResult, PassagesOut]:
        """Search a paper library: the passages that best match a claim or search terms, best
        first, each with its paper, printed pages, section and scores."""

        def answer() -> CallToolResult:
            opened = self._library(library)
            with opened.lock:
                hits = opened.library.search(query, key=key, k=k, mode=mode)
            passages = [_passage(hit) for hit in hits]
            lines = [str(hit) for hit in hits] or [f"nothing in the library matches {query!r}"]
            data = {"library": str(opened.library.path), "passages": passages}
            return _result("\n".join(lines), data)

        return _guarded(answer)

    def papers_cite(
        self,
        key: PaperKey,
        text: Annotated[str, Field(min_length=1, description="a claim or search terms")],
        k: Annotated[int, Field(ge=1, le=20, description="how many quotes")] = 3,
        library: Library = None,
    ) -> Annotated[CallToolResult, PassagesOut]:
        """The best quotes of one paper for a claim, best first, each trimmed to the
        sentence(s) that carry it, with its printed pages, section and confidence: what to
        quote and which page to cite."""

        def answer() -> CallToolResult:
            opened = self._library(library)
            with opened.lock:
                quotes = opened.library.cite(key, text, k)
            passages = [_passage(quote) for quote in quotes]
            lines = [str(quote) for quote in quotes] or [f"no passage of {key!r} carries it"]
            data = {"library": str(opened.library.path), "passages": passages}
            return _result("\n".join(lines), data)

        return _guarded(answer)

    def papers_validate(
        self,
        key: PaperKey,
        claim: Annotated[str, Field(min_length=1, description="the claim the paper is cited for")],
        page: Annotated[int | None, Field(description="the printed page the claim cites")] = None,
        library: Library = None,
    ) -> Annotated[CallToolResult, ReportOut]:
        """Whether a paper (on the cited page, when given) supports a claim: supported,
        partially supported, not supported or contradicted, with the passages and a fix (the
        right page, the paper's words). Returns a report of one result and a short verdict."""

        def check() -> CallToolResult:
            from citecheck.report import Report

            opened = self._library(library)
            with opened.lock:
                result = opened.library.validate(key, claim, page)
            metadata = {"library": str(opened.library.path)}
            return _report_result(Report((result,), kind="paper-claim", metadata=metadata))

        return _guarded(check)

    def papers_validate_doc(
        self,
        draft_file: Annotated[
            str | None, Field(description="the draft (Markdown or text, UTF-8)")
        ] = None,
        text: Annotated[
            str | None, Field(description="the draft's text, instead of a file")
        ] = None,
        library: Library = None,
    ) -> Annotated[CallToolResult, ReportOut]:
        """Check every citation of a Markdown draft against a paper library ([@key],
        [@key, p. 12], [@a; @b, pp. 3-4], @key, @key [p. 12], [1] with a reference list):
        each claim with its draft line, verdict and suggested fix. Returns the report and a
        short verdict."""

        def check() -> CallToolResult:
            if (draft_file is None) == (text is None):
                raise InputError("give the draft as draft_file or as text (one of them)")
            # a one-line text that names a file would be read as that file: a newline keeps
            # it text, so that nothing outside the roots is read by a name
            draft: str | Path
            if text is not None:
                draft = text if "\n" in text else text + "\n"
            else:
                draft = self.roots.path(draft_file or "", "draft")
            opened = self._library(library)
            with opened.lock:
                report = registry.create("doors", "papers").verify(draft, opened.library)
            return _report_result(report)

        return _guarded(check)

    def papers_add(
        self,
        files: Annotated[
            Sequence[str],
            Field(
                description="paper files: PDF, Markdown or text with [PAGE:N] markers or form "
                "feeds, docling JSON"
            ),
        ] = (),
        bibliographies: Annotated[
            Sequence[str],
            Field(
                description="BibTeX (.bib) or CSL JSON bibliographies: their entries, and the "
                "paper each entry's file field names"
            ),
        ] = (),
        key: Annotated[
            str | None, Field(description="the key of the one paper given (default: its name)")
        ] = None,
        library: Annotated[
            str | None,
            Field(
                description="the library's folder, created on the first add (default: the one "
                "the server was started with)"
            ),
        ] = None,
    ) -> Annotated[CallToolResult, AddOut]:
        """Add papers and bibliographies to a paper library, each in turn: one that cannot
        be added is named with the reason, and the others are still added (the call is then
        an error). A paper added again unchanged changes nothing."""

        def add() -> CallToolResult:
            if not files and not bibliographies:
                raise InputError("give at least one paper file or bibliography")
            if key is not None and len(files) != 1:
                raise InputError("key names one paper: give exactly one file with it")
            papers = [self.roots.path(f, "paper") for f in files]
            bibs = [self.roots.path(b, "bibliography") for b in bibliographies]
            for bib in bibs:
                self._check_entry_files(bib)
            opened = self._library(library, existing=False)
            added: list[dict[str, Any]] = []
            imported: list[dict[str, Any]] = []
            with opened.lock:
                for bib in bibs:
                    try:
                        done = opened.library.add_bibliography(bib)
                    except (CitecheckError, OSError) as exc:
                        imported.append({"file": str(bib), "error": str(exc)})
                        continue
                    imported.append(
                        {
                            "file": str(bib),
                            "keys": list(done.keys),
                            "added": list(done.added),
                            "warnings": list(done.warnings),
                        }
                    )
                for paper in papers:
                    try:
                        stored = opened.library.add(paper, key)
                    except (CitecheckError, OSError) as exc:
                        added.append({"file": str(paper), "key": None, "error": str(exc)})
                        continue
                    pages = len(opened.library.pages(stored))
                    added.append({"file": str(paper), "key": stored, "pages": pages})
            lines = [
                f"{b['file']}: {b['error']}"
                if "error" in b
                else f"{b['file']}: {len(b['keys'])} entries, {len(b['added'])} papers read"
                for b in imported
            ]
            lines += [f"warning: {w}" for b in imported for w in b.get("warnings", ())]
            lines += [
                f"{p['file']}: {p['error']}"
                if "error" in p
                else f"{p['file']}: {p['key']}, {p['pages']} pages"
                for p in added
            ]
            failed = any("error" in item for item in [*added, *imported])
            data = {
                "library": str(opened.library.path),
                "papers": added,
                "bibliographies": imported,
            }
            return _result("\n".join(lines), data, error=failed)

        return _guarded(add)

    # -- shared steps --------------------------------------------------------------------

    def _text(self, text: str | None, file: str | None, name: str) -> str:
        """The text given, or the text of the file given (confined), exactly one of them."""
        if (text is None) == (file is None):
            raise InputError(f"give the text as text or as {name} (one of them)")
        if text is not None:
            return text
        from citecheck.documents.files import decode_text

        path = self.roots.path(file or "", name.replace("_", " "))
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
        return decode_text(raw, path)

    def _library(self, given: str | None, *, existing: bool = True) -> _Opened:
        """The paper library named (confined), else the server's; opened once and kept. One
        that must exist and does not is an error saying to add papers first."""
        if given is not None:
            folder = self.roots.path(given, "library")
        elif self.library is not None:
            folder = self.library
        else:
            raise InputError(
                "no paper library: name its folder (library) or start the server with --library"
            )
        folder = _resolved(folder)
        if existing and not (folder / "manifest.json").is_file():
            from citecheck.papers import PaperLibrary

            if not folder.is_dir():
                raise InputError(f"no library at {folder}: add papers to it first (papers_add)")
            PaperLibrary(folder, embedder=None)  # names a lost manifest or a foreign folder
            raise InputError(
                f"{folder} is not a paper library: it has no manifest.json (add papers to it "
                "first, or give the folder that holds manifest.json)"
            )
        with self._opening:
            opened = self._libraries.get(folder)
            if opened is None:
                opened = self._libraries[folder] = _Opened(self._open(folder))
            return opened

    def _open(self, folder: Path) -> PaperLibrary:
        from citecheck.papers import PaperLibrary

        embedder = embedder_named(self.embedder, default_cache_dir())
        return PaperLibrary(folder, embedder=embedder)

    def _check_entry_files(self, bib: Path) -> None:
        """Every file the bibliography's entries name lies inside the roots: the library reads
        them, and an entry may name any path."""
        from citecheck.documents.bibliography import read_bibliography
        from citecheck.papers.library_bibliography import entry_file

        for entry in read_bibliography(bib):
            file = entry_file(bib, entry.file)
            if file is not None and not self.roots.allows(file):
                raise OutsideRoots(
                    f"the entry {entry.key!r} of {bib} names {file}, outside the folders this "
                    f"server may use ({self.roots}): nothing was added"
                )


# -- answers ------------------------------------------------------------------------------


def _guarded(answer: Callable[[], CallToolResult]) -> CallToolResult:
    """The tool's answer; what went wrong is raised as the SDK's ``ToolError`` with the
    message, which the SDK answers as a tool error (``isError``) and the server goes on:
    citecheck's errors, files that cannot be read and bad values are the caller's to fix."""
    try:
        return answer()
    except (CitecheckError, OSError, UnicodeError, ValueError) as exc:
        message = without_surrogates(str(exc))
    except RecursionError:
        message = "the input is nested too deeply to read"
    raise _sdk_part("exceptions").ToolError(message) from None


def _report_result(report: Report) -> CallToolResult:
    """The report as structured content (its JSON) and its short verdict as text."""
    return _result(verdict(report), report.to_dict())


def _result(text: str, data: Mapping[str, Any] | None, *, error: bool = False) -> CallToolResult:
    """A tool's answer: ``text`` for the model, ``data`` as structured content. Built from
    the wire names, which both SDK lines (1.x and 2.x) read."""
    payload: dict[str, Any] = {
        "content": [{"type": "text", "text": without_surrogates(text)}],
        "isError": error,
    }
    if data is not None:
        payload["structuredContent"] = _writable(data)
    return CallToolResult.model_validate(payload)


def _writable(data: Mapping[str, Any]) -> Any:
    """``data`` as it can go on the wire: a lone surrogate (which UTF-8 cannot encode, and
    which would stop the server's writer) shown as U+FFFD; the data as it is when it has none,
    which is nearly always."""
    if not SURROGATE.search(json.dumps(data, ensure_ascii=False)):
        return data
    return _cleaned(data)


def _cleaned(value: Any) -> Any:
    if isinstance(value, str):
        return without_surrogates(value)
    if isinstance(value, Mapping):
        return {_cleaned(k): _cleaned(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_cleaned(v) for v in value]
    return value


def _paper(library: PaperLibrary, key: str) -> dict[str, Any]:
    meta = library.metadata(key)
    labels = meta.page_labels
    return {
        "key": key,
        "title": meta.title,
        "authors": list(meta.authors),
        "year": meta.year,
        "format": meta.format,
        "pages": f"pp. {labels[0]}-{labels[-1]}" if labels else "",
    }


def _passage(found: Any) -> dict[str, Any]:
    """A search hit or a quote as JSON: its fields, and its pages as a citation writes them."""
    from dataclasses import asdict

    return {**asdict(found), "pages": found.pages}


def _numbers(spec: Mapping[str, str], documents: SourceFiles) -> dict[str, str]:
    """``{"1": "smith.pdf"}``: number → source id; a source is named by its file name or its
    id (the file name without the extension)."""
    by_name = {d.id: d.id for d in documents}
    by_name.update(
        {Path(str(d.metadata["path"])).name: d.id for d in documents if "path" in d.metadata}
    )
    numbers = {}
    for number, name in spec.items():
        if not str(number).strip().isdigit():
            raise InputError(f"numeric_sources: {number!r} is not a number")
        if name not in by_name:
            known = ", ".join(sorted(by_name))
            raise InputError(f"numeric_sources: {name!r} is not one of the sources ({known})")
        numbers[str(number).strip()] = by_name[name]
    return numbers


# -- the server ---------------------------------------------------------------------------


def _sdk_part(name: str = "") -> Any:
    """The SDK's server package, or a module of it: ``mcp.server.mcpserver`` (mcp 2.x), else
    ``mcp.server.fastmcp`` (mcp 1.2x), which hold the same server under two names."""
    try:
        base = importlib.import_module("mcp.server.mcpserver")
    except ImportError:
        base = importlib.import_module("mcp.server.fastmcp")
    return importlib.import_module(f"{base.__name__}.{name}") if name else base


INSTRUCTIONS = (
    "citecheck verifies citations. verify_answer checks the citations of a text against source "
    "files ([[id:p12]], [@key, p. 3], [1], (Smith 2020)); verify_quotes locates quotes in "
    "sources; verify_references checks structured references (Bible verses, the Valmiki "
    "Ramayana). The papers_* tools search, cite and check claims and drafts against a paper "
    "library with printed page numbers, and add papers to it. Every tool answers with the "
    "report's JSON and a short verdict; paths must lie inside the folders the server was "
    "started with."
)


def _judge(name: str) -> Any:
    """The judge a call names: ``auto``, ``none`` or a known judge's name."""
    from citecheck.judging.known import judge_named

    return judge_named(name)


def build_server(
    roots: Iterable[str | PathLike[str]],
    library: str | PathLike[str] | None = None,
    *,
    embedder: EmbedderName = "auto",
) -> Any:
    """The MCP server (the SDK's ``MCPServer``, or ``FastMCP`` under mcp 1.2x) with every tool
    of :data:`TOOLS`, confined to ``roots`` (existing folders); ``library`` is the paper
    library the papers tools use when a call names none, opened with ``embedder``. The library
    counts as a root, and need not exist yet: ``papers_add`` makes it."""
    if embedder not in EMBEDDERS:
        raise ConfigError(f"embedder must be one of {', '.join(EMBEDDERS)}, not {embedder!r}")
    allowed = Roots.of(roots)
    chosen = None if library is None else Path(library).expanduser().resolve()
    if chosen is not None and not allowed.allows(chosen):
        allowed = Roots((*allowed.folders, chosen))
    tools = CitecheckTools(allowed, chosen, embedder)
    sdk = _sdk_part()
    server_class = getattr(sdk, "MCPServer", None) or sdk.FastMCP
    options: dict[str, Any] = {"instructions": INSTRUCTIONS}
    if "version" in inspect.signature(server_class).parameters:
        from citecheck._version import __version__

        options["version"] = __version__
    server = server_class(SERVER_NAME, **options)
    for name in TOOLS:
        method = getattr(tools, name)
        server.add_tool(
            method, name=name, description=inspect.getdoc(method), annotations=_hints(name)
        )
    return server


def _hints(name: str) -> ToolAnnotations:
    """What a client may assume of a tool: every one works offline (no open world), and all
    but ``papers_add`` only read; adding the same paper again changes nothing. Built from the
    wire names, which both SDK lines read."""
    writes = name == "papers_add"
    return ToolAnnotations.model_validate(
        {
            "readOnlyHint": not writes,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
        }
    )


def run(
    roots: Iterable[str | PathLike[str]],
    library: str | PathLike[str] | None = None,
    *,
    embedder: EmbedderName = "auto",
) -> None:
    """Serve the tools over stdio until the client closes the connection."""
    server = build_server(roots, library, embedder=embedder)
    try:
        server.run("stdio")
    finally:
        if sys.stdout is not None and sys.stdout.closed:  # mcp 1.x closes it as it stops
            sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - kept to exit
