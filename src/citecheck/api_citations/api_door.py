"""The door of the structured citations LLM APIs return (``doors`` registry name ``api``).

For every citation of a response (:mod:`~citecheck.api_citations.api_responses`), against the
documents the API was sent (:mod:`~citecheck.api_citations.api_sources`), two questions:

1. **Does the cited text stand where the citation says?** A character range must hold it
   (after citecheck's normalisation: case, spaces, typographic quotes); a page range or a
   range of content blocks must hold it somewhere inside. Standing elsewhere in the document
   it is ``wrong_location``, with the real range as evidence; standing nowhere,
   ``unsupported``; at a place the document does not have and nowhere else, ``not_found``.
   A near-verbatim cited text is compared as the quotes are (the fuzzy matcher at
   ``threshold``, the meaning guard): a change of a number or a negation is ``partial``.
2. **Does it support the words of the answer it is attached to?** Those words (a text block,
   the sentence before an annotation) are graded against the cited passage exactly as the
   markers door grades a claim at its cited place (:meth:`citecheck.Verifier.check`: the
   words first, then, with an embedder or a judge, the one support engine and the meaning
   guard): a changed number or a dropped negation is never ``verified``. A text block that
   carries several citations is graded against their passages together.

The verdict is the worse of the two. A citation of a document that was not sent is a phantom
(``not_found``); one whose document was sent but cannot be read here (by URL, by file id, a PDF
without the ``pdf`` extra), a web page citecheck was not given, or a citation the response
does not spell out readably, is ``unchecked``: what could not be checked is never called
missing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, Literal, Unpack

from citecheck.api_citations.api_options import ApiCitationConfig, ApiCitationOptions
from citecheck.api_citations.api_responses import ApiAnswer, ApiCitation, read_answer
from citecheck.api_citations.api_sources import Sent, SentSource, read_sources
from citecheck.documents import Document
from citecheck.errors import BackendError, InputError, LocationError, LocationKindError
from citecheck.judging import verdict
from citecheck.language.meaning import differences_at
from citecheck.locations import Location
from citecheck.matchers.exact import ExactMatcher
from citecheck.matchers.fuzzy import FuzzyMatcher
from citecheck.matchers.needle import needle
from citecheck.model import Citation, Evidence, Result, Span, Status
from citecheck.report import Report
from citecheck.verification.verifier import Verifier

__all__ = ["ApiCitationVerifier", "read_api_citations", "verify_api_citations"]

_RANK = {
    Status.VERIFIED: 0,
    Status.UNCHECKED: 1,
    Status.WRONG_LOCATION: 2,
    Status.PARTIAL: 3,
    Status.UNSUPPORTED: 4,
    Status.NOT_FOUND: 5,
}
"""How bad each status is, when the cited text and the claim are judged apart: the verdict
on a citation is the worse of the two (a claim that could not be checked keeps a verified
cited text from passing; a failure of either is a failure)."""
_TOGETHER = "the cited texts"
"""How a reason names the passages of a text block's several citations, graded together."""


@dataclass(frozen=True, slots=True)
class _Place:
    """Where a citation says its text stands in a document: ``span`` (``None``: the whole
    document, or a place that does not exist or cannot be checked), whether that range itself
    must hold the text (``exact``, a character range) or a region holds it somewhere (pages,
    content blocks), the place's ``named`` ("characters 0-20", ``""`` for the whole document)
    and its ``preposition``, the citation's ``location`` and ``locator`` as a
    :class:`~citecheck.Citation` carries them, and why the place does not exist
    (``missing``) or cannot be checked (``unplaceable``)."""

    span: Span | None
    exact: bool
    label: str
    named: str = ""
    preposition: str = "in"
    location: Location | None = None
    locator: str | None = None
    missing: str = ""
    unplaceable: str = ""

    @property
    def cited(self) -> str:
        """The place and its document: "characters 0-20 of 'doc'", "'doc'"."""
        return f"{self.named} of {self.label}" if self.named else self.label

    @property
    def words(self) -> str:
        """The place as a reason says it: "at characters 0-20 of 'doc'", "in 'doc'"."""
        return f"{self.preposition} {self.cited}"


