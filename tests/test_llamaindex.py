"""citecheck inside LlamaIndex: nodes as sources and the offline evaluator, in place of
``FaithfulnessEvaluator``. Skipped without the ``llamaindex`` extra; no network, no LLM."""

from __future__ import annotations

import pytest

pytest.importorskip("llama_index.core")

from llama_index.core.base.response.schema import Response
from llama_index.core.evaluation import BaseEvaluator, EvaluationResult
from llama_index.core.schema import NodeWithScore, TextNode

import citecheck
from citecheck import Status
from citecheck.errors import ConfigError
from citecheck.integrations.llamaindex import CitecheckEvaluator

NODES = [
    NodeWithScore(
        node=TextNode(
            text="The committee approved the budget on Tuesday.",
            metadata={"file_name": "minutes.pdf", "page_label": "3"},
        ),
        score=0.9,
    ),
    NodeWithScore(
        node=TextNode(
            text="Attendance was 41 members.",
            metadata={"file_name": "minutes.pdf", "page_label": "1"},
        ),
        score=0.7,
    ),
]
CONTEXTS = ["The committee approved the budget on Tuesday.", "Attendance was 41 members."]
GOOD = 'The committee "approved the budget" [1].'
BAD = 'Attendance "was 45 members" [2].'


def test_nodes_are_sources_with_their_file_and_page() -> None:
    report = citecheck.verify('"approved the budget" [[minutes.pdf:p. 3]]', NODES)
    assert report.passed
    assert report.results[0].evidence[0].page == 3
    bare = [TextNode(text="Bees dance.", id_="n1")]
    assert citecheck.verify('"Bees dance" [[n1]]', bare).passed


def test_the_evaluator_is_a_llamaindex_evaluator() -> None:
    evaluator = CitecheckEvaluator()
    assert isinstance(evaluator, BaseEvaluator)
    assert evaluator.get_prompts() == {}
    result = evaluator.evaluate(query="q", response=GOOD, contexts=CONTEXTS)
    assert isinstance(result, EvaluationResult)
    assert result.passing is True
    assert result.score == 1.0
    assert result.report is not None


def test_a_failing_citation_is_named_in_the_feedback() -> None:
    result = CitecheckEvaluator().evaluate(response=f"{GOOD} {BAD}", contexts=CONTEXTS)
    assert result.passing is False
    assert result.score == 0.5
    assert "[2]" in result.feedback
    assert "45 where the source has 41" in result.feedback
    assert result.report.results[1].status is Status.PARTIAL


async def test_aevaluate_and_a_response_with_source_nodes() -> None:
    evaluator = CitecheckEvaluator()
    result = await evaluator.aevaluate(query="q", response=BAD, contexts=CONTEXTS)
    assert result.passing is False
    response = Response(response=f"{GOOD} {BAD}", source_nodes=NODES)
    checked = await evaluator.aevaluate_response(query="q", response=response)
    assert checked.contexts == CONTEXTS
    assert [r.status for r in checked.report] == [Status.VERIFIED, Status.PARTIAL]
    assert checked.report.results[1].evidence[0].page == 1  # the node's page, kept
    assert evaluator.evaluate_response(query="q", response=response).score == 0.5


def test_a_response_that_cites_nothing_is_not_a_verdict() -> None:
    result = CitecheckEvaluator().evaluate(response="The budget passed.", contexts=CONTEXTS)
    assert result.invalid_result is True
    assert result.passing is None
    assert "cites nothing" in (result.invalid_reason or "")
    missing = CitecheckEvaluator().evaluate(contexts=CONTEXTS)
    assert missing.invalid_result is True


def test_options_reach_the_verifier() -> None:
    lenient = CitecheckEvaluator({"accept": ["verified", "partial"]})
    assert lenient.evaluate(response=BAD, contexts=CONTEXTS).passing is True
    with pytest.raises(ConfigError):
        CitecheckEvaluator("strict")  # type: ignore[arg-type]
