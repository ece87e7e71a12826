"""citecheck inside LangChain: a chain step, an agent tool and a retriever over a paper library.

- :class:`CitationCheck` is a ``Runnable``: it takes ``{"answer": ..., "documents": [...]}``
  (or a retrieval chain's output, whose documents are under ``"context"``) and returns the
  :class:`~citecheck.Report`, or, with ``on_fail``, stops the chain, flags the answer or strips
  what failed.
- :class:`CitecheckTool` is a ``BaseTool`` an agent calls to check an answer's citations or to
  find a quotation in given sources. It answers in two parts (``content_and_artifact``): a
  short verdict the model reads, and the whole report as the artifact.
- :class:`PaperLibraryRetriever` is a ``BaseRetriever`` over a
  :class:`~citecheck.PaperLibrary`: the ``k`` best passages, each with its paper and printed
  pages.

LangChain ``Document``\\ s are sources everywhere citecheck takes sources
(:mod:`citecheck.documents.foreign`): the chunks of one ``metadata["source"]`` are one source,
paged by ``metadata["page_label"]`` (the printed page) or ``metadata["page"]``, which LangChain's
PDF loaders count from 0: it is read as page + 1 where the chunks show that count, and as
written, with a warning in the report, where nothing does
(:func:`~citecheck.documents.foreign.page_numbers`). Needs the ``langchain`` extra
(``langchain-core``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from citecheck.errors import (
    CitationsFailed,
    CitecheckError,
    ConfigError,
    InputError,
    MissingDependencyError,
)

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document as LangChainDocument
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import Runnable, RunnableConfig
    from langchain_core.tools import BaseTool, ToolException
    from pydantic import BaseModel, ConfigDict, Field
except ImportError:  # pragma: no cover - the extra's absence is tested in a bare environment
    raise MissingDependencyError("langchain-core", "langchain") from None

from citecheck import registry
from citecheck.integrations.answers import as_verifier, flag_answer, strip_answer, verdict
from citecheck.protocols import Verifier as Door
from citecheck.report import Report

__all__ = ["CitationCheck", "CitecheckTool", "CitecheckToolInput", "PaperLibraryRetriever"]

OnFail = Literal["raise", "flag", "strip"]
_ON_FAIL = ("raise", "flag", "strip")
_DOCUMENT_KEYS = ("documents", "context", "source_documents")


def _answer_text(value: object) -> str:
    """An answer as text: a string, or a chat message's text."""
    if isinstance(value, str):
        return value
    text = getattr(value, "text", None)
    if isinstance(text, str):
        return text
    if callable(text):  # langchain-core < 1 made it a method
        return str(text())
    raise InputError(f"the answer must be a string or a chat message, not {type(value).__name__}")


class CitationCheck(Runnable[Mapping[str, Any], Any]):
    """A chain step that checks the answer's citations against the documents it was given.

    Input: a mapping with the answer under ``answer_key`` (``"answer"``; a string or a chat
    message) and the sources under ``"documents"``, ``"context"`` (a retrieval chain's) or
    ``"source_documents"``: LangChain documents, citecheck documents, or a mapping of id to
    text. ``verifier`` is a door that takes a text (:class:`~citecheck.Verifier` by default),
    a door's registry name, or the Verifier's options.

    Output, by ``on_fail``:

    - ``None`` (the default): the :class:`~citecheck.Report`;
    - ``"raise"``: the report, or :class:`~citecheck.errors.CitationsFailed` (carrying it)
      when the report fails, which stops the chain; a report that could only not be checked
      does not raise;
    - ``"flag"``: the input mapping with the answer annotated after each citation that did not
      pass (``[citecheck: not found]``) and the report under ``"report"``;
    - ``"strip"``: the same with the failed sentences removed from the answer instead.
    """

    def __init__(
        self,
        verifier: Door | Mapping[str, Any] | str | None = None,
        *,
        on_fail: OnFail | None = None,
        answer_key: str = "answer",
    ) -> None:
        if on_fail is not None and on_fail not in _ON_FAIL:
            raise ConfigError(f"on_fail must be one of {_ON_FAIL} or None, got {on_fail!r}")
        self.verifier = as_verifier(verifier)
        self.on_fail = on_fail
        self.answer_key = answer_key

    def __repr__(self) -> str:
        return f"CitationCheck(on_fail={self.on_fail!r}, answer_key={self.answer_key!r})"

    def invoke(
        self, input: Mapping[str, Any], config: RunnableConfig | None = None, **kwargs: Any
    ) -> Any:
        return self._call_with_config(self._check, input, config, run_type="chain")

    def _check(self, input: Mapping[str, Any]) -> Any:
        if not isinstance(input, Mapping):
            raise InputError(
                f"CitationCheck takes a mapping with {self.answer_key!r} and 'documents', not "
                f"{type(input).__name__}"
            )
        if self.answer_key not in input:
            raise InputError(f"CitationCheck's input has no {self.answer_key!r}: {sorted(input)}")
        documents = next((input[k] for k in _DOCUMENT_KEYS if k in input), None)
        if documents is None:
            raise InputError(
                f"CitationCheck's input has none of {list(_DOCUMENT_KEYS)}: {sorted(input)}"
            )
        report = self.verifier.verify(_answer_text(input[self.answer_key]), documents)
        if self.on_fail is None:
            return report
        if self.on_fail == "raise":
            if report.outcome == "FAIL":
                raise CitationsFailed(report)
            return report
        edit = flag_answer if self.on_fail == "flag" else strip_answer
        return {**input, self.answer_key: edit(report), "report": report}


