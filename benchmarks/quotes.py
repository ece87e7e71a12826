"""Quote-localisation benchmark on real text: SQuAD v2 dev (half) and XQuAD en/de contexts.

Gold quotes are single sentences (≥ 6 words) and 2–3-sentence spans of the contexts, cut with
``citecheck.language.text.sentence_spans`` so their offsets are exact. The corpus is every context
as a separate document, minus a few held-out articles whose sentences make the "not in corpus"
variant. Each variant perturbs the gold quotes in one way: noise that must still be located
(and, where the words are unchanged, verified), or a change of meaning that must never be
verified. Every system gets the same quotes and the same corpus:

* ``citecheck``: the public ``citecheck.verify_quotes(quotes, {doc_id: text})``, one call per
  variant, so building the index is part of the timing (its cost is also shown on its own);
* baseline (a): the seed recipe — the same windows, rank_bm25 ``BM25Okapi`` and difflib
  ``SequenceMatcher`` trimming — which is slow, so it runs on a subsample of each variant;
* baseline (b): normalised (NFKC, case-folded, whitespace-collapsed) substring search;
* baseline (c): "80 % of the quote's words of ≥ 4 letters stand in one document".

Run from the repository root::

    PYTHONPATH=src python benchmarks/quotes.py [--data PATH] [--seed S] [--per-variant N]
        [--baseline-a N] [--repeats R] [--out FILE.json] [--examples K] [--profile]

The data (``../shared/data/quotes`` by default) is read, never copied; the same seed gives the
same quotes.
"""

from __future__ import annotations

import argparse
import bisect
import cProfile
import json
import os
import platform
import pstats
import random
import re
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from difflib import SequenceMatcher
from itertools import pairwise
from pathlib import Path
from typing import Any

import citecheck
from citecheck import Document, Status
from citecheck.documents import as_documents
from citecheck.language.text import WORD, sentence_spans
from citecheck.quotes import QuoteLocator, QuoteReport

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT / ".." / "shared" / "data" / "quotes"
DEFAULT_SEED = 20240917
DEFAULT_PER_VARIANT = 300
DEFAULT_BASELINE_A = 100  # baseline (a) is slow: the first N quotes of each variant
HELD_OUT_TITLES = 6  # XQuAD-only articles left out of the corpus (both languages)
KINDS = {1: 0.5, 2: 0.3, 3: 0.2}  # sentences per gold quote -> share
MIN_WORDS = 6
LOCATED_IOU = 0.9
TARGET_LOCATED = 0.98
TARGET_FALSE_ACCEPTANCE = 0.02
TARGET_SPEEDUP = 50
TARGET_QUOTES_PER_SECOND = 200

NOISE = (
    "untouched",
    "whitespace",
    "typographic",
    "case",
    "hyphenation",
    "ocr_1",
    "ocr_3",
    "ocr_5",
    "ellipsis",
    "word_dropped",
)
REJECT = ("negation_dropped", "negation_added", "number_changed", "spliced", "not_in_corpus")
NO_GOLD_SPAN = ("spliced", "not_in_corpus")  # nothing in the corpus to be located
CHANGED = frozenset(NOISE[1:] + REJECT[:-1])  # variants whose quote must differ from the gold


# -- data ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Context:
    """One context paragraph: a document of the corpus (or of the held-out set)."""

    id: str
    title: str
    lang: str
    text: str


@dataclass(frozen=True, slots=True)
class Gold:
    """A gold quote: ``text`` stands at ``context.text[start:end]``."""

    context: Context
    start: int
    end: int
    sentences: int

    @property
    def text(self) -> str:
        return self.context.text[self.start : self.end]


@dataclass(slots=True)
class Case:
    """One benchmark quote: the perturbed text and where it really stands (if anywhere).

    ``places`` are every ``(doc, start, end)`` where the gold text stands verbatim: a sentence
    repeated in another context is correctly located in either."""

    variant: str
    quote: str
    gold: Gold | None
    places: list[tuple[str, int, int]] = field(default_factory=list)


def load_contexts(data: Path) -> list[Context]:
    """SQuAD and XQuAD en/de contexts; XQuAD-en contexts that SQuAD already has are dropped, as
    two identical documents would make "the" right document ambiguous."""
    sources = [
        ("squad", "en", data / "squad" / "dev-v2.0.json"),
        ("xquad.en", "en", data / "xquad" / "xquad.en.json"),
        ("xquad.de", "de", data / "xquad" / "xquad.de.json"),
    ]
    contexts: list[Context] = []
    seen: set[str] = set()
    for name, lang, path in sources:
        if not path.exists():
            sys.exit(f"missing data file {path}: pass --data (see ../shared/data/README.md)")
        articles = json.loads(path.read_text(encoding="utf-8"))["data"]
        for article in articles:
            for i, paragraph in enumerate(article["paragraphs"]):
                text = paragraph["context"]
                if text in seen:
                    continue
                seen.add(text)
                contexts.append(
                    Context(f"{name}:{article['title']}:{i}", article["title"], lang, text)
                )
    return contexts


def split_held_out(contexts: list[Context], seed: int) -> tuple[list[Context], list[Context]]:
    """(corpus, held out): whole XQuAD-only articles, in both languages, leave the corpus."""
    squad_titles = {c.title for c in contexts if c.id.startswith("squad:")}
    candidates = sorted({c.title for c in contexts} - squad_titles)
    held = set(random.Random(f"{seed}:held-out").sample(candidates, HELD_OUT_TITLES))
    return [c for c in contexts if c.title not in held], [c for c in contexts if c.title in held]


def gold_spans(contexts: Iterable[Context]) -> dict[int, list[Gold]]:
    """Every 1-, 2- and 3-sentence span of ≥ 6 words, by number of sentences."""
    pool: dict[int, list[Gold]] = {k: [] for k in KINDS}
    for context in contexts:
        spans = sentence_spans(context.text)
        for k in KINDS:
            for i in range(len(spans) - k + 1):
                gold = Gold(context, spans[i][0], spans[i + k - 1][1], k)
                if len(gold.text.split()) >= MIN_WORDS:
                    pool[k].append(gold)
    return pool


