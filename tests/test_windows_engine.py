"""The one BM25-window engine (``citecheck.matchers.bm25.WindowSearch``) and its two users.

Skipped without bm25s.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citecheck
from citecheck import ConfigError, Document
from citecheck.matchers.bm25 import BM25Matcher, SearchOptions, WindowSearch, tokenize
from citecheck.matchers.needle import needle
from citecheck.matchers.windows import DOCUMENT_SEPARATOR, make_windows
from citecheck.model import Span

pytest.importorskip("bm25s")

VOCABULARY = ["harbour", "ferry", "tide", "lantern", "quay", "gull", "rope", "the", "of", "sailed"]
words = st.lists(st.sampled_from(VOCABULARY), min_size=0, max_size=80)
texts = st.lists(words.map(" ".join), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(
    texts=texts,
    size=st.integers(5, 120),
    share=st.floats(0.0, 0.9),
    query=st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=6),
    count=st.integers(1, 12),
)
def test_ranked_windows_hold_true_offsets_into_their_documents(
    texts: list[str], size: int, share: float, query: list[str], count: int
) -> None:
    """Every ranked window is a range of its document and the same range of the global text,
    ranked best first, and no window is ranked that shares no word with the query (a window's
    words are those starting in it)."""
    documents = [Document(f"d{i}", text) for i, text in enumerate(texts)]
    search = WindowSearch(documents, size, int(size * share))
    ranking = search.rank(query, count)
    whole = DOCUMENT_SEPARATOR.join(texts)
    assert len(ranking.windows) == len(ranking.scores) <= count
    assert list(ranking.scores) == sorted(ranking.scores, reverse=True)
    for window, score in zip(ranking.windows, ranking.scores, strict=True):
        assert 0 <= window.start < window.end <= len(window.document.text)
        text = window.document.text[window.start : window.end]
        assert whole[window.global_start : window.global_end] == text
        assert search.offsets[window.document.id] + window.start == window.global_start
        assert score > 0
        assert set(query) & set(window.document.words_in(window.start, window.end))
    assert (ranking.ratio > 0) == bool(ranking.windows)


@settings(max_examples=60, deadline=None)
@given(text=words.map(" ".join), size=st.integers(1, 60), data=st.data())
def test_windows_cover_every_character_of_their_range(
    text: str, size: int, data: st.DataObject
) -> None:
    overlap = data.draw(st.integers(0, size - 1))
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    document = Document("d", text)
    for within in (None, Span(start, end)):
        first, last = (0, len(text)) if within is None else (start, end)
        windows = make_windows([document], size, overlap, within)
        covered = {i for w in windows for i in range(w.start, w.end)}
        assert covered == set(range(first, last))
        assert all(w.end - w.start <= size for w in windows)


def test_windows_need_a_positive_size_and_a_smaller_overlap() -> None:
    document = Document("d", "some words")
    with pytest.raises(ConfigError):
        make_windows([document], 0, 0)
    with pytest.raises(ConfigError):
        make_windows([document], 10, 10)


def test_a_search_finds_nothing_outside_its_range() -> None:
    text = "the ferry sailed at dawn. " * 20 + "the lantern of the quay burned all night. " * 2
    document = Document("d", text)
    within = Span(0, 400)
    search = WindowSearch([document], 60, 18, within=within)
    target = needle("the lantern of the quay burned")
    assert all(w.end <= within.end for w in search.windows)
    for passage in search.search(target, tokenize(target)):
        assert within.start <= passage.start <= passage.end <= within.end


def test_the_top_window_stands_out_only_when_its_words_are_rare() -> None:
    text = "gull rope tide. " * 30 + "the harbour lantern burned. " + "gull rope tide. " * 30
    search = WindowSearch([Document("d", text)], 40, 12)
    assert search.rank(["lantern"], 3).ratio > 10
    assert search.rank(["gull"], 3).ratio < 2


def test_search_options_are_checked() -> None:
    with pytest.raises(ConfigError, match="trim method"):
        SearchOptions(method="difflib")
    with pytest.raises(ConfigError, match="candidates"):
        SearchOptions(candidates=0)


# -- the two users agree ----------------------------------------------------------------------

SENTENCES = [
    f"Sentence {i}: the {VOCABULARY[i % 7]} and the {VOCABULARY[(i * 3) % 7]} met at the "
    f"{VOCABULARY[(i * 5) % 7]} number {i * 17}."
    for i in range(120)
]
PROSE = " ".join(SENTENCES)


@pytest.mark.parametrize(
    "quote",
    [
        SENTENCES[40],
        " ".join(SENTENCES[41:43]).replace("e", "c", 3),  # OCR slips
        SENTENCES[50].upper(),
        " ".join(SENTENCES[60:75]),  # longer than the 500-character window cap
        "the lantern and the quay met on the moon number nine",  # not there
    ],
    ids=["verbatim", "ocr", "case", "long", "absent"],
)
def test_the_matcher_and_the_quote_locator_find_the_same_passage(quote: str) -> None:
    """Over the same windows (one size for both), the same windows rank first and the same
    passage is aligned around them, with the same similarity and BM25 score."""
    document = Document("prose", PROSE)
    hits = BM25Matcher(window_size=200).find(quote, document)
    [row] = citecheck.verify_quotes([quote], [document], window_size=200).rows
    if not hits:
        assert row.status is not citecheck.Status.VERIFIED
        return
    [hit] = hits
    [evidence] = row.evidence
    assert (hit.start, hit.end) == (evidence.start, evidence.end)
    assert hit.score == pytest.approx(row.match_ratio, abs=1e-4)
    assert hit.scores["bm25"] == pytest.approx(row.bm25_score, abs=1e-4)