class CitecheckToolInput(BaseModel):
    """What an agent passes to :class:`CitecheckTool`."""

    text: str = Field(
        description="The answer to check, with its citation markers ([[source:location]], "
        "[@key, p. 3], [1]); or, with quote=true, a quotation to find in the sources."
    )
    sources: dict[str, str] | None = Field(
        default=None,
        description="The sources, source id to full text. Leave out to use the sources the "
        "tool was given.",
    )
    quote: bool = Field(
        default=False,
        description="True to look for `text` as a quotation anywhere in the sources, with no "
        "citation marker needed.",
    )


class CitecheckTool(BaseTool):
    """An agent's tool: check an answer's citations, or find a quotation, in sources.

    ``sources`` are the sources the tool checks against when a call gives none (LangChain
    documents, citecheck documents or a mapping of id to text); ``verifier`` a
    door that takes a text (:class:`~citecheck.Verifier` by default), a door's registry name, or
    the Verifier's options. The model reads a short verdict (the outcome,
    then each citation that did not pass with its reason); the whole
    :class:`~citecheck.Report` is the artifact. Malformed arguments and bad sources come back
    as a tool error the agent can read, not an exception.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str = "citecheck"
    description: str = (
        "Check that an answer's citations are real: that each cited source and page exists, "
        "that quoted words stand there, and that the source supports the claim. Or, with "
        "quote=true, find where a quotation stands in the sources. Returns a verdict per "
        "citation with the reason."
    )
    args_schema: type[BaseModel] = CitecheckToolInput
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    handle_tool_error: bool = True
    handle_validation_error: Any = Field(default=lambda exc: _bad_arguments(exc))
    sources: Any = None
    verifier: Any = None

    def _run(
        self,
        text: str,
        sources: dict[str, str] | None = None,
        quote: bool = False,
        run_manager: Any = None,
    ) -> tuple[str, Report]:
        given = sources if sources is not None else self.sources
        if given is None:
            raise ToolException(
                "no sources: pass `sources` (source id to text), or give the tool its sources"
            )
        try:
            if quote:
                report: Report = registry.create("doors", "quotes").verify([text], given)
            else:
                report = as_verifier(self.verifier).verify(text, given)
        except CitecheckError as exc:
            raise ToolException(f"citecheck could not check this: {exc}") from exc
        return verdict(report), report


def _bad_arguments(exc: Exception) -> str:
    """A malformed tool call, said so that the model can correct it."""
    errors = getattr(exc, "errors", None)
    problems = (
        "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ())) or 'arguments'}: {e.get('msg', '')}"
            for e in errors()
        )
        if callable(errors)
        else str(exc)
    )
    return (
        f"citecheck's arguments are malformed ({problems}). Expected: text (string), "
        "sources (optional object of source id to text), quote (optional boolean)."
    )


class PaperLibraryRetriever(BaseRetriever):
    """The ``k`` passages of a :class:`~citecheck.PaperLibrary` that best match a query.

    Each is a LangChain ``Document`` whose ``page_content`` is the passage and whose metadata
    says where it stands: ``source`` (the paper's key), ``page`` and ``page_end`` (printed
    pages), ``page_label`` (the printed page as text, under the key LangChain's PDF loaders
    give it, so that no reader takes ``page`` for a count from 0), ``section``, ``start`` and
    ``end`` (offsets into the paper's text), ``chunk`` and the ``score``, ``bm25`` and
    ``cosine`` behind its rank; its ``id`` is ``key#chunk``. Fed back to
    :class:`CitationCheck` as sources, they are one source per paper with its pages.
    ``key`` limits the search to one paper, ``mode`` picks ``hybrid``, ``bm25`` or ``vector``;
    ``k`` is also accepted per call (``retriever.invoke(query, k=3)``).
    """

    library: Any
    k: int = 4
    key: str | None = None
    mode: str | None = None

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        k: int | None = None,
    ) -> list[LangChainDocument]:
        hits = self.library.search(
            query, key=self.key, k=self.k if k is None else k, mode=self.mode
        )
        return [
            LangChainDocument(
                page_content=hit.text,
                id=f"{hit.key}#{hit.chunk}",
                metadata={
                    "source": hit.key,
                    "page": hit.page_start,
                    "page_label": None if hit.page_start is None else str(hit.page_start),
                    "page_end": hit.page_end,
                    "section": hit.section,
                    "start": hit.start,
                    "end": hit.end,
                    "chunk": hit.chunk,
                    "score": hit.score,
                    "bm25": hit.bm25,
                    "cosine": hit.cosine,
                },
            )
            for hit in hits
        ]
