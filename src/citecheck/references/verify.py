"""Structured references in an answer → one verdict each, and PASS / FAIL for the answer.

Every reference is extracted and normalised by the scheme, duplicates (and the references of
many answers, with :meth:`ReferenceVerifier.verify_many`) are looked up once in one batched
call, and a reference that carries a quotation (``"…" [Bala 1.1.5]``) has the quote checked
in the text standing there with the core matchers. A mention that cannot be read for sure
(``AK 2.3``: Ayodhya or Aranya) is ``UNCHECKED`` with the reason, never guessed. Whether an
answer without references passes is its template's policy (:mod:`.policies`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, TypedDict, Unpack

from citecheck import registry
from citecheck._config import Options
from citecheck.documents import Document
from citecheck.errors import BackendError, ConfigError, InputError
from citecheck.judging import verdict
from citecheck.language.meaning import differences_at, noun_for
from citecheck.model import Citation, Evidence, Marker, Reference, Result, Span, Status
from citecheck.protocols import Index, Matcher, ReferenceCatalog
from citecheck.references.catalogs import Presence, StructureMap
from citecheck.references.finder import Mention, ReferenceExtractor
from citecheck.references.policies import DEFAULT_POLICIES, Policy, check_policies, policy_for
from citecheck.references.reference_report import ReferenceReport
from citecheck.references.scheme import ReferenceScheme, StructuredReference
from citecheck.syntax.excerpts import Attachment, attach
from citecheck.thresholds import WORDS_VERIFIED
from citecheck.verification.verifier import Verifier

__all__ = [
    "Against",
    "ReferenceConfig",
    "ReferenceOptions",
    "ReferenceVerifier",
    "scheme_named",
    "verify_references",
]

NEIGHBOURS = 300
"""How many verses of the cited sarga or chapter a misplaced quote is looked for in (the
longest sarga of the Valmiki Ramayana has 213 shlokas, the longest chapter of the Bible 176
verses)."""

Against = ReferenceCatalog | Mapping[str, Any] | str | Path | Any
"""A catalog, an :class:`~citecheck.protocols.Index`, a structure map (mapping or JSON file),
or ``"pythonbible"``."""


def scheme_named(scheme: ReferenceScheme | str) -> ReferenceScheme:
    """A scheme object, or the one registered under that name (``valmiki_ramayana``, ``bible``)."""
    if isinstance(scheme, ReferenceScheme):
        return scheme
    if not isinstance(scheme, str):
        raise ConfigError(f"scheme must be a ReferenceScheme or a name, not {scheme!r}")
    made = registry.create("schemes", scheme)
    if not isinstance(made, ReferenceScheme):
        raise ConfigError(f"the scheme {scheme!r} is not a ReferenceScheme: {made!r}")
    return made


def catalog_for(against: Against, scheme: ReferenceScheme) -> ReferenceCatalog:
    """The catalog ``against`` describes (see :data:`Against`)."""
    if against is None and scheme.name != "bible":
        raise ConfigError(
            f"say what to check {scheme.name!r} references against: a structure map, "
            "a map file, an index or a catalog (against=...)"
        )
    if against is None or against == "pythonbible":
        from citecheck.references.bible import PythonBibleCatalog

        return PythonBibleCatalog(scheme)
    if isinstance(against, str | Path):
        return StructureMap.from_file(against, scheme)
    if isinstance(against, Mapping):
        return StructureMap(scheme, against)
    if callable(getattr(against, "lookup", None)):
        catalog: ReferenceCatalog = against
        return catalog
    if isinstance(against, Index):
        from citecheck.references.index_catalog import IndexCatalog

        return IndexCatalog(against, scheme)
    raise ConfigError(
        f"cannot check references against {against!r}: give a StructureMap, a map file, "
        "an index, a catalog with lookup(), or 'pythonbible'"
    )


@dataclass(frozen=True, slots=True)
class _Parsed:
    text: str
    mentions: tuple[Mention, ...]
    attachments: tuple[Attachment, ...]
    warnings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReferenceConfig(Options):
    """Every option of :class:`ReferenceVerifier`, with its default: the options type of the
    references door (:meth:`from_mapping`, :meth:`from_file`, :meth:`merged`,
    :meth:`to_dict` as every door's)."""

    scheme: ReferenceScheme | str = "valmiki_ramayana"
    against: Against = None
    texts: Mapping[str, str] | None = None
    matchers: Sequence[str | Matcher] = ("exact", "fuzzy")
    threshold: float = WORDS_VERIFIED
    require_citations: bool = False
    max_range: int = 1000
    policies: Mapping[str, Policy] = field(default_factory=lambda: DEFAULT_POLICIES)
    default_policy: Policy = "required"

    _what: ClassVar[str] = "reference"


class ReferenceOptions(TypedDict, total=False):
    """The keyword options of :func:`verify_references` and
    :meth:`ReferenceVerifier.from_config`, typed (``scheme`` and ``against`` are keywords of
    their own in :func:`verify_references`)."""

    texts: Mapping[str, str] | None
    matchers: Sequence[str | Matcher]
    threshold: float
    require_citations: bool
    max_range: int
    policies: Mapping[str, Policy]
    default_policy: Policy


class ReferenceVerifier:
    """Checks the structured references of answers against one catalog; build once, reuse.

    ``against`` is a :class:`~citecheck.references.StructureMap`, a map file, any index
    (checked by deterministic ids; wrap it in :class:`~citecheck.references.IndexCatalog` for
    metadata), a catalog, or ``"pythonbible"`` (the default for the ``bible`` scheme).
    ``texts`` maps canonical references (``"Bala 1.5"``) to their text, for quotes, when the
    catalog has none. ``matchers`` and ``threshold`` check quotes as :class:`~citecheck.Verifier`
    does. ``require_citations`` fails an answer that cites nothing. An answer verified with its
    ``template`` follows that template's policy instead: ``policies`` (``T1`` required, ``T3``
    optional by default), ``default_policy`` for the others. It is the references door
    (``doors`` registry name ``references``).
    """

    name: ClassVar[str] = "references"
    """Its name in the registry's ``doors`` group."""
    options_type: ClassVar[type[ReferenceConfig]] = ReferenceConfig
    takes: ClassVar[Literal["text", "items"]] = "text"
    item_detail: ClassVar[str | None] = None

    def __init__(
        self,
        scheme: ReferenceScheme | str = "valmiki_ramayana",
        against: Against = None,
        *,
        texts: Mapping[str, str] | None = None,
        matchers: Sequence[str | Matcher] = ("exact", "fuzzy"),
        threshold: float = WORDS_VERIFIED,
        require_citations: bool = False,
        max_range: int = 1000,
        policies: Mapping[str, Policy] = DEFAULT_POLICIES,
        default_policy: Policy = "required",
    ) -> None:
        self.policies, self.default_policy = check_policies(policies, default_policy)
        self.scheme = scheme_named(scheme)
        self.catalog = catalog_for(against, self.scheme)
        self.extractor = ReferenceExtractor(self.scheme, max_range=max_range)
        self.texts = dict(texts or {})
        self.require_citations = require_citations
        self._quotes = Verifier(matchers, threshold=threshold, search_elsewhere=False)

    @classmethod
    def from_config(
        cls,
        config: ReferenceConfig | Mapping[str, Any] | str | Path | None = None,
        *,
        scheme: ReferenceScheme | str | None = None,
        against: Against = None,
        **options: Unpack[ReferenceOptions],
    ) -> ReferenceVerifier:
        """A verifier from its options type, a mapping or a TOML / YAML / JSON file, keyword
        ``options`` (those of :class:`ReferenceConfig`) over it."""
        given: dict[str, Any] = dict(options)
        if scheme is not None:
            given["scheme"] = scheme
        if against is not None:
            given["against"] = against
        return cls(**ReferenceConfig.merged(config, given).to_dict())

    def __repr__(self) -> str:
        return f"ReferenceVerifier({self.scheme.name!r}, against={self.catalog!r})"

    def verify(
        self, text: str, against: Against = None, *, template: str | None = None
    ) -> ReferenceReport:
        """The report on the references in ``text``, an answer of ``template`` if given,
        against the catalog this verifier was built with, or ``against`` when given (anything
        ``against=`` of the constructor takes)."""
        if against is not None:
            door = copy.copy(self)
            door.catalog = catalog_for(against, self.scheme)
            return door.verify_many([text], templates=[template])[0]
        return self.verify_many([text], templates=[template])[0]

    def verify_many(
        self, texts: Iterable[str], *, templates: Iterable[str | None] | None = None
    ) -> list[ReferenceReport]:
        """One report per text; the references of all of them are looked up together.
        ``templates`` gives each text's template (its policy says whether it must cite)."""
        reports = self.verify_each(texts, templates=templates)
        for report in reports:
            if isinstance(report, Exception):
                raise report
        return [report for report in reports if not isinstance(report, Exception)]

    def verify_each(
        self, texts: Iterable[str], *, templates: Iterable[str | None] | None = None
    ) -> list[ReferenceReport | Exception]:
        """As :meth:`verify_many`, but a text that cannot be checked (not a string, or any
        error met while checking it) gets the exception in its place and the others their
        reports: one bad answer never costs a batch (:func:`~citecheck.evaluate_dataset`
        records it as that item's ``ERROR``)."""
        parsed: list[_Parsed | Exception] = []
        for text in texts:
            try:
                parsed.append(self._parse(text))
            except Exception as exc:  # this text alone cannot be read
                parsed.append(exc)
        wanted_templates = list(templates) if templates is not None else [None] * len(parsed)
        if len(wanted_templates) != len(parsed):
            raise ConfigError(
                f"{len(parsed)} texts but {len(wanted_templates)} templates: give one per text"
            )
        wanted = list(
            dict.fromkeys(
                ref
                for item in parsed
                if not isinstance(item, Exception)
                for mention in item.mentions
                if mention.problem is None and mention.doubt is None
                for ref in mention.references
            )
        )
        presences = self._lookup(wanted)
        quotes: dict[tuple[str, str], Result] = {}  # the same quote at the same place, once
        reports: list[ReferenceReport | Exception] = []
        for item, template in zip(parsed, wanted_templates, strict=True):
            if isinstance(item, Exception):
                reports.append(item)
                continue
            try:
                required = self.requires_citations(template)
                reports.append(self._report(item, presences, quotes, required))
            except Exception as exc:  # this answer alone could not be checked
                reports.append(exc)
        return reports

    def policy(self, template: str | None) -> Policy:
        """The policy of ``template``: ``required`` or ``optional``."""
        return policy_for(template, self.policies, self.default_policy)

    def requires_citations(self, template: str | None) -> bool:
        """Whether an answer of ``template`` must cite (without one: ``require_citations``)."""
        if template is None:
            return self.require_citations
        return self.policy(template) == "required"

    # -- steps ----------------------------------------------------------------------------

    def _parse(self, text: str) -> _Parsed:
        if not isinstance(text, str):
            raise InputError(f"an answer must be a string, got {type(text).__name__}")
        mentions, warnings = self.extractor.extract(text)
        markers = [
            Marker(_bracketed(text, m.span), m.raw, self.scheme.name, (Reference(m.raw),))
            for m in mentions
        ]
        return _Parsed(text, tuple(mentions), tuple(attach(text, markers)), tuple(warnings))

    def _lookup(self, references: list[StructuredReference]) -> dict[StructuredReference, Presence]:
        """Each reference's presence in the catalog, looked up together. When the lookup fails
        for a reason of the references (a book the catalog's version lacks, a malformed one),
        the batch is split in halves until the failing references stand alone: each of them
        is ``unchecked`` with its own reason, and every other reference of the batch is still
        checked. A failure of the backend itself (:class:`~citecheck.errors.BackendError`: the
        server is down, answers off the protocol) fails every reference it was asked about."""
        if not references:
            return {}
        try:
            found = dict(self.catalog.lookup(references))
        except BackendError as exc:  # the catalog cannot answer: nothing was checked
            reason = f"could not check: the catalog failed ({type(exc).__name__}: {exc})"
            return {ref: Presence(None, reason) for ref in references}
        except Exception as exc:  # one reference (or a few) made the lookup fail
            if len(references) > 1:
                half = len(references) // 2
                return {**self._lookup(references[:half]), **self._lookup(references[half:])}
            reason = f"could not check: the catalog failed ({type(exc).__name__}: {exc})"
            return {references[0]: Presence(None, reason)}
        for ref in references:
            if ref not in found:
                found[ref] = Presence(None, f"the catalog gave no answer for {ref.canonical}")
        return found

    def _report(
        self,
        item: _Parsed,
        presences: dict[StructuredReference, Presence],
        quote_cache: dict[tuple[str, str], Result],
        require_citations: bool,
    ) -> ReferenceReport:
        results: list[Result] = []
        for mention, attachment in zip(item.mentions, item.attachments, strict=True):
            quote_result = None
            if attachment.excerpt and mention.problem is None and mention.doubt is None:
                quote_result = self._quote(mention, attachment.excerpt, presences, quote_cache)
            for ref in mention.references:
                citation = Citation(
                    source_id=ref.canonical,
                    excerpt=attachment.excerpt,
                    claim=attachment.claim,
                    span=mention.span,
                    raw=mention.raw,
                    syntax=self.scheme.name,
                    text_span=attachment.text_span,
                )
                if mention.problem is not None:
                    results.append(verdict.result(citation, Status.NOT_FOUND, mention.problem))
                    continue
                if mention.doubt is not None:
                    results.append(verdict.result(citation, Status.UNCHECKED, mention.doubt))
                    continue
                results.append(self._verdict(citation, ref, presences[ref], quote_result))
        warnings = list(item.warnings)
        if require_citations and not item.mentions:
            warnings.append("the answer cites nothing, and citations are required")
        return ReferenceReport(
            tuple(results),
            tuple(warnings),
            require_citations=require_citations,
            kind="references",
            text=item.text,
            metadata={"scheme": self.scheme.name},
            count_once=True,
        )

    def _verdict(
        self,
        citation: Citation,
        ref: StructuredReference,
        presence: Presence,
        quote_result: Result | None,
    ) -> Result:
        if presence.exists is None:
            return verdict.result(citation, Status.UNCHECKED, presence.reason)
        if not presence.exists:
            return verdict.result(citation, Status.NOT_FOUND, presence.reason)
        if citation.excerpt is None:
            text = presence.text or self.texts.get(ref.canonical)
            evidence = (
                (Evidence(ref.canonical, 0, len(text), text, 1.0, self.catalog.name),)
                if text
                else ()
            )
            return verdict.result(citation, Status.VERIFIED, presence.reason, evidence)
        assert quote_result is not None  # the quote of a mention with a reference that exists
        reason = quote_result.reason
        if quote_result.status is not Status.UNCHECKED:
            joint = "and" if quote_result.status is Status.VERIFIED else "but"
            reason = f"{presence.reason}, {joint} {reason}"
        return Result(
            citation,
            quote_result.status,
            quote_result.confidence,
            quote_result.evidence,
            reason,
        )

    def _quote(
        self,
        mention: Mention,
        quote: str,
        presences: dict[StructuredReference, Presence],
        cache: dict[tuple[str, str], Result],
    ) -> Result | None:
        """The quote checked in the text of the mention's references that exist, joined in
        order; ``None`` when none exists (each is then not found, and the quote is moot).
        Not found there while one of the mention's references could not be checked, it is
        ``UNCHECKED``: it may stand in the verse that could not be read."""
        refs = [ref for ref in mention.references if presences[ref].exists]
        if not refs:
            return None
        result = self._quote_in(refs, quote, presences, cache)
        unread = [ref for ref in mention.references if presences[ref].exists is None]
        if not unread or result.status in (Status.VERIFIED, Status.UNCHECKED):
            return result
        reason = (
            f"{result.reason}; {unread[0].canonical} could not be checked "
            f"({presences[unread[0]].reason}), so the quote may stand there"
        )
        return verdict.result(result.citation, Status.UNCHECKED, reason, result.evidence)

    def _quote_in(
        self,
        refs: list[StructuredReference],
        quote: str,
        presences: dict[StructuredReference, Presence],
        cache: dict[tuple[str, str], Result],
    ) -> Result:
        """The quote checked in the joined text of ``refs``, which all exist."""
        texts = [presences[ref].text or self.texts.get(ref.canonical) for ref in refs]
        name = refs[0].canonical if len(refs) == 1 else f"{refs[0].canonical}–{refs[-1].canonical}"
        citation = Citation(name, excerpt=quote)
        if any(text is None for text in texts):
            missing = [ref.canonical for ref, text in zip(refs, texts, strict=True) if not text]
            reason = (
                f"{', '.join(missing)} exists, but no text of it was given, so the quote "
                "could not be checked (give texts= or an index with text metadata)"
            )
            return verdict.result(citation, Status.UNCHECKED, reason)
        key = (name, quote)
        if key not in cache:
            document = Document(name, "\n".join(t for t in texts if t is not None))
            result = self._quotes.check(citation, {name: document})
            if result.status is Status.UNSUPPORTED and len(refs) == 1:
                result = self._nearby(result, refs[0], quote, presences) or result
            cache[key] = result
        return cache[key]

    def _nearby(
        self,
        result: Result,
        cited: StructuredReference,
        quote: str,
        presences: dict[StructuredReference, Presence],
    ) -> Result | None:
        """The quote missing at ``cited`` looked for in the other verses of the same sarga
        (chapter): right words, wrong verse number is ``WRONG_LOCATION``, not a fabrication.
        The verses looked up join ``presences``, so the next quote of that sarga, in this
        answer or another of the batch, asks the catalog nothing.

        When some of them could not be looked up (the index failed) and the quote is in none
        of the others, it is ``UNCHECKED``, not ``UNSUPPORTED``: the quote is not at the cited
        verse, but it may stand in a verse that could not be read, and ``UNSUPPORTED`` would
        call a misnumbered quote a fabrication on no evidence. Found in a verse that could be
        read, it is ``WRONG_LOCATION`` whatever failed."""
        if len(cited.numbers) != self.scheme.depth:
            return None
        parent = cited.numbers[:-1]
        siblings = [
            self.scheme.reference(cited.book, (*parent, n))
            for n in range(1, NEIGHBOURS + 1)
            if n != cited.numbers[-1]
        ]
        presences.update(self._lookup([ref for ref in siblings if ref not in presences]))
        found = presences
        documents = {
            ref.canonical: Document(ref.canonical, text)
            for ref in siblings
            if found[ref].exists and (text := found[ref].text or self.texts.get(ref.canonical))
        }
        evidence = self._quotes.locate(quote, documents) if documents else []
        unread = [ref for ref in siblings if found[ref].exists is None]
        if not evidence and unread:
            sarga = self.scheme.reference(cited.book, parent).canonical
            reason = (
                f"{found[cited].reason}, but {result.reason}; the other verses of {sarga} "
                f"could not be searched ({len(unread)} unchecked: {found[unread[0]].reason}), "
                "so it may stand in one of them"
            )
            return verdict.result(result.citation, Status.UNCHECKED, reason, result.evidence)
        if not evidence:
            return None
        best = evidence[0]
        reason = f"the excerpt stands in {best.source_id}, not in {cited.canonical}"
        changes = (
            []
            if best.method == "exact"
            else differences_at(
                quote,
                documents[best.source_id].text,
                best.start,
                best.end,
                omissions=True,
                noun=noun_for(quoted=True),
            )
        )
        if changes:
            reason += ", and only with a change of meaning: " + "; ".join(changes)
        shown = tuple(evidence[:5])
        return verdict.result(
            result.citation, Status.WRONG_LOCATION, reason, shown, score=best.score
        )


def _bracketed(text: str, span: Span) -> Span:
    """``span`` widened over the brackets right around it, so that a quote before
    ``"…" [Bala 1.1]`` belongs to the reference as it does to a marker."""
    start, end = span.start, span.end
    before = len(text[:start].rstrip(" \t"))
    if before and text[before - 1] in "[(":
        start = before - 1
    after = len(text) - len(text[end:].lstrip(" \t"))
    if after < len(text) and text[after] in "])":
        end = after + 1
    return Span(start, end)


def verify_references(
    text: str,
    *,
    scheme: ReferenceScheme | str = "valmiki_ramayana",
    against: Against = None,
    template: str | None = None,
    **options: Unpack[ReferenceOptions],
) -> ReferenceReport:
    """Check every structured reference in ``text``: PASS, FAIL with the phantom citations, or
    UNCHECKED when the catalog could not answer. ``template`` names the answer's template, whose
    policy says whether an answer without references passes (``T3``: PASS, no citations
    needed; ``T1``: FAIL). ``options`` are those of :class:`ReferenceVerifier` (``texts``,
    ``matchers``, ``threshold``, ``require_citations``, ``max_range``, ``policies``,
    ``default_policy``)."""
    return ReferenceVerifier(scheme, against, **options).verify(text, template=template)
