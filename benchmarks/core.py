"""Core benchmark: citations per second, exact and fuzzy, and the fuzzy matcher against difflib.

Builds a deterministic ~5 MB corpus of English-like prose (150 documents from a seeded grammar;
some addressed by lines, some paged with ``[PAGE:N]`` markers and PDF-style end-of-line
hyphenation), writes LLM-style answers with ``[[doc:L12-14]]`` / ``[[doc:p7]]`` citations of known
ground truth, and times ``Verifier.verify`` over them with ``matchers=("exact",)``, with the
default exact+fuzzy cascade, and with that cascade at the cited place only
(``search_elsewhere=False``). Every status is checked against the ground truth before any number
is reported: a benchmark that measures wrong answers is worthless. Then ``FuzzyMatcher.find`` is
timed against two difflib alignments on the same (quote, cited span) pairs.

Run from the repository root::

    PYTHONPATH=src python benchmarks/core.py [--citations N] [--seed S] [--out FILE.json]

Nothing is read from disk or the network; the same seed gives the same corpus and answers.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import statistics
import sys
import time
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import citecheck
from citecheck import Citation, Document, Report, Span, Status, Verifier
from citecheck.language.text import normalize
from citecheck.matchers import FuzzyMatcher
from citecheck.matchers.alignment import align

DEFAULT_SEED = 20240917
DEFAULT_CITATIONS = 10_000
CITATIONS_PER_ANSWER = 100
DOCUMENTS = 150
CORPUS_CHARS = 5_000_000
PAGED_SHARE = 0.4  # documents with [PAGE:N] markers; the rest are cited by lines
DIFFLIB_PAIRS = 300  # difflib is slow: it runs on a fixed subsample of the fuzzy pairs
CATEGORY_SAMPLE = 100  # citations of each kind timed one by one for the per-kind breakdown
REPEATS = 3  # one-by-one timings are repeated and the fastest kept
TARGET_CITATIONS_PER_SECOND = 5_000
TARGET_FUZZY_SPEEDUP = 50

# What each generated citation is, in what share, and the status each configuration must give.
SHARES = {
    "verbatim": 0.60,  # the excerpt stands at the cited place, word for word
    "normalised": 0.12,  # case, whitespace, typographic quotes/dashes: still an exact match
    "typo": 0.12,  # one or two letter slips as well: only the fuzzy matcher finds it
    "wrong_location": 0.08,  # verbatim, but the line range / page (or document) is wrong
    "fabricated": 0.05,  # a plausible sentence that stands nowhere in the corpus
    "phantom": 0.03,  # the document, line or page does not exist
}
_EXACT_ONLY = {
    "verbatim": Status.VERIFIED,
    "normalised": Status.VERIFIED,
    "typo": Status.UNSUPPORTED,
    "wrong_location": Status.WRONG_LOCATION,
    "fabricated": Status.UNSUPPORTED,
    "phantom": Status.NOT_FOUND,
}
# name -> (matchers, search_elsewhere, the status each category must get)
CONFIGS: dict[str, tuple[tuple[str, ...], bool, dict[str, Status]]] = {
    "exact": (("exact",), True, _EXACT_ONLY),
    "exact+fuzzy": (("exact", "fuzzy"), True, {**_EXACT_ONLY, "typo": Status.VERIFIED}),
    "exact+fuzzy, at location only": (
        ("exact", "fuzzy"),
        False,
        {**_EXACT_ONLY, "typo": Status.VERIFIED, "wrong_location": Status.UNSUPPORTED},
    ),
}
MAX_WRONG_SHARE = 0.005  # per category (at least 1): more disagreement with the ground truth fails
# A short quote that is not at the cited place (fabricated, or cited at the wrong place) may come
# within the fuzzy threshold of an unrelated sentence there or elsewhere in 5 MB: a chance match,
# judged partial or wrong_location. Tolerated up to this share of the category (at least 2).
MAX_CHANCE_MATCHES = 0.05

# -- a seeded grammar of English-like report prose ---------------------------------------------

NOUNS = (
    "committee survey cohort agency council model framework archive harbour railway district "
    "library hospital clinic ministry report census treaty budget market factory village river "
    "estuary glacier forest wetland school university museum festival parliament tribunal union "
    "cooperative bank mill mine port canal bridge road station observatory laboratory trial "
    "experiment sample measurement dataset index reform policy programme strategy scheme grant "
    "loan tariff levy subsidy harvest drought flood storm epidemic vaccine treatment therapy "
    "diagnosis patient nurse physician teacher student farmer miner merchant engineer architect "
    "historian economist journalist editor author translator manuscript letter diary map ledger "
    "inventory café façade régime élite shipment contract settlement charter ordinance "
    "assessment evaluation proposal outbreak vessel cargo warehouse pipeline reservoir turbine "
    "network database protocol algorithm sensor satellite sediment rainfall yield wage pension"
).split()
ADJECTIVES = (
    "regional national early late northern southern coastal rural urban annual quarterly "
    "preliminary final revised independent municipal federal private public experimental "
    "clinical historical modern medieval colonial industrial agricultural financial legal "
    "technical statistical significant modest sharp gradual steady unexpected persistent "
    "temporary permanent larger smaller older younger remaining entire original long-term "
    "low-income cross-border well-known naïve provisional disputed confidential"
).split()
VERBS = tuple(
    tuple(entry.split("/"))
    for entry in (
        "report/reported/reported measure/measured/measured reduce/reduced/reduced "
        "increase/increased/increased describe/described/described question/questioned/questioned "
        "confirm/confirmed/confirmed revise/revised/revised fund/funded/funded build/built/built "
        "close/closed/closed open/opened/opened expand/expanded/expanded "
        "publish/published/published reject/rejected/rejected approve/approved/approved "
        "record/recorded/recorded estimate/estimated/estimated replace/replaced/replaced "
        "support/supported/supported oppose/opposed/opposed delay/delayed/delayed "
        "restore/restored/restored abandon/abandoned/abandoned adopt/adopted/adopted "
        "review/reviewed/reviewed examine/examined/examined compare/compared/compared "
        "document/documented/documented predict/predicted/predicted observe/observed/observed "
        "detect/detected/detected treat/treated/treated train/trained/trained hire/hired/hired "
        "transfer/transferred/transferred export/exported/exported regulate/regulated/regulated "
        "study/studied/studied translate/translated/translated catalogue/catalogued/catalogued "
        "digitise/digitised/digitised sell/sold/sold buy/bought/bought lose/lost/lost "
        "find/found/found show/showed/shown see/saw/seen write/wrote/written take/took/taken "
        "give/gave/given keep/kept/kept hold/held/held leave/left/left"
    ).split()
)
ADVERBS = (
    "quickly gradually formally briefly largely partly repeatedly eventually initially "
    "reportedly apparently officially quietly sharply"
).split()
NAMES = (
    "Aldermoor Brackwater Castellan Dunmere Elsworth Farrowdale Glenhurst Harlow Ingleby "
    "Kestrel Lindqvist Marlowe Northam Okafor Pemberton Quayle Rossiter Saltmarsh Thornbury "
    "Underhill Vasquez Whitcombe Yardley Zielinski Østergaard Nuñez Müller"
).split()
CURRENCIES = ("pounds", "dollars", "euros", "crowns", "francs")
JOINERS = (", and ", ", but ", "; however, ", " — while ", ", although ", ", whereas ")
LEAD_INS = (
    "According to the source,",
    "The report states that",
    "As the authors put it,",
    "The record notes that",
    "In the words of the document,",
    "The text says:",
    "It is stated that",
    "One passage reads",
    "",
)
NEGATIONS = frozenset("not no never none nor nothing nobody nowhere neither without cannot".split())


class Prose:
    """Sentences from a small grammar, deterministic for a given ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def _plural(self, noun: str) -> str:
        if noun.endswith("y") and noun[-2] not in "aeiou":
            return noun[:-1] + "ies"
        return noun + ("es" if noun.endswith(("s", "sh", "ch", "x")) else "s")

    def _noun_phrase(self, apostrophe: str) -> str:
        r, pick = self.rng, self.rng.choice
        roll = r.random()
        adjective = f"{pick(ADJECTIVES)} " if r.random() < 0.5 else ""
        if roll < 0.40:
            return f"the {adjective}{pick(NOUNS)}"
        if roll < 0.55:
            return f"{r.randint(2, 480)} {adjective}{self._plural(pick(NOUNS))}"
        if roll < 0.70:
            return f"the {pick(NOUNS)} of the {adjective}{pick(NOUNS)}"
        if roll < 0.80:
            return f"the {pick(NAMES)} {pick(NOUNS)}"
        if roll < 0.90:
            return f"{pick(NAMES)}{apostrophe}s {adjective}{pick(NOUNS)}"
        return f"most {adjective}{self._plural(pick(NOUNS))}"

    def _modifier(self) -> str:
        r, pick = self.rng, self.rng.choice
        year = r.randint(1820, 2023)
        return pick(
            (
                "",
                "",
                f" in {year}",
                f" by {r.randint(2, 60)}.{r.randint(0, 9)} percent",
                f" across {r.randint(3, 90)} {self._plural(pick(NOUNS))}",
                f" after {r.randint(2, 52)} weeks",
                f" during the {pick(ADJECTIVES)} phase",
                f" at a cost of {r.randint(2, 950)},{r.randint(0, 999):03d} {pick(CURRENCIES)}",
                f" ({r.randint(2, 40)} of {r.randint(41, 400)} cases)",
                f" between {year} and {year + r.randint(1, 30)}",
            )
        )

    def _clause(self, apostrophe: str) -> str:
        r, pick = self.rng, self.rng.choice
        base, past, participle = pick(VERBS)
        subject, obj = self._noun_phrase(apostrophe), self._noun_phrase(apostrophe)
        adverb = f"{pick(ADVERBS)} " if r.random() < 0.2 else ""
        roll = r.random()
        if roll < 0.45:
            return f"{subject} {adverb}{past} {obj}{self._modifier()}"
        if roll < 0.55:
            return f"{subject} did not {base} {obj}{self._modifier()}"
        if roll < 0.70:
            return f"{obj} was {adverb}{participle} by {subject}{self._modifier()}"
        if roll < 0.80:
            return f"in {r.randint(1820, 2023)}, {subject} {past} {obj}"
        if roll < 0.90:
            _, _, second = pick(VERBS)
            return f"{subject} {past} that {obj} had {second} {self._noun_phrase(apostrophe)}"
        return f"according to {subject}, {obj} {past} {self._noun_phrase(apostrophe)}"

    def sentence(self, typeset: bool) -> str:
        apostrophe = "\u2019" if typeset else "'"
        text = self._clause(apostrophe)
        if self.rng.random() < 0.45:
            joiner = self.rng.choice(JOINERS)
            if not typeset:
                joiner = joiner.replace("\u2014", "-")
            text += joiner + self._clause(apostrophe)
        return text[0].upper() + text[1:] + "."


