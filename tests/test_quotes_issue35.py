"""Issue 35, quotes at scale: an exact quote gets the span of all of it (its closing bracket or
quotation mark included), and ``trim_method="sliding_bm25"`` counts each run's shared words in
one pass, with the same results as before. Needs the ``bm25`` extra."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("bm25s")

import citecheck
from citecheck import ConfigError, Document, Status
from citecheck.language.text import WORD, sentence_spans
from citecheck.matchers import bm25
from citecheck.matchers.alignment import Alignment, snap_to_boundaries
from citecheck.matchers.bm25 import BM25Matcher
from citecheck.quotes import QuoteLocator

SQUAD = Path(__file__).parents[1] / ".." / "shared" / "data" / "quotes" / "squad" / "dev-v2.0.json"

# -- an exact quote's span is the quote --------------------------------------------------------


@pytest.mark.parametrize(
    ("quote", "text"),
    [
        (
            "In 1973 the UK joined the European Economic Community (EEC).",
            "After two vetoes. In 1973 the UK joined the European Economic Community (EEC). "
            "It left in 2020.",
        ),
        (
            'Chinese chroniclers referred to them as "Northern bandits".',
            "The Jurchen raided the border towns, and Chinese chroniclers referred to them as "
            '"Northern bandits". Trade stopped for a decade.',
        ),
        (
            'He said the embargo "triggered a collective OPEC response."',
            'Analysts agree. He said the embargo "triggered a collective OPEC response." Prices '
            "rose fourfold.",
        ),
        ("(see the appendix)", "The method is simple (see the appendix) and fast."),
    ],
    ids=["bracket-stop", "mark-stop", "stop-mark", "brackets"],
)
def test_an_exact_quote_gets_the_span_of_all_of_it(quote: str, text: str) -> None:
    """The closing ``)`` or ``"`` and the full stop stand in the text right after the quote's
    words: the span holds them, so it is the quote, character for character."""
    [row] = citecheck.verify_quotes([quote], {"doc": text}).rows
    assert row.status is Status.VERIFIED
    assert row.span_text == quote
    [evidence] = row.evidence
    assert text[evidence.start : evidence.end] == quote
    assert (row.global_start, row.global_end) == (evidence.start, evidence.end)


def test_marks_the_text_does_not_have_are_not_taken() -> None:
    """A paper's own quotation marks around a quote, and a full stop where the sentence goes
    on, are not in the text: the span is the words, as before, and the quote is verified."""
    text = "P3: Honestly, the first year was chaos, and we lost half the team."
    [row] = citecheck.verify_quotes(['"The first year was chaos."'], {"p3": text}).rows
    assert row.status is Status.VERIFIED
    assert row.span_text == "the first year was chaos"


def test_the_place_where_the_marks_stand_too_is_given() -> None:
    """The same words twice in one document: the place that has the quote's closing full stop
    is the quote's place."""
    text = "The ferry left at noon today. Everyone knew that the ferry left at noon."
    [row] = citecheck.verify_quotes(["the ferry left at noon."], {"log": text}).rows
    assert row.span_text == "the ferry left at noon."
    assert row.evidence[0].start == text.rindex("the ferry")


def test_the_matcher_and_the_locator_give_the_same_span() -> None:
    """BM25Matcher searches with the same engine as the quote locator and takes the same marks
    (within the region it was asked about)."""
    text = "First part. The committee approved the budget (after a vote). Second part."
    quote = "The committee approved the budget (after a vote)."
    document = Document("minutes", text)
    [hit] = BM25Matcher(window_size=60).find(quote, document)
    assert text[hit.start : hit.end] == quote
    [row] = citecheck.verify_quotes([quote], [document], window_size=60).rows
    assert (row.evidence[0].start, row.evidence[0].end) == (hit.start, hit.end)
    inside = citecheck.Span(0, text.index(")"))
    [cut] = BM25Matcher(window_size=60).find(quote, document, inside)
    assert cut.end <= inside.end