@dataclass(frozen=True, slots=True)
class _Checked:
    """A citation's source and place, and the verdict on its cited text (``None`` when it
    cites no text): what the claim is then graded against."""

    source: SentSource
    document: Document
    place: _Place
    cited: Result | None

    @property
    def passage(self) -> Span | None:
        """The passage the claim is graded against: where the cited text was found, else
        the cited place (the whole document when it names none); ``None`` when the cited
        text was not found, which leaves nothing to grade against."""
        place = self.place
        if self.cited is None:
            if place.missing or place.unplaceable:
                return None
            return place.span or Span(0, len(self.document.text))
        if self.cited.evidence:
            return self.cited.evidence[0].span
        return None


class ApiCitationVerifier:
    """The door of API citations: checks the citations of an LLM API's response against the
    documents it was sent, one result each (see the module docstring).

    ``config`` is an :class:`~citecheck.api_citations.ApiCitationConfig`, a mapping or a TOML
    / YAML / JSON file, and keyword ``options`` override it. :meth:`verify` takes the response
    (the API's JSON, the SDK object or its ``model_dump()``, or the content blocks or output
    items) and the documents sent (the request, its document blocks in order, or texts,
    :class:`~citecheck.Document`\\ s and paths in order or by file id, file name or URL).
    """

    name: ClassVar[str] = "api"
    """Its name in the registry's ``doors`` group."""
    options_type: ClassVar[type[ApiCitationConfig]] = ApiCitationConfig
    takes: ClassVar[Literal["text", "items"]] = "text"
    item_detail: ClassVar[str | None] = None

    def __init__(
        self,
        config: ApiCitationConfig | Mapping[str, Any] | str | Path | None = None,
        **options: Unpack[ApiCitationOptions],
    ) -> None:
        self.config = ApiCitationConfig.merged(config, options)
        settings = self.config
        self.accept = frozenset(Status(s) for s in settings.accept)
        self._claims = Verifier(
            ("exact", "fuzzy"),
            threshold=settings.threshold,
            search_elsewhere=False,
            min_claim_words=settings.min_claim_words,
            embedder=settings.embedder,
            judge=settings.judge,
            support_threshold=settings.support_threshold,
            partial_threshold=settings.partial_threshold,
        )
        self._exact = ExactMatcher()
        self._fuzzy = FuzzyMatcher(settings.threshold)

    @classmethod
    def from_config(
        cls,
        config: ApiCitationConfig | Mapping[str, Any] | str | Path | None = None,
        **options: Unpack[ApiCitationOptions],
    ) -> ApiCitationVerifier:
        """The door from its options type, a mapping or a file, keyword ``options`` over it:
        as every door is built from its options."""
        return cls(config, **options)

    def __repr__(self) -> str:
        return (
            f"ApiCitationVerifier(provider={self.config.provider!r}, "
            f"threshold={self.config.threshold}, check_claims={self.config.check_claims})"
        )

    # -- public -------------------------------------------------------------------------------

    def verify(self, response: Any, documents: Any = None, /) -> Report:
        """Check every citation of ``response`` against the ``documents`` it was sent: one
        result per citation, in the response's order."""
        answer = read_answer(response, self.config.provider)
        sent = read_sources(documents)
        checked = [self._checked(citation, sent) for citation in answer.citations]
        claims = self._claims_graded(answer.citations, checked)
        results = [
            self._result(citation, found, claims.get(index))
            for index, (citation, found) in enumerate(zip(answer.citations, checked, strict=True))
        ]
        return Report(
            tuple(results),
            tuple(_warnings(answer, sent)),
            self.accept,
            self.config.require_citations,
            kind=self.name,
            text=answer.text,
            metadata={
                "provider": answer.provider,
                "shape": answer.shape,
                "documents": sent.labels,
                "threshold": self.config.threshold,
                "check_claims": self.config.check_claims,
            },
        )

    # -- the source and the cited text --------------------------------------------------------

    def _checked(self, citation: ApiCitation, sent: Sent) -> _Checked | Result:
        """The citation's source, place and cited text checked; a result instead when it
        cannot be read, its source does not exist or its text is not at hand."""
        if citation.problem is not None:
            return verdict.result(_citation(citation), Status.UNCHECKED, citation.problem)
        source = _source(citation, sent)
        if isinstance(source, Result):
            return source
        document = source.document
        if document is None:
            reason = f"{source.label!r} could not be read: {source.unreadable}"
            return verdict.result(_citation(citation, source), Status.UNCHECKED, reason)
        place = _place(citation, source, document)
        cited = None
        if citation.cited_text is not None:
            try:
                cited = self._cited_text(citation.cited_text, document, place)
            except BackendError as exc:
                reason = f"could not check: {exc}"
                return verdict.result(_citation(citation, source), Status.UNCHECKED, reason)
        return _Checked(source, document, place, cited)

    def _cited_text(self, cited: str, document: Document, place: _Place) -> Result:
        """Whether ``cited`` stands at ``place`` of ``document``, elsewhere in it, or nowhere:
        the verdict with the passage found (its real range) as evidence."""
        holder = Citation(document.id, excerpt=cited)
        label = repr(document.id)
        if not needle(cited):
            reason = "the cited text is empty: nothing to check"
            return verdict.result(holder, Status.UNCHECKED, reason)
        if place.span is not None and place.exact:
            return self._in_range(cited, document, place)
        if place.span is not None or not (place.missing or place.unplaceable):
            region = place.span or Span(0, len(document.text))
            hits = [_literal(cited, document, h) for h in self._exact.find(cited, document, region)]
            hits = hits or self._fuzzy.find(cited, document, region)
            if hits:
                return self._stands(holder, cited, document, hits[0], place.words)
            if place.span is None:
                reason = f"the cited text stands nowhere in {label} ({self._checks()})"
                return verdict.result(holder, Status.UNSUPPORTED, reason)
        found = self._located(cited, document, place)
        if found is not None and place.span is not None and found[0].span.overlaps(place.span):
            return self._stands(holder, cited, document, found[0], place.words)  # runs past it
        return self._elsewhere(holder, cited, document, place, found)

    def _in_range(self, cited: str, document: Document, place: _Place) -> Result:
        """The verdict on ``cited`` at a character range: the range holding it (after
        normalisation) is verified; a text that stands verbatim elsewhere was cited at a
        wrong (or shifted) range; a near-verbatim range is verified (or partial, with a change
        of meaning) unless a passage elsewhere matches it better."""
        assert place.span is not None
        holder = Citation(document.id, excerpt=cited)
        span = place.span
        held = document.text[span.start : span.end]
        if needle(held) == needle(cited):
            evidence = document.evidence(span.start, span.end, 1.0, "exact")
            reason = verdict.stands("cited text", place.words, 1.0, verbatim=True)
            return verdict.result(holder, Status.VERIFIED, reason, (evidence,))
        verbatim = self._exact.find(cited, document)
        if verbatim:
            nearest = min(verbatim, key=lambda hit: (abs(hit.start - span.start), hit.start))
            found: tuple[Evidence, tuple[str, ...]] | None = (
                _literal(cited, document, nearest),
                (),
            )
            return self._elsewhere(holder, cited, document, place, found)
        score = _similarity(needle(cited), needle(held))
        near = self._fuzzy.find(cited, document)
        if score >= self.config.threshold and (not near or score >= near[0].score):
            evidence = document.evidence(span.start, span.end, score, "fuzzy", {"fuzzy": score})
            return self._stands(holder, cited, document, evidence, place.words)
        found = (near[0], _differences(cited, document, near[0])) if near else None
        return self._elsewhere(holder, cited, document, place, found)

    def _stands(
        self, holder: Citation, cited: str, document: Document, evidence: Evidence, words: str
    ) -> Result:
        """The verdict on a cited text found at its place: verified, or partial when the
        passage there is not verbatim and changes its meaning."""
        differences = _differences(cited, document, evidence)
        if differences:
            reason = verdict.changed("cited text", words, differences)
            return verdict.result(holder, Status.PARTIAL, reason, (evidence,))
        verbatim = evidence.method == "exact"
        reason = verdict.stands("cited text", words, evidence.score, verbatim=verbatim)
        return verdict.result(holder, Status.VERIFIED, reason, (evidence,))

    def _located(
        self, cited: str, document: Document, place: _Place
    ) -> tuple[Evidence, tuple[str, ...]] | None:
        """Where ``cited`` stands in ``document`` outside its cited region (verbatim, the
        occurrence nearest the region; else the most similar passage), with the changes of
        meaning a near-verbatim passage has; ``None`` when it stands nowhere."""
        anchor = place.span.start if place.span is not None else 0
        hits = [
            _literal(cited, document, hit)
            for hit in self._exact.find(cited, document)
            if place.span is None or not place.span.contains(hit.span)
        ]
        if hits:
            return min(hits, key=lambda hit: (abs(hit.start - anchor), hit.start)), ()
        near = self._fuzzy.find(cited, document)
        if not near or (place.span is not None and place.span.contains(near[0].span)):
            return None
        return near[0], _differences(cited, document, near[0])

    def _elsewhere(
        self,
        holder: Citation,
        cited: str,
        document: Document,
        place: _Place,
        found: tuple[Evidence, tuple[str, ...]] | None,
    ) -> Result:
        """The verdict on a cited text not at its place: ``found`` elsewhere (a wrong
        location; unchecked where the place cannot be checked), or nowhere (unsupported; a
        phantom where the place does not exist)."""
        label = repr(document.id)
        if found is None:
            if place.missing:
                reason = f"{place.missing}, and the cited text stands nowhere in {label}"
                return verdict.result(holder, Status.NOT_FOUND, reason)
            if place.unplaceable:
                reason = f"{place.unplaceable}, and the cited text stands nowhere in {label}"
                return verdict.result(holder, Status.UNSUPPORTED, reason)
            reason = (
                f"the cited text does not stand {place.words} or anywhere in {label} "
                f"({self._checks()})"
            )
            return verdict.result(holder, Status.UNSUPPORTED, reason)
        evidence, differences = found
        where = _where(evidence, place)
        changes = "; ".join(differences)
        if place.unplaceable:
            reason = f"{place.unplaceable}; the cited text stands {where} of {label}"
            if differences:
                reason += f" only with a change of meaning: {changes}"
                return verdict.result(holder, Status.PARTIAL, reason, (evidence,))
            return verdict.result(holder, Status.UNCHECKED, reason, (evidence,))
        if place.missing:
            reason = f"the cited text stands {where} of {label}, but {place.missing}"
        else:
            reason = f"the cited text stands {where} of {label}, not {place.named}"
            reason += _shift(evidence.span, place)
        if differences:
            reason += f", and only with a change of meaning: {changes}"
        return verdict.result(holder, Status.WRONG_LOCATION, reason, (evidence,))

    def _checks(self) -> str:
        return f"checked: {self._exact.name}, {self._fuzzy.name} at {self.config.threshold:.0%}"

    # -- the claim ----------------------------------------------------------------------------

    def _claims_graded(
        self, citations: Sequence[ApiCitation], checked: Sequence[_Checked | Result]
    ) -> dict[int, Result]:
        """The verdict on the words each citation backs, by the citation's position: the
        citations that back the same words (a text block's, the annotations of one sentence)
        share one, graded against all their passages together."""
        if not self.config.check_claims:
            return {}
        groups: dict[tuple[str | None, Span | None], list[tuple[int, _Checked]]] = {}
        for index, (citation, found) in enumerate(zip(citations, checked, strict=True)):
            if isinstance(found, _Checked) and found.passage is not None:
                groups.setdefault((citation.claim, citation.claim_span), []).append((index, found))
        graded: dict[int, Result] = {}
        for (claim, _), members in groups.items():
            places: dict[tuple[str, Span | None], _Checked] = {}
            for _, found in members:
                places.setdefault((found.document.id, found.passage), found)
            result = self._claim(claim, list(places.values()))
            graded.update((index, result) for index, _ in members)
        return graded

    def _claim(self, claim: str | None, places: list[_Checked]) -> Result:
        """The verdict on ``claim`` against the passages ``places``: as the markers door
        grades a claim at its cited place."""
        first = places[0]
        if not claim:
            reason = "the citation backs no words of the answer, so no claim was checked"
            return verdict.result(Citation(first.document.id), Status.UNCHECKED, reason)
        if len(places) == 1:
            document, passage = first.document, first.passage
            assert passage is not None
            whole = passage == Span(0, len(document.text))
            location = None if whole else Location("chars", passage.start, passage.end)
        else:
            texts = [p.document.text[p.passage.start : p.passage.end] for p in places if p.passage]
            document = Document(_TOGETHER, "\n\n".join(texts))
            location = None
        citation = Citation(document.id, location, claim=claim)
        return self._claims.check(citation, {document.id: document})

    # -- the verdict --------------------------------------------------------------------------

    def _result(
        self, citation: ApiCitation, found: _Checked | Result, claim: Result | None
    ) -> Result:
        """One citation's result: the worse of the cited text's verdict and the claim's, with
        the passage found (its real range) as the first evidence."""
        if isinstance(found, Result):
            return _with_details(citation, found, None, None, None)
        made = _citation(citation, found.source, found.place)
        parts = [part for part in (found.cited, claim) if part is not None]
        if not parts:
            why = (
                "it cites no text, and claims are not checked (check_claims=False)"
                if not self.config.check_claims
                else "it cites no text, and no words of the answer to check"
            )
            reason = f"{found.place.cited} exists; {why}"
            result = verdict.result(made, Status.UNCHECKED, reason)
            return _with_details(citation, result, found, None, None)
        worst = max(parts, key=lambda part: _RANK[part.status])
        status = worst.status
        confidence = min(p.confidence for p in parts if p.status is status)
        evidence = list(found.cited.evidence if found.cited is not None else ())
        if claim is not None and claim.citation.source_id != _TOGETHER:
            evidence += [e for e in claim.evidence if e not in evidence]
        reason = "; ".join(part.reason for part in parts)
        result = Result(made, status, confidence, tuple(evidence), reason)
        return _with_details(citation, result, found, found.cited, claim)


