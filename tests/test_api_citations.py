"""The door of the structured citations LLM APIs return (``citecheck.api_citations``).

The fixtures in ``tests/data/api_citations/`` are responses in the shapes the providers
document (their README names the page each comes from): Anthropic's Messages API citations
(``char_location``, ``page_location``, ``content_block_location``, ``search_result_location``,
``web_search_result_location``; https://platform.claude.com/docs/en/build-with-claude/citations,
.../search-results, .../agents-and-tools/tool-use/web-search-tool) and OpenAI's annotations
(Responses ``file_citation`` and ``url_citation``, Chat Completions ``message.annotations``,
Assistants ``file_citation`` with a ``quote``; https://platform.openai.com/docs/guides/
tools-file-search, .../tools-web-search, the Messages object of the API reference).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecheck import Document, Status
from citecheck._config import Options
from citecheck.api_citations import (
    ApiCitationConfig,
    ApiCitationOptions,
    ApiCitationVerifier,
    read_api_citations,
    verify_api_citations,
)
from citecheck.errors import ConfigError, InputError, SourceError
from citecheck.model import Result
from citecheck.protocols import Verifier as Door
from citecheck.testing import DoorConformance, HashingEmbedder

DATA = Path(__file__).parent / "data" / "api_citations"
FIXTURES = sorted(p.name for p in DATA.glob("*.json"))
NEEDS_PDF = pytest.mark.skipif(
    find_spec("pypdf") is None, reason="the page fixture is a PDF: needs the pdf extra"
)


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


def sources_of(data: dict[str, Any]) -> Any:
    """What the fixture's API was sent, as the door takes it."""
    if "request" in data:
        return data["request"]
    if "files" in data:
        return {
            key: Document(key, value["text"], {"filename": value["filename"]})
            for key, value in data["files"].items()
        }
    return data["pages"]


def statuses(report: Any) -> list[Status]:
    return [r.status for r in report.results]


# -- every documented shape -------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=NEEDS_PDF) if "page" in n else n for n in FIXTURES]
)
def test_every_documented_shape_is_read_and_its_true_citations_verified(name: str) -> None:
    data = load(name)
    report = verify_api_citations(data["response"], sources_of(data))
    provider = name.split("_")[0]
    assert report.kind == "api"
    assert report.metadata["provider"] == provider
    assert report.results
    assert report.outcome == "PASS", report.to_text()
    for result in report.results:
        assert result.details["provider"] == provider
        assert result.details["claim_status"] == "verified"
        assert result.citation.claim
        assert report.text is not None
        assert result.citation.text_span is not None
        stands = report.text[result.citation.text_span.start : result.citation.text_span.end]
        assert " ".join(stands.split()).casefold() == result.citation.claim.casefold()


@pytest.mark.parametrize(
    ("name", "shape", "types"),
    [
        ("anthropic_char_location.json", "messages", {"char_location"}),
        ("anthropic_page_location.json", "messages", {"page_location"}),
        ("anthropic_content_block_location.json", "messages", {"content_block_location"}),
        ("anthropic_search_result_location.json", "messages", {"search_result_location"}),
        ("anthropic_web_search_result_location.json", "messages", {"web_search_result_location"}),
        ("openai_responses_file_citation.json", "responses", {"file_citation"}),
        ("openai_responses_url_citation.json", "responses", {"url_citation"}),
        ("openai_chat_url_citation.json", "chat.completions", {"url_citation"}),
        ("openai_assistants_file_citation.json", "assistants", {"file_citation"}),
    ],
)
def test_each_shape_is_told_apart(name: str, shape: str, types: set[str]) -> None:
    answer = read_api_citations(load(name)["response"])
    assert answer.shape == shape
    assert {c.type for c in answer.citations} == types


