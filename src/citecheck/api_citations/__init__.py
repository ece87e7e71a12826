"""The door of the structured citations LLM APIs return: Anthropic's citation blocks and
OpenAI's annotations, checked against the documents the API was sent (``doors`` registry name
``api``; :func:`verify_api_citations` is its one-shot verb)."""

from citecheck.api_citations.api_door import (
    ApiCitationVerifier,
    read_api_citations,
    verify_api_citations,
)
from citecheck.api_citations.api_options import ApiCitationConfig, ApiCitationOptions
from citecheck.api_citations.api_responses import ApiAnswer, ApiCitation

__all__ = [
    "ApiAnswer",
    "ApiCitation",
    "ApiCitationConfig",
    "ApiCitationOptions",
    "ApiCitationVerifier",
    "read_api_citations",
    "verify_api_citations",
]