def verify_api_citations(
    response: Any,
    documents: Any = None,
    /,
    *,
    config: ApiCitationConfig | Mapping[str, Any] | str | Path | None = None,
    **options: Unpack[ApiCitationOptions],
) -> Report:
    """Check every citation of an LLM API's ``response`` against the ``documents`` it was
    sent: a one-shot over :class:`ApiCitationVerifier` (see its module for what is checked).

    ``response`` is an Anthropic Messages response, an OpenAI Responses response, chat
    completion or Assistants message (the JSON as a dict, the SDK object, its
    ``model_dump()``, or just its content blocks or output items); the provider is told by
    its shape unless ``provider=`` says it. ``documents`` are what the API was sent: for
    Anthropic, the request or its document blocks in order (or texts, Documents and paths in
    that order); for OpenAI, a mapping of file id, file name or URL to the text, Document or
    path.
    """
    return ApiCitationVerifier(config, **options).verify(response, documents)


def read_api_citations(response: Any, provider: str = "auto") -> ApiAnswer:
    """The answer and citations of ``response``, read strictly: a citation that cannot be read
    is an :class:`~citecheck.errors.InputError` naming the field and where it stands
    (``content[2].citations[0]: start_char_index missing``), as is a response of no known
    shape. The door reads the same way but reports such a citation as unchecked and goes on."""
    answer = read_answer(response, provider)
    malformed = answer.malformed
    if malformed:
        more = f" (and {len(malformed) - 1} more)" if len(malformed) > 1 else ""
        raise InputError(f"{malformed[0].problem}{more}")
    return answer