def test_true_character_ranges_are_verified_with_their_own_offsets() -> None:
    data = load("anthropic_char_location.json")
    text = data["request"]["messages"][0]["content"][0]["source"]["data"]
    report = verify_api_citations(data["response"], data["request"])
    for result in report.results:
        claimed = result.details["claimed"]
        start, end = claimed["start_char_index"], claimed["end_char_index"]
        assert result.details["real"] == {"start": start, "end": end, "page": None, "line": 1}
        evidence = result.evidence[0]
        assert (evidence.source_id, evidence.start, evidence.end) == ("document-0", start, end)
        assert text[start:end] == result.citation.excerpt
        assert str(result.citation.location) == f"c{start}-{end}"
    assert [r.citation.raw for r in report.results] == [
        "content[1].citations[0]",
        "content[3].citations[0]",
    ]
    assert report.text == "According to the document, the grass is green and the sky is blue."


def test_a_shifted_range_is_reported_with_the_real_one() -> None:
    data = load("anthropic_char_location.json")
    response = copy.deepcopy(data["response"])
    cite = response["content"][3]["citations"][0]
    cite["start_char_index"], cite["end_char_index"] = 17, 33  # 3 characters early
    result = verify_api_citations(response, data["request"]).results[1]
    assert result.status is Status.WRONG_LOCATION
    assert result.details["real"]["start"] == 20
    assert result.details["real"]["end"] == 36
    assert (result.evidence[0].start, result.evidence[0].end) == (20, 36)
    assert "characters 20-36" in result.reason
    assert "off by 3 characters" in result.reason
    assert result.details["claimed"] == {"start_char_index": 17, "end_char_index": 33}


def test_a_range_past_the_end_is_a_place_that_does_not_exist() -> None:
    data = load("anthropic_char_location.json")
    response = copy.deepcopy(data["response"])
    cite = response["content"][3]["citations"][0]
    cite["start_char_index"], cite["end_char_index"] = 200, 216
    moved = verify_api_citations(response, data["request"]).results[1]
    assert moved.status is Status.WRONG_LOCATION  # the text stands elsewhere: said where
    assert moved.details["real"]["start"] == 20
    assert "do not exist" in moved.reason
    cite["cited_text"] = "The moon is made of cheese."
    report = verify_api_citations(response, data["request"])
    assert report.results[1].status is Status.NOT_FOUND
    assert report.phantom_citations == ["document-0:c200-216"]


def test_a_cited_text_that_stands_nowhere_is_unsupported_not_a_phantom() -> None:
    data = load("anthropic_char_location.json")
    response = copy.deepcopy(data["response"])
    response["content"][3]["citations"][0]["cited_text"] = "The sea is calm and wide."
    result = verify_api_citations(response, data["request"]).results[1]
    assert result.status is Status.UNSUPPORTED
    assert result.details["real"] is None
    assert "does not stand at characters 20-36" in result.reason


def test_a_document_that_was_not_sent_is_a_phantom() -> None:
    data = load("anthropic_char_location.json")
    response = copy.deepcopy(data["response"])
    response["content"][1]["citations"][0]["document_index"] = 3
    report = verify_api_citations(response, data["request"])
    assert statuses(report) == [Status.NOT_FOUND, Status.VERIFIED]
    assert report.results[0].reason == (
        "document_index 3 names no document: 1 document was sent ('document-0')"
    )
    assert report.phantom_citations == ["document 3"]
    assert report.outcome == "FAIL"


def test_a_file_that_was_not_given_is_a_phantom_and_nothing_given_is_unchecked() -> None:
    data = load("openai_responses_file_citation.json")
    other = {"file-other": Document("file-other", "Something else entirely.")}
    phantom = verify_api_citations(data["response"], other)
    assert statuses(phantom) == [Status.NOT_FOUND, Status.NOT_FOUND]
    assert "'file-2dtbBZdjtDKS8eqWxqbgDi' (deep_research_blog.pdf)" in phantom.results[0].reason
    nothing = verify_api_citations(data["response"])
    assert statuses(nothing) == [Status.UNCHECKED, Status.UNCHECKED]
    assert nothing.outcome == "UNCHECKED"
    assert "No documents were given" in nothing.warnings[0]