def test_an_elided_quote_takes_the_marks_of_its_ends() -> None:
    text = "The board (in a long meeting) agreed to sell the old depot to the city (for a euro)."
    quote = "(in a long meeting) agreed … to the city (for a euro)."
    [row] = citecheck.verify_quotes([quote], {"board": text}).rows
    assert row.status is Status.VERIFIED
    assert row.span_text == text[text.index("(in") :]


_WORDS = ["harbour", "ferry", "Island", "storm", "council", "budget", "the", "of", "river"]
_OPENERS = ["", "", "", "(", '"', "'", "[", '("', "“"]
_CLOSERS = ["", "", "", ".", ",", ")", '"', ").", '."', ".)", "!", "?", ":", ";", "]", "”", "'"]


@st.composite
def texts_and_quotes(draw: st.DrawFn) -> tuple[str, str]:
    """A text of words with punctuation around them, and an exact piece of it: whole tokens,
    with none, some or all of the marks at its ends."""
    tokens = draw(
        st.lists(
            st.tuples(
                st.sampled_from(_OPENERS), st.sampled_from(_WORDS), st.sampled_from(_CLOSERS)
            ),
            min_size=1,
            max_size=30,
        )
    )
    separators = draw(
        st.lists(
            st.sampled_from([" ", " ", " ", "\n", "  "]), min_size=len(tokens), max_size=len(tokens)
        )
    )
    pieces = ["".join(token) for token in tokens]
    text = "".join(p + s for p, s in zip(pieces, separators, strict=True)).rstrip()
    first = draw(st.integers(0, len(tokens) - 1))
    last = draw(st.integers(first, min(len(tokens) - 1, first + 8)))
    start = sum(len(p) + len(s) for p, s in zip(pieces[:first], separators, strict=False))
    start += draw(st.integers(0, len(tokens[first][0])))  # none, some or all of the opening
    end = sum(len(p) + len(s) for p, s in zip(pieces[:last], separators, strict=False))
    end += len(pieces[last]) - draw(st.integers(0, len(tokens[last][2])))
    return text, text[start:end]


@settings(max_examples=300, deadline=None)
@given(texts_and_quotes())
def test_any_exact_piece_of_a_text_is_its_own_span(case: tuple[str, str]) -> None:
    """For any exact substring of a text (whole words, with whatever marks it has at its ends),
    the reported span's text equals it."""
    text, quote = case
    [row] = citecheck.verify_quotes([quote], {"doc": text}).rows
    assert row.status is Status.VERIFIED, row.reason
    assert row.span_text == quote
    [evidence] = row.evidence
    assert text[evidence.start : evidence.end] == quote


@pytest.mark.skipif(not SQUAD.exists(), reason="the shared data set (../shared/data) is absent")
def test_real_sentences_ending_in_a_bracket_or_a_quotation_mark_are_their_own_spans() -> None:
    """Sentences of SQuAD v2.0 dev (CC BY-SA 4.0), as they stand: those that end in ``)`` or
    ``"`` (with or without a full stop) and as many others, in a corpus of 300 contexts."""
    data = json.loads(SQUAD.read_text(encoding="utf-8"))["data"]
    contexts = [p["context"] for article in data for p in article["paragraphs"]][:300]
    closing, plain = [], []
    for context in contexts:
        for start, end in sentence_spans(context):
            sentence = context[start:end]
            if len(sentence.split()) < 6 or "..." in sentence or "…" in sentence:
                continue
            (closing if sentence.rstrip(".").endswith((")", '"')) else plain).append(sentence)
    assert len(closing) >= 15
    quotes = closing + random.Random(35).sample(plain, len(closing))
    rows = citecheck.verify_quotes(quotes, {f"c{i}": c for i, c in enumerate(contexts)}).rows
    wrong = [(row.quote, row.span_text) for row in rows if row.span_text != row.quote]
    assert not wrong, wrong[:5]


# -- sliding_bm25: one pass, the same results ------------------------------------------------