# -- perturbations ---------------------------------------------------------------------------

Perturb = Callable[[Gold, random.Random], "str | None"]
_WORDS = re.compile(r"\S+")
_LETTERS = re.compile(r"[^\W\d_]+")
_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|none|nothing|nobody|nowhere|neither|nor|without|nicht|nichts|nie"
    r"|niemals|niemand|nirgends|weder|ohne|kein\w*)\b|n't\b",
    re.I,
)
_OCR = (
    ("rn", "m"), ("m", "rn"), ("cl", "d"), ("d", "cl"), ("l", "I"), ("I", "l"), ("i", "l"),
    ("e", "c"), ("c", "e"), ("n", "ri"), ("w", "vv"), ("ü", "ii"), ("ä", "a"), ("ö", "o"),
    ("é", "e"), ("l", "1"), ("I", "1"), ("1", "l"), ("O", "0"), ("o", "0"), ("0", "O"),
)  # fmt: skip
"""The letter confusions of optical character recognition that issue 15 names (rn/m, cl/d,
l/I/1, O/0, e/c, ii/ü) and two more as common (ri/n, vv/w), accents lost, digits that look
like letters included ("wor1d", "l95l"); a word broken in two or two words run together are
slips too."""
_OCR_STRENGTHS = {"ocr_1": 0.01, "ocr_3": 0.03, "ocr_5": 0.05}
"""Each OCR variant's share of the quote's characters that a slip touches."""


Rule = tuple[str, "str | Callable[[re.Match[str]], str]"]


def _one_of(text: str, rng: random.Random, rules: Sequence[Rule]) -> str | None:
    """Apply one rule at one random place where it matches; ``None`` if none matches."""
    sites = [(m, repl) for pattern, repl in rules for m in re.finditer(pattern, text)]
    if not sites:
        return None
    match, repl = rng.choice(sites)
    new = repl if isinstance(repl, str) else repl(match)
    return text[: match.start()] + new + text[match.end() :]


def untouched(gold: Gold, rng: random.Random) -> str | None:
    return gold.text


def whitespace(gold: Gold, rng: random.Random) -> str | None:
    """Spaces become runs, tabs and line breaks, as in text copied from a PDF or a terminal."""
    text = gold.text
    spaces = [m.start() for m in re.finditer(" ", text)]
    chosen = [i for i in spaces if rng.random() < 0.35] or [rng.choice(spaces)]
    for i in reversed(chosen):
        text = text[:i] + rng.choice(["  ", "\n", "\n  ", "\t", " \n", "\r\n"]) + text[i + 1 :]
    return text if text != gold.text else None


def typographic(gold: Gold, rng: random.Random) -> str | None:
    """Straight quotes and apostrophes become curly (German „…“) and curly ones straight."""
    opening = "„" if gold.context.lang == "de" else "“"
    closing = "“" if gold.context.lang == "de" else "”"

    def swap(match: re.Match[str]) -> str:
        char, before = match.group(), match.string[match.start() - 1 : match.start()]
        at_start = before in ("", " ", "(", "[")
        if char == '"':
            return opening if at_start else closing
        if char == "'":
            return "‘" if at_start else "’"
        if char in "“”„":
            return '"'
        if char in "‘’":
            return "'"
        return " – " if char == " - " else " - "

    text = re.sub(r"[\"'“”„‘’]| - | – | — ", swap, gold.text)
    return text if text != gold.text else None


def case(gold: Gold, rng: random.Random) -> str | None:
    return rng.choice([str.upper, str.lower, str.title])(gold.text)


def hyphenation(gold: Gold, rng: random.Random) -> str | None:
    """One to three long words broken across lines with a hyphen, as PDF text is."""
    words = [m for m in _LETTERS.finditer(gold.text) if len(m.group()) >= 7]
    if not words:
        return None
    text = gold.text
    chosen = sorted(rng.sample(words, min(len(words), rng.randint(1, 3))), key=lambda m: m.start())
    for m in reversed(chosen):
        cut = m.start() + rng.randint(3, len(m.group()) - 3)
        text = text[:cut] + "-\n" + text[cut:]
    return text


def ocr_at(
    strength: float,
    confusions: Sequence[tuple[str, str]] = _OCR,
    negation: re.Pattern[str] = _NEGATION,
) -> Perturb:
    """Letter confusions (``confusions``, patterns and what OCR reads for them: rn/m, cl/d,
    l/I/1, O/0, e/c, ü/ii, …), broken and joined words, at ``strength`` of the characters (at
    least one slip), never inside a ``negation`` (a slip that makes or unmakes a negation
    changes the meaning)."""

    def ocr(gold: Gold, rng: random.Random) -> str | None:
        text = gold.text
        wanted = max(1, round(strength * len(text)))
        protected = [m.span() for m in negation.finditer(text)]
        sites = [
            (m.start(), m.end(), new) for old, new in confusions for m in re.finditer(old, text)
        ]
        sites += [(m.end(), m.end(), " ") for m in re.finditer(r"[^\W\d_]{3}(?=[^\W\d_]{3})", text)]
        sites += [
            (m.start(), m.end(), "") for m in re.finditer(r"(?<=[^\W\d_]) (?=[^\W\d_])", text)
        ]
        rng.shuffle(sites)
        taken: list[tuple[int, int, str]] = []
        for start, end, new in sites:
            if len(taken) == wanted:
                break
            if any(start <= e and end >= s for s, e in protected):
                continue
            if all(end < s or start > e for s, e, _ in taken):
                taken.append((start, end, new))
        for start, end, new in sorted(taken, reverse=True):
            text = text[:start] + new + text[end:]
        if len(negation.findall(text)) != len(protected):
            return None  # a slip made a negation ("riot" -> "not"): a change of meaning
        return text if taken else None

    return ocr