def test_a_file_is_found_by_its_name_too() -> None:
    data = load("openai_responses_file_citation.json")
    text = data["files"]["file-2dtbBZdjtDKS8eqWxqbgDi"]["text"]
    by_name = verify_api_citations(data["response"], {"deep_research_blog.pdf": text})
    assert statuses(by_name) == [Status.VERIFIED, Status.VERIFIED]
    by_stem = verify_api_citations(data["response"], [Document("deep_research_blog", text)])
    assert statuses(by_stem) == [Status.VERIFIED, Status.VERIFIED]


# -- the claim the citation backs -------------------------------------------------------------


def _page_response(claim: str) -> tuple[dict[str, Any], dict[str, Any]]:
    data = load("anthropic_page_location.json")
    response = copy.deepcopy(data["response"])
    response["content"][0]["text"] = claim
    return response, data["request"]


@pytest.mark.parametrize(
    "claim",
    [
        "The trial enrolled 250 patients",  # a changed number
        "The trial enrolled 120 patients in 2021",  # a changed year
    ],
)
@NEEDS_PDF
def test_a_false_claim_on_a_true_cited_text_is_not_verified(claim: str) -> None:
    response, request = _page_response(claim)
    result = verify_api_citations(response, request).results[0]
    assert result.details["cited_text_status"] == "verified"
    assert result.status is not Status.VERIFIED
    assert result.status is Status.PARTIAL
    assert "change of meaning" in result.reason


@NEEDS_PDF
def test_a_dropped_negation_is_not_verified_by_meaning_either() -> None:
    data = load("anthropic_page_location.json")
    response = copy.deepcopy(data["response"])
    block = response["content"][2]
    block["text"] = "Serious adverse events were reported"
    block["citations"][0].update(
        cited_text="No serious adverse events were reported.",
        start_page_number=3,
        end_page_number=4,
    )
    lexical, by_meaning = (
        ApiCitationOptions(),
        ApiCitationOptions(embedder=HashingEmbedder(), judge=None),
    )
    for options in (lexical, by_meaning):
        result = verify_api_citations(response, data["request"], **options).results[1]
        assert result.details["cited_text_status"] == "verified"
        assert result.status is not Status.VERIFIED, options


@NEEDS_PDF
def test_a_changed_number_is_caught_with_an_embedder_too() -> None:
    response, request = _page_response("The trial enrolled 250 patients")
    report = verify_api_citations(response, request, embedder=HashingEmbedder(), judge=None)
    assert report.results[0].status is Status.PARTIAL
    assert report.results[1].status is Status.VERIFIED


@NEEDS_PDF
def test_claims_can_be_left_unchecked() -> None:
    response, request = _page_response("The trial enrolled 250 patients")
    result = verify_api_citations(response, request, check_claims=False).results[0]
    assert result.status is Status.VERIFIED
    assert result.details["claim_status"] is None


def test_a_text_block_with_several_citations_is_graded_against_them_together() -> None:
    data = load("anthropic_char_location.json")
    response = copy.deepcopy(data["response"])
    both = [*response["content"][1]["citations"], *response["content"][3]["citations"]]
    response["content"] = [
        {"type": "text", "text": "The grass is green and the sky is blue", "citations": both}
    ]
    report = verify_api_citations(response, data["request"])
    assert statuses(report) == [Status.VERIFIED, Status.VERIFIED]
    assert "the cited texts" in report.results[0].reason
    assert [(e.start, e.end) for e in report.results[1].evidence] == [(20, 36)]


def test_a_claim_too_short_to_check_keeps_the_citation_unchecked() -> None:
    data = load("anthropic_char_location.json")
    response = copy.deepcopy(data["response"])
    response["content"][1]["text"] = "Green."
    result = verify_api_citations(response, data["request"]).results[0]
    assert result.status is Status.UNCHECKED
    assert result.details["cited_text_status"] == "verified"
    assert "too short to check" in result.reason