def _old_sliding_words(target: str, haystack: str) -> Alignment | None:
    """The count before issue 35, kept here to compare with: the run's shared words summed
    again at every step."""
    from rapidfuzz import fuzz

    wanted = Counter(WORD.findall(target))
    words = list(WORD.finditer(haystack))
    n = sum(wanted.values())
    if not words or not n:
        return None
    n = min(n, len(words))
    window = Counter(m.group() for m in words[:n])
    best_shared, best_at = sum((window & wanted).values()), 0
    for i in range(1, len(words) - n + 1):
        window[words[i - 1].group()] -= 1
        window[words[i + n - 1].group()] += 1
        shared = sum((window & wanted).values())
        if shared > best_shared:
            best_shared, best_at = shared, i
    start, end = words[best_at].start(), words[best_at + n - 1].end()
    return Alignment(fuzz.ratio(target, haystack[start:end]) / 100, start, end)


_SMALL = ["a", "b", "c", "the", "of", "ferry", "ferries", "x1"]


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(_SMALL), max_size=12),
    st.lists(st.sampled_from([*_SMALL, "zz"]), max_size=60),
    st.sampled_from([" ", ", ", ". ", "\n"]),
)
def test_the_sliding_run_is_the_one_found_before(
    target: list[str], haystack: list[str], separator: str
) -> None:
    """The same run (first of the best, same offsets, same score) as the old count, for any
    target and haystack: repeated words, words the target has more often than the run, a
    target longer than the haystack, an empty one."""
    query, text = " ".join(target), separator.join(haystack)
    assert bm25._sliding_words(query, text) == _old_sliding_words(query, text)


def test_a_step_of_the_run_costs_no_multiset_intersection(monkeypatch: pytest.MonkeyPatch) -> None:
    """Work counted, not timed: the old count intersected two multisets at every step (a cost
    that grew with every distinct word the run had passed); the new one at none, however long
    the haystack."""
    calls = 0
    intersect = Counter.__and__

    def counted(self: Counter[str], other: Counter[str]) -> Counter[str]:
        nonlocal calls
        calls += 1
        return intersect(self, other)

    monkeypatch.setattr(Counter, "__and__", counted)
    haystack = " ".join(f"word{i % 400} filler" for i in range(3000))
    found = bm25._sliding_words("word7 filler word8 filler word9", haystack)
    assert found is not None
    assert haystack[found.start : found.end] == "word7 filler word8 filler word9"
    assert calls == 0
    _old_sliding_words("word7 filler word8 filler word9", haystack)
    assert calls > 5000  # the old count, for scale