# -- helpers ----------------------------------------------------------------------------------


def _source(citation: ApiCitation, sent: Sent) -> SentSource | Result:
    """The source a citation names, or the verdict when it names none: a phantom when the
    sources were given and it is not among them, unchecked when it could not be told (no
    sources given, a web page or a container's file not given, a name several sources bear)."""
    made = _citation(citation)
    if citation.document_index is not None and citation.type != "web_search_result_location":
        index = citation.document_index
        pool = sent.search_results if citation.search_result else sent.documents
        noun = "search result" if citation.search_result else "document"
        if not sent.given:
            reason = f"no documents were given, so {noun} {index} could not be checked"
            return verdict.result(made, Status.UNCHECKED, reason)
        if index < len(pool):
            return pool[index]
        field = "search_result_index" if citation.search_result else "document_index"
        listed = f" ({', '.join(repr(s.label) for s in pool[:10])})" if pool else ""
        sent_count = f"{len(pool)} {noun}{' was' if len(pool) == 1 else 's were'} sent"
        reason = f"{field} {index} names no {noun}: {sent_count}{listed}"
        return verdict.result(made, Status.NOT_FOUND, reason)
    names = [n for n in (citation.file_id, citation.filename, citation.url) if n]
    for name in names:
        found = sent.named(name)
        if len(found) == 1:
            return found[0]
        if found:
            several = ", ".join(repr(s.label) for s in found)
            reason = f"{name!r} may be any of several documents ({several}): name each once"
            return verdict.result(made, Status.UNCHECKED, reason)
    cited = " ".join(f"{n!r}" if i == 0 else f"({n})" for i, n in enumerate(names)) or "it"
    if citation.type in ("url_citation", "web_search_result_location"):
        reason = f"the web page {cited} was not given: give its text (named by its URL) to check it"
        return verdict.result(made, Status.UNCHECKED, reason)
    if citation.type == "container_file_citation":
        reason = (
            f"the file {cited} of a code interpreter container was not given: give its text "
            "(named by its file id) to check it"
        )
        return verdict.result(made, Status.UNCHECKED, reason)
    if not sent.given:
        reason = f"no documents were given, so the file {cited} could not be checked"
        return verdict.result(made, Status.UNCHECKED, reason)
    listed = ", ".join(repr(label) for label in sent.labels[:10]) or "none"
    reason = f"the cited file {cited} is not among the documents given ({listed})"
    return verdict.result(made, Status.NOT_FOUND, reason)


