"""The word index that narrows a search over many documents before any alignment."""

from __future__ import annotations

import itertools
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from citecheck import Document, Status, Verifier
from citecheck.matchers import ExactMatcher, FuzzyMatcher
from citecheck.matchers.word_index import WordIndex
from citecheck.model import Evidence, Span

_VOCABULARY = "the survey of rural clinics found that public pension funds rose steadily".split()


def _prose(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_VOCABULARY) for _ in range(words)) + "."


def _pairs(text: str) -> set[tuple[str, str]]:
    return set(itertools.pairwise(re.findall(r"\w+", text.lower())))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 12))
def test_holding_is_exactly_the_documents_with_every_word_pair(seed: int, length: int) -> None:
    rng = random.Random(seed)
    documents = [Document(f"d{i}", _prose(rng, rng.randint(5, 60))) for i in range(8)]
    source = rng.choice(documents)
    words = source.text.rstrip(".").split()
    start = rng.randrange(max(1, len(words) - length))
    target = " ".join(words[start : start + length])
    holders = WordIndex(documents).holding(target)
    assert source in holders
    assert holders == [d for d in documents if _pairs(target) <= _pairs(d.text)]


def test_likely_regions_find_a_misspelt_passage_among_many_documents() -> None:
    rng = random.Random(7)
    documents = [Document(f"d{i}", _prose(rng, 4_000)) for i in range(6)]
    passage = "the hydrologists recalibrated seventeen gauges along the Vistula in 1987"
    text = documents[4].text
    documents[4] = Document("d4", text[:9_000] + " " + passage + " " + text[9_000:])
    slipped = "the hydrologsts recalibrated seventen gauges along the Vistula in 1987"
    regions = WordIndex(documents).likely_regions(slipped.lower())
    assert regions
    document, start, end = regions[0]
    assert document.id == "d4"
    assert start <= document.normalized.text.index(passage.lower()) < end


def test_likely_regions_within_one_document_stay_inside_the_range() -> None:
    rng = random.Random(3)
    document = Document("d", _prose(rng, 8_000))
    half = len(document.normalized) // 2
    regions = WordIndex.of(document).likely_regions("public pension funds rose", (0, half))
    assert regions
    assert all(0 <= start < end <= half for _, start, end in regions)


def test_a_word_absent_from_every_document_rules_the_text_out() -> None:
    documents = [Document("a", "the survey found clinics"), Document("b", "pension funds rose")]
    index = WordIndex(documents)
    assert index.holding("the survey found hospitals") == []
    assert index.likely_regions("zebras quagga okapi giraffe") == []


def _long_corpus() -> dict[str, Document]:
    rng = random.Random(11)
    documents = {f"d{i}": Document(f"d{i}", _prose(rng, 6_000)) for i in range(5)}
    sentence = "The harbour authority dredged the northern channel twice in 2019."
    text = documents["d3"].text
    documents["d3"] = Document("d3", text[:20_000] + " " + sentence + " " + text[20_000:])
    return documents


def test_a_misspelt_quote_in_another_long_document_is_a_wrong_location() -> None:
    sources = _long_corpus()
    answer = 'They write "The harbour autority dredged the nothern channel twice in 2019" [[d0]].'
    result = Verifier().verify(answer, sources).results[0]
    assert result.status is Status.WRONG_LOCATION
    assert result.evidence[0].source_id == "d3"
    assert "harbour authority" in result.evidence[0].text


def test_a_quote_standing_nowhere_is_unsupported_after_searching_every_document() -> None:
    sources = _long_corpus()
    answer = 'They write "The lighthouse keeper repainted the southern tower in 1911" [[d0]].'
    result = Verifier().verify(answer, sources).results[0]
    assert result.status is Status.UNSUPPORTED
    assert "anywhere in the sources" in result.reason


def test_prepared_documents_give_the_same_verdicts_and_the_input_is_untouched() -> None:
    sources = {key: document.text for key, document in _long_corpus().items()}
    before = dict(sources)
    answer = (
        'First "The harbour authority dredged the northern channel twice in 2019" [[d0]]. '
        'Then "The harbour autority dredged the nothern channel twice in 2019" [[d3]].'
    )
    verifier = Verifier()
    prepared = verifier.prepare(sources)
    assert sources == before
    assert list(prepared) == list(sources)
    assert all(isinstance(d, Document) for d in prepared.values())
    expected = [r.status for r in Verifier().verify(answer, sources).results]
    assert [r.status for r in verifier.verify(answer, prepared).results] == expected
    assert expected == [Status.WRONG_LOCATION, Status.VERIFIED]


class _Suffix:
    """A plug-in matcher with no shortlist: it must still be asked about every document."""

    name = "suffix"

    def find(self, query: str, document: Document, within: Span | None = None) -> list[Evidence]:
        start = document.text.find(query[-12:])
        if start < 0 or (within is not None and not within.start <= start < within.end):
            return []
        return [document.evidence(start, start + 12, 0.9, self.name)]


def test_a_plug_in_matcher_without_a_shortlist_searches_every_document() -> None:
    sources = _long_corpus()
    answer = 'They write "entirely different words, twice in 2019" [[d0]].'
    verifier = Verifier(matchers=(ExactMatcher(), FuzzyMatcher(), _Suffix()))
    result = verifier.verify(answer, sources).results[0]
    assert result.status is Status.WRONG_LOCATION
    assert result.evidence[0].source_id == "d3"


def test_misspelt_words_do_not_crowd_out_the_anchors_that_can_vote() -> None:
    sources = {
        "a": "An unrelated paragraph about gardens and roses in the spring.",
        "b": "Records show the hydrologists recalibrated seventeen gauges along the Vistula "
        "river in 1987 after floods.",
    }
    quote = "the hydrologsts recalibratd seventen gauges alongg the Vistula river in 1987"
    result = Verifier().verify(f'They write "{quote}" [[a]].', sources).results[0]
    assert result.status is Status.WRONG_LOCATION
    assert result.evidence[0].source_id == "b"


def test_known_share_counts_the_words_that_stand_somewhere() -> None:
    index = WordIndex([Document("a", "the pension reserves grew"), Document("b", "in ninety")])
    assert index.known_share("the pension reserves grew in ninety") == 1.0
    assert index.known_share("tbe pencion resecves grew") == 0.25
    assert index.known_share("a b") == 1.0, "no word of three letters: nothing to judge"
