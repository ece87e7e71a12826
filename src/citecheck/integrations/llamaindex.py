"""citecheck inside LlamaIndex: an offline evaluator that checks a response's citations.

:class:`CitecheckEvaluator` stands where ``FaithfulnessEvaluator`` stands
(``evaluate_response``, ``aevaluate(query, response, contexts)``), with no LLM call: it checks
every citation marker of the response against the contexts (``[1]`` is the first context, as
LlamaIndex's ``CitationQueryEngine`` numbers its sources) or against the response's source
nodes, which keep their file and page. The result's ``passing`` is the report's verdict,
``score`` the share of citations that passed, and ``feedback`` names each one that did not,
with the reason; the whole :class:`~citecheck.Report` is its ``report``. A response
that cites nothing cannot be checked this way, and the result says so (``invalid_result``).

LlamaIndex nodes (``TextNode``, ``NodeWithScore``) are sources everywhere citecheck takes
sources (:mod:`citecheck.documents.foreign`). Needs the ``llamaindex`` extra
(``llama-index-core``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from citecheck.errors import MissingDependencyError

try:
    from llama_index.core.evaluation import BaseEvaluator, EvaluationResult
    from pydantic import ConfigDict
except ImportError:  # pragma: no cover - the extra's absence is tested in a bare environment
    raise MissingDependencyError("llama-index-core", "llamaindex") from None

from citecheck.documents.foreign import read_item
from citecheck.integrations.answers import as_verifier, verdict
from citecheck.protocols import Verifier as Door

__all__ = ["CitecheckEvaluator", "CitecheckResult"]


class CitecheckResult(EvaluationResult):
    """An ``EvaluationResult`` that also carries the whole :class:`~citecheck.Report` (typed
    ``Any`` for pydantic, which would otherwise validate the report's fields)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    report: Any = None


class CitecheckEvaluator(BaseEvaluator):
    """Checks a response's citations against its contexts or source nodes, offline.

    ``verifier`` is a door that takes a text (:class:`~citecheck.Verifier` by default), a door's
    registry name, or the Verifier's options (an embedder for claims in
    other words than the sources', ``accept`` to let ``partial`` pass, …).
    """

    def __init__(self, verifier: Door | Mapping[str, Any] | str | None = None) -> None:
        self.verifier = as_verifier(verifier)

    def _get_prompts(self) -> dict[str, Any]:
        return {}  # no LLM, no prompt

    def _update_prompts(self, prompts_dict: Mapping[str, Any]) -> None:
        return None

    def evaluate(
        self,
        query: str | None = None,
        response: str | None = None,
        contexts: Sequence[str] | None = None,
        **kwargs: Any,
    ) -> CitecheckResult:
        """The same as :meth:`aevaluate`, run here (no event loop needed: nothing waits)."""
        return self._evaluate(query, response, contexts, kwargs.get("sources"))

    async def aevaluate(
        self,
        query: str | None = None,
        response: str | None = None,
        contexts: Sequence[str] | None = None,
        **kwargs: Any,
    ) -> CitecheckResult:
        """Check ``response``'s citations against ``contexts`` (ids ``"1"``, ``"2"``, … in
        order) or, when given, ``sources=`` (nodes, documents, or a mapping of id to text).
        Runs in a worker thread, so an event loop serving other requests is not held."""
        return await asyncio.to_thread(
            self._evaluate, query, response, contexts, kwargs.get("sources")
        )

    def evaluate_response(
        self, query: str | None = None, response: Any = None, **kwargs: Any
    ) -> CitecheckResult:
        """Check a query engine's ``Response`` against its own source nodes (their files and
        pages kept in the evidence), or against ``sources=`` when given."""
        return self._evaluate(query, *_response_parts(response, kwargs.get("sources")))

    async def aevaluate_response(
        self, query: str | None = None, response: Any = None, **kwargs: Any
    ) -> CitecheckResult:
        """:meth:`evaluate_response` in a worker thread."""
        parts = _response_parts(response, kwargs.get("sources"))
        return await asyncio.to_thread(self._evaluate, query, *parts)

    def _evaluate(
        self,
        query: str | None,
        response: str | None,
        contexts: Sequence[str] | None,
        sources: Any,
    ) -> CitecheckResult:
        if response is None:
            return CitecheckResult(
                query=query,
                contexts=contexts,
                invalid_result=True,
                invalid_reason="no response was given",
            )
        if sources is None:
            sources = {str(i): text for i, text in enumerate(contexts or (), start=1)}
        report = self.verifier.verify(str(response), sources)
        cites = bool(report.results)
        return CitecheckResult(
            query=query,
            contexts=contexts,
            response=str(response),
            passing=report.passed if cites else None,
            score=report.summary()["pass_rate"],
            feedback=verdict(report),
            invalid_result=not cites,
            invalid_reason=None
            if cites
            else "the response cites nothing, so none of it could be checked against the sources",
            report=report,
        )


def _response_parts(response: Any, sources: Any) -> tuple[str | None, list[str], Any]:
    """A ``Response``'s text, its source nodes' texts, and the sources to check against."""
    nodes = list(getattr(response, "source_nodes", None) or [])
    text = getattr(response, "response", None)
    contexts = [read_item(node, i).text for i, node in enumerate(nodes)]
    return text, contexts, sources if sources is not None else (nodes or None)