def test_the_sentence_before_an_annotation_is_its_claim() -> None:
    answer = read_api_citations(load("openai_responses_file_citation.json")["response"])
    first, second = answer.citations
    assert first.claim == (
        "Deep research is a new agentic capability that conducts multi-step research on the "
        "internet for complex tasks."
    )
    assert second.claim == "It was launched in ChatGPT on February 2, 2025."
    assert first.span is not None
    assert len(first.span) == 0
    url = read_api_citations(load("openai_chat_url_citation.json")["response"]).citations[0]
    assert url.claim == "The harbour ferry resumed service on March 6, 2025"
    assert url.span is not None
    assert answer.text[first.span.start - 1] == "."
    marker = read_api_citations(load("openai_assistants_file_citation.json")["response"])
    assert marker.citations[0].claim == "The trial enrolled 120 patients"
    assert marker.citations[0].cited_text == "The trial enrolled 120 patients in 2019."


def test_an_annotation_that_covers_its_words_backs_those_words() -> None:
    text = "The harbour ferry resumed service on March 6, 2025. Tickets cost 4 euros."
    response = {
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": text,
                    "annotations": [
                        {
                            "type": "url_citation",
                            "url_citation": {
                                "start_index": 52,
                                "end_index": len(text),
                                "url": "https://example.com/t",
                                "title": "Tickets",
                            },
                        }
                    ],
                },
            }
        ]
    }
    [citation] = read_api_citations(response).citations
    assert citation.claim == "Tickets cost 4 euros."


# -- pages, blocks, web pages and quotes ------------------------------------------------------


@NEEDS_PDF
def test_a_cited_text_on_another_page_is_a_wrong_page() -> None:
    data = load("anthropic_page_location.json")
    response = copy.deepcopy(data["response"])
    response["content"][2]["citations"][0].update(start_page_number=3, end_page_number=4)
    result = verify_api_citations(response, data["request"]).results[1]
    assert result.status is Status.WRONG_LOCATION
    assert result.evidence[0].page == 2
    assert result.details["real"]["page"] == 2
    assert "on p. 2" in result.reason
    assert result.citation.locator == "p3"


@NEEDS_PDF
def test_a_page_the_pdf_does_not_have_is_said() -> None:
    data = load("anthropic_page_location.json")
    response = copy.deepcopy(data["response"])
    cite = response["content"][0]["citations"][0]
    cite.update(start_page_number=9, end_page_number=10, cited_text="Nothing like this.")
    result = verify_api_citations(response, data["request"]).results[0]
    assert result.status is Status.NOT_FOUND
    assert "no p. 9" in result.reason


def test_a_pdf_that_cannot_be_read_is_unchecked_never_missing() -> None:
    data = load("anthropic_page_location.json")
    request = copy.deepcopy(data["request"])
    request["messages"][0]["content"][0]["source"]["data"] = "bm90IGEgcGRm"  # "not a pdf"
    report = verify_api_citations(data["response"], request)
    assert statuses(report) == [Status.UNCHECKED, Status.UNCHECKED]
    assert "could not be read" in report.results[0].reason
    assert report.warnings
    by_url = {"type": "document", "source": {"type": "url", "url": "https://x.org/a.pdf"}}
    report = verify_api_citations(data["response"], [by_url])
    assert statuses(report) == [Status.UNCHECKED, Status.UNCHECKED]
    assert "https://x.org/a.pdf" in report.results[0].reason


def test_a_document_given_in_its_place_is_read_with_its_pages() -> None:
    data = load("anthropic_page_location.json")
    pages = Document.from_pages(
        "trial",
        [
            "The trial enrolled 120 patients in 2019.",
            "Mortality fell by 12 percent in the treated group.",
        ],
    )
    report = verify_api_citations(data["response"], [pages])
    assert statuses(report) == [Status.VERIFIED, Status.VERIFIED]
    assert report.results[1].citation.source_id == "trial"
    plain = verify_api_citations(data["response"], ["The trial enrolled 120 patients in 2019."])
    assert plain.results[0].status is Status.UNCHECKED  # no pages: the page cannot be checked
    assert "no page numbers" in plain.results[0].reason