# -- the corpus ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sentence:
    """Ground truth for one sentence of the corpus: where it stands."""

    doc: int
    text: str  # single-spaced, as written before wrapping
    start: int  # offsets into the document text
    end: int
    first_line: int
    last_line: int
    page: int | None


@dataclass(frozen=True, slots=True)
class SourceDoc:
    """A generated document: its text, whether it is paged, its line count and page numbers."""

    id: str
    text: str
    paged: bool
    lines: int
    pages: tuple[int, ...]


def _wrap_paragraph(
    sentences: list[str], width: int, hyphenate: bool, rng: random.Random
) -> tuple[str, list[tuple[int, int]]]:
    """Greedy line wrapping; with ``hyphenate``, some long words are split across lines with a
    hyphen, as in text extracted from a PDF. Returns the text and each sentence's offsets."""
    out: list[str] = []
    length = 0
    column = 0
    spans: list[tuple[int, int]] = []
    for sentence in sentences:
        start = -1
        for word in sentence.split(" "):
            if column and column + 1 + len(word) > width:
                cut = _hyphen_cut(word, width - column - 2) if hyphenate else 0
                if cut and rng.random() < 0.35:
                    piece = f" {word[:cut]}-\n"
                    out.append(piece)
                    length += len(piece)
                    if start < 0:
                        start = length - len(piece) + 1
                    word = word[cut:]
                    column = 0
                else:
                    out.append("\n")
                    length += 1
                    column = 0
            elif column:
                out.append(" ")
                length += 1
                column += 1
            if start < 0:
                start = length
            out.append(word)
            length += len(word)
            column += len(word)
        spans.append((start, length))
    return "".join(out), spans


