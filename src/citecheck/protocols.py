"""The contracts a backend fulfils, all in one place. Each is one or two methods.

Third-party backends implement these and register under the entry-point groups
``citecheck.matchers``, ``citecheck.syntaxes`` and ``citecheck.indexes``;
:mod:`citecheck.testing` has conformance suites that check an implementation against the
contract.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from citecheck.documents import Document
    from citecheck.indexes.filters import Filter
    from citecheck.indexes.records import Hit, Record
    from citecheck.model import Evidence, Marker, Presence, Span, StructuredReference

__all__ = [
    "CitationSyntax",
    "Embedder",
    "Index",
    "Judge",
    "Matcher",
    "ReferenceCatalog",
    "TokenLimited",
]


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


@runtime_checkable
class CitationSyntax(Protocol):
    """Recognises one way of writing citation markers (``[[ctx-1:L4]]``, ``[@key, p. 3]``, ``[1]``).

    ``scan`` yields the markers in ``text`` with their spans and the sources they name, in text
    order. Syntaxes know nothing of excerpts, claims or matching.
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