def _corpus_and_quotes() -> tuple[list[Document], list[str]]:
    """Long documents and quotes of every kind the locator meets: verbatim, with slips, a word
    dropped, a number changed, an ellipsis (its next fragment aligned over the rest of the
    document), spliced, absent."""
    rng = random.Random(35)
    vocabulary = (
        "harbour ferry island storm council budget winter bridge market river lantern orchard "
        "quarry meadow signal engine harvest tunnel beacon garden valley station archive tower "
        "the of and a to in was were not"
    ).split()
    documents, sentences = [], []
    for d in range(6):
        mine = [
            f"In {1900 + 7 * d + n} the "
            + " ".join(rng.choices(vocabulary, k=rng.randint(8, 20)))
            + "."
            for n in range(60)
        ]
        sentences += mine
        documents.append(Document(f"doc{d}", " ".join(mine)))
    quotes = []
    for n in range(60):
        sentence = rng.choice(sentences).split()
        kind = n % 6
        if kind == 1:
            sentence[rng.randrange(1, len(sentence))] = "slipped"
        elif kind == 2:
            del sentence[rng.randrange(2, len(sentence))]
        elif kind == 3:
            sentence[1] = str(int(sentence[1]) + 1)
        elif kind == 4 and len(sentence) > 8:
            tail = rng.choice(sentences).split()
            sentence = [*sentence[:4], "…", *tail[-4:]]
        elif kind == 5:
            sentence = sentence[: len(sentence) // 2] + rng.choice(sentences).split()[5:]
        quotes.append(" ".join(sentence))
    quotes += ["the lantern of the valley was never seen in the station archive"]
    return documents, quotes


@pytest.mark.parametrize("method", ["sliding_bm25", "hybrid"])
def test_locator_results_are_the_same_as_with_the_old_count(
    method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every row of a fixed run, status, place, numbers and reason, is what the old count gave."""
    documents, quotes = _corpus_and_quotes()

    def rows() -> list[tuple[object, ...]]:
        report = QuoteLocator(trim_method=method).run(quotes, documents)
        return [
            (r.status, r.source_doc, r.global_start, r.global_end, r.match_ratio, r.reason)
            for r in report.rows
        ]

    new = rows()
    monkeypatch.setattr(bm25, "_sliding_words", _old_sliding_words)
    assert rows() == new
    assert {status for status, *_ in new} >= {Status.VERIFIED, Status.PARTIAL}


# -- the seed's snap_to_boundaries ---------------------------------------------------------------


@given(
    st.text(alphabet=st.sampled_from(list("ab .,!?\n'")), max_size=60),
    st.integers(0, 60),
    st.integers(0, 60),
    st.sampled_from(["word", "sentence"]),
)
@settings(max_examples=300, deadline=None)
def test_snapping_only_grows_a_span_to_boundaries(
    text: str, first: int, second: int, snap_to: Literal["word", "sentence"]
) -> None:
    start, end = sorted((min(first, len(text)), min(second, len(text))))
    low, high = snap_to_boundaries(text, start, end, snap_to)
    assert 0 <= low <= start <= end <= high <= len(text)
    words = snap_to_boundaries(text, start, end, "word")
    for edge in (low, high):  # never inside a word
        assert not (0 < edge < len(text) and text[edge - 1].isalnum() and text[edge].isalnum())
    if snap_to == "sentence":
        assert (low, high) == (words[0], words[1]) or any(
            a == low or b == high for a, b in sentence_spans(text)
        )


def test_snapping_to_sentences_takes_each_sentence_it_touches_whole() -> None:
    text = "First one here. The second sentence is long. Third."
    assert snap_to_boundaries(text, 20, 25) == (20, 26)  # "second", whole
    low, high = snap_to_boundaries(text, 20, 25, "sentence")
    assert text[low:high] == "The second sentence is long."
    low, high = snap_to_boundaries(text, 10, 20, "sentence")
    assert text[low:high] == "First one here. The second sentence is long."
    with pytest.raises(ConfigError, match="snap_to must be"):
        snap_to_boundaries(text, 0, 1, "paragraph")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="is not a span"):
        snap_to_boundaries(text, 5, 500)


def test_a_quote_written_as_the_text_writes_it_beats_its_normalised_twin() -> None:
    """Found by the property above: a straight quotation mark in the quote, the same word
    with a straight mark at the start of the text and a curly one at its end. The span is the
    place where the quote stands as written, not the one that matches after normalisation."""
    text = 'harbour" Island Island Island Island Island Island. council. harbour\u201d'
    [row] = citecheck.verify_quotes(['harbour"'], {"doc": text}).rows
    assert row.status is Status.VERIFIED
    assert row.span_text == 'harbour"'
    [evidence] = row.evidence
    assert (evidence.start, evidence.end) == (0, 8)


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("the. the.\nthe", "the.\nthe"),  # stop words only: hypothesis found it
        ("ferry. harbour ferry. storm.\nharbour ferry. storm", "ferry. storm.\nharbour ferry"),
    ],
)  # fmt: skip
def test_a_quote_standing_as_written_is_not_given_a_place_that_differs_in_spacing(
    text: str, quote: str
) -> None:
    """Where the words stand twice, once as the quote writes them and once with other
    spacing, the span is the one written as the quote is."""
    [row] = citecheck.verify_quotes([quote], {"doc": text}).rows
    assert row.status is Status.VERIFIED, row.reason
    assert row.span_text == quote