def _hyphen_cut(word: str, room: int) -> int:
    """Where a word may be split at a line end (0: not at all)."""
    if len(word) < 8 or not word.isalpha() or room < 3:
        return 0
    return min(room, len(word) - 3)


def build_corpus(seed: int) -> tuple[list[SourceDoc], list[Sentence], Prose, set[str]]:
    """The documents, the ground truth of every sentence in them, the sentence generator (to
    fabricate more) and the set of sentences used (which fabricated ones must avoid)."""
    rng = random.Random(seed)
    prose = Prose(rng)
    seen: set[str] = set()
    weights = [rng.uniform(0.4, 1.6) for _ in range(DOCUMENTS)]
    scale = CORPUS_CHARS / sum(weights)
    documents: list[SourceDoc] = []
    sentences: list[Sentence] = []
    for index, weight in enumerate(weights):
        document, found = _build_document(index, int(weight * scale), prose, seen, rng)
        documents.append(document)
        sentences.extend(found)
    return documents, sentences, prose, seen


def _build_document(
    index: int, target: int, prose: Prose, seen: set[str], rng: random.Random
) -> tuple[SourceDoc, list[Sentence]]:
    """One document of about ``target`` characters: a title line, then paragraphs wrapped at
    68-84 columns; a paged one has a ``[PAGE:N]`` line every 2,500-3,500 characters and
    hyphenates some words at line ends, as text extracted from a PDF does."""
    paged = rng.random() < PAGED_SHARE
    typeset = rng.random() < 0.5  # typographic apostrophes and em dashes
    page = rng.choice((1, 1, 1, 17, 201)) if paged else 0
    pages = [page] if paged else []
    parts = [f"[PAGE:{page}]\n"] if paged else []
    parts.append(f"{prose.sentence(typeset)[:-1]}\n\n")  # a title line
    length = sum(len(part) for part in parts)
    page_chars = 0
    placed: list[tuple[str, int, int, int | None]] = []  # sentence, start, end, page
    while length < target:
        if paged and page_chars > rng.randint(2500, 3500):
            page += 1
            pages.append(page)
            page_chars = 0
            parts.append(f"[PAGE:{page}]\n")
            length += len(parts[-1])
        batch: list[str] = []
        size = rng.randint(3, 7)
        while len(batch) < size:
            sentence = prose.sentence(typeset)
            if sentence not in seen:
                seen.add(sentence)
                batch.append(sentence)
        text, spans = _wrap_paragraph(batch, rng.randint(68, 84), paged, rng)
        placed.extend(
            (sentence, length + start, length + end, page if paged else None)
            for sentence, (start, end) in zip(batch, spans, strict=True)
        )
        page_chars += len(text)
        parts.append(text + "\n\n")
        length += len(parts[-1])
    full = "".join(parts)
    line_starts = [0] + [i + 1 for i, ch in enumerate(full) if ch == "\n"]
    sentences = [
        Sentence(
            index,
            sentence,
            start,
            end,
            bisect_right(line_starts, start),
            bisect_right(line_starts, end - 1),
            number,
        )
        for sentence, start, end, number in placed
    ]
    document = SourceDoc(f"doc-{index + 1}", full, paged, full.count("\n"), tuple(pages))
    return document, sentences


# -- citations with ground truth -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Planned:
    """One generated citation and what the verifier must say about it."""

    category: str
    source_id: str
    locator: str
    quote: str
    truth: Sentence | None  # where the quote really stands (None: nowhere)


def _quote_of(sentence: str, rng: random.Random) -> str:
    """A whole sentence (70 %) or a run of at least eight of its words. A run never starts
    after a negation of its sentence ("did not | treat the economist…") nor ends on one ("… the
    assessment did not |"): cut there, a true quote says the opposite of its source, and
    citecheck rightly calls it partial."""
    words = sentence.split(" ")
    if len(words) < 12 or rng.random() < 0.7:
        return sentence
    for _ in range(20):
        size = rng.randint(8, len(words) - 2)
        first = rng.randint(0, len(words) - size)
        run = words[first : first + size]
        if not (_NEGATION_WORD.search(" ".join(words[:first])) or _NEGATION_WORD.search(run[-1])):
            return " ".join(run).strip(",;:")
    return sentence