def elided(
    edge: int = 4,
    negation: re.Pattern[str] = _NEGATION,
    markers: Sequence[str] = (" ... ", " … ", " [...] ", " [\u2026] "),
) -> Perturb:
    """Head … tail, eliding ≥ 3 words in the middle and keeping at least ``edge`` words on
    each side (never a ``negation``: eliding one changes the meaning). The gold span still
    runs from the head's start to the tail's end."""

    def elide(gold: Gold, rng: random.Random) -> str | None:
        words = list(_WORDS.finditer(gold.text))
        n = len(words)
        if n < 2 * edge + 4:
            return None
        head = rng.randint(edge, n - edge - 3)
        tail = rng.randint(edge, n - 3 - head)
        left, right = words[head - 1].end(), words[n - tail].start()
        if negation.search(gold.text[left:right]):
            return None
        return gold.text[:left] + rng.choice(markers) + gold.text[right:]

    return elide


ellipsis = elided()


def word_dropped(gold: Gold, rng: random.Random) -> str | None:
    """One inner word (letters only, not a negation) left out."""
    words = list(_WORDS.finditer(gold.text))
    inner = [
        i
        for i in range(1, len(words) - 1)
        if _LETTERS.fullmatch(words[i].group()) and not _NEGATION.fullmatch(words[i].group())
    ]
    if not inner:
        return None
    i = rng.choice(inner)
    return gold.text[: words[i].start()] + gold.text[words[i + 1].start() :]


def _keep_case(word: str, like: str) -> str:
    return word.capitalize() if like[:1].isupper() else word


_DROP_NEGATION: tuple[Rule, ...] = (
    (r"\b(?:[Nn]ot|[Nn]ever|[Nn]o|nicht|nie|niemals) ", ""),
    (r"\bcannot\b", "can"),
    (r"\b[Ww]on't\b", lambda m: _keep_case("will", m.group())),
    (r"\b[Cc]an't\b", lambda m: _keep_case("can", m.group())),
    (r"(?<=\w)n't\b", ""),
    (r"\b[Kk]ein(?=\w*)", lambda m: _keep_case("ein", m.group())),
)
_AUXILIARIES = {
    "en": r"\b(?:is|was|are|were|can|will|would|could|should|must|may|might|has|have|had|does"
    r"|did)\b(?! not\b| never\b)(?= )",
    "de": r"\b(?:ist|war|sind|waren|kann|können|konnte|konnten|wird|werden|wurde|wurden|hat"
    r"|haben|hatte|hatten)\b(?! nicht\b| nie\b| kein)(?= )",
}


def negation_dropped(gold: Gold, rng: random.Random) -> str | None:
    return _one_of(gold.text, rng, _DROP_NEGATION)


def negation_added(gold: Gold, rng: random.Random) -> str | None:
    """Insert "not" (German "nicht") after an auxiliary: *was* → *was not*."""
    word = " nicht" if gold.context.lang == "de" else " not"
    return _one_of(gold.text, rng, [(_AUXILIARIES[gold.context.lang], lambda m: m.group() + word)])


def number_changed(gold: Gold, rng: random.Random) -> str | None:
    """One digit of one number changed (a leading digit never to 0): 1066 → 1067 or 1966."""

    def change(match: re.Match[str]) -> str:
        digits = list(match.group())
        i = rng.randrange(len(digits))
        allowed = [
            d for d in "0123456789" if d != digits[i] and (d != "0" or i or len(digits) == 1)
        ]
        digits[i] = rng.choice(allowed)
        return "".join(digits)

    return _one_of(gold.text, rng, [(r"\d+", change)])