def _place(citation: ApiCitation, source: SentSource, document: Document) -> _Place:
    """Where in ``document`` the citation says its text stands (see :class:`_Place`)."""
    label = repr(document.id)
    if citation.chars is not None:
        start, end = citation.chars
        location = Location("chars", start, end)
        named = f"characters {start}-{end}"
        found = _Place(None, True, label, named, "at", location, str(location))
        if end > len(document.text):
            size = len(document.text)
            return replace(found, missing=f"{label} has {size} characters, so {named} do not exist")
        return replace(found, span=Span(start, end))
    if citation.pages is not None:
        first, after = citation.pages
        location = Location("pages", first, max(first, after - 1))
        found = _Place(None, False, label, location.describe(), "on", location, str(location))
        try:
            return replace(found, span=document.resolve(location))
        except LocationKindError as exc:
            return replace(found, unplaceable=str(exc))
        except LocationError as exc:
            return replace(found, missing=str(exc))
    if citation.blocks is not None:
        first, after = citation.blocks
        last = max(first, after - 1)
        named = f"block {first}" if last == first else f"blocks {first}-{last}"
        found = _Place(None, False, label, named, "in", None, named)
        blocks = source.blocks
        if blocks is None:
            why = f"{label} is no custom content document: it has no content blocks"
            return replace(found, unplaceable=why)
        if last >= len(blocks):
            count = f"{len(blocks)} content block{'' if len(blocks) == 1 else 's'}"
            return replace(found, missing=f"{label} has {count}, so {named} does not exist")
        span = Span(blocks[first].start, blocks[last].end)
        return replace(found, span=span, location=Location("chars", span.start, span.end))
    return _Place(None, False, label)