_NEGATION_WORD = re.compile(r"\b(?:not|no|never|none|nothing|without)\b|n't\b", re.IGNORECASE)


def _line_locator(first: int, last: int, lines: int, rng: random.Random) -> str:
    if rng.random() < 0.3:  # answers often cite a little more than the quote's own lines
        first, last = max(1, first - rng.randint(0, 3)), min(lines, last + rng.randint(0, 3))
    return f"L{first}" if first == last else f"L{first}-{last}"


def _locator(sentence: Sentence, doc: SourceDoc, rng: random.Random) -> str:
    if doc.paged:
        return f"p{sentence.page}"
    return _line_locator(sentence.first_line, sentence.last_line, doc.lines, rng)


def _normalisation_noise(quote: str, rng: random.Random) -> str:
    """Changes the normaliser absorbs: case, spacing, typographic quotes and dashes."""
    noisy = quote
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(5)
        if kind == 0:
            noisy = noisy.lower()
        elif kind == 1:
            noisy = noisy[0].lower() + noisy[1:] if noisy[0].isupper() else noisy.capitalize()
        elif kind == 2:
            spaces = [  # single spaces between words only: no blank line may arise
                i
                for i in range(1, len(noisy) - 1)
                if noisy[i] == " " and not (noisy[i - 1].isspace() or noisy[i + 1].isspace())
            ]
            if spaces:
                at = rng.choice(spaces)
                noisy = noisy[:at] + rng.choice(("  ", "\n", "\u00a0")) + noisy[at + 1 :]
        elif kind == 3:
            noisy = noisy.replace("'", "\u2019") if "'" in noisy else noisy.replace("\u2019", "'")
        else:
            noisy = noisy.replace("\u2014", "\u2013") if "\u2014" in noisy else noisy.upper()
    return noisy


def _typos(quote: str, rng: random.Random) -> str:
    """One or two letter slips inside longer words; numbers and negations are left alone."""
    chars = list(quote)
    words = [
        (m_start, m_start + len(word))
        for m_start, word in _word_positions(quote)
        if len(word) >= 5 and word.isalpha() and word.lower() not in NEGATIONS
    ]
    for start, end in rng.sample(words, min(len(words), rng.randint(1, 2))):
        at = rng.randrange(start + 1, end - 1)
        kind = rng.randrange(3)
        if kind == 0 and chars[at].lower() != chars[at + 1].lower():  # transposition
            chars[at], chars[at + 1] = chars[at + 1], chars[at]
        elif kind == 2:  # deletion
            chars[at] = ""
        else:  # substitution
            chars[at] = "e" if chars[at].lower() != "e" else "a"
    return "".join(chars)


def _word_positions(text: str) -> list[tuple[int, str]]:
    out = []
    position = 0
    for word in text.split(" "):
        out.append((position, word.strip(",;:.()")))
        position += len(word) + 1
    return out


def plan_citations(
    count: int,
    documents: list[SourceDoc],
    sentences: list[Sentence],
    prose: Prose,
    seen: set[str],
    seed: int,
) -> list[Planned]:
    rng = random.Random(seed + 1)
    categories = [name for name, share in SHARES.items() for _ in range(round(share * count))]
    categories = (categories + ["verbatim"] * count)[:count]
    rng.shuffle(categories)
    by_doc: dict[int, list[Sentence]] = defaultdict(list)
    for sentence in sentences:
        by_doc[sentence.doc].append(sentence)
    order = rng.sample(range(len(sentences)), min(count, len(sentences)))
    planned: list[Planned] = []
    for number, category in enumerate(categories):
        sentence = sentences[order[number % len(order)]]
        doc = documents[sentence.doc]
        if category in ("verbatim", "normalised", "typo"):
            quote = _quote_of(sentence.text, rng)
            if category == "normalised":
                quote = _normalisation_noise(quote, rng)
            elif category == "typo":
                quote = _typos(quote, rng)
                if rng.random() < 0.5:
                    quote = _normalisation_noise(quote, rng)
            locator = _locator(sentence, doc, rng)
            planned.append(Planned(category, doc.id, locator, quote, sentence))
        elif category == "wrong_location":
            if rng.random() < 0.25:  # cited to another document altogether
                other = rng.choice([d for d in range(len(documents)) if d != sentence.doc])
                target = rng.choice(by_doc[other])
                cited = documents[other]
                locator = _locator(target, cited, rng)
                planned.append(Planned(category, cited.id, locator, sentence.text, sentence))
                continue
            while True:
                target = rng.choice(by_doc[sentence.doc])
                if doc.paged and target.page != sentence.page:
                    break
                if not doc.paged and (
                    target.last_line + 4 < sentence.first_line
                    or target.first_line > sentence.last_line + 4
                ):
                    break
            locator = _locator(target, doc, rng)
            planned.append(Planned(category, doc.id, locator, sentence.text, sentence))
        elif category == "fabricated":
            while (quote := prose.sentence(rng.random() < 0.5)) in seen:
                pass
            planned.append(Planned(category, doc.id, _locator(sentence, doc, rng), quote, None))
        else:  # phantom: an id that is not among the sources, or a line / page past the end
            roll = rng.random()
            if roll < 0.4:
                source_id, locator = f"doc-{DOCUMENTS + rng.randint(1, 50)}", "L1"
            elif doc.paged:
                source_id, locator = doc.id, f"p{doc.pages[-1] + rng.randint(1, 40)}"
            else:
                extra = doc.lines + rng.randint(1, 200)
                source_id, locator = doc.id, f"L{extra}-{extra + 2}"
            planned.append(Planned(category, source_id, locator, sentence.text, None))
    return planned