def test_a_cited_text_in_another_block_is_a_wrong_block() -> None:
    data = load("anthropic_content_block_location.json")
    response = copy.deepcopy(data["response"])
    response["content"][1]["citations"][0].update(start_block_index=1, end_block_index=2)
    report = verify_api_citations(response, data["request"])
    assert statuses(report) == [Status.WRONG_LOCATION, Status.VERIFIED]
    assert report.results[0].details["real"]["start"] == 0
    response["content"][1]["citations"][0].update(
        start_block_index=4, end_block_index=5, cited_text="Third chunk."
    )
    missing = verify_api_citations(response, data["request"]).results[0]
    assert missing.status is Status.NOT_FOUND
    assert "2 content blocks" in missing.reason


def test_a_web_page_not_given_is_unchecked_and_one_given_is_checked() -> None:
    for name in (
        "openai_responses_url_citation.json",
        "openai_chat_url_citation.json",
        "anthropic_web_search_result_location.json",
    ):
        data = load(name)
        alone = verify_api_citations(data["response"])
        assert statuses(alone) == [Status.UNCHECKED]
        assert "give its text" in alone.results[0].reason
        assert alone.outcome == "UNCHECKED"
        assert alone.phantom_citations == []
        checked = verify_api_citations(data["response"], data["pages"])
        assert statuses(checked) == [Status.VERIFIED]


def test_a_fabricated_quote_is_unsupported() -> None:
    data = load("openai_assistants_file_citation.json")
    response = copy.deepcopy(data["response"])
    annotation = response["content"][0]["text"]["annotations"][0]
    annotation["file_citation"]["quote"] = "The trial enrolled 400 children in 2023."
    result = verify_api_citations(response, sources_of(data)).results[0]
    assert result.status in (Status.UNSUPPORTED, Status.PARTIAL)
    annotation["file_citation"]["quote"] = "Penguins migrate across the desert every winter."
    result = verify_api_citations(response, sources_of(data)).results[0]
    assert result.status is Status.UNSUPPORTED
    assert "stands nowhere" in result.reason


def test_search_results_and_documents_are_numbered_apart() -> None:
    data = load("anthropic_search_result_location.json")
    result = data["request"]["messages"][0]["content"][0]
    document = {"type": "document", "source": {"type": "text", "data": "Unrelated."}}
    report = verify_api_citations(data["response"], [document, result])
    assert statuses(report) == [Status.VERIFIED]
    assert report.results[0].details["search_result_index"] == 0
    assert report.results[0].citation.source_id == "search-result-0"


# -- what it is given -------------------------------------------------------------------------


def test_nothing_it_is_given_is_changed() -> None:
    for name in FIXTURES:
        data = load(name)
        before = copy.deepcopy(data)
        verify_api_citations(data["response"], sources_of(data))
        verify_api_citations(data["response"])
        assert data == before


