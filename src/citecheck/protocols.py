"""The contracts, all in one place. Each is one or two methods, or a few attributes.

The design's three: :class:`Citation` and :class:`Location` (what any citation and any location
must offer, so a plugin's own types work wherever citecheck's do) and :class:`Verifier`, the
*door*: anything that takes a text or items, and sources, and returns one
:class:`~citecheck.Report`. Then the backends: :class:`Matcher`, :class:`CitationSyntax`,
:class:`Embedder`, :class:`Judge`, :class:`Index`, :class:`ReferenceCatalog` and
:class:`Format`. Third-party ones register under the entry-point groups ``citecheck.doors``,
``citecheck.matchers``, ``citecheck.syntaxes``, ``citecheck.indexes``, ``citecheck.schemes``
and ``citecheck.formats`` (:mod:`citecheck.registry`); :mod:`citecheck.testing` has
conformance suites that check an implementation against its contract.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:
    from pathlib import Path

    from citecheck.documents import Document
    from citecheck.indexes.filters import Filter
    from citecheck.indexes.records import Hit, Record
    from citecheck.model import Evidence, Marker, Presence, Span, StructuredReference
    from citecheck.report import Report

__all__ = [
    "Citation",
    "CitationSyntax",
    "Embedder",
    "Format",
    "Index",
    "Judge",
    "Location",
    "Matcher",
    "NamesBy",
    "ReferenceCatalog",
    "TokenLimited",
    "Verifier",
]


@runtime_checkable
class Location(Protocol):
    """Where in a source a citation points: what :meth:`~citecheck.Document.resolve` reads.

    ``kind`` is ``"lines"``, ``"page"``, ``"section"``, ``"chars"``, ``"paragraph"``,
    ``"time"`` or ``"general"``; ``start`` and ``end`` bound it (inclusive, except ``chars``, a
    Python slice), ``name`` is a section's slug or title. :class:`citecheck.Location` is one;
    any object with these four attributes is read the same way.
    """

    @property
    def kind(self) -> str: ...

    @property
    def start(self) -> int | None: ...

    @property
    def end(self) -> int | None: ...

    @property
    def name(self) -> str | None: ...


@runtime_checkable
class Citation(Protocol):
    """One citation: the source it names, where in it, and what it says stands there.

    ``excerpt`` is text claimed to stand there verbatim, ``claim`` the statement the citation
    backs; ``locator`` the location as written, ``location`` the parsed one (``None`` when it
    could not be read: the place is then unchecked). :class:`citecheck.Citation` is one;
    :meth:`citecheck.Verifier.check` takes any object with these attributes.
    """

    @property
    def source_id(self) -> str: ...

    @property
    def location(self) -> Location | None: ...

    @property
    def excerpt(self) -> str | None: ...

    @property
    def claim(self) -> str | None: ...

    @property
    def locator(self) -> str | None: ...


@runtime_checkable
class Verifier(Protocol):
    """A door: takes a text or items, and sources, and returns one :class:`~citecheck.Report`.

    ``name`` is its name in the registry's ``doors`` group (``markers``, ``quotes``,
    ``references``, ``records``, ``papers``); ``takes`` says what ``subject`` is: ``"text"``,
    one text whose citations are checked (a report per text), or ``"items"``, a sequence
    checked together (quotes, records: one or more results per item, in order, each naming
    its item's position in ``details[item_detail]``; ``item_detail`` is ``None`` for a door of
    texts). ``sources`` is what the door checks against (documents, a catalog, a paper
    library), or ``None`` for a door whose items carry their own or that was built with them.
    Every door reports a failure of one citation or item as that result's ``UNCHECKED``
    status and goes on, and never changes what it was given. :class:`citecheck.Verifier` is
    the door of citation markers.
    """

    @property
    def name(self) -> str: ...

    @property
    def takes(self) -> Literal["text", "items"]: ...

    @property
    def item_detail(self) -> str | None: ...

    def verify(self, subject: Any, sources: Any, /) -> Report:
        """Check every citation of ``subject`` against ``sources``: one report."""
        ...


@runtime_checkable
class Matcher(Protocol):
    """Finds where a piece of text stands in a document.

    ``find`` returns evidence best first, each with offsets into ``document.text`` inside
    ``within`` (the whole document when ``None``) and a score in [0, 1]; an empty list when the
    text is not there. Matchers know nothing of citations or verdicts.
    """

    name: str

    def find(
        self, query: str, document: Document, within: Span | None = None
    ) -> Sequence[Evidence]:
        """Evidence for ``query`` in ``document`` (inside ``within``), best first."""
        ...


NamesBy = Literal["key", "number", "author_year"]
"""What a syntax's cited name is (``names_by``): a source ``key``, a ``number`` of the text's
reference list, or an ``author_year`` to look up in a bibliography."""


@runtime_checkable
class CitationSyntax(Protocol):
    """Recognises one way of writing citation markers (``[[ctx-1:L4]]``, ``[@key, p. 3]``, ``[1]``).

    ``scan`` yields the markers in ``text`` with their spans and the sources they name, in text
    order. Syntaxes know nothing of excerpts, claims or matching. A syntax may also say how a
    reader writes a cited key (``cited_as``, a format string such as ``"[{}]"``) and what its
    cited names are (``names_by``: :data:`NamesBy`; a source ``key`` when it does not say),
    which is all the verifier needs to resolve its citations: a syntax is one module and a
    line in the registry.
    """

    name: str

    def scan(self, text: str) -> Iterable[Marker]:
        """The markers in ``text``, in order; malformed ones carry an ``error``."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors; any LangChain ``Embeddings`` object fits unchanged.

    Vectors may be lists or numpy arrays; citecheck compares them by cosine similarity. An
    embedder that reads only so many tokens of a text says so by being :class:`TokenLimited`
    as well; one that does not is assumed to read 254 (see :func:`~citecheck.embedders.
    token_budget`).
    """

    def embed_documents(self, texts: list[str]) -> Sequence[Sequence[float]]:
        """One vector per text, in order."""
        ...

    def embed_query(self, text: str) -> Sequence[float]:
        """The vector of one query text."""
        ...


@runtime_checkable
class TokenLimited(Protocol):
    """An embedder that says how much of a text it reads; optional, and both parts are.

    A model reads at most ``max_tokens`` tokens of a text (its own markers, such as ``[CLS]``,
    not counted) and drops the rest without a word. Knowing the limit, citecheck never hands it
    more: a longer source passage is cut into overlapping windows that fit, and a longer query
    is embedded as the mean of its windows. ``token_spans`` counts as the model does: each
    text's tokens as ``(start, end)`` character spans, in order. Without it citecheck measures
    with :func:`~citecheck.language.tokens.estimate_token_spans`, which overcounts.
    """

    max_tokens: int

    def token_spans(self, texts: Sequence[str]) -> Sequence[Sequence[tuple[int, int]]]:
        """The tokens of each text, as character spans in it."""
        ...


@runtime_checkable
class Judge(Protocol):
    """Says how likely a passage supports a claim: a probability in [0, 1].

    Any callable ``(claim, evidence) -> float`` fits: an NLI model
    (:class:`~citecheck.judging.judges.CrossEncoderJudge`), an LLM call
    (:class:`~citecheck.judging.judges.CallableJudge`), a rule. Judges know nothing of documents.
    """

    def __call__(self, claim: str, evidence: str) -> float:
        """The probability that ``evidence`` supports ``claim``."""
        ...


@runtime_checkable
class Index(Protocol):
    """Stores vectors with metadata and finds the nearest ones; knows nothing of verdicts.

    Every backend checks records and filters the same way before writing anything
    (:mod:`citecheck.indexes.records`, :mod:`citecheck.indexes.filters`: Pinecone's metadata
    rules and filter language), and gives metadata back with the types written. ``dimension``
    is ``None`` until the first upsert when it was not given.
    """

    name: str
    dimension: int | None
    metric: str

    def upsert(self, records: Iterable[Record]) -> int:
        """Add or replace ``records`` (all checked first); the number written."""
        ...

    def search(
        self, vector: Sequence[float], k: int = 10, filter: Filter | None = None
    ) -> list[Hit]:
        """The ``k`` records closest to ``vector`` that pass ``filter``, closest first."""
        ...

    def fetch(self, ids: Iterable[str]) -> dict[str, Record]:
        """The records with these ids; ids not in the index are left out."""
        ...

    def delete(self, ids: Iterable[str] | None = None, *, filter: Filter | None = None) -> None:
        """Remove the records with these ids, or those passing ``filter`` (exactly one)."""
        ...

    def count(self) -> int:
        """How many records the index holds."""
        ...


@runtime_checkable
class ReferenceCatalog(Protocol):
    """Says which structured references exist (``Bala 1.5``, ``John 3:16``), many at a time.

    ``lookup`` answers for every reference given, in one batch where the backend allows:
    :class:`~citecheck.model.Presence` ``exists`` True, False (with a reason such as
    "Bala sarga 1 has 100 shlokas") or ``None`` when it could not check, and the text standing
    there when it has it. Built in: a structure map, any :class:`Index`, ``pythonbible``.
    """

    name: str

    def lookup(
        self, references: Sequence[StructuredReference]
    ) -> Mapping[StructuredReference, Presence]:
        """The presence of each reference."""
        ...


@runtime_checkable
class Format(Protocol):
    """A file format a :class:`~citecheck.Report` is written in (``md``, ``html``, ``junit``).

    ``name`` is what ``--format`` and ``Report.save(path, format)`` call it; ``suffixes`` the
    file suffixes it is chosen by, lower case with the dot, the first the one it writes;
    ``binary`` is true for a format that is a file and not text (``xlsx``). Registered in the
    ``formats`` group (entry points ``citecheck.formats``); formats know nothing of
    verification.
    """

    name: str
    suffixes: tuple[str, ...]
    binary: bool

    def render(self, report: Report) -> str:
        """The report as this format's text (a binary format raises ``ConfigError``)."""
        ...

    def write(self, report: Report, path: Path) -> None:
        """Write the report to ``path`` whole: a reader never sees half a file."""
        ...
