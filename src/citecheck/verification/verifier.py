"""The cascade that turns each citation into a verdict.

For every citation: resolve the source → resolve the location → match the excerpt (or claim)
there → if it is not there, search the rest of that source and the other sources → decide the
status, confidence and reason. Matchers run cheap-first (exact before fuzzy) and the cascade
stops at the first one that finds the text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Unpack

from citecheck import registry
from citecheck._identity_cache import IdentityCache
from citecheck.documents import Document, Sources, as_documents
from citecheck.documents.bibliography import Bibliography, BibliographySpec, read_bibliography
from citecheck.documents.files import SourceFiles
from citecheck.documents.foreign import Gathered, adopt
from citecheck.errors import (
    BackendError,
    CitecheckError,
    ConfigError,
    InputError,
    LocationError,
    LocationKindError,
)
from citecheck.judging import verdict
from citecheck.judging.support import Assessment, Grade, SupportAssessor
from citecheck.judging.support_model import FITTED_SUPPORT_MODEL, SupportModel
from citecheck.language.meaning import differences_at, noun_for
from citecheck.locations import Location
from citecheck.matchers.ellipsis import match_fragments, split_fragments
from citecheck.matchers.word_index import WordIndex
from citecheck.model import Citation, Evidence, Result, Span, Status, as_citation
from citecheck.protocols import Citation as CitationLike
from citecheck.protocols import Embedder, Judge, Matcher
from citecheck.report import DEFAULT_ACCEPTED, Report
from citecheck.verification.options import (
    PROTOCOLS,
    VerifierConfig,
    VerifyOptions,
    VerifyProtocol,
)
from citecheck.verification.resolution import Resolved, SourceResolver, Unresolved, known_ids

if TYPE_CHECKING:
    from citecheck.indexes.corpus import Corpus
from citecheck.judging.guard import (
    ABSENT,
    claim_conflicts,
    denies,
    leading_denial,
    sentence_around,
    stranger_names,
    swapped_names,
)
from citecheck.language.meaning import STOP_WORDS
from citecheck.language.text import WORD, normalize
from citecheck.syntax.excerpts import REPORTING_VERBS
from citecheck.syntax.extract import extract_text
from citecheck.thresholds import WORDS_VERIFIED

__all__ = ["Verifier"]

_MAX_EVIDENCE = 5
_KEPT_INDEXES = 4  # word indexes of document sets, kept between calls
_THRESHOLDED = frozenset({"fuzzy", "bm25", "overlap"})  # built-in matchers that take ``threshold``


@dataclass(frozen=True, slots=True)
class _Place:
    """A citation's place in its source: the location, its span, and how reasons name it
    (``cited``: "lines 3-4 of 'a'"; ``words``: "at lines 3-4 of 'a'")."""

    location: Location | None
    span: Span
    cited: str
    words: str


@dataclass(frozen=True, slots=True)
class _Match:
    """What the matchers found for one text in one place."""

    evidence: tuple[Evidence, ...] = ()
    differences: tuple[str, ...] = ()
    fragments: int = 1
    fragments_found: int = 0

    @property
    def found(self) -> bool:
        return bool(self.evidence)


@dataclass(frozen=True, slots=True)
class _PastTheEnd:
    """A page that the lines-a-page approximation puts past the end of a text, and why."""

    why: str


class Verifier:
    """A reusable, configured verifier; :func:`citecheck.verify` is a one-shot over it.

    ``matchers`` run in order, cheap first: names (``"exact"``, ``"fuzzy"``, ``"bm25"``,
    ``"overlap"``) or objects with a ``find`` method. ``threshold`` is the similarity the
    ``fuzzy``, ``bm25`` and ``overlap`` matchers need when they are given by name. ``accept``
    is the set of statuses that pass; ``require_citations`` fails a text that cites nothing.
    ``numeric_sources`` maps numeric markers (``[1]``) to source ids: a mapping ``{"1":
    "smith2020"}`` or a sequence whose first id is ``[1]``; without it, ``[n]`` is the source
    with id ``n``, else the entry ``n`` of the text's reference list, else (a guess, named in a
    warning) the n-th source.
    ``bibliography`` (a ``.bib`` or CSL ``.json`` file, a mapping of key to fields, or a
    :class:`~citecheck.documents.bibliography.Bibliography`) resolves author–year citations and keys
    that are no source id, with the sources' own metadata (``author``, ``year``, ``title``,
    ``key``); see :mod:`citecheck.verification.resolution`. ``search_elsewhere`` looks for an
    excerpt missing at its location in the rest of the sources, to tell a wrong location from a
    fabricated quote. ``ellipsis_max_gap`` bounds the characters an ellipsis may stand for. A
    claim (text without quotation marks) of fewer than ``min_claim_words`` words, such as "See
    also [3]", is too short to check and is reported as ``UNCHECKED``; quoted excerpts are
    always checked.

    Claims are matched by their words first. With an ``embedder`` (or a ``judge``, or both), a
    claim whose words are not at the cited place is judged for support there
    (:class:`~citecheck.judging.support.SupportAssessor`): supported is ``VERIFIED``, partly
    supported ``PARTIAL``, supported only elsewhere ``WRONG_LOCATION``, else ``UNSUPPORTED``, each
    with the best sentences as evidence. Without a judge, ``support_model`` (fitted on public data,
    see :mod:`citecheck.judging.support_model`) turns the best sentence's cosine and the claim's
    words and numbers near it into a probability of support; ``support_model=None`` grades by the
    bare cosine. ``support_threshold`` and ``partial_threshold`` are the probability (0.55, 0.36
    with the fitted model; 0.5, 0.25 from a judge) or the cosine (0.6, 0.4) those grades need.
    ``judge="auto"`` (the default) is, with an embedder and the ``judge`` extra, citecheck's
    trained judge, which gives a second opinion that can only lower a grade
    (:mod:`citecheck.judging.support`); ``judge=None`` (or ``"none"``) leaves the grade to the
    signals; a known judge's name (``"minicheck-roberta-large"``, ``"nli:MODEL"``,
    ``"ollama:MODEL"``: :mod:`citecheck.judging.known`) loads that judge, under the same
    meaning guard.

    A page cited in a source without page numbers is read as the TIP protocol reads it, as
    ``lines_per_page`` lines a page (page 3 is lines 101-150), and every reason about it says
    the page was approximated; ``lines_per_page=None`` leaves such a page unchecked instead.

    With an ``index`` (a :class:`~citecheck.indexes.corpus.Corpus`), the documents it holds are
    sources too; a cited source the index holds but whose text this process never saw is
    ``UNCHECKED``, not ``NOT_FOUND``; and an excerpt or claim missing at its place is looked for
    elsewhere among the ``index_candidates`` chunks closest in meaning, not in every document.
    """

    name: ClassVar[str] = "markers"
    """Its name in the registry's ``doors`` group."""
    options_type: ClassVar[type[VerifierConfig]] = VerifierConfig
    """Its options type (every door's reads a mapping, a file, or options over a base)."""
    takes: ClassVar[Literal["text", "items"]] = "text"
    item_detail: ClassVar[str | None] = None

    def __init__(
        self,
        matchers: Sequence[str | Matcher] | None = None,
        *,
        protocol: VerifyProtocol = "citecheck",
        syntax: Any = "auto",
        threshold: float = WORDS_VERIFIED,
        accept: Iterable[Status | str] = DEFAULT_ACCEPTED,
        require_citations: bool = False,
        numeric_sources: Mapping[str, str] | Sequence[str] | None = None,
        bibliography: BibliographySpec | None = None,
        search_elsewhere: bool = True,
        ellipsis_max_gap: int = 2000,
        min_claim_words: int = 3,
        embedder: Embedder | None = None,
        judge: Judge | str | None = "auto",
        support_threshold: float | None = None,
        partial_threshold: float | None = None,
        support_model: SupportModel | None = FITTED_SUPPORT_MODEL,
        index: Corpus | None = None,
        index_candidates: int = 10,
        lines_per_page: int | None = 50,
    ) -> None:
        if not isinstance(threshold, int | float) or not 0.0 < threshold <= 1.0:
            raise ConfigError(f"threshold must be in (0, 1], got {threshold}")
        if protocol not in PROTOCOLS:
            raise ConfigError(f"protocol must be one of {', '.join(PROTOCOLS)}, got {protocol!r}")
        self.protocol: VerifyProtocol = protocol
        if matchers is None:
            matchers = PROTOCOLS[protocol]
        if isinstance(matchers, str):
            matchers = (matchers,)
        if not matchers:
            raise ConfigError("at least one matcher is needed")
        self.matchers: tuple[Matcher, ...] = tuple(
            registry.create(
                "matchers",
                m,
                **({"threshold": threshold} if isinstance(m, str) and m in _THRESHOLDED else {}),
            )
            for m in matchers
        )
        self.syntax = syntax
        try:
            self.accept = frozenset(Status(s) for s in accept)
        except ValueError as exc:
            raise ConfigError(f"accept: {exc}; statuses are {[s.value for s in Status]}") from None
        self.require_citations = require_citations
        self.numeric_sources = _numeric_map(numeric_sources)
        self.bibliography: Bibliography | None = (
            None if bibliography is None else read_bibliography(bibliography)
        )
        self.search_elsewhere = search_elsewhere
        if ellipsis_max_gap < 0:
            raise ConfigError(f"ellipsis_max_gap must be >= 0, got {ellipsis_max_gap}")
        self.ellipsis_max_gap = ellipsis_max_gap
        if min_claim_words < 0:
            raise ConfigError(f"min_claim_words must be >= 0, got {min_claim_words}")
        self.min_claim_words = min_claim_words
        if index_candidates < 1:
            raise ConfigError(f"index_candidates must be positive, got {index_candidates}")
        self.index = index
        self.index_candidates = index_candidates
        if lines_per_page is not None and (
            isinstance(lines_per_page, bool) or not isinstance(lines_per_page, int)
        ):
            raise ConfigError(f"lines_per_page must be an integer or None, got {lines_per_page!r}")
        if lines_per_page is not None and lines_per_page < 1:
            raise ConfigError(f"lines_per_page must be positive, got {lines_per_page}")
        self.lines_per_page = lines_per_page
        self._word_indexes: IdentityCache[WordIndex] = IdentityCache(_KEPT_INDEXES)
        self.support = (
            None
            if embedder is None and judge in (None, "auto", "none")
            else SupportAssessor(
                embedder,
                judge,
                supported=support_threshold,
                partial=partial_threshold,
                model=support_model,
            )
        )

    @classmethod
    def from_config(
        cls,
        config: VerifierConfig | Mapping[str, Any] | str | Path | None = None,
        **options: Unpack[VerifyOptions],
    ) -> Verifier:
        """A verifier from its options type, a mapping or a TOML / YAML / JSON file, keyword
        ``options`` over it: how every door is built from its options
        (:class:`~citecheck.verification.options.VerifierConfig`)."""
        return cls(**VerifierConfig.merged(config, options).to_dict())

    def __repr__(self) -> str:
        names = ", ".join(m.name for m in self.matchers)
        return f"Verifier(matchers=({names}), accept={sorted(s.value for s in self.accept)})"

    # -- public -------------------------------------------------------------------------------

    def verify(
        self,
        text: str,
        sources: Sources,
        *,
        progress: Callable[[int, int], None] | None = None,
    ) -> Report:
        """Check every citation in ``text`` against ``sources``; one result per citation.
        ``progress(done, total)`` is called after each citation (the command line's bar)."""
        if not isinstance(text, str):
            raise InputError(f"text must be str, got {type(text).__name__}")
        sources = adopt(sources)
        documents = as_documents(sources)
        if self.index is not None:
            documents = {**self.index.documents, **documents}
        # Files that load_paths could not read exist: their citations are unchecked, not phantoms.
        unreadable = {
            skipped.id: skipped.reason
            for skipped in (sources.skipped if isinstance(sources, SourceFiles) else ())
            if skipped.id not in documents
        }
        extraction = extract_text(
            text, self.syntax, known_ids=known_ids(documents, self.bibliography)
        )
        citations = extraction.citations
        resolver = SourceResolver(
            documents,
            bibliography=self.bibliography,
            numbers=self.numeric_sources,
            reference_list=extraction.reference_list,
            sources_given=bool(documents) or bool(unreadable) or self.index is not None,
            order=sources.order if isinstance(sources, Gathered) else None,
        )
        warnings = [
            *(sources.warnings if isinstance(sources, SourceFiles | Gathered) else ()),
            *extraction.warnings,
        ]
        if self.bibliography is not None:
            warnings += self.bibliography.warnings
        if self.require_citations and not citations:
            warnings.append("the text has no citations, and citations are required")
        sources_of = [resolver.resolve(citation) for citation in citations]
        if self.support is not None:  # one batch for every claim rather than one call each
            with suppress(CitecheckError):  # a failing embedder: each claim reports it itself
                self._prefetch(citations, sources_of, documents)
        cache: dict[tuple[Any, ...], Result] = {}
        results = []
        for done, (citation, source) in enumerate(zip(citations, sources_of, strict=True), 1):
            results.append(self._resolved_check(citation, source, unreadable, documents, cache))
            if progress is not None:
                progress(done, len(citations))
        warnings += resolver.warnings
        return Report(
            tuple(results),
            tuple(warnings),
            self.accept,
            self.require_citations,
            mappings=tuple(resolver.mappings),
            kind="verify",
            text=text,
            unread=extraction.unread,
        )

    def _prefetch(
        self,
        citations: Sequence[Citation],
        sources_of: Sequence[Resolved | Unresolved],
        documents: Mapping[str, Document],
    ) -> None:
        """Embed, in one call, every claim the support engine will grade and the chunks of the
        documents they cite (those embedded whole: a long one is embedded claim by claim, as
        few of its chunks as the claim needs): a model embeds one large batch far faster than
        a few texts at a time, and a source met for the first time is most of the cost."""
        assert self.support is not None
        claimed = [
            (citation, source)
            for citation, source in zip(citations, sources_of, strict=True)
            if citation.claim and not citation.excerpt
        ]
        cited = {
            source.source_id: documents[source.source_id]
            for _, source in claimed
            if isinstance(source, Resolved) and source.source_id in documents
        }
        self.support.prefetch([c.claim for c, _ in claimed if c.claim], list(cited.values()))

    def _resolved_check(
        self,
        citation: Citation,
        source: Resolved | Unresolved,
        unreadable: Mapping[str, str],
        documents: Mapping[str, Document],
        cache: dict[tuple[Any, ...], Result],
    ) -> Result:
        """The verdict on one citation of a text, its source resolved (a source that could not
        be read is unchecked, never a phantom), the same citation checked once."""
        cited = source.source_id if isinstance(source, Resolved) else citation.source_id
        if cited in unreadable and cited not in documents:
            reason = f"the cited source could not be read: {unreadable[cited]}"
            return verdict.result(citation, Status.UNCHECKED, reason)
        if isinstance(source, Unresolved):
            return verdict.result(citation, source.status, source.reason)
        checked = replace(citation, source_id=source.source_id)
        key = (
            checked.source_id,
            checked.syntax,
            checked.locator,
            bool(checked.excerpt),
            checked.checked_text,
        )
        if key not in cache:
            cache[key] = self.check(checked, documents)
        return replace(cache[key], citation=citation)

    def prepare(self, sources: Sources) -> dict[str, Document]:
        """The documents of ``sources``, with what checking them needs built now instead of on
        first use: their normalised text, lines and pages, and (when this verifier searches
        elsewhere) the word index of all of them together. Pass the result to every
        :meth:`verify` call: the index is kept for those same documents, so a service pays for
        it once at start rather than in its first requests."""
        documents = as_documents(sources)
        for document in documents.values():
            _ = document.normalized, document.line_starts, document.page_list
        if self.search_elsewhere and self.index is None:
            self._word_index(documents).build()
        return documents

    def check(self, citation: CitationLike, documents: Mapping[str, Document]) -> Result:
        """The verdict on one citation against documents by id. ``citation`` is a
        :class:`~citecheck.Citation` or any object with the attributes of the
        :class:`~citecheck.protocols.Citation` contract (a plugin's own type)."""
        citation = as_citation(citation)
        try:
            return self._check(citation, documents)
        except BackendError as exc:
            return verdict.result(citation, Status.UNCHECKED, f"could not check: {exc}")
        except Exception as exc:  # a plug-in's failure must not sink the other citations
            reason = f"could not check: a backend failed ({type(exc).__name__}: {exc})"
            return verdict.result(citation, Status.UNCHECKED, reason)

    def locate(self, quote: str, sources: Sources) -> list[Evidence]:
        """Where ``quote`` stands in any of ``sources``, best first (empty when nowhere)."""
        if not isinstance(quote, str):
            raise InputError(f"quote must be str, got {type(quote).__name__}")
        found: list[Evidence] = []
        for document in as_documents(sources).values():
            found.extend(self._match(quote, document, None, quoted=True).evidence)
        return sorted(found, key=lambda e: -e.score)

    # -- the cascade ------------------------------------------------------------------------

    def _check(self, citation: Citation, documents: Mapping[str, Document]) -> Result:
        """Source, then place, then the text at the place (or elsewhere), then the verdict."""
        document = self._source(citation, documents)
        if document is None:
            return self._missing_source(citation, documents)
        if citation.locator and citation.location is None:
            why = f"the location {citation.locator!r} is not one citecheck can read"
            return self._unplaceable(citation, document, why)
        place = self._place(citation, document)
        if isinstance(place, Result):
            return place
        query = citation.checked_text or ""
        noun = "excerpt" if citation.excerpt else "claim"
        if not any(ch.isalnum() for ch in normalize(query)):
            reason = f"nothing to check: no excerpt or claim; {place.cited} exists"
            return verdict.result(citation, Status.UNCHECKED, reason)
        if noun == "claim" and len(WORD.findall(query)) < self.min_claim_words:
            reason = (
                f"the claim {query!r} is too short to check "
                f"(fewer than {self.min_claim_words} words); {place.cited} exists"
            )
            return verdict.result(citation, Status.UNCHECKED, reason)
        quoted = noun == "excerpt"
        here = self._match(query, document, place.span, quoted=quoted)
        if not quoted and self.support is not None and not (here.found and not here.differences):
            return self._judge_claim(citation, query, document, place, documents)
        here = self._widened(here, query, document, place, quoted=quoted)
        elsewhere = None
        if not here.found and not here.fragments_found:
            elsewhere = self._elsewhere(
                query, document, place.location is not None, documents, quoted=quoted
            )
            if elsewhere is not None and _inside(elsewhere.evidence[0], document, place.span):
                here, elsewhere = elsewhere, None  # the passage does overlap the cited place
        result = self._matched(citation, noun, here, elsewhere, document, place)
        if (
            quoted
            and result.status is Status.VERIFIED
            and citation.claim
            and result.evidence
            and result.evidence[0].source_id == document.id
        ):
            framing = _framing_changes(
                citation.claim, citation.excerpt or "", result.evidence[0], document
            )
            if framing:
                reason = (
                    f"{result.reason}, but the claim around it says what its sentence does "
                    "not: " + "; ".join(framing)
                )
                return verdict.result(citation, Status.PARTIAL, reason, result.evidence)
        return result

    def _missing_source(self, citation: Citation, documents: Mapping[str, Document]) -> Result:
        """A cited source that is not among the documents: a phantom, unless an index holds
        it (then its text was not given, and nothing could be checked)."""
        if self.index is not None and self.index.exists(citation.source_id):
            reason = (
                f"the cited source {citation.source_id!r} exists in the index, but its text "
                "was not given, so the excerpt could not be checked"
            )
            return verdict.result(citation, Status.UNCHECKED, reason)
        known = ", ".join(repr(k) for k in list(documents)[:10]) or "none"
        reason = f"the cited source {citation.source_id!r} does not exist (sources: {known})"
        return verdict.result(
            citation, Status.NOT_FOUND, reason + _nearest_source(citation.source_id, documents)
        )

    def _place(self, citation: Citation, document: Document) -> _Place | Result:
        """The span the citation's location covers in ``document`` and the words for it; a
        result instead when the place cannot be checked or does not exist."""
        location = citation.location
        approximation = ""
        try:
            span = document.resolve(location) if location else Span(0, len(document.text))
        except LocationKindError as exc:
            approximated = self._approximate_pages(document, location, str(exc))
            if isinstance(approximated, _PastTheEnd) and self.protocol == "tip":
                reason = f"the cited location does not exist: {approximated.why}"
                return verdict.result(citation, Status.NOT_FOUND, reason)
            if isinstance(approximated, _PastTheEnd):
                approximated = approximated.why
            if isinstance(approximated, str):
                return self._unplaceable(citation, document, approximated)
            span, approximation = approximated
        except LocationError as exc:
            reason = f"the cited location does not exist: {exc}"
            return verdict.result(citation, Status.NOT_FOUND, reason)
        cited = f"{location.describe()} of {document.id!r}" if location else repr(document.id)
        cited += approximation
        words = f"{location.preposition()} {cited}" if location else f"in {cited}"
        return _Place(location, span, cited, words)

    def _widened(
        self, here: _Match, query: str, document: Document, place: _Place, *, quoted: bool
    ) -> _Match:
        """A fuzzy match at a cited place, or a better one that runs past its edges but
        overlaps it (a passage running past the cited lines may match better than its cited
        part)."""
        if not here.found or here.evidence[0].method == "exact" or place.location is None:
            return here
        reach = len(query)
        span = place.span
        around = Span(max(0, span.start - reach), min(len(document.text), span.end + reach))
        wider = self._match(query, document, around, quoted=quoted, matchers=self.matchers[:1])
        return wider if wider.found and _inside(wider.evidence[0], document, span) else here

    def _matched(
        self,
        citation: Citation,
        noun: str,
        here: _Match,
        elsewhere: _Match | None,
        document: Document,
        place: _Place,
    ) -> Result:
        """The verdict on what the matchers found at the place, or elsewhere."""
        if here.found:
            status = verdict.match_status(here.differences)
            best = here.evidence[0]
            reason = (
                verdict.changed(noun, place.words, here.differences)
                if status is not Status.VERIFIED
                else verdict.overlaps(noun, place.words, best.score)
                if best.method == "overlap"
                else verdict.stands(noun, place.words, best.score, verbatim=best.method == "exact")
            )
            return verdict.result(citation, status, reason, here.evidence)
        if here.fragments_found:
            reason = verdict.fragments_partial(
                noun, here.fragments_found, here.fragments, place.words
            )
            share = here.fragments_found / here.fragments
            return verdict.result(citation, Status.PARTIAL, reason, score=share)
        if elsewhere is not None:
            best = elsewhere.evidence[0]
            same = best.source_id == document.id
            location = place.location
            reason = (
                f"found {verdict.where_found(best)}"
                + ("" if same else f" of {best.source_id!r}")
                + f", cited {location.describe() if location and same else repr(document.id)}"
            )
            if elsewhere.differences:
                reason += ", and only with a change of meaning: " + "; ".join(elsewhere.differences)
            return verdict.result(citation, Status.WRONG_LOCATION, reason, elsewhere.evidence)
        searched = " or anywhere in the sources" if self.search_elsewhere else ""
        checked = ", ".join(m.name for m in self.matchers)
        reason = f"the {noun} does not stand {place.words}{searched} (checked: {checked})"
        if noun == "claim" and self.support is None:  # words only: say how to weigh meaning
            return verdict.result(
                citation, Status.UNSUPPORTED, reason, details={"correction": dict(BY_MEANING)}
            )
        return verdict.result(citation, Status.UNSUPPORTED, reason)

    def _judge_claim(
        self,
        citation: Citation,
        claim: str,
        document: Document,
        place: _Place,
        documents: Mapping[str, Document],
    ) -> Result:
        """The semantic verdict on a claim whose words are not at the cited ``place``."""
        assert self.support is not None
        words = place.words
        here = self.support.assess(claim, document, place.span)
        if here is None:
            reason = f"{words} there is no text to support it"
            return verdict.result(citation, Status.UNSUPPORTED, reason)
        best = here.evidence[0]
        sentence = (
            here.detail
            if here.carried
            else f"the sentence {verdict.where_found(best)} has {here.detail}"
        )
        qualifying = _qualifying(here)
        if here.grade is Grade.SUPPORTED:
            reason = f"the claim is supported {words}: {sentence}"
            return verdict.result(
                citation,
                Status.VERIFIED,
                reason,
                here.evidence,
                score=here.score,
                details=qualifying,
            )
        if here.grade is Grade.PARTIAL:
            reason = f"the claim is only partly supported {words}: {sentence}"
            return verdict.result(
                citation,
                Status.PARTIAL,
                reason,
                here.evidence,
                score=here.score,
                details=qualifying,
            )
        if self.search_elsewhere:
            for other in _candidates(document, place.location is not None, documents):
                there = self.support.assess(claim, other, None)
                if there is not None and there.grade is Grade.SUPPORTED:
                    found = there.evidence[0]
                    same = found.source_id == document.id
                    reason = (
                        f"the claim is supported {verdict.where_found(found)}"
                        + ("" if same else f" of {found.source_id!r}")
                        + f" ({there.detail}), not {words}"
                    )
                    return verdict.result(
                        citation, Status.WRONG_LOCATION, reason, there.evidence, score=there.score
                    )
        searched = " or anywhere in the sources" if self.search_elsewhere else ""
        reason = (
            f"the claim is not supported {words}{searched}; the closest sentence, "
            f"{verdict.where_found(best)}, has {here.detail}"
        )
        return verdict.result(
            citation, Status.UNSUPPORTED, reason, here.evidence, details=qualifying
        )

    def _approximate_pages(
        self, document: Document, location: Location | None, why: str
    ) -> tuple[Span, str] | _PastTheEnd | str:
        """The lines a page of a text without page numbers stands for, by the TIP protocol's
        approximation of :attr:`lines_per_page` lines a page, with the words that say so; or,
        when no approximation applies, why the place cannot be checked; or a page the
        approximation puts past the text's end."""
        if location is None or location.kind != "pages" or self.lines_per_page is None:
            return why
        per_page = self.lines_per_page
        first = ((location.start or 1) - 1) * per_page + 1
        last = (location.end or 1) * per_page
        note = f"{document.id!r} has no page numbers, so the page is approximated as "
        if first > document.line_count:
            pages = max(1, -(-document.line_count // per_page))
            return _PastTheEnd(
                f"{note}lines {first}-{last} at {per_page} lines a page, "
                f"past its {document.line_count} lines ({pages} "
                f"page{'' if pages == 1 else 's'} at that length)"
            )
        lines = Location("lines", first, min(last, document.line_count))
        note += f"{lines.describe()} at {per_page} lines a page"
        return document.resolve(lines), f" ({note})"

    def _unplaceable(self, citation: Citation, document: Document, why: str) -> Result:
        """A citation whose place cannot be checked (``chap. 3``; a page of an unpaged text
        when pages are not approximated): never a phantom. The excerpt is looked for in the
        whole source: standing there, the citation is UNCHECKED with the evidence; standing
        there only with a change of meaning, PARTIAL; standing nowhere in it, UNSUPPORTED."""
        query = citation.checked_text
        if not query or not any(ch.isalnum() for ch in normalize(query)):
            return verdict.result(citation, Status.UNCHECKED, f"{why}; nothing else to check")
        kind = "excerpt" if citation.excerpt else "claim"
        found = self._match(query, document, None, quoted=kind == "excerpt")
        if found.found:
            where = verdict.where_found(found.evidence[0])
            reason = f"{why}; the {kind} stands {where} of {document.id!r}"
            if found.differences:
                reason += " only with a change of meaning: " + "; ".join(found.differences)
                return verdict.result(citation, Status.PARTIAL, reason, found.evidence)
            return verdict.result(citation, Status.UNCHECKED, reason, found.evidence)
        reason = f"{why}, and the {kind} stands nowhere in {document.id!r}"
        return verdict.result(citation, Status.UNSUPPORTED, reason)

    def _source(self, citation: Citation, documents: Mapping[str, Document]) -> Document | None:
        """The document ``citation`` means (:mod:`citecheck.verification.resolution`);
        :meth:`verify` has resolved it already, so this matters to a citation given to :meth:`check`
        directly."""
        if citation.source_id in documents:
            return documents[citation.source_id]
        resolver = SourceResolver(
            documents, bibliography=self.bibliography, numbers=self.numeric_sources
        )
        source = resolver.resolve(citation)
        return documents.get(source.source_id) if isinstance(source, Resolved) else None

    def _elsewhere(
        self,
        query: str,
        document: Document,
        located: bool,
        documents: Mapping[str, Document],
        *,
        quoted: bool,
    ) -> _Match | None:
        if not self.search_elsewhere:
            return None
        if self.index is not None:
            return self._elsewhere_in_index(query, document, located, documents, quoted=quoted)
        # An elided quote's fragments are matched one by one, so its words as a whole say
        # nothing of where it stands: every document is searched whole.
        index = None if len(split_fragments(query)) > 1 else self._word_index(documents)
        for matcher in self.matchers:  # cheap first across every document, then the next
            for candidate, within in _places(matcher, query, document, located, index, documents):
                match = self._match(query, candidate, within, quoted=quoted, matchers=(matcher,))
                if match.found:
                    return match
        return None

    def _word_index(self, documents: Mapping[str, Document]) -> WordIndex:
        """The word index of ``documents``, kept for the next calls with the same documents
        (the same objects)."""
        kept = tuple(documents.values())
        return self._word_indexes.get(kept, None, lambda: WordIndex(kept))

    def _elsewhere_in_index(
        self,
        query: str,
        document: Document,
        located: bool,
        documents: Mapping[str, Document],
        *,
        quoted: bool,
    ) -> _Match | None:
        """Match ``query`` around the chunks of the index closest to it in meaning: on a large
        corpus, far cheaper than running the matchers over every document."""
        assert self.index is not None
        for hit in self.index.search(query, k=self.index_candidates):
            candidate = documents.get(hit.source_id)
            if candidate is None or (candidate.id == document.id and not located):
                continue
            margin = len(query)
            around = Span(max(0, hit.start - margin), min(len(candidate.text), hit.end + margin))
            match = self._match(query, candidate, around, quoted=quoted)
            if match.found:
                return match
        return None

    def _match(
        self,
        query: str,
        document: Document,
        within: Span | None,
        *,
        quoted: bool,
        matchers: Sequence[Matcher] | None = None,
    ) -> _Match:
        """Match ``query`` in ``within`` with ``matchers`` (all, cheap first, by default); a
        ``quoted`` text must also keep the source's wording."""
        region = within or Span(0, len(document.text))
        cascade = self.matchers if matchers is None else matchers

        def find(text: str, document: Document, within: Span) -> Sequence[Evidence]:
            for matcher in cascade:
                hits = matcher.find(text, document, within)
                if hits:
                    return hits
            return ()

        fragments = split_fragments(query)
        if len(fragments) > 1:
            outcome = match_fragments(
                fragments, document, region, find, self.ellipsis_max_gap, quoted=quoted
            )
            if outcome.evidence is None:
                return _Match((), (), outcome.total, outcome.found)
            diffs = outcome.differences or _in_context(
                query, outcome.evidence, document, quoted=quoted
            )
            return _Match((outcome.evidence,), diffs, outcome.total, outcome.total)
        hits = find(query, document, region)
        if not hits:
            return _Match()
        best = hits[0]
        if best.method == "overlap":
            changes = _paraphrase_changes(query, best, document, noun=noun_for(quoted))
            return _Match(tuple(hits[:_MAX_EVIDENCE]), changes)
        diffs = (
            ()
            if best.method == "exact"
            else tuple(
                differences_at(
                    query,
                    document.text,
                    best.start,
                    best.end,
                    omissions=quoted,
                    noun=noun_for(quoted),
                )
            )
        ) or _in_context(query, best, document, quoted=quoted)
        return _Match(tuple(hits[:_MAX_EVIDENCE]), diffs, 1, 1)


def _paraphrase_changes(
    query: str, evidence: Evidence, document: Document, *, noun: str
) -> tuple[str, ...]:
    """The changes of meaning in a match by the TIP protocol's word-overlap rule. The rule
    counts words, not their order or form ("Substantially improved delivery times" stands for
    "We will improve delivery times substantially"), so a text it matches, quoted or not, is a
    paraphrase and is held to the meaning guard of one
    (:func:`~citecheck.judging.guard.claim_conflicts`): a number, a negation, a quantifier or
    a word of opposite meaning it changes, which the rule cannot see, makes it ``PARTIAL``."""
    before, after = sentence_around(document.text, evidence.start, evidence.end)
    passage = evidence.text
    changes = claim_conflicts(query, passage, before + passage + after)
    return tuple(change.replace("the claim", f"the {noun}") for change in changes)


def _framing_changes(
    claim: str, excerpt: str, evidence: Evidence, document: Document
) -> tuple[str, ...]:
    """The meaning guard over a claim that frames the quotation it cites, against the
    sentence the quotation stands in: a title quoted verbatim vouches for the title, not for
    the sentence around it ('Margot Robbie is not the actress who plays Harley Quinn in
    "Birds of Prey."' against a source that says she is). Only what the sentence says
    otherwise counts (a negation, a number, a quantifier, a direction, a name changed); what
    it does not say at all (a year of an author cited, a word of the writer's own) is no
    change. A quotation with no words of its own around it, or only a reporting verb ("He
    said"), is left to the quote check alone; the quotation is read as the source writes it
    (a slip the quote check forgave is no change)."""
    rest = claim.replace(excerpt, " ") if excerpt else claim
    if not any(
        word.lower() not in STOP_WORDS and word.lower() not in _REPORTING
        for word in WORD.findall(rest)
    ):
        return ()
    before, after = sentence_around(document.text, evidence.start, evidence.end)
    passage = document.text[evidence.start : evidence.end]
    # the quotation as the source writes it: its slips were the quote check's to forgive
    framed = claim.replace(excerpt, passage) if excerpt else claim
    return tuple(
        change
        for change in claim_conflicts(framed, before + passage + after)
        if not change.endswith(ABSENT)
    )


_REPORTING = frozenset(word for verb in REPORTING_VERBS for word in verb.split()) | {"according"}
"""Words that only report a quotation ("He said", "according to"): no claim of their own."""


def _in_context(
    query: str, evidence: Evidence, document: Document, *, quoted: bool
) -> tuple[str, ...]:
    """The meaning guard over the sentence a passage stands in: words that stand verbatim may
    stand in a sentence that negates them ("patients recovered" in "No patients recovered").
    The passage itself was compared word by word already, so only a negation in the rest of
    the sentence (or one a claim frames itself with) can add a change: without one, nothing
    is computed."""
    if quoted:  # a verbatim piece: only a negation that leads into it reverses it
        return leading_denial(document.text, evidence.start)
    before, after = sentence_around(document.text, evidence.start, evidence.end)
    passage = evidence.text
    sentence = before + passage + after
    # nor may it name what the sentence does not, in the place of a name the sentence
    # gives ("during its Be Right event" in "during its Ubisoft Forward event")
    strangers = stranger_names(query, sentence)
    # A claim may also frame what it says with words its word check forgave ("Non-", "All"),
    # or say "lower" where the passage says "higher" and, elsewhere, "lower" (taken as moved).
    if not (denies(query, or_qualifies=True, or_directs=True) or denies(before) or denies(after)):
        # nor may it name another than the sentence, or what the sentence leaves to "it"
        # ("Radium was discovered" in "It was discovered"): the word check forgives a word
        # put at the edge in the place of a stop word
        return tuple(dict.fromkeys([*swapped_names(query, passage, sentence), *strangers]))
    return tuple(dict.fromkeys([*claim_conflicts(query, passage, sentence), *strangers]))


def _places(
    matcher: Matcher,
    query: str,
    document: Document,
    located: bool,
    index: WordIndex | None,
    documents: Mapping[str, Document],
) -> list[tuple[Document, Span | None]]:
    """Where ``matcher`` should look for ``query`` missing at its place (the cited document
    first, and only when a place in it was cited): whole documents, or the places a matcher
    with a ``shortlist`` method (the built-in exact and fuzzy ones) picks from the word index."""
    shortlist = getattr(matcher, "shortlist", None)
    if index is None or shortlist is None:
        return [(candidate, None) for candidate in _candidates(document, located, documents)]
    places = [place for place in shortlist(query, index) if located or place[0] is not document]
    return sorted(places, key=lambda place: place[0] is not document)


def _qualifying(assessment: Assessment) -> dict[str, Any]:
    """A claim result's details: the passages beside its evidence that qualify or contradict
    it, as the support engine lists them (:class:`~citecheck.judging.support.Qualifier`)."""
    if not assessment.qualifying:
        return {}
    return {"qualifying": [q.to_dict() for q in assessment.qualifying]}


def _candidates(
    document: Document, located: bool, documents: Mapping[str, Document]
) -> list[Document]:
    """Where to look for text missing at its place: the rest of the cited document (when a
    place was cited), then every other document."""
    return ([document] if located else []) + [d for d in documents.values() if d.id != document.id]


def _inside(evidence: Evidence, document: Document, span: Span) -> bool:
    """True when ``evidence`` overlaps the cited ``span`` of ``document``: a passage aligned in
    the whole document may reach past the cited lines but still stands where cited."""
    return evidence.source_id == document.id and evidence.span.overlaps(span)


def _numeric_map(value: Mapping[str, str] | Sequence[str] | None) -> dict[str, str] | None:
    if value is None:
        return None
    if isinstance(value, Mapping):
        return {str(k): v for k, v in value.items()}
    if isinstance(value, str):
        raise ConfigError("numeric_sources must be a mapping or a sequence of ids, not a str")
    return {str(i): source_id for i, source_id in enumerate(value, start=1)}


BY_MEANING: Mapping[str, str] = MappingProxyType(
    {
        "problem": "words_only",
        "message": "checked by its words only; to check a paraphrase by meaning, give an "
        "embedder (--embedder minilm, Verifier(embedder=...))",
    }
)
"""The fix a claim that failed by its words alone is given: how to check it by meaning."""

_NAME_SIMILARITY = 80
"""How alike (RapidFuzz's WRatio, 0-100) a cited name and a source's id or file name must be
for a phantom's reason to suggest the source."""


def _nearest_source(cited: str, documents: Mapping[str, Document]) -> str:
    """``; did you mean 'trial' (trial.pdf)?`` when a source's id or file name is close to the
    cited name (a typo, another extension), else ``""``."""
    from rapidfuzz import fuzz, process

    names: dict[str, str] = {}
    for source_id, document in documents.items():
        names.setdefault(source_id.casefold(), source_id)
        path = document.metadata.get("path")
        if path:
            names.setdefault(Path(str(path)).name.casefold(), source_id)
    best = process.extractOne(
        cited.casefold(), list(names), scorer=fuzz.WRatio, score_cutoff=_NAME_SIMILARITY
    )
    if best is None:
        return ""
    source_id = names[best[0]]
    path = documents[source_id].metadata.get("path")
    where = f" ({Path(str(path)).name})" if path else ""
    return f"; did you mean {source_id!r}{where}?"
