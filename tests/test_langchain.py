"""citecheck inside LangChain: documents as sources, the chain step, the agent tool and the
paper library's retriever, with langchain-tests' standard suites. Skipped without the
``langchain`` extra and langchain-tests; no network (a fake chat model answers)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("langchain_tests")

from langchain_core.documents import Document as LCDocument
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnablePassthrough
from langchain_tests.integration_tests import RetrieversIntegrationTests, ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests

import citecheck
from citecheck import Document, Status
from citecheck.errors import CitationsFailed, ConfigError, InputError, SourceError
from citecheck.integrations.langchain import (
    CitationCheck,
    CitecheckTool,
    PaperLibraryRetriever,
)
from citecheck.report import Report

EXAMPLES = Path(__file__).parents[1] / "examples"

CHUNKS = [
    LCDocument(
        page_content="The committee approved the budget on Tuesday.",
        metadata={"source": "minutes.pdf", "page": 2, "page_label": "3", "author": "Board"},
    ),
    LCDocument(
        page_content="Attendance was 41 members.",
        metadata={"source": "minutes.pdf", "page": 0, "page_label": "1"},
    ),
    LCDocument(page_content="Rain fell all week in the valley.", metadata={"source": "weather"}),
]
GOOD = 'They "approved the budget" [[minutes.pdf:p. 3]].'
BAD = 'Attendance "was 45 members" [[minutes.pdf:p. 1]].'
ANSWER = f"{GOOD} {BAD}"


# -- documents as sources ---------------------------------------------------------------------


def test_chunks_of_one_source_are_one_paged_source() -> None:
    report = citecheck.verify(ANSWER, CHUNKS)
    good, bad = report.results
    assert good.status is Status.VERIFIED
    assert good.evidence[0].page == 3
    document_text = "Attendance was 41 members.\fThe committee approved the budget on Tuesday."
    assert document_text[good.evidence[0].start : good.evidence[0].end] == "approved the budget"
    assert bad.status is Status.PARTIAL  # 45 against 41: never verified
    assert bad.evidence[0].page == 1


def test_a_page_that_no_chunk_holds_is_a_phantom() -> None:
    report = citecheck.verify('"approved the budget" [[minutes.pdf:p. 9]]', CHUNKS)
    assert report.results[0].status is Status.NOT_FOUND


def test_numbers_mean_the_documents_in_the_order_given() -> None:
    report = citecheck.verify('"Rain fell all week" [3]. "Attendance was 41" [2].', CHUNKS)
    assert [r.status for r in report] == [Status.VERIFIED, Status.VERIFIED]
    assert [m.source_id for m in report.mappings] == ["weather", "minutes.pdf"]
    assert any("order the sources were given" in w for w in report.warnings)


def test_a_document_without_id_or_source_gets_a_stable_id_and_a_warning() -> None:
    nameless = [LCDocument(page_content="Bees dance to show where flowers are.")]
    first = citecheck.verify('"Bees dance" [1]', nameless)
    again = citecheck.verify('"Bees dance" [1]', copy.deepcopy(nameless))
    source_id = first.mappings[0].source_id
    assert source_id.startswith("doc-")
    assert again.mappings[0].source_id == source_id
    assert first.results[0].status is Status.VERIFIED
    assert any("no id and no source metadata" in w and source_id in w for w in first.warnings)


def test_the_document_id_names_a_source_without_metadata() -> None:
    named = [LCDocument(page_content="Bees dance.", id="bees-1")]
    assert citecheck.verify('"Bees dance" [[bees-1]]', named).passed


def test_langchain_and_citecheck_documents_mix_and_nothing_is_mutated() -> None:
    before = copy.deepcopy(CHUNKS)
    sources = [*CHUNKS, Document("notes", "Plain notes.")]
    report = citecheck.verify('"Plain notes" [[notes]] and "Rain fell" [[weather]]', sources)
    assert report.passed
    assert before == CHUNKS
    with pytest.raises(SourceError, match="'notes'"):
        citecheck.verify("x", [Document("notes", "a"), LCDocument(page_content="b", id="notes")])


def test_chunks_are_listed_in_the_merged_document() -> None:
    from citecheck.documents.foreign import gather

    gathered = gather(CHUNKS)
    minutes = gathered.documents[0]
    assert gathered.order == ("minutes.pdf", "minutes.pdf", "weather")
    assert minutes.metadata["author"] == "Board"
    chunks = minutes.metadata["chunks"]
    assert [c["position"] for c in chunks] == [1, 0]  # page 1 first
    for chunk in chunks:
        assert minutes.text[chunk["start"] : chunk["end"]] == CHUNKS[chunk["position"]].page_content


def test_every_door_takes_langchain_documents() -> None:
    quotes = citecheck.verify_quotes(["approved the budget"], CHUNKS)
    assert quotes.results[0].status is Status.VERIFIED
    assert quotes.results[0].evidence[0].page == 3
    assert citecheck.locate("Rain fell all week", CHUNKS)[0].source_id == "weather"


# -- the chain step ---------------------------------------------------------------------------


def test_the_check_returns_the_report() -> None:
    report = CitationCheck().invoke({"answer": ANSWER, "documents": CHUNKS})
    assert isinstance(report, Report)
    assert report.outcome == "FAIL"


def test_a_retrieval_chains_output_and_a_chat_message_are_read() -> None:
    report = CitationCheck().invoke(
        {"input": "q", "context": CHUNKS, "answer": AIMessage(content=GOOD)}
    )
    assert report.passed


def test_raise_stops_the_chain_only_on_failure() -> None:
    check = CitationCheck(on_fail="raise")
    assert check.invoke({"answer": GOOD, "documents": CHUNKS}).passed
    with pytest.raises(CitationsFailed, match=r"minutes\.pdf:p\. 1.*45") as caught:
        check.invoke({"answer": ANSWER, "documents": CHUNKS})
    assert caught.value.report.outcome == "FAIL"
    unchecked = check.invoke({"answer": GOOD, "documents": []})
    assert unchecked.outcome == "UNCHECKED"  # could not check is not a failure


def test_flag_annotates_and_strip_removes_the_failed_sentence() -> None:
    data = {"answer": ANSWER, "documents": CHUNKS, "question": "q"}
    flagged = CitationCheck(on_fail="flag").invoke(data)
    assert flagged["answer"] == f"{GOOD} {BAD[:-1]} [citecheck: partial]."
    assert flagged["question"] == "q"
    assert isinstance(flagged["report"], Report)
    stripped = CitationCheck(on_fail="strip").invoke(data)
    assert stripped["answer"] == GOOD
    assert data["answer"] == ANSWER  # the input is not mutated


def test_unchecked_citations_are_flagged_but_never_stripped() -> None:
    data = {"answer": '"Bees dance" [[hive]].', "documents": []}
    assert CitationCheck(on_fail="strip").invoke(data)["answer"] == '"Bees dance" [[hive]].'
    flagged = CitationCheck(on_fail="flag").invoke(data)["answer"]
    assert flagged == '"Bees dance" [[hive]] [citecheck: could not be checked].'


def test_bad_input_to_the_check_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="on_fail"):
        CitationCheck(on_fail="drop")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="'answer'"):
        CitationCheck().invoke({"documents": CHUNKS})
    with pytest.raises(InputError, match="documents"):
        CitationCheck().invoke({"answer": GOOD})
    with pytest.raises(InputError, match="mapping"):
        CitationCheck().invoke("just text")  # type: ignore[arg-type]


def test_a_chain_with_a_fake_chat_model_strips_what_the_sources_do_not_say() -> None:
    model = FakeListChatModel(responses=[ANSWER])
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Answer from these documents: {documents}"), ("human", "{question}")]
    )
    chain = RunnablePassthrough.assign(answer=prompt | model | StrOutputParser()) | CitationCheck(
        on_fail="strip"
    )
    out = chain.invoke({"question": "What did the committee do?", "documents": CHUNKS})
    assert out["answer"] == GOOD
    assert out["report"].results[1].status is Status.PARTIAL


async def test_the_check_runs_async_and_in_batches() -> None:
    check = CitationCheck()
    report = await check.ainvoke({"answer": GOOD, "documents": CHUNKS})
    assert report.passed
    both = check.batch(
        [{"answer": GOOD, "documents": CHUNKS}, {"answer": BAD, "documents": CHUNKS}]
    )
    assert [r.outcome for r in both] == ["PASS", "FAIL"]


# -- the agent tool ---------------------------------------------------------------------------

TOOL_ARGS = {"text": ANSWER, "sources": {"minutes.pdf": "The committee approved the budget."}}


class _CitecheckToolCase:
    """What both standard suites build and call."""

    @property
    def tool_constructor(self) -> type[CitecheckTool]:
        return CitecheckTool

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return TOOL_ARGS


class TestCitecheckToolUnit(_CitecheckToolCase, ToolsUnitTests):
    pass


class TestCitecheckToolIntegration(_CitecheckToolCase, ToolsIntegrationTests):
    pass


def _call(tool: CitecheckTool, args: dict[str, Any]) -> Any:
    return tool.invoke({"type": "tool_call", "id": "1", "name": tool.name, "args": args})


def test_the_tool_gives_a_short_verdict_and_the_report_as_artifact() -> None:
    message = _call(CitecheckTool(sources=CHUNKS), {"text": ANSWER})
    assert message.content.startswith("FAIL: 2 checked, 1 verified, 1 partial")
    assert "45 where the source has 41" in message.content
    assert isinstance(message.artifact, Report)
    assert message.artifact.results[0].status is Status.VERIFIED


def test_the_tool_finds_a_quotation() -> None:
    message = _call(CitecheckTool(sources=CHUNKS), {"text": "Rain fell all week", "quote": True})
    assert message.content.startswith("PASS")
    assert message.artifact.results[0].evidence[0].source_id == "weather"


def test_the_tool_names_what_is_wrong_with_a_call() -> None:
    tool = CitecheckTool(sources=CHUNKS)
    malformed = _call(tool, {"txt": ANSWER, "quote": "perhaps"})
    assert malformed.status == "error"
    assert "text: Field required" in malformed.content
    assert "quote:" in malformed.content
    unsourced = _call(CitecheckTool(), {"text": ANSWER})
    assert unsourced.status == "error"
    assert "no sources" in unsourced.content
    bad_text = _call(tool, {"text": ANSWER, "sources": {"a": "x"}, "quote": False})
    assert bad_text.status == "success"
    assert "not found" in bad_text.content


def test_the_tool_caps_its_list_and_says_how_many_more() -> None:
    answer = " ".join(f'"claim number {i}" [[ghost{i}]].' for i in range(12))
    message = _call(CitecheckTool(sources={"a": "text"}), {"text": answer})
    assert message.content.count("\n- [[ghost") == 8
    assert "and 4 more that did not pass (the report lists them)" in message.content


# -- the paper library's retriever ------------------------------------------------------------


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from citecheck import PaperLibrary

    built = PaperLibrary(tmp_path_factory.mktemp("papers") / "lib", embedder=None, judge=None)
    built.add(EXAMPLES / "papers" / "stoker2022.md")
    return built


class TestPaperLibraryRetriever(RetrieversIntegrationTests):
    @pytest.fixture(autouse=True)
    def _library(self, library: Any) -> None:
        self._built = library

    @property
    def retriever_constructor(self) -> type[PaperLibraryRetriever]:
        return PaperLibraryRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"library": self._built, "mode": "bm25"}

    @property
    def retriever_query_example(self) -> str:
        return "how long the annotation took"


def test_retrieved_passages_carry_pages_and_check_back(library: Any) -> None:
    retriever = PaperLibraryRetriever(library=library, mode="bm25", k=2)
    passages = retriever.invoke("how long the annotation took")
    top = passages[0]
    assert top.metadata["source"] == "stoker2022"
    assert isinstance(top.metadata["page"], int)
    assert top.id == f"stoker2022#{top.metadata['chunk']}"
    words = " ".join(top.page_content.split()[:6])
    answer = f'"{words}" [[stoker2022:p. {top.metadata["page"]}]]'
    assert CitationCheck().invoke({"answer": answer, "documents": passages}).passed