def write_answers(planned: list[Planned], seed: int) -> list[str]:
    """Markdown answers of ``CITATIONS_PER_ANSWER`` citations each, in paragraphs."""
    rng = random.Random(seed + 2)
    answers: list[str] = []
    for first in range(0, len(planned), CITATIONS_PER_ANSWER):
        paragraphs: list[str] = []
        current: list[str] = []
        for item in planned[first : first + CITATIONS_PER_ANSWER]:
            opening, closing = ("\u201c", "\u201d") if rng.random() < 0.3 else ('"', '"')
            lead = rng.choice(LEAD_INS)
            marker = f"[[{item.source_id}:{item.locator}]]"
            current.append(f"{lead} {opening}{item.quote}{closing} {marker}.".lstrip())
            if len(current) >= rng.randint(3, 6):
                paragraphs.append(" ".join(current))
                current = []
        if current:
            paragraphs.append(" ".join(current))
        answers.append("\n\n".join(paragraphs) + "\n")
    return answers


# -- measuring -----------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    """Cores, RAM, CPU model, Python: printed with the numbers and stored in the JSON."""
    model = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram = round(int(line.split()[1]) / 1024**2, 1)
                break
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    import rapidfuzz

    try:
        load: list[float] | None = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {
        "cpu_model": model,
        "cores": os.cpu_count(),
        "cores_usable": usable,
        "ram_gib": ram,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "citecheck": citecheck.__version__,
        "rapidfuzz": rapidfuzz.__version__,
        "load_average": load,
    }


def check_report(
    config: str, expected: dict[str, Status], planned: list[Planned], reports: list[Report]
) -> dict[str, Any]:
    """Compare every result with the ground truth: the extracted citation, its status and where
    the evidence stands. Exits with an error when more than a sliver disagrees."""
    results = [result for report in reports for result in report.results]
    if len(results) != len(planned):
        raise SystemExit(f"{config}: {len(results)} results for {len(planned)} citations")
    statuses: Counter[str] = Counter()
    confusion: dict[str, Counter[str]] = defaultdict(Counter)
    methods: dict[str, Counter[str]] = defaultdict(Counter)
    failures: Counter[str] = Counter()
    chance: Counter[str] = Counter()
    chance_examples: list[str] = []
    slips: list[str] = []
    wrong: list[str] = []
    for item, result in zip(planned, results, strict=True):
        citation = result.citation
        extracted = (citation.source_id, citation.locator, citation.excerpt)
        if extracted != (item.source_id, item.locator, item.quote):
            raise SystemExit(f"{config}: extracted {extracted!r}, generated {item!r}")
        statuses[result.status.value] += 1
        confusion[item.category][result.status.value] += 1
        if result.evidence:
            methods[item.category][result.evidence[0].method] += 1
        located = item.truth is None or not result.evidence or _at_truth(item, result.evidence)
        if result.status is expected[item.category] and located:
            continue
        if (
            item.category in ("wrong_location", "fabricated")
            and result.status in (Status.WRONG_LOCATION, Status.PARTIAL)
            and result.evidence[0].method == "fuzzy"
            and (item.truth is None or not _at_truth(item, result.evidence[:1]))
        ):
            # A short quote can come within the fuzzy threshold of an unrelated sentence, at the
            # cited place or in a source searched before the one that holds it.
            chance[item.category] += 1
            if len(chance_examples) < 5:
                chance_examples.append(
                    f"{item.quote!r} ~ {result.evidence[0].text!r}: {result.reason}"
                )
            continue
        if (
            item.category == "typo"
            and result.status is Status.PARTIAL
            and expected["typo"] is Status.VERIFIED
            and _at_truth(item, result.evidence)
        ):
            # Found at the cited place by the fuzzy matcher (the work this benchmark times), but
            # the verifier's wording check took the slip for a change of wording.
            slips.append(f"{item.quote!r}: {result.reason}")
            continue
        problem = result.status.value if located else "evidence away from the true place"
        failures[item.category] += 1
        if len(wrong) < 5:
            wrong.append(f"{item.category} {item.quote!r}: {problem}: {result.reason}")
    per_category = Counter(item.category for item in planned)
    for category, count in failures.items():
        if count > max(1, MAX_WRONG_SHARE * per_category[category]):
            print("\n".join(wrong), file=sys.stderr)
            raise SystemExit(
                f"{config}: {count} of {per_category[category]} {category!r} citations did not "
                f"come out {expected[category].value!r} with evidence at the true place"
            )
    for category, count in chance.items():
        if count > max(2, MAX_CHANCE_MATCHES * per_category[category]):
            print("\n".join(chance_examples), file=sys.stderr)
            raise SystemExit(f"{config}: {count} {category!r} quotes matched something fuzzily")
    return {
        "statuses": dict(sorted(statuses.items())),
        "status_by_category": {c: dict(confusion[c]) for c in SHARES if c in confusion},
        "mismatches": sum(failures.values()),
        "chance_matches": dict(chance),
        "slips_judged_partial": len(slips),
        "evidence_methods": {c: dict(m) for c, m in methods.items()},
        "examples_of_mismatch": wrong,
        "examples_of_chance_matches": chance_examples,
        "examples_of_slips_judged_partial": slips[:5],
    }


