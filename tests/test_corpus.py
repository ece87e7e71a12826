"""The searchable corpus, and the verifier looking for evidence through it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

np = pytest.importorskip("numpy")

from citecheck import Corpus, Document, Status, Verifier  # noqa: E402
from citecheck.errors import BackendError, ConfigError, FilterError, InputError  # noqa: E402
from citecheck.indexes.corpus import _windows, chunk_id  # noqa: E402
from citecheck.indexes.memory import MemoryIndex  # noqa: E402
from citecheck.testing import HashingEmbedder  # noqa: E402

PAPER = (
    "# Introduction\n\n"
    "[PAGE:3]\nRainfall in the northern district fell by twelve percent over the decade.\n\n"
    "# Results\n\n"
    "[PAGE:4]\nHospitals reported fewer admissions after the vaccine campaign began.\n"
)
NOTES = "Farmers lost most of the harvest to the long drought that summer."


class Counting(HashingEmbedder):
    """Counts the texts it embeds, to show what a second add does not embed."""

    def __init__(self) -> None:
        super().__init__(64)
        self.embedded = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded += len(texts)
        return super().embed_documents(texts)


def corpus(**options: object) -> Corpus:
    built = Corpus(Counting(), **options)  # type: ignore[arg-type]
    built.add({"paper": PAPER, "notes": NOTES})
    return built


def test_search_returns_evidence_with_offsets_page_line_and_section() -> None:
    c = corpus()
    [best, *_] = c.search("hospital admissions after the vaccine campaign", k=3)
    assert best.source_id == "paper"
    assert PAPER[best.start : best.end] == best.text
    assert "Hospitals reported" in best.text
    assert best.page == 4
    assert best.section == "Results"
    assert best.line == PAPER[: best.start].count("\n") + 1
    assert best.method == "index"
    assert best.scores["cosine"] == best.score


def test_chunk_metadata_says_where_each_chunk_stands() -> None:
    c = corpus()
    first = c.index.fetch([chunk_id("paper", 0)])[chunk_id("paper", 0)].metadata
    assert first["doc_id"] == "paper"
    assert isinstance(first["doc_hash"], str)
    assert PAPER[first["start"] : first["end"]] == first["text"]  # type: ignore[misc]
    assert c.index.count() == len(c.index.fetch([chunk_id("paper", i) for i in range(10)])) + 1


def test_a_filter_narrows_the_search() -> None:
    c = corpus()
    hits = c.search("hospital admissions after the vaccine campaign", k=5, filter={"page": 3})
    assert hits
    assert all(h.page == 3 for h in hits)
    notes_only = c.search("rainfall", k=5, filter={"doc_id": "notes"})
    assert {h.source_id for h in notes_only} == {"notes"}
    with pytest.raises(FilterError):
        c.search("rainfall", filter={"page": {"$near": 3}})


def test_adding_unchanged_documents_embeds_nothing() -> None:
    c = corpus()
    embedder = c.embedder
    assert isinstance(embedder, Counting)
    before, count = embedder.embedded, c.index.count()
    update = c.add({"paper": PAPER, "notes": NOTES})
    assert update.written == ()
    assert set(update.unchanged) == {"paper", "notes"}
    assert update.chunks == 0
    assert embedder.embedded == before
    assert c.index.count() == count


def test_a_changed_document_replaces_its_chunks() -> None:
    c = corpus()
    update = c.add({"notes": "The harvest recovered the following year."})
    assert update.written == ("notes",)
    notes = c.search("harvest", k=10, filter={"doc_id": "notes"})
    assert [h.text for h in notes] == ["The harvest recovered the following year."]


def test_a_persisted_index_answers_without_the_documents() -> None:
    index = MemoryIndex()
    first = Corpus(HashingEmbedder(64), index)
    first.add({"paper": PAPER})
    later = Corpus(HashingEmbedder(64), index)  # a new process, the same index
    assert later.documents == {}
    assert later.exists("paper")
    assert not later.exists("nobody")
    [best] = later.search("hospital admissions after the vaccine campaign", k=1)
    assert best.source_id == "paper"
    assert best.page == 4
    assert PAPER[best.start : best.end] == best.text
    update = later.add({"paper": PAPER})
    assert update.unchanged == ("paper",), "the index remembers the text's hash"


def test_remove_deletes_a_document_s_chunks() -> None:
    c = corpus()
    c.remove(["paper"])
    assert not c.exists("paper")
    assert {h.source_id for h in c.search("rainfall in the north", k=10)} == {"notes"}


def test_windows_chunking_overlaps_and_keeps_offsets() -> None:
    c = corpus(chunking="windows", window_chars=60, overlap_chars=20)
    for hit in c.search("rainfall fell by twelve percent", k=10):
        assert len(hit.text) <= 60
        assert PAPER[hit.start : hit.end] == hit.text or NOTES[hit.start : hit.end] == hit.text


@given(
    st.text(alphabet=st.sampled_from("ab \n."), max_size=300),
    st.integers(10, 80),
    st.integers(0, 9),
)
def test_windows_cover_the_text_in_order(text: str, size: int, overlap: int) -> None:
    windows = _windows(text, size, overlap)
    for window in windows:
        assert text[window.start : window.end] == window.text
        assert window.end - window.start <= size
    starts = [w.start for w in windows]
    assert starts == sorted(set(starts))
    covered = set()
    for w in windows:
        covered.update(range(w.start, w.end))
    assert all(i in covered for i, ch in enumerate(text) if not ch.isspace())


def test_bad_options_and_queries_are_named() -> None:
    with pytest.raises(ConfigError, match="chunking"):
        Corpus(HashingEmbedder(8), chunking="pages")
    with pytest.raises(ConfigError, match="overlap"):
        Corpus(HashingEmbedder(8), chunking="windows", window_chars=50, overlap_chars=50)
    with pytest.raises(InputError):
        corpus().search("   ")


# -- the verifier with an index -------------------------------------------------------------------


def test_the_verifier_finds_sources_in_the_index() -> None:
    verifier = Verifier(index=corpus())
    report = verifier.verify('"Hospitals reported fewer admissions" [[paper:p4]].', {})
    [result] = report.results
    assert result.status is Status.VERIFIED
    assert result.evidence[0].page == 4


def test_an_excerpt_at_the_wrong_place_is_found_through_the_index() -> None:
    verifier = Verifier(index=corpus())
    [result] = verifier.verify('"the long drought that summer" [[paper:p3]].', {}).results
    assert result.status is Status.WRONG_LOCATION
    assert result.evidence[0].source_id == "notes"


def test_a_source_only_in_the_index_is_unchecked_not_a_phantom() -> None:
    index = MemoryIndex()
    Corpus(HashingEmbedder(64), index).add({"paper": PAPER})
    verifier = Verifier(index=Corpus(HashingEmbedder(64), index))
    text = '"Hospitals reported" [[paper:p4]]. "Anything" [[ghost:p1]].'
    known, ghost = verifier.verify(text, {}).results
    assert known.status is Status.UNCHECKED
    assert "exists in the index" in known.reason
    assert ghost.status is Status.NOT_FOUND


def test_a_failing_index_leaves_the_citation_unchecked() -> None:
    class Down(MemoryIndex):
        def search(self, *args: object, **kwargs: object) -> list:  # type: ignore[override,type-arg]
            raise BackendError("the index is unreachable")

    broken = Corpus(HashingEmbedder(64), Down())
    broken.add({"paper": PAPER, "notes": NOTES})
    [result] = Verifier(index=broken).verify('"never said anywhere" [[paper:p3]].', {}).results
    assert result.status is Status.UNCHECKED
    assert "unreachable" in result.reason


def test_documents_given_to_verify_win_over_the_index() -> None:
    verifier = Verifier(index=corpus())
    newer = Document("notes", "Farmers saved the harvest despite the drought.")
    [result] = verifier.verify('"Farmers saved the harvest" [[notes]].', [newer]).results
    assert result.status is Status.VERIFIED
