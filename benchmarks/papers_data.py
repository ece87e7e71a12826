"""Data for the paper-library benchmark (``benchmarks/papers.py``), built from real labelled text.

Three things are built here, all with a seeded :class:`random.Random`, so a run is repeatable:

* **Paged claim documents.** The (claim, evidence, supported) pairs of the five claim sets that
  ``claims_data.py`` reads are sampled (distinct claims, short evidence, as many supported as
  not per set where the set has them), and each sampled pair's evidence is put on a known page
  of a long Markdown document with ``[PAGE:N]`` markers, among distractor passages: the
  evidence of other pairs of the same set, so that a document reads as one domain. A
  distractor is never the evidence of any pair (sampled or not) whose claim is the claim of a
  pair the document hosts, and never shares a sentence with a hosted passage, so that (as far
  as the labels tell) only the labelled page bears on a claim.
* **Docling sentences.** The sentences of the three docling papers' ``texts`` with their
  ``prov[0].page_no``, used verbatim as queries with a known page, and each with a number in
  it once more with that number changed (a claim its page does not support).
* **A speed corpus.** Papers of a given length in words, from the distinct sentences of the
  claim sets' evidence and the Citation-Integrity corpus, in paragraphs of five sentences and
  a page about every 500 words, and a Markdown draft citing them with ``[@key, p. N]``.
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import claims_data as cd

from citecheck.language.text import sentence_spans

DEFAULT_DOCLING = cd.REPO_ROOT.parent / "shared" / "data" / "pages" / "docling"

_SPACES = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_PAGE_LIKE = re.compile(r"\[(PAGE[:\s]\s*\d{1,9})\]", re.IGNORECASE)
_BLOCK_START = re.compile(r"^(?:[#>|]+\s*|[*+-]\s+|\d{1,9}[.)]\s+)+")
_NUMBER = re.compile(r"(?<![\w.\[-])(\d+(?:\.\d+)?)(?![\w\]]|\.\d)")
_NOT_A_QUANTITY = re.compile(
    r"(?:table|tab\.|figure|fig\.|section|sec\.|eq\.|equation|appendix|pages?|pp?\.|ref\.|\[)\s*$",
    re.IGNORECASE,
)
_MIN_SHARED = 30
"""A sentence of at least this many characters that two passages share makes them one source."""


# --------------------------------------------------------------------------------------------
# Passages
# --------------------------------------------------------------------------------------------


def clean_passage(text: str) -> str:
    """``text`` as one Markdown paragraph that reads as the words it has: whitespace collapsed
    (the sets' own line breaks and blank lines between joined documents become spaces), a
    leading heading, quote, list or table marker dropped, control characters (a few records
    hold some, and the library refuses such a file as binary) made spaces, and text that a
    reader would take
    for a ``[PAGE:N]`` marker put in parentheses, so that only the benchmark's markers page
    the document."""
    text = _SPACES.sub(" ", _CONTROL.sub(" ", text.replace("\f", " "))).strip()
    text = _BLOCK_START.sub("", text)
    return _PAGE_LIKE.sub(r"(\1)", text)


def sentence_keys(text: str) -> frozenset[str]:
    """The passage's sentences of :data:`_MIN_SHARED` characters or more, lowercased with
    whitespace collapsed: two passages that share one quote the same source."""
    keys = set()
    for start, end in sentence_spans(text):
        sentence = _SPACES.sub(" ", text[start:end].lower()).strip()
        if len(sentence) >= _MIN_SHARED:
            keys.add(sentence)
    return frozenset(keys)


# --------------------------------------------------------------------------------------------
# Paged claim documents
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PagedClaim:
    """A sampled pair, the document whose page ``page`` holds its evidence, and another page
    of that document (``wrong_page``) to cite it to wrongly."""

    pair: cd.ClaimPair
    key: str
    page: int
    wrong_page: int


@dataclass(slots=True)
class PagedDocument:
    """A document of one set: its key and each page's passages, in order."""

    key: str
    dataset: str
    pages: list[list[str]] = field(default_factory=list)

    def markdown(self) -> str:
        """The document as Markdown: a ``[PAGE:N]`` line before each page's paragraphs."""
        parts = []
        for number, passages in enumerate(self.pages, start=1):
            parts.append(f"[PAGE:{number}]\n\n" + "\n\n".join(passages) + "\n")
        return "\n".join(parts)

    @property
    def passages(self) -> int:
        return sum(len(page) for page in self.pages)


def eligible_pairs(
    pairs: Sequence[cd.ClaimPair], *, min_chars: int, max_chars: int
) -> list[cd.ClaimPair]:
    """The pairs whose evidence, cleaned, has ``min_chars`` to ``max_chars`` characters."""
    return [p for p in pairs if min_chars <= len(clean_passage(p.evidence)) <= max_chars]


def sample_pairs(
    sets: Mapping[str, Sequence[cd.ClaimPair]],
    total: int,
    rng: random.Random,
    *,
    min_chars: int,
    max_chars: int,
) -> dict[str, list[cd.ClaimPair]]:
    """About ``total`` pairs spread evenly over ``sets``: per set, pairs with distinct claims
    and short evidence, half supported and half not where the set has enough of each (the
    rest from the other label), in a seeded order."""
    per_set = max(2, total // max(1, len(sets)))
    sampled: dict[str, list[cd.ClaimPair]] = {}
    for name, pairs in sets.items():
        pool = eligible_pairs(pairs, min_chars=min_chars, max_chars=max_chars)
        rng.shuffle(pool)
        seen: set[str] = set()
        by_label: dict[bool, list[cd.ClaimPair]] = {True: [], False: []}
        for pair in pool:
            if pair.claim not in seen:
                seen.add(pair.claim)
                by_label[pair.supported].append(pair)
        half = per_set // 2
        chosen = by_label[True][:half] + by_label[False][: per_set - half]
        if len(chosen) < per_set:  # one label is short: fill with the other
            rest = by_label[True][half:] + by_label[False][per_set - half :]
            chosen += rest[: per_set - len(chosen)]
        rng.shuffle(chosen)
        sampled[name] = chosen
    return sampled


def build_documents(
    sets: Mapping[str, Sequence[cd.ClaimPair]],
    sampled: Mapping[str, Sequence[cd.ClaimPair]],
    rng: random.Random,
    *,
    pages: int,
    per_page: int,
    hosted: int,
    min_chars: int,
    max_chars: int,
) -> tuple[list[PagedDocument], list[PagedClaim]]:
    """The documents of ``pages`` pages of ``per_page`` passages each, ``hosted`` sampled pairs'
    evidence per document on distinct pages, the other places filled with distractors of the
    same set; and each sampled pair with its document and page."""
    documents: list[PagedDocument] = []
    placed: list[PagedClaim] = []
    hosted = max(1, min(hosted, pages))
    for name, chosen in sampled.items():
        claims_of_evidence: dict[str, set[str]] = defaultdict(set)
        for pair in sets[name]:
            claims_of_evidence[clean_passage(pair.evidence)].add(pair.claim)
        pool = list(
            dict.fromkeys(
                clean_passage(p.evidence)
                for p in eligible_pairs(sets[name], min_chars=min_chars, max_chars=max_chars)
            )
        )
        keys_of = {text: sentence_keys(text) for text in pool}
        groups = _host_groups(chosen, hosted, keys_of)
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        for number, group in enumerate(groups, start=1):
            key = f"{slug}-{number:02d}"
            document = PagedDocument(key, name, [[] for _ in range(pages)])
            hosted_pages = rng.sample(range(pages), len(group))
            claims = {pair.claim for pair in group}
            used: set[str] = set()
            shared: set[str] = set()
            for pair, page in zip(group, hosted_pages, strict=True):
                text = clean_passage(pair.evidence)
                document.pages[page].append(text)
                used.add(text)
                shared |= keys_of.get(text) or sentence_keys(text)
            slots = pages * per_page - len(group)
            candidates = list(pool)
            rng.shuffle(candidates)
            fillers = [
                text
                for text in candidates
                if text not in used
                and not (claims_of_evidence[text] & claims)
                and not (keys_of[text] & shared)
            ][:slots]
            places = [p for p in range(pages) for _ in range(per_page)]
            for page in hosted_pages:
                places.remove(page)
            rng.shuffle(places)
            for text, page in zip(fillers, places, strict=False):
                document.pages[page].append(text)
            for passages in document.pages:
                rng.shuffle(passages)
            documents.append(document)
            for pair, page in zip(group, hosted_pages, strict=True):
                wrong = rng.choice([p for p in range(pages) if p != page])
                placed.append(PagedClaim(pair, key, page + 1, wrong + 1))
    return documents, placed


def _host_groups(
    chosen: Sequence[cd.ClaimPair], size: int, keys_of: Mapping[str, frozenset[str]]
) -> list[list[cd.ClaimPair]]:
    """``chosen`` cut into groups of at most ``size`` pairs, none sharing a claim, an evidence
    or a sentence of evidence with another of its group."""
    groups: list[tuple[list[cd.ClaimPair], set[str], set[str]]] = []
    for pair in chosen:
        text = clean_passage(pair.evidence)
        keys = keys_of.get(text) or sentence_keys(text)
        for members, claims, sentences in groups:
            if (
                len(members) < size
                and pair.claim not in claims
                and not (keys & sentences)
                and all(clean_passage(m.evidence) != text for m in members)
            ):
                members.append(pair)
                claims.add(pair.claim)
                sentences |= keys
                break
        else:
            groups.append(([pair], {pair.claim}, set(keys)))
    return [members for members, _, _ in groups]


# --------------------------------------------------------------------------------------------
# Docling sentences
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PageSentence:
    """A sentence of a docling paper on its page, and the same sentence with a number changed
    (``None`` when it has no number that reads as a quantity)."""

    key: str
    page: int
    text: str
    changed: str | None


def docling_files(root: Path) -> list[Path]:
    return sorted(root.glob("*.json"))


def docling_sentences(
    path: Path, rng: random.Random, *, per_paper: int, min_words: int = 8
) -> list[PageSentence]:
    """Up to ``per_paper`` sentences of the body text and list items of the docling paper at
    ``path`` with their page, chosen at random; text inside a figure is left out (it is no
    prose, and the library's docling reader leaves it out too), and so is a sentence found
    more than once in the paper (its page is ambiguous)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    counts: dict[str, int] = defaultdict(int)
    for item in data.get("texts", []):
        if item.get("label") not in ("text", "list_item") or not item.get("prov"):
            continue
        if item.get("content_layer", "body") != "body":
            continue
        parent = (item.get("parent") or {}).get("cref", "")
        if parent.startswith("#/pictures/"):  # text read inside a figure is not prose
            continue
        page = item["prov"][0].get("page_no")
        text = item.get("text") or ""
        for start, end in sentence_spans(text):
            sentence = _SPACES.sub(" ", text[start:end]).strip()
            counts[sentence] += 1
            if isinstance(page, int) and len(sentence.split()) >= min_words:
                found.append((page, sentence))
    unique = [(page, s) for page, s in found if counts[s] == 1]
    chosen = rng.sample(unique, min(per_paper, len(unique)))
    chosen.sort(key=lambda item: unique.index(item))
    return [PageSentence(path.stem, page, s, change_number(s)) for page, s in chosen]


def change_number(sentence: str) -> str | None:
    """``sentence`` with its first number that reads as a quantity changed (its last digit
    plus 3, modulo 10: ``0.85`` → ``0.88``, ``2021`` → ``2024``), else ``None``. Numbers
    naming a table, figure, section, equation, page or reference are not quantities, nor
    are those in square brackets (``[37, 39]``: references) or enumerators (``(1)``, ``2)``)."""
    for match in _NUMBER.finditer(sentence):
        before = sentence[: match.start()]
        if _NOT_A_QUANTITY.search(before) or before.rfind("[") > before.rfind("]"):
            continue
        if sentence.startswith(")", match.end()) and (not before or before[-1] in "( \t:;,"):
            continue
        number = match.group(1)
        changed = number[:-1] + str((int(number[-1]) + 3) % 10)
        return sentence[: match.start()] + changed + sentence[match.end() :]
    return None


# --------------------------------------------------------------------------------------------
# Speed corpus
# --------------------------------------------------------------------------------------------


def corpus_sentences(root: Path, sets: Mapping[str, Sequence[cd.ClaimPair]]) -> list[str]:
    """The distinct sentences (five words or more) of the claim sets' evidence and of the
    Citation-Integrity corpus, passage by passage, each passage's sentences in their order."""
    passages: list[str] = []
    corpus = root / "citint" / "corpus.jsonl"
    if corpus.exists():
        with corpus.open(encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    passages.append(" ".join(json.loads(line)["abstract"]))
    for pairs in sets.values():
        passages.extend(pair.evidence for pair in pairs)
    seen: set[str] = set()
    out: list[str] = []
    for passage in dict.fromkeys(passages):
        text = clean_passage(passage)
        for start, end in sentence_spans(text):
            sentence = text[start:end].strip()
            if len(sentence.split()) >= 5 and sentence not in seen:
                seen.add(sentence)
                out.append(sentence)
    return out


@dataclass(frozen=True, slots=True)
class SpeedPaper:
    """A generated paper: its key, Markdown text, words, and each sentence's page."""

    key: str
    markdown: str
    words: int
    sentences: tuple[tuple[int, str], ...]


def speed_papers(
    sentences: Sequence[str],
    rng: random.Random,
    *,
    papers: int,
    words: int,
    page_words: int = 500,
    paragraph: int = 5,
) -> tuple[list[SpeedPaper], list[str], int]:
    """``papers`` papers of about ``words`` words each from ``sentences`` in runs of about 20
    sentences from a random start, each sentence used once while the supply lasts; the
    sentences left over (for a draft's prose); and how many sentences were used twice."""
    order = list(range(len(sentences)))
    # Runs keep neighbouring sentences together, as a paper's are, in a random order of runs.
    runs = [order[i : i + 20] for i in range(0, len(order), 20)]
    rng.shuffle(runs)
    stream: Iterator[int] = (i for run in runs for i in run)
    used: set[int] = set()
    reused = 0
    out: list[SpeedPaper] = []
    for number in range(1, papers + 1):
        key = f"speed-{number:03d}"
        page, page_count, total, parts = 1, 0, 0, ["[PAGE:1]\n"]
        placed: list[tuple[int, str]] = []
        block: list[str] = []
        while total < words:
            index = next(stream, None)
            if index is None:  # the supply ran out: sentences are used again
                index = rng.randrange(len(sentences))
                reused += 1
            used.add(index)
            sentence = sentences[index]
            count = len(sentence.split())
            block.append(sentence)
            placed.append((page, sentence))
            total += count
            page_count += count
            if len(block) >= paragraph or page_count >= page_words or total >= words:
                parts.append(" ".join(block) + "\n")
                block = []
            if page_count >= page_words and total < words:
                page += 1
                page_count = 0
                parts.append(f"[PAGE:{page}]\n")
        out.append(SpeedPaper(key, "\n".join(parts), total, tuple(placed)))
    left = [sentences[i] for i in order if i not in used]
    return out, left, reused


def draft(
    papers: Sequence[SpeedPaper],
    prose: Sequence[str],
    rng: random.Random,
    *,
    citations: int,
    words: int,
) -> tuple[str, list[tuple[str, int, str]]]:
    """A Markdown draft of about ``words`` words citing ``citations`` sentences of ``papers``
    (of 8 to 40 words) as ``… [@key, p. N].``, the rest prose (sentences of 8 to 30 words)
    that cites nothing; and the (key, page, claim) of each citation, in order. Bracketed
    numbers (``[12]``, the sets' own reference markers) and ``@`` are taken out of both, as
    a draft would read them as citations."""
    cited: list[tuple[str, int, str]] = []
    while len(cited) < citations:
        paper = rng.choice(papers)
        page, sentence = rng.choice(paper.sentences)
        sentence = _draft_words(sentence).rstrip(".")
        if 8 <= len(sentence.split()) <= 40:
            cited.append((paper.key, page, sentence))
    supply = (text for text in (_draft_words(p) for p in prose) if 8 <= len(text.split()) <= 30)
    paragraphs: list[str] = ["# Draft\n"]
    block: list[str] = []
    total = 0
    for number, (key, page, sentence) in enumerate(cited, start=1):
        target = number * words / max(1, citations) - len(sentence.split())
        while total < target:
            extra = next(supply, None)
            if extra is None:
                break
            if total + len(extra.split()) > target:
                block.append(extra)  # the sentence is taken: the next gap is shorter
                total += len(extra.split())
                break
            block.append(extra)
            total += len(extra.split())
        block.append(f"{sentence} [@{key}, p. {page}].")
        total += len(sentence.split())
        if len(block) >= 6:
            paragraphs.append(" ".join(block) + "\n")
            block = []
    if block:
        paragraphs.append(" ".join(block) + "\n")
    return "\n".join(paragraphs), cited


_BRACKETED_NUMBERS = re.compile(r"\s*\[\s*\d+(?:\s*[,;\u2013-]\s*\d+)*\s*\]")


def _draft_words(text: str) -> str:
    return _SPACES.sub(" ", _BRACKETED_NUMBERS.sub("", text).replace("@", " at ")).strip()