def _citation(
    citation: ApiCitation, source: SentSource | None = None, place: _Place | None = None
) -> Citation:
    """The :class:`~citecheck.Citation` a result carries: the source (its id, else the name
    the API cited it by), the place as the API wrote it, the cited text as the excerpt, the
    answer's words as the claim, and where they stand in the answer."""
    return Citation(
        source_id=source.label if source is not None else citation.source_name,
        location=None if place is None else place.location,
        excerpt=citation.cited_text,
        claim=citation.claim,
        span=citation.span,
        raw=citation.path,
        syntax="api",
        locator=None if place is None else place.locator,
        text_span=citation.claim_span,
    )


def _with_details(
    citation: ApiCitation,
    result: Result,
    found: _Checked | None,
    cited: Result | None,
    claim: Result | None,
) -> Result:
    """``result`` with what this door knows of the citation in its details: the provider, the
    citation's type and path in the response, what it names, the range it claims, the range
    where the cited text really stands, and the verdicts on the cited text and the claim."""
    details: dict[str, Any] = {
        "provider": citation.provider,
        "citation_type": citation.type,
        "path": citation.path,
    }
    for name in ("document_index", "file_id", "filename", "url", "title"):
        value = getattr(citation, name)
        if value is not None:
            key = (
                "search_result_index"
                if name == "document_index" and citation.search_result
                else name
            )
            details[key] = value
    details["claimed"] = _claimed(citation)
    real = cited.evidence[0] if cited is not None and cited.evidence else None
    details["real"] = (
        None
        if real is None
        else {"start": real.start, "end": real.end, "page": real.page, "line": real.line}
    )
    if found is not None:
        details["document"] = found.document.id
    details["cited_text_status"] = None if cited is None else cited.status.value
    details["claim_status"] = None if claim is None else claim.status.value
    if claim is not None:
        for name in ("correction", "qualifying"):
            if name in claim.details:
                details[name] = claim.details[name]
    return Result(
        result.citation, result.status, result.confidence, result.evidence, result.reason, details
    )


