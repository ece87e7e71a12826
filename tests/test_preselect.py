"""A long source met for the first time: only the chunks holding a claim's words are embedded."""

from __future__ import annotations

import pytest

from citecheck import Document
from citecheck.errors import ConfigError
from citecheck.judging.support import PRESELECT, SupportAssessor
from citecheck.matchers.embedding import EmbeddingMatcher
from citecheck.matchers.preselect import WordPresence, preselected
from citecheck.testing import HashingEmbedder

pytest.importorskip("numpy")

FILLER = [
    f"Paragraph {i} describes the weather of town number {i} in great detail." for i in range(120)
]
TARGET = "The harbour authority recorded 412 cargo ships entering the estuary during winter."


class Counting(HashingEmbedder):
    """A hashing embedder that notes every text it embeds."""

    def __init__(self) -> None:
        super().__init__(128)
        self.texts: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.texts.extend(texts)
        return super().embed_documents(texts)


def _long() -> Document:
    return Document("long", " ".join([*FILLER[:60], TARGET, *FILLER[60:]]))


def test_a_long_source_embeds_only_the_chunks_with_the_claims_words() -> None:
    embedder = Counting()
    assessor = SupportAssessor(embedder, None)
    claim = "In winter, 412 cargo ships entered the estuary, the harbour authority says."
    assessed = assessor.assess(claim, _long(), None)
    assert assessed is not None
    assert TARGET in assessed.evidence[0].text
    chunks = [t for t in embedder.texts if t != claim.lower()]  # the claim is embedded uncased
    assert 0 < len(chunks) <= PRESELECT < 121


def test_a_short_source_and_preselect_none_embed_every_chunk() -> None:
    embedder = Counting()
    SupportAssessor(embedder, None, preselect=None).assess("Cargo ships in winter.", _long(), None)
    assert len(embedder.texts) >= 121
    short = Counting()
    document = Document("short", " ".join(FILLER[:10]))
    SupportAssessor(short, None).assess("The weather of town 3.", document, None)
    assert len(short.texts) == 11


def test_prefetch_does_not_embed_a_long_source_whole() -> None:
    embedder = Counting()
    assessor = SupportAssessor(embedder, None)
    assessor.prefetch(["Cargo ships in winter."], [_long()])
    assert len(embedder.texts) == 1


def test_preselection_pools_the_best_chunks_of_every_query() -> None:
    presence = WordPresence.of(["red apples grow", "green pears fall", "blue plums ripen"])
    assert preselected(presence, ["red apples"], [0, 1, 2], 1) == [0]
    assert preselected(presence, ["red apples", "plums ripen"], [0, 1, 2], 1) == [0, 2]
    assert preselected(presence, ["anything"], [0, 1], 5) == [0, 1]
    with pytest.raises(ConfigError):
        EmbeddingMatcher(HashingEmbedder(), preselect=0)