def splicer(donors: dict[str, list[Gold]]) -> Perturb:
    """A perturbation that splices in a sentence from another paragraph (same language): either
    the quote's head with a donor sentence's tail, or the quote followed by a whole donor
    sentence."""

    def spliced(gold: Gold, rng: random.Random) -> str | None:
        donor = rng.choice(donors[gold.context.lang])
        if donor.context.title == gold.context.title:
            return None
        if rng.random() < 0.5:
            return f"{gold.text} {donor.text}"
        ours, theirs = list(_WORDS.finditer(gold.text)), list(_WORDS.finditer(donor.text))
        keep = rng.randint(max(4, len(ours) // 2), max(4, len(ours) * 7 // 10))
        take = rng.randint(4, max(4, len(theirs) // 2))
        if keep >= len(ours) or take >= len(theirs):
            return None
        return gold.text[: ours[keep - 1].end()] + " " + donor.text[theirs[-take].start() :]

    return spliced


def perturbations(donors: dict[str, list[Gold]]) -> dict[str, Perturb]:
    """Variant name → perturbation (``not_in_corpus`` quotes held-out text untouched)."""
    return {
        "untouched": untouched,
        "whitespace": whitespace,
        "typographic": typographic,
        "case": case,
        "hyphenation": hyphenation,
        **{variant: ocr_at(strength) for variant, strength in _OCR_STRENGTHS.items()},
        "ellipsis": ellipsis,
        "word_dropped": word_dropped,
        "negation_dropped": negation_dropped,
        "negation_added": negation_added,
        "number_changed": number_changed,
        "spliced": splicer(donors),
        "not_in_corpus": untouched,
    }


def sample_cases(
    variant: str, perturb: Perturb, pool: dict[int, list[Gold]], n: int, seed: int
) -> list[Case]:
    """``n`` distinct gold quotes (a sentence count drawn by :data:`KINDS`, then a span) that
    the perturbation applies to. Each variant draws with its own seeded generator, so adding a
    variant changes no other variant's quotes."""
    rng = random.Random(f"{seed}:{variant}")
    cases: list[Case] = []
    used: set[tuple[str, int, int]] = set()
    for _ in range(200 * n):
        if len(cases) == n:
            break
        kind = rng.choices(list(KINDS), weights=list(KINDS.values()))[0]
        gold = rng.choice(pool[kind])
        key = (gold.context.id, gold.start, gold.end)
        if key in used:
            continue
        quote = perturb(gold, rng)
        if quote is None or not quote.strip() or (quote == gold.text and variant in CHANGED):
            continue
        used.add(key)
        cases.append(Case(variant, quote, None if variant in NO_GOLD_SPAN else gold))
    return cases


def attach_places(cases: list[Case], corpus: list[Context]) -> list[Case]:
    """Where each gold text stands verbatim in the corpus; "not in corpus" quotes that happen
    to stand in it after all are dropped (they would be rightly verified)."""
    joined = "\x00".join(c.text for c in corpus)
    starts = [0]
    for c in corpus[:-1]:
        starts.append(starts[-1] + len(c.text) + 1)
    kept = []
    for case in cases:
        text = case.gold.text if case.gold else case.quote
        found = _occurrences(joined, text)
        if case.variant == "not_in_corpus" and found:
            continue
        for at in found if case.gold else ():
            i = bisect.bisect_right(starts, at) - 1
            case.places.append((corpus[i].id, at - starts[i], at - starts[i] + len(text)))
        kept.append(case)
    return kept


def _occurrences(haystack: str, needle: str) -> list[int]:
    found, at = [], haystack.find(needle)
    while at != -1:
        found.append(at)
        at = haystack.find(needle, at + 1)
    return found


# -- systems ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Prediction:
    """What a system answered for one quote; ``start``/``end`` are ``None`` without a span."""

    doc: str | None
    start: int | None
    end: int | None
    verified: bool
    status: str = ""
    reason: str = ""


@dataclass(slots=True)
class Run:
    predictions: list[Prediction]
    seconds: float
    build_seconds: float | None = None


def run_citecheck(quotes: list[str], docs: dict[str, str]) -> Run:
    """One public ``verify_quotes`` call; the index build is then timed on its own, as a
    one-quote run with the same longest quote (so the same window size). The timed call comes
    first, so nothing it needs was prepared by the other."""
    began = time.perf_counter()
    report = citecheck.verify_quotes(quotes, docs)
    seconds = time.perf_counter() - began
    began = time.perf_counter()
    citecheck.verify_quotes([max(quotes, key=len)], docs)
    build = time.perf_counter() - began
    return Run(_predictions(report), seconds, build)


_LOCATORS: dict[int, tuple[list[Document], QuoteLocator]] = {}


def prepare_locator(docs: dict[str, str], quotes: Sequence[str]) -> float:
    """Build the documents and one ``QuoteLocator``'s index for ``quotes`` (a run with the
    longest of them, so the window size of every batch), once; the seconds it took."""
    began = time.perf_counter()
    documents = list(as_documents(docs).values())
    locator = QuoteLocator()
    locator.run([max(quotes, key=len)], documents)
    _LOCATORS[id(docs)] = (documents, locator)
    return time.perf_counter() - began


def run_citecheck_reused(quotes: list[str], docs: dict[str, str]) -> Run:
    """``QuoteLocator.run`` on documents and an index built once by :func:`prepare_locator`
    (for any other ``docs``, as the tiny warm-up corpus, it prepares them first, untimed)."""
    if id(docs) not in _LOCATORS:
        prepare_locator(docs, quotes)
    documents, locator = _LOCATORS[id(docs)]
    began = time.perf_counter()
    report = locator.run(quotes, documents)
    return Run(_predictions(report), time.perf_counter() - began, None)


MARKER = "citecheck, each quote cited with a marker (verify)"
_MARKED: dict[int, tuple[dict[str, Document], citecheck.Verifier, dict[str, str]]] = {}


def run_marker(quotes: list[str], cited: list[str], docs: dict[str, str]) -> Run:
    """Each quote in quotation marks before a marker citing the document where its gold text
    stands (``"…" [[doc]]``), checked by one ``Verifier`` over prepared documents (built once,
    untimed): the marker path must judge a quote as ``verify_quotes`` does. Documents get ids
    a marker can name (the corpus ids hold colons)."""
    if id(docs) not in _MARKED:
        verifier = citecheck.Verifier()
        ids = {doc: f"d{i}" for i, doc in enumerate(docs)}
        prepared = verifier.prepare({ids[doc]: text for doc, text in docs.items()})
        _MARKED[id(docs)] = (prepared, verifier, {v: k for k, v in ids.items()})
    documents, verifier, names = _MARKED[id(docs)]
    ids = {name: marked for marked, name in names.items()}
    began = time.perf_counter()
    results = [
        verifier.verify(_cited(quote, ids[doc]), documents).results
        for quote, doc in zip(quotes, cited, strict=True)
    ]
    seconds = time.perf_counter() - began
    predictions = []
    for found in results:
        # The quote's own text may hold what reads as a citation ("Warsaw (1939)"): the
        # result that counts is the one of the marker the benchmark put after it.
        result = next((r for r in reversed(found) if r.citation.syntax == "tip"), None)
        evidence = result.evidence[0] if result is not None and result.evidence else None
        predictions.append(
            Prediction(
                names[evidence.source_id] if evidence else None,
                evidence.start if evidence else None,
                evidence.end if evidence else None,
                result is not None and result.status is Status.VERIFIED,
                result.status.value if result is not None else f"{len(found)} results",
                result.reason if result is not None else "",
            )
        )
    return Run(predictions, seconds, None)


def _cited(quote: str, doc: str) -> str:
    """``quote`` in quotation marks that it does not hold itself, before a marker."""
    opening, closing = next(
        (o, c)
        for o, c in (('"', '"'), ("\u201c", "\u201d"), ("\u00ab", "\u00bb"))
        if o not in quote and c not in quote
    )
    return f"{opening}{quote}{closing} [[{doc}]]"


def _predictions(report: QuoteReport) -> list[Prediction]:
    predictions = []
    for row in report.rows:
        evidence = row.evidence[0] if row.evidence else None
        predictions.append(
            Prediction(
                row.source_doc,
                evidence.start if evidence else None,
                evidence.end if evidence else None,
                row.status is Status.VERIFIED,
                row.status.value,
                row.reason,
            )
        )
    return predictions


_ELLIPSIS = re.compile(r"\s*(?:\[\s*(?:\.\s*){3}\]|\[\s*…\s*\]|\.\s?\.\s?\.|…)\s*")


def _fragments(quote: str) -> list[str]:
    return [f for f in (p.strip() for p in _ELLIPSIS.split(quote)) if f]


class SeedRecipe:
    """Baseline (a), the recipe as first written: windows of 1.1 × the longest quote (cap 500,
    30 % overlap), rank_bm25 ``BM25Okapi(k1=1.5, b=0.4)`` over lowercased word tokens, the best
    window, then the span of difflib's matching blocks (of ≥ 3 characters) of the quote in the
    window ± 30 characters, snapped out to whole words; verified when ``SequenceMatcher.ratio``
    of quote and span (lowercased) is ≥ 0.8. Ellipsis quotes: each fragment located this way,
    all in one document and in order. ``autojunk`` is off: with it on, difflib treats every
    common letter of a 500-character window as junk and finds almost nothing."""

    def __init__(self, docs: dict[str, str], quotes: Sequence[str]) -> None:
        from rank_bm25 import BM25Okapi

        self.docs = docs
        size = max(40, min(500, round(1.1 * max(len(q) for q in quotes))))
        step = size - int(size * 0.3)
        self.windows: list[tuple[str, int, int]] = []
        for doc, text in docs.items():
            position = 0
            while True:
                self.windows.append((doc, position, min(len(text), position + size)))
                if position + size >= len(text):
                    break
                position += step
        tokens = [WORD.findall(docs[d][a:b].lower()) or [""] for d, a, b in self.windows]
        self.bm25 = BM25Okapi(tokens, k1=1.5, b=0.4)

    def predict(self, quote: str) -> Prediction:
        found = [self._locate(f) for f in _fragments(quote)]
        if not found:
            return Prediction(None, None, None, False)
        doc, start, _, _ = found[0]
        end = found[-1][2]
        in_order = all(a[0] == b[0] and a[2] <= b[1] for a, b in pairwise(found))
        verified = in_order and all(f[3] >= 0.8 for f in found)
        return Prediction(doc, start, end if in_order else found[0][2], verified)

    def _locate(self, quote: str) -> tuple[str, int, int, float]:
        scores = self.bm25.get_scores(WORD.findall(quote.lower()))
        doc, w_start, w_end = self.windows[int(scores.argmax())]
        text = self.docs[doc]
        r_start, r_end = max(0, w_start - 30), min(len(text), w_end + 30)
        target, region = quote.lower(), text[r_start:r_end].lower()
        matcher = SequenceMatcher(None, target, region, autojunk=False)
        blocks = [b for b in matcher.get_matching_blocks() if b.size >= 3]
        if not blocks:
            return doc, w_start, w_end, 0.0
        start, end = r_start + blocks[0].b, r_start + blocks[-1].b + blocks[-1].size
        while start > 0 and text[start - 1].isalnum():
            start -= 1
        while end < len(text) and text[end].isalnum():
            end += 1
        ratio = SequenceMatcher(None, target, text[start:end].lower(), autojunk=False).ratio()
        return doc, start, end, ratio


def run_seed_recipe(quotes: list[str], docs: dict[str, str]) -> Run:
    began = time.perf_counter()
    recipe = SeedRecipe(docs, quotes)
    build = time.perf_counter() - began
    predictions = [recipe.predict(q) for q in quotes]
    return Run(predictions, time.perf_counter() - began, build)


def simple_normalize(text: str) -> tuple[str, list[int]]:
    """NFKC, case-folded, whitespace runs as one space — and each character's original index."""
    out: list[str] = []
    where: list[int] = []
    for i, char in enumerate(text):
        if char.isspace():
            if out and out[-1] != " ":
                out.append(" ")
                where.append(i)
            continue
        for folded in unicodedata.normalize("NFKC", char).casefold():
            out.append(folded)
            where.append(i)
    return "".join(out), where


class SubstringSearch:
    """Baseline (b): the normalised quote as a substring of a normalised document (ellipsis
    fragments in order within one document)."""

    def __init__(self, docs: dict[str, str]) -> None:
        self.ids = list(docs)
        self.normal = [simple_normalize(t) for t in docs.values()]

    def predict(self, quote: str) -> Prediction:
        fragments = [simple_normalize(f)[0].strip() for f in _fragments(quote)]
        if not fragments:
            return Prediction(None, None, None, False)
        for i, (text, where) in enumerate(self.normal):
            at = text.find(fragments[0])
            if at == -1:
                continue
            start, end = at, at + len(fragments[0])
            for fragment in fragments[1:]:
                end = text.find(fragment, end)
                if end == -1:
                    break
                end += len(fragment)
            if end != -1:
                return Prediction(self.ids[i], where[start], where[end - 1] + 1, True)
        return Prediction(None, None, None, False)


def run_substring(quotes: list[str], docs: dict[str, str]) -> Run:
    began = time.perf_counter()
    search = SubstringSearch(docs)
    build = time.perf_counter() - began
    predictions = [search.predict(q) for q in quotes]
    return Run(predictions, time.perf_counter() - began, build)


_LONG_WORD = re.compile(r"[^\W\d_]{4,}")


class WordOverlap:
    """Baseline (c): verified when ≥ 80 % of the quote's distinct words of ≥ 4 letters stand in
    one document (the best such document is its answer; it gives no span)."""

    def __init__(self, docs: dict[str, str]) -> None:
        self.ids = list(docs)
        self.postings: dict[str, list[int]] = {}
        for i, text in enumerate(docs.values()):
            for word in set(_LONG_WORD.findall(text.casefold())):
                self.postings.setdefault(word, []).append(i)

    def predict(self, quote: str) -> Prediction:
        words = set(_LONG_WORD.findall(quote.casefold()))
        counts = Counter(i for w in words for i in self.postings.get(w, ()))
        if not counts:
            return Prediction(None, None, None, False)
        best, hits = counts.most_common(1)[0]
        return Prediction(self.ids[best], None, None, hits >= 0.8 * len(words))


def run_word_overlap(quotes: list[str], docs: dict[str, str]) -> Run:
    began = time.perf_counter()
    overlap = WordOverlap(docs)
    build = time.perf_counter() - began
    predictions = [overlap.predict(q) for q in quotes]
    return Run(predictions, time.perf_counter() - began, build)


REUSED = "citecheck, one QuoteLocator (index built once)"
SYSTEMS: dict[str, Callable[[list[str], dict[str, str]], Run]] = {
    "citecheck": run_citecheck,
    REUSED: run_citecheck_reused,
    "(a) seed recipe: rank_bm25 + difflib": run_seed_recipe,
    "(b) normalised substring": run_substring,
    "(c) 80 % word overlap": run_word_overlap,
}
SUBSAMPLED = "(a) seed recipe: rank_bm25 + difflib"


# -- scoring ---------------------------------------------------------------------------------


def overlap(prediction: Prediction, place: tuple[str, int, int]) -> float:
    """|pred ∩ gold| / |pred ∪ gold| in characters (0 in another document)."""
    doc, start, end = place
    if prediction.doc != doc or prediction.start is None or prediction.end is None:
        return 0.0
    inter = max(0, min(end, prediction.end) - max(start, prediction.start))
    union = (end - start) + (prediction.end - prediction.start) - inter
    return inter / union if union else 0.0


def is_located(prediction: Prediction, case: Case) -> bool:
    return any(overlap(prediction, p) >= LOCATED_IOU for p in case.places)


@dataclass(slots=True)
class Score:
    n: int
    located: int | None
    right_doc: int | None
    verified: int
    seconds: float
    build_seconds: float | None
    statuses: dict[str, int] = field(default_factory=dict)

    @property
    def per_second(self) -> float:
        return self.n / self.seconds if self.seconds else float("inf")


def score(cases: list[Case], run: Run, spans: bool) -> Score:
    pairs = list(zip(cases, run.predictions, strict=True))
    gold = [(c, p) for c, p in pairs if c.places]
    return Score(
        n=len(pairs),
        located=sum(is_located(p, c) for c, p in gold) if gold and spans else None,
        right_doc=sum(p.doc in {d for d, _, _ in c.places} for c, p in gold) if gold else None,
        verified=sum(p.verified for _, p in pairs),
        seconds=run.seconds,
        build_seconds=run.build_seconds,
        statuses=dict(Counter(p.status for _, p in pairs if p.status)),
    )


# -- report ----------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    """Cores, RAM, CPU model, Python: printed with the numbers and stored in the JSON."""
    model, ram = platform.processor() or "unknown", None
    for line in _read_lines("/proc/cpuinfo"):
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    for line in _read_lines("/proc/meminfo"):
        if line.startswith("MemTotal:"):
            ram = round(int(line.split()[1]) / 1024**2, 1)
            break
    import rank_bm25  # noqa: F401  (its version is not exposed; importing proves it is there)
    import rapidfuzz

    return {
        "cores": os.cpu_count(),
        "ram_gib": ram,
        "cpu": model,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "citecheck": citecheck.__version__,
        "rapidfuzz": rapidfuzz.__version__,
        "load_average": [round(x, 2) for x in os.getloadavg()],  # other work skews timings
    }


def _read_lines(path: str) -> list[str]:
    try:
        return Path(path).read_text().splitlines()
    except OSError:
        return []


def _pct(count: int | None, n: int) -> str:
    return "—" if count is None or not n else f"{100 * count / n:.1f}"


def table(scores: dict[str, Score]) -> str:
    """One system's Markdown table: a row per variant and a total row."""
    lines = [
        "| variant | expect | n | located % | right doc % | verified % | quotes/s "
        "| index s | quotes/s after index |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for variant, s in scores.items():
        expect = "reject" if variant in REJECT else "locate"
        build = "—" if s.build_seconds is None else f"{s.build_seconds:.2f}"
        rest = s.seconds - (s.build_seconds or 0.0)
        search = f"{s.n / rest:,.0f}" if rest > 0.1 * s.seconds else "—"  # timing noise
        located_n = s.n if variant not in NO_GOLD_SPAN else 0
        lines.append(
            f"| {variant} | {expect} | {s.n} | {_pct(s.located, located_n)} | "
            f"{_pct(s.right_doc, located_n)} | {_pct(s.verified, s.n)} | "
            f"{s.per_second:,.0f} | {build} | {search} |"
        )
    n, seconds = sum(s.n for s in scores.values()), sum(s.seconds for s in scores.values())
    lines.append(f"| **all** | | {n} | | | | **{n / seconds:,.0f}** | | |")
    return "\n".join(lines)


def status_table(scores: dict[str, Score]) -> str:
    """How many quotes of each variant got each status (why "verified %" is what it is)."""
    names = [s.value for s in Status]
    lines = ["| variant | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for variant, s in scores.items():
        lines.append(
            f"| {variant} | " + " | ".join(str(s.statuses.get(n, 0)) for n in names) + " |"
        )
    return "\n".join(lines)


def _rate(scores: dict[str, Score], *, after_index: bool = False) -> float:
    """Quotes per second over all variants (without each call's index build, if asked)."""
    seconds = sum(
        s.seconds - ((s.build_seconds or 0.0) if after_index else 0.0) for s in scores.values()
    )
    return sum(s.n for s in scores.values()) / seconds


def targets(results: dict[str, dict[str, Score]]) -> tuple[str, dict[str, bool]]:
    """The issue's four targets, measured on citecheck's scores, as a Markdown table. Speed is
    compared twice: each call building its own index (citecheck's ``verify_quotes`` against
    baseline (a)), and the index built once (one ``QuoteLocator`` against baseline (a) after
    its index); the target is judged on the second, where both do the same work per quote."""
    ours, seed = results["citecheck"], results[SUBSAMPLED]
    worst_located = min(NOISE, key=lambda v: (ours[v].located or 0) / ours[v].n)
    worst_fa = max(REJECT, key=lambda v: ours[v].verified / ours[v].n)
    rate, seed_rate = _rate(ours), _rate(seed)
    reused, seed_reused = _rate(results[REUSED]), _rate(seed, after_index=True)
    located = (ours[worst_located].located or 0) / ours[worst_located].n
    fa = ours[worst_fa].verified / ours[worst_fa].n
    met = {
        "located": located >= TARGET_LOCATED,
        "false_acceptance": fa <= TARGET_FALSE_ACCEPTANCE,
        "speedup": reused >= TARGET_SPEEDUP * seed_reused,
        "throughput": rate >= TARGET_QUOTES_PER_SECOND,
    }
    rows = [
        ("≥ 98 % located on every noise variant", f"lowest {located:.1%} ({worst_located})"),
        ("≤ 2 % false acceptance on every reject variant", f"highest {fa:.1%} ({worst_fa})"),
        (
            "≥ 50× the throughput of baseline (a)",
            f"index built once: {reused / seed_reused:.1f}× ({reused:,.0f} against "
            f"{seed_reused:.1f} q/s); each call building its index: {rate / seed_rate:.1f}× "
            f"({rate:,.0f} against {seed_rate:.1f} q/s)",
        ),
        ("≥ 200 quotes/s", f"{rate:,.0f} quotes/s, each call building its index"),
    ]
    lines = ["| target | citecheck | met |", "|---|---|---|"]
    for (name, value), ok in zip(rows, met.values(), strict=True):
        lines.append(f"| {name} | {value} | {'yes' if ok else '**no**'} |")
    return "\n".join(lines), met


def _short(text: str | None, limit: int = 160, like: str | None = None) -> str:
    """``text`` on one line, cut to ``limit``; starting near its first difference from
    ``like`` when given, so a changed word deep in a long quote is visible."""
    text = " ".join((text or "").split())
    start = 0
    if like is not None:
        other = " ".join(like.split())
        same = next(
            (i for i, (a, b) in enumerate(zip(text, other, strict=False)) if a != b), len(text)
        )
        start = max(0, same - 60)
    cut = text[start : start + limit]
    return ("…" if start else "") + cut + ("…" if start + limit < len(text) else "")


def named_drops(cases: list[Case], run: Run) -> int:
    """How many ``word_dropped`` quotes came back partial with a reason naming the dropped
    word (the gold text's one word that the quote lacks)."""
    count = 0
    for case, prediction in zip(cases, run.predictions, strict=False):
        if case.gold is None or prediction.status != Status.PARTIAL.value:
            continue
        quoted = case.quote.split()
        missing = next(
            (word for i, word in enumerate(case.gold.text.split()) if quoted[i : i + 1] != [word]),
            None,
        )
        word = _LETTERS.search(missing or "")
        count += word is not None and repr(word.group().lower()) in prediction.reason.lower()
    return count


WHOLE_PASSAGE = 0.9
"""The share of its passage the span of a partial quote must cover to count as showing it."""


def partial_spans(cases: list[Case], run: Run) -> tuple[int, int]:
    """Of the ``word_dropped`` quotes that came back partial, how many were given a span that
    covers at least :data:`WHOLE_PASSAGE` of the passage they came from, and how many came
    back partial at all: a partial verdict must show the reader the whole passage, not the
    part of it before the dropped word."""
    covered = partial = 0
    for case, prediction in zip(cases, run.predictions, strict=False):
        if prediction.status != Status.PARTIAL.value or prediction.start is None:
            continue
        partial += 1
        assert prediction.end is not None
        best = 0.0
        for doc, start, end in case.places:
            if doc != prediction.doc or end <= start:
                continue
            overlap = min(end, prediction.end) - max(start, prediction.start)
            best = max(best, overlap / (end - start))
        covered += best >= WHOLE_PASSAGE
    return covered, partial


def failures(cases: list[Case], run: Run, docs: dict[str, str]) -> list[dict[str, Any]]:
    """citecheck's misses: noise quotes not located, reject quotes verified."""
    out = []
    for case, p in zip(cases, run.predictions, strict=True):
        missed = case.variant in NOISE and not is_located(p, case)
        if not (missed or (case.variant in REJECT and p.verified)):
            continue
        found = docs[p.doc][p.start : p.end] if p.doc and p.start is not None else None
        out.append(
            {
                "variant": case.variant,
                "kind": "not located" if missed else "false acceptance",
                "quote": case.quote,
                "gold": case.gold.text if case.gold else None,
                "gold_doc": case.gold.context.id if case.gold else None,
                "found_doc": p.doc,
                "found": found,
                "iou": max((overlap(p, pl) for pl in case.places), default=None),
                "status": p.status,
                "reason": p.reason,
            }
        )
    return out


def print_failures(found: list[dict[str, Any]], per_variant: int) -> None:
    shown: Counter[str] = Counter()
    for f in found:
        key = f"{f['variant']}:{f.get('system', '')}"
        if shown[key] >= per_variant:
            continue
        shown[key] += 1
        iou = "—" if f["iou"] is None else f"{f['iou']:.2f}"
        system = " through the marker" if f.get("system") == "marker" else ""
        print(f"- **{f['variant']}**{system} ({f['kind']}, {f['status']}, IoU {iou})")
        print(f"  - quote: {_short(f['quote'], like=f['gold'])!r}")
        if f["gold"]:
            print(f"  - gold ({f['gold_doc']}): {_short(f['gold'], like=f['quote'])!r}")
        print(f"  - found ({f['found_doc']}): {_short(f['found'], like=f['quote'])!r}")
        print(f"  - reason: {_short(f['reason'], 240)}")


# -- main ------------------------------------------------------------------------------------


def timed(
    system: Callable[[list[str], dict[str, str]], Run],
    quotes: list[str],
    docs: dict[str, str],
    repeats: int,
    profiler: cProfile.Profile | None,
) -> Run:
    """The first run's answers with the fastest of ``repeats`` timings (each run builds its
    own index). Every system gets the same repeats: on a shared machine the minimum is the
    least disturbed measurement, and only an equal number of tries keeps the ratios fair."""
    runs = []
    for _ in range(repeats):
        if profiler is not None and system is run_citecheck:
            profiler.enable()
        runs.append(system(quotes, docs))
        if profiler is not None:
            profiler.disable()
    builds = [r.build_seconds for r in runs if r.build_seconds is not None]
    return Run(runs[0].predictions, min(r.seconds for r in runs), min(builds, default=None))


def warm_up() -> None:
    """Import what each system loads lazily (numpy, bm25s, rank_bm25) on a tiny corpus, so the
    first variant's timings do not include one-off imports."""
    docs = {"a": "The quick brown fox jumps over the lazy dog.", "b": "Pack my box with jugs."}
    for system in SYSTEMS.values():
        system(["quick brown fox jumps"], docs)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the quotes/ data folder")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--per-variant", type=int, default=DEFAULT_PER_VARIANT, metavar="N")
    parser.add_argument(
        "--baseline-a",
        type=int,
        default=DEFAULT_BASELINE_A,
        metavar="N",
        help="baseline (a) runs on the first N quotes of each variant (it is slow)",
    )
    parser.add_argument(
        "--repeats", type=int, default=1, help="time every system this many times, keep the best"
    )
    parser.add_argument("--out", type=Path, help="write the results as JSON")
    parser.add_argument("--examples", type=int, default=3, help="misses shown per variant")
    parser.add_argument("--profile", action="store_true", help="cProfile citecheck's calls")
    return parser.parse_args(argv)


def build_cases(args: argparse.Namespace) -> tuple[dict[str, list[Case]], list[Context]]:
    contexts = load_contexts(args.data)
    corpus, held_out = split_held_out(contexts, args.seed)
    pool, held_pool = gold_spans(corpus), gold_spans(held_out)
    donors: dict[str, list[Gold]] = {}
    for gold in pool[1]:
        donors.setdefault(gold.context.lang, []).append(gold)
    cases = {}
    for variant, perturb in perturbations(donors).items():
        source = held_pool if variant == "not_in_corpus" else pool
        sampled = sample_cases(variant, perturb, source, args.per_variant, args.seed)
        cases[variant] = attach_places(sampled, corpus)
    return cases, corpus


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    command = "PYTHONPATH=src python benchmarks/quotes.py " + " ".join(sys.argv[1:])
    info = machine()
    print(f"command: {command.strip()}")
    print("machine: " + ", ".join(f"{k}={v}" for k, v in info.items()))
    cases, corpus = build_cases(args)
    docs = {c.id: c.text for c in corpus}
    warm_up()
    print(f"corpus: {len(docs)} contexts, {sum(map(len, docs.values())):,} characters")
    prepared = prepare_locator(docs, [c.quote for found in cases.values() for c in found])
    print(f"{REUSED}: documents and index built in {prepared:.2f} s")
    profiler = cProfile.Profile() if args.profile else None
    results: dict[str, dict[str, Score]] = {name: {} for name in (*SYSTEMS, MARKER)}
    misses: list[dict[str, Any]] = []
    named: dict[str, int] = {}
    runs: dict[str, Run] = {}
    for variant, variant_cases in cases.items():
        for name, system in SYSTEMS.items():
            subset = variant_cases[: args.baseline_a] if name == SUBSAMPLED else variant_cases
            run = timed(system, [c.quote for c in subset], docs, args.repeats, profiler)
            runs[name] = run
            results[name][variant] = score(subset, run, spans=not name.startswith("(c)"))
            if name == "citecheck":
                misses.extend(failures(subset, run, docs))
        cited = [c.places[0][0] if c.places else corpus[0].id for c in variant_cases]
        marked = run_marker([c.quote for c in variant_cases], cited, docs)
        results[MARKER][variant] = score(variant_cases, marked, spans=True)
        misses.extend({**f, "system": "marker"} for f in failures(variant_cases, marked, docs))
        if variant == "word_dropped":
            named = {name: named_drops(variant_cases, runs[name]) for name in runs}
            named[MARKER] = named_drops(variant_cases, marked)
            spans = {name: partial_spans(variant_cases, runs[name]) for name in runs}
            spans[MARKER] = partial_spans(variant_cases, marked)
        ours = results["citecheck"][variant]
        print(f"  {variant}: {ours.n} quotes, citecheck {ours.per_second:,.0f}/s", file=sys.stderr)
    for name, scores in results.items():
        note = f" (first {args.baseline_a} quotes of each variant)" if name == SUBSAMPLED else ""
        print(f"\n### {name}{note}\n\n{table(scores)}")
    print(f"\n### citecheck statuses\n\n{status_table(results['citecheck'])}")
    print(f"\n### {MARKER}: statuses\n\n{status_table(results[MARKER])}")
    dropped = len(cases["word_dropped"])
    print(
        "\n### word_dropped: partial, naming the dropped word\n\n"
        + "\n".join(f"- {name}: {count} of {dropped}" for name, count in named.items())
    )
    print(
        f"\n### word_dropped: partial, with a span over ≥ {WHOLE_PASSAGE:.0%} of the passage\n\n"
        + "\n".join(f"- {name}: {c} of {n} partial" for name, (c, n) in spans.items())
    )
    summary, met = targets(results)
    print(f"\n### targets\n\n{summary}\n\n### citecheck misses ({len(misses)}; examples)\n")
    print_failures(misses, args.examples)
    if profiler is not None:
        print("\n### cProfile of citecheck (cumulative, top 25)\n")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(25)
    if args.out:
        payload = {
            "command": command.strip(),
            "machine": info,
            "args": {k: str(v) for k, v in vars(args).items()},
            "results": {n: {v: asdict(s) for v, s in r.items()} for n, r in results.items()},
            "reused_locator_build_seconds": prepared,
            "targets_met": met,
            "citecheck_misses": misses,
            "word_dropped_named": named,
            "word_dropped_partial_spans": spans,
        }
        args.out.write_text(json.dumps(payload, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