def _at_truth(item: Planned, evidence: Sequence[Any]) -> bool:
    """True when an evidence span overlaps the true place of the quote."""
    truth = item.truth
    assert truth is not None
    doc_id = f"doc-{truth.doc + 1}"
    return any(
        e.source_id == doc_id and e.start < truth.end and truth.start < e.end for e in evidence
    )


def time_verify(
    verifier: Verifier, answers: list[str], sources: dict[str, Document]
) -> tuple[float, list[Report]]:
    verifier.verify(answers[0], sources)  # warm-up: lazy imports, first-call costs
    started = time.perf_counter()
    reports = [verifier.verify(answer, sources) for answer in answers]
    return time.perf_counter() - started, reports


def time_by_category(
    verifier: Verifier,
    citations: list[Citation],
    planned: list[Planned],
    sources: dict[str, Document],
    seed: int,
) -> dict[str, dict[str, float]]:
    """Per-citation cost of each kind of citation: ``Verifier.check`` (no extraction) on up to
    ``CATEGORY_SAMPLE`` citations of each kind, the same ones for every configuration; each
    citation is timed ``REPEATS`` times and the fastest counts, so that a busy neighbour on a
    shared machine does not end up in the numbers."""
    rng = random.Random(seed + 4)
    members: dict[str, list[int]] = defaultdict(list)
    for index, item in enumerate(planned):
        members[item.category].append(index)
    spent: dict[str, list[float]] = {}
    clock = time.perf_counter
    for category in SHARES:
        chosen = members.get(category, [])
        chosen = sorted(rng.sample(chosen, min(CATEGORY_SAMPLE, len(chosen))))
        times = []
        for index in chosen:
            fastest = float("inf")
            for _ in range(REPEATS):
                started = clock()
                verifier.check(citations[index], sources)
                fastest = min(fastest, clock() - started)
            times.append(fastest)
        if times:
            spent[category] = times
    # Each category's share of the time of the full run: its mean cost times its count.
    weight = {c: statistics.fmean(t) * len(members[c]) for c, t in spent.items()}
    return {
        category: {
            "timed": len(times),
            "citations": len(members[category]),
            "mean_us": statistics.fmean(times) * 1e6,
            "median_us": statistics.median(times) * 1e6,
            "max_ms": max(times) * 1e3,
            "share_of_time": weight[category] / sum(weight.values()),
        }
        for category, times in spent.items()
    }


def difflib_anchor(span_text: str, quote: str) -> tuple[float, int, int]:
    """The cheapest sensible difflib alignment: anchor a quote-sized window on the longest
    common block (``find_longest_match``), score it with ``ratio``."""
    matcher = SequenceMatcher(None, span_text, quote, autojunk=False)
    a, b, size = matcher.find_longest_match(0, len(span_text), 0, len(quote))
    if not size:
        return 0.0, 0, 0
    start = max(0, a - b)
    end = min(len(span_text), start + len(quote))
    return SequenceMatcher(None, span_text[start:end], quote, autojunk=False).ratio(), start, end


def difflib_best_window(span_text: str, quote: str) -> tuple[float, int, int]:
    """The thorough difflib alignment, as fuzzywuzzy's pure-Python ``partial_ratio`` did it:
    a quote-sized window at every matching block (``get_matching_blocks``), keep the best
    ``ratio``."""
    matcher = SequenceMatcher(None, span_text, quote, autojunk=False)
    best = (0.0, 0, 0)
    for a, b, size in matcher.get_matching_blocks():
        if not size:
            continue
        start = max(0, a - b)
        end = min(len(span_text), start + len(quote))
        score = SequenceMatcher(None, span_text[start:end], quote, autojunk=False).ratio()
        if score > best[0]:
            best = (score, start, end)
    return best


BASELINES: dict[str, Callable[[str, str], tuple[float, int, int]]] = {
    "anchor": difflib_anchor,
    "best_window": difflib_best_window,
}