class _SdkMessage:
    """An SDK response object: what ``client.messages.create`` returns."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def model_dump(self) -> dict[str, Any]:
        return copy.deepcopy(self._data)


def test_an_sdk_object_a_list_of_blocks_and_a_forced_provider_are_taken() -> None:
    data = load("anthropic_char_location.json")
    whole = verify_api_citations(data["response"], data["request"])
    for response in (_SdkMessage(data["response"]), data["response"]["content"]):
        again = verify_api_citations(response, data["request"])
        assert statuses(again) == statuses(whole)
    forced = verify_api_citations(data["response"], data["request"], provider="anthropic")
    assert statuses(forced) == statuses(whole)
    with pytest.raises(InputError, match="provider='openai', but the response is an Anthropic"):
        verify_api_citations(data["response"], provider="openai")
    with pytest.raises(InputError, match="provider must be one of"):
        read_api_citations(data["response"], provider="gemini")
    output = load("openai_responses_url_citation.json")["response"]["output"]
    assert read_api_citations(output).shape == "responses"


def test_the_documents_may_be_the_request_its_blocks_or_texts_in_order() -> None:
    data = load("anthropic_char_location.json")
    text = data["request"]["messages"][0]["content"][0]["source"]["data"]
    for sources in (
        data["request"],
        [data["request"]["messages"][0]["content"][0]],
        [text],
        {"notes": text},
    ):
        assert statuses(verify_api_citations(data["response"], sources)) == [Status.VERIFIED] * 2
    with pytest.raises(SourceError, match="not a single str"):
        verify_api_citations(data["response"], text)
    with pytest.raises(SourceError, match="ids must agree"):
        verify_api_citations(data["response"], {"a": Document("b", text)})


def test_a_malformed_citation_is_unchecked_by_the_door_and_refused_by_the_reader() -> None:
    data = load("anthropic_char_location.json")
    response = copy.deepcopy(data["response"])
    del response["content"][1]["citations"][0]["start_char_index"]
    response["content"][3]["citations"][0]["type"] = "sentence_location"
    report = verify_api_citations(response, data["request"])
    assert statuses(report) == [Status.UNCHECKED, Status.UNCHECKED]
    assert report.results[0].reason == "content[1].citations[0]: start_char_index missing"
    assert "'sentence_location'" in report.results[1].reason
    with pytest.raises(InputError, match=r"content\[1\]\.citations\[0\]: start_char_index missing"):
        read_api_citations(response)


@pytest.mark.parametrize(
    ("response", "provider", "message"),
    [
        (42, "auto", "not int"),
        ({"hello": "world"}, "auto", "cannot tell which API"),
        ({"content": [1, 2]}, "anthropic", r"content\[0\] must be a mapping"),
        ({"type": "message", "role": "assistant", "content": [{}]}, "auto", "type missing"),
        ({"output": [{"type": "message", "content": "x"}]}, "auto", r"output\[0\]\.content"),
        ({"choices": [{"message": {"content": 3}}]}, "auto", r"choices\[0\]\.message\.content"),
        ({"content": [{"type": "text", "text": 5}]}, "auto", r"content\[0\]\.text must be"),
    ],
)
def test_a_response_of_no_known_shape_is_refused_by_name(
    response: Any, provider: str, message: str
) -> None:
    with pytest.raises(InputError, match=message):
        verify_api_citations(response, provider=provider)  # type: ignore[arg-type]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "text",
                    "content",
                    "citations",
                    "annotations",
                    "output",
                    "choices",
                    "message",
                    "cited_text",
                    "document_index",
                    "start_char_index",
                    "end_char_index",
                    "start_page_number",
                    "index",
                    "file_id",
                    "url",
                    "value",
                    "start_index",
                    "end_index",
                ]
            )
            | st.text(max_size=8),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)


def _replace_somewhere(value: Any, path: list[int], new: Any) -> Any:
    """``value`` with one nested value (chosen by ``path``) replaced by ``new``."""
    if not path or not isinstance(value, dict | list) or not value:
        return new
    keys = list(value) if isinstance(value, dict) else list(range(len(value)))
    key = keys[path[0] % len(keys)]
    copied = dict(value) if isinstance(value, dict) else list(value)
    copied[key] = _replace_somewhere(value[key], path[1:], new)
    return copied


def _never_crashes(response: Any, sources: Any) -> None:
    try:
        report = verify_api_citations(response, sources)
    except InputError:
        return
    for result in report.results:
        assert isinstance(result, Result)
        json.dumps(result.to_dict())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_JSON)
def test_any_json_is_read_or_refused_by_name(response: Any) -> None:
    _never_crashes(response, None)
    _never_crashes(response, ["The grass is green. The sky is blue."])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FIXTURES), st.lists(st.integers(0, 50), max_size=8), _JSON)
def test_a_documented_response_with_any_part_spoilt_is_read_or_refused(
    name: str, path: list[int], new: Any
) -> None:
    data = load(name)
    if "pdf" in name:  # the PDF is read once per example otherwise: the spoilt answer suffices
        sources: Any = ["The trial enrolled 120 patients in 2019."]
    else:
        sources = sources_of(data)
    spoilt = _replace_somewhere(data["response"], path, new)
    _never_crashes(spoilt, sources)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([n for n in FIXTURES if "pdf" not in n and n.startswith("anthropic")]),
    st.lists(st.integers(0, 50), max_size=8),
    _JSON,
)
def test_a_documented_request_with_any_part_spoilt_is_read_or_refused(
    name: str, path: list[int], new: Any
) -> None:
    data = load(name)
    if "request" in data:
        _never_crashes(data["response"], _replace_somewhere(data["request"], path, new))


# -- the door ---------------------------------------------------------------------------------


class TestApiDoor(DoorConformance):
    @pytest.fixture
    def door(self) -> Door:
        return ApiCitationVerifier()

    @pytest.fixture
    def passing(self) -> tuple[Any, Any]:
        data = load("anthropic_char_location.json")
        return data["response"], data["request"]

    @pytest.fixture
    def failing(self) -> tuple[Any, Any]:
        data = load("anthropic_char_location.json")
        response = copy.deepcopy(data["response"])
        response["content"][3]["text"] = "the sky is not blue"
        response["content"][1]["citations"][0]["document_index"] = 2
        return response, data["request"]


def test_the_options_are_of_the_one_shape() -> None:
    assert issubclass(ApiCitationConfig, Options)
    names = {f.name for f in dataclasses.fields(ApiCitationConfig)}
    assert set(ApiCitationOptions.__annotations__) == names
    door = ApiCitationVerifier.from_config({"threshold": 0.9, "provider": "openai"})
    assert door.config.threshold == 0.9
    assert ApiCitationVerifier(door.config, check_claims=False).config.provider == "openai"
    with pytest.raises(ConfigError, match="unknown api citations option"):
        ApiCitationVerifier(treshold=0.9)  # type: ignore[call-arg]
    with pytest.raises(ConfigError, match="provider must be one of"):
        ApiCitationVerifier(provider="gemini")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="threshold"):
        ApiCitationVerifier(threshold=1.5)
    with pytest.raises(ConfigError, match="accept"):
        ApiCitationVerifier(accept=["fine"])


@NEEDS_PDF
def test_accepted_statuses_set_the_outcome() -> None:
    data = load("anthropic_page_location.json")
    response = copy.deepcopy(data["response"])
    response["content"][2]["citations"][0].update(start_page_number=3, end_page_number=4)
    strict = verify_api_citations(response, data["request"])
    assert strict.outcome == "FAIL"
    lenient = verify_api_citations(response, data["request"], accept=["verified", "wrong_location"])
    assert lenient.outcome == "PASS"
    empty = verify_api_citations({"content": [{"type": "text", "text": "Hi."}]}, None)
    assert empty.outcome == "PASS"
    assert verify_api_citations(empty_answer(), None, require_citations=True).outcome == "FAIL"


def empty_answer() -> dict[str, Any]:
    return {"type": "message", "role": "assistant", "content": []}


@NEEDS_PDF
def test_its_report_reads_back_and_names_what_was_checked() -> None:
    data = load("anthropic_page_location.json")
    report = verify_api_citations(data["response"], data["request"])
    written = json.loads(report.to_json())
    assert written["kind"] == "api"
    assert written["metadata"]["documents"] == ["document-0"]
    details = written["results"][0]["details"]
    assert details["citation_type"] == "page_location"
    assert details["claimed"] == {"start_page_number": 1, "end_page_number": 2}
    assert details["real"]["page"] == 1
    for result in report.results:
        data = json.loads(json.dumps(result.to_dict()))
        assert Result.from_dict(data).to_dict() == result.to_dict()


def test_importing_it_stays_light() -> None:
    code = (
        "import sys, citecheck.api_citations; "
        "print([m for m in ('numpy', 'torch', 'pypdf') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