def _claimed(citation: ApiCitation) -> dict[str, int] | None:
    """The range the citation claims, under the API's own names."""
    for value, names in (
        (citation.chars, ("start_char_index", "end_char_index")),
        (citation.pages, ("start_page_number", "end_page_number")),
        (citation.blocks, ("start_block_index", "end_block_index")),
    ):
        if value is not None:
            return dict(zip(names, value, strict=True))
    return None


def _where(evidence: Evidence, place: _Place) -> str:
    """Where a passage stands, as a reason says it: by characters when characters were
    cited, else by page, section or line (:func:`~citecheck.judging.verdict.where_found`)."""
    if place.exact:
        return f"at characters {evidence.start}-{evidence.end}"
    return verdict.where_found(evidence)


def _shift(found: Span, place: _Place) -> str:
    """`` (the range is off by 5 characters)`` when a cited character range and the real one
    overlap: a range shifted, not a text cited from elsewhere."""
    if not place.exact or place.span is None or not found.overlaps(place.span):
        return ""
    off = max(abs(found.start - place.span.start), abs(found.end - place.span.end))
    return f" (the cited range is off by {off} character{'' if off == 1 else 's'})"


def _literal(cited: str, document: Document, hit: Evidence) -> Evidence:
    """An exact hit widened (or narrowed) to the cited text as it is written, when the
    document holds it so right there: the normalised match leaves out the edge punctuation
    and spaces an API's cited text keeps ("The sky is blue." as 20-36, not 20-35)."""
    body = cited.strip()
    text = document.text
    if not body or text[hit.start : hit.end] == body:
        return hit
    low, high = max(0, hit.start - len(body)), min(len(text), hit.end + len(body))
    at = text.find(body, low, high)
    while at != -1:
        if Span(at, at + len(body)).overlaps(hit.span):
            return document.evidence(at, at + len(body), hit.score, hit.method, hit.scores)
        at = text.find(body, at + 1, high)
    return hit


def _differences(cited: str, document: Document, evidence: Evidence) -> tuple[str, ...]:
    """The changes of meaning between the cited text and a passage that is not verbatim, as a
    quote's are read (:func:`~citecheck.language.meaning.differences_at`)."""
    if evidence.method == "exact":
        return ()
    return tuple(
        differences_at(
            cited, document.text, evidence.start, evidence.end, omissions=True, noun="quote"
        )
    )


def _similarity(a: str, b: str) -> float:
    """How alike two normalised texts are: the normalised Indel similarity the fuzzy matcher
    scores a passage with, in [0, 1]."""
    from rapidfuzz import fuzz

    return round(fuzz.ratio(a, b) / 100, 4)


def _warnings(answer: ApiAnswer, sent: Sent) -> list[str]:
    """What the report should say beside its results: documents that could not be read,
    citations met with no documents given, annotations passed over."""
    warnings = [
        f"{source.label!r} could not be read: {source.unreadable}"
        for source in (*sent.documents, *sent.search_results)
        if source.unreadable
    ]
    if answer.citations and not sent.given:
        warnings.append("No documents were given, so no citation of a document could be checked.")
    if answer.passed_over:
        count = answer.passed_over
        warnings.append(
            f"{count} annotation{'' if count == 1 else 's'} that cite{'s' if count == 1 else ''} "
            "nothing (file_path) passed over."
        )
    return warnings