def fuzzy_vs_difflib(
    planned: list[Planned], citations: list[Citation], sources: dict[str, Document], seed: int
) -> dict[str, Any]:
    """``FuzzyMatcher.find`` against difflib on the same (quote, cited span) pairs: the quotes
    with slips, which only a fuzzy matcher places. difflib runs on a fixed subsample."""
    pairs: list[tuple[str, Document, Span, str]] = []
    for item, citation in zip(planned, citations, strict=True):
        if item.category == "typo" and citation.location is not None:
            document = sources[item.source_id]
            span = document.resolve(citation.location)
            pairs.append((item.quote, document, span, citation.location.kind))
    matcher = FuzzyMatcher()
    clock = time.perf_counter
    fuzzy_times: list[float] = []
    fuzzy_hits: list[tuple[int, int] | None] = []
    for quote, document, span, _ in pairs:
        started = clock()
        hits = matcher.find(quote, document, span)
        fuzzy_times.append(clock() - started)
        fuzzy_hits.append((hits[0].start, hits[0].end) if hits else None)
    # On the subsample, each pair is timed with the fuzzy matcher and both baselines back to
    # back, REPEATS times, keeping the fastest of each: the ratio is taken under the same
    # conditions even when the machine's load changes during the run.
    sample = random.Random(seed + 3).sample(range(len(pairs)), min(DIFFLIB_PAIRS, len(pairs)))
    fastest: dict[str, dict[int, float]] = {name: {} for name in ("fuzzy", "align", *BASELINES)}
    agree: dict[str, set[int]] = {name: set() for name in BASELINES}
    for i in sorted(sample):
        quote, document, span, _ = pairs[i]
        # difflib gets the normalised texts for free (untimed), as the fuzzy matcher has the
        # document's normalised text cached: only the alignment is compared.
        normalized = document.normalized
        n_start, n_end = normalized.to_normalized(span.start, span.end)
        span_text = normalized.text[n_start:n_end]
        needle = normalize(quote).strip(" .,;:")
        outcome: dict[str, tuple[float, int, int]] = {}
        for _ in range(REPEATS):
            started = clock()
            matcher.find(quote, document, span)
            elapsed = clock() - started
            fastest["fuzzy"][i] = min(fastest["fuzzy"].get(i, elapsed), elapsed)
            started = clock()
            align(needle, span_text, matcher.threshold)
            elapsed = clock() - started
            fastest["align"][i] = min(fastest["align"].get(i, elapsed), elapsed)
            for name, baseline in BASELINES.items():
                started = clock()
                outcome[name] = baseline(span_text, needle)
                elapsed = clock() - started
                fastest[name][i] = min(fastest[name].get(i, elapsed), elapsed)
        found = fuzzy_hits[i]
        for name, (score, start, end) in outcome.items():
            if score >= 0.8 and found is not None:
                o_start, o_end = normalized.to_original(n_start + start, n_start + end)
                if o_start < found[1] and found[0] < o_end:
                    agree[name].add(i)
    rows: dict[str, dict[str, Any]] = {}
    for kind in ("lines", "pages", "all"):
        chosen = [i for i in sample if kind == "all" or pairs[i][3] == kind]
        if not chosen:
            continue
        fuzzy_mean = statistics.fmean(fastest["fuzzy"][i] for i in chosen)
        align_mean = statistics.fmean(fastest["align"][i] for i in chosen)
        row: dict[str, Any] = {
            "pairs": len(chosen),
            "mean_span_chars": statistics.fmean(len(pairs[i][2]) for i in chosen),
            "fuzzy_us": fuzzy_mean * 1e6,
            "align_us": align_mean * 1e6,
        }
        for name in BASELINES:
            mean = statistics.fmean(fastest[name][i] for i in chosen)
            row[f"{name}_us"] = mean * 1e6
            row[f"{name}_speedup"] = mean / fuzzy_mean
            row[f"{name}_align_speedup"] = mean / align_mean
            row[f"{name}_agreement"] = sum(i in agree[name] for i in chosen) / len(chosen)
        rows[kind] = row
    return {
        "pairs": len(pairs),
        "fuzzy_all_pairs_us": statistics.fmean(fuzzy_times) * 1e6 if pairs else None,
        "fuzzy_found": sum(hit is not None for hit in fuzzy_hits) / max(1, len(pairs)),
        "difflib_pairs": len(sample),
        "rows": rows,
    }


# -- the run -------------------------------------------------------------------------------------


def run(count: int, seed: int) -> dict[str, Any]:
    info = machine()
    print(
        f"machine: {info['cpu_model']}, {info['cores']} cores ({info['cores_usable']} usable), "
        f"{info['ram_gib']} GiB RAM, {info['python']}, rapidfuzz {info['rapidfuzz']}, "
        f"load average {info['load_average']}"
    )
    started = time.perf_counter()
    corpus, sentences, prose, seen = build_corpus(seed)
    planned = plan_citations(count, corpus, sentences, prose, seen, seed)
    answers = write_answers(planned, seed)
    generated = time.perf_counter() - started
    chars = sum(len(d.text) for d in corpus)
    paged = sum(d.paged for d in corpus)
    print(
        f"corpus: {len(corpus)} documents ({paged} paged, {len(corpus) - paged} by lines), "
        f"{chars / 1e6:.2f} M characters, {len(sentences)} sentences; {len(planned)} citations "
        f"in {len(answers)} answers; generated in {generated:.1f} s (not part of any timing)"
    )

    started = time.perf_counter()
    sources = {d.id: Document(d.id, d.text) for d in corpus}
    for document in sources.values():
        _ = document.normalized, document.line_starts, document.page_list, document.sections
    preparation = time.perf_counter() - started
    print(
        f"corpus preparation, once (normalise, find lines and pages): {preparation:.2f} s "
        f"= {chars / 1e6 / preparation:.1f} M characters/s"
    )

    started = time.perf_counter()
    extracted = [citecheck.extract(answer) for answer in answers]
    extraction = time.perf_counter() - started
    citations = [c for found in extracted for c in found]
    print(
        f"extraction alone (citecheck.extract): {extraction:.2f} s "
        f"= {len(citations) / extraction:.0f} citations/s"
    )

    results: dict[str, Any] = {
        "seed": seed,
        "command": "python benchmarks/core.py " + " ".join(sys.argv[1:]),
        "machine": info,
        "corpus": {
            "documents": len(corpus),
            "paged_documents": paged,
            "characters": chars,
            "sentences": len(sentences),
            "answers": len(answers),
            "citations": len(planned),
            "categories": dict(Counter(item.category for item in planned)),
        },
        "preparation_s": preparation,
        "extraction_s": extraction,
        "verify": {
            config: measure(config, planned, answers, citations, sources, seed)
            for config in CONFIGS
        },
    }
    comparison = results["fuzzy_vs_difflib"] = fuzzy_vs_difflib(planned, citations, sources, seed)
    print(
        f"fuzzy vs difflib on (quote with slips, cited span) pairs: FuzzyMatcher.find "
        f"{comparison['fuzzy_all_pairs_us']:.0f} µs/pair over all {comparison['pairs']}, "
        f"found {comparison['fuzzy_found']:.0%}; difflib on {comparison['difflib_pairs']}:"
    )
    for kind, row in comparison["rows"].items():
        print(
            f"    {kind:<5} {row['pairs']:4d} pairs, span {row['mean_span_chars']:4.0f} chars: "
            f"find {row['fuzzy_us']:4.0f} µs, align {row['align_us']:4.0f} µs | difflib anchor "
            f"{row['anchor_us']:5.0f} µs = {row['anchor_speedup']:3.0f}x find, "
            f"{row['anchor_align_speedup']:3.0f}x align "
            f"(same passage {row['anchor_agreement']:.0%}) | "
            f"best window {row['best_window_us']:5.0f} µs "
            f"= {row['best_window_speedup']:3.0f}x "
            f"(same passage {row['best_window_agreement']:.0%})"
        )
    rates = {config: row["citations_per_s"] for config, row in results["verify"].items()}
    # The target compares like with like: the alignment (the normalised quote and span in, a
    # passage and its score out) against difflib's, which gets the same inputs. The whole find
    # call, which also maps offsets back and builds the evidence, is reported beside it.
    speedup = comparison["rows"]["all"]["anchor_align_speedup"]
    whole_call = comparison["rows"]["all"]["anchor_speedup"]
    results["targets"] = {
        "citations_per_s": TARGET_CITATIONS_PER_SECOND,
        "fuzzy_speedup": TARGET_FUZZY_SPEEDUP,
        "met": {
            **{config: rate >= TARGET_CITATIONS_PER_SECOND for config, rate in rates.items()},
            "fuzzy_speedup": speedup >= TARGET_FUZZY_SPEEDUP,
        },
    }
    verdicts = [
        f"{config} {'met' if met else 'NOT met'}"
        for config, met in results["targets"]["met"].items()
        if config != "fuzzy_speedup"
    ]
    print(
        f"targets: >= {TARGET_CITATIONS_PER_SECOND} citations/s: {', '.join(verdicts)}; "
        f"fuzzy alignment >= {TARGET_FUZZY_SPEEDUP}x difflib (anchor baseline, all pairs): "
        f"{'met' if speedup >= TARGET_FUZZY_SPEEDUP else 'NOT met'} ({speedup:.0f}x; the whole "
        f"FuzzyMatcher.find call {whole_call:.0f}x)"
    )
    return results


def measure(
    config: str,
    planned: list[Planned],
    answers: list[str],
    citations: list[Citation],
    sources: dict[str, Document],
    seed: int,
) -> dict[str, Any]:
    """Time ``Verifier.verify`` over every answer in one configuration, check the statuses,
    then time each kind of citation on its own."""
    matchers, elsewhere, expected = CONFIGS[config]
    verifier = Verifier(matchers=matchers, search_elsewhere=elsewhere)
    started = time.perf_counter()
    sources = verifier.prepare(sources)  # the corpus's word index, when searching elsewhere
    prepared = time.perf_counter() - started
    elapsed, reports = time_verify(verifier, answers, sources)
    check = check_report(config, expected, planned, reports)
    by_category = time_by_category(verifier, citations, planned, sources, seed)
    rate = len(planned) / elapsed
    # The same rate from the fastest of REPEATS one-by-one timings of each kind (no extraction):
    # what the run gives when nothing else competes for the machine.
    quiet = len(planned) / sum(r["mean_us"] * 1e-6 * r["citations"] for r in by_category.values())
    print(f"prepare [{config}]: {prepared:.2f} s (Verifier.prepare, once per corpus)")
    print(
        f"verify [{config}]: {elapsed:.2f} s = {rate:.0f} citations/s "
        f"({elapsed / len(planned) * 1e6:.0f} µs/citation); from the per-kind fastest timings "
        f"below, without extraction: {quiet:.0f} citations/s"
    )
    print(
        f"    statuses {check['statuses']}; against the ground truth: {check['mismatches']} "
        f"wrong, {sum(check['chance_matches'].values())} fuzzy chance matches, "
        f"{check['slips_judged_partial']} quotes with slips found in place but judged partial"
    )
    for example in check["examples_of_mismatch"][:3]:
        print(f"    wrong: {example[:160]}")
    for category, row in by_category.items():
        print(
            f"    {category:<15} {row['citations']:5d} (timed {row['timed']:3d}): "
            f"mean {row['mean_us']:6.0f} µs, median {row['median_us']:6.0f} µs, "
            f"max {row['max_ms']:6.1f} ms; {row['share_of_time']:5.1%} of the time"
        )
    return {
        "matchers": list(matchers),
        "search_elsewhere": elsewhere,
        "prepare_s": prepared,
        "seconds": elapsed,
        "citations_per_s": rate,
        "us_per_citation": elapsed / len(planned) * 1e6,
        "citations_per_s_from_kinds": quiet,
        "time_by_category": by_category,
        **check,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--citations",
        type=int,
        default=DEFAULT_CITATIONS,
        metavar="N",
        help=f"citations to generate (default {DEFAULT_CITATIONS})",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        metavar="S",
        help=f"seed of the corpus and the citations (default {DEFAULT_SEED})",
    )
    parser.add_argument("--out", type=Path, metavar="FILE.json", help="also write the numbers here")
    args = parser.parse_args(argv)
    if args.citations < 1:
        parser.error("--citations must be positive")
    results = run(args.citations, args.seed)
    if args.out is not None:
        args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
