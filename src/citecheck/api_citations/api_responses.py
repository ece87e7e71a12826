"""The structured citations LLM APIs return, read into one shape: :class:`ApiCitation`.

An API that cites its documents says so in objects, not in the text: Anthropic's Messages API
splits the answer into text blocks, each with the ``citations`` that back it
(``char_location``, ``page_location``, ``content_block_location``, ``search_result_location``,
``web_search_result_location``); OpenAI's Responses API, its Chat Completions and its
Assistants attach ``annotations`` to the text (``file_citation``, ``url_citation``,
``container_file_citation``) at character positions of the answer. :func:`read_answer` reads a
response of any of these (the API's JSON as a dict, the SDK object, or its ``model_dump()``;
or just the content blocks or output items) into an :class:`ApiAnswer`: the answer's text and
each citation with the words of the answer it backs.

What the response says is read, never trusted: a field missing or of the wrong type, an offset
past the end of its text, makes that citation a *malformed* one (:attr:`ApiCitation.problem`
names the field and where it stands, ``content[2].citations[0]: start_char_index missing``),
which the door reports as unchecked and goes on. A response whose structure cannot be read at
all (a content block that is no mapping, a text that is no string) is an
:class:`~citecheck.errors.InputError` naming the place. Nothing given is changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from citecheck.errors import InputError
from citecheck.model import Marker, Span
from citecheck.syntax.excerpts import attach

__all__ = [
    "PROVIDERS",
    "ApiAnswer",
    "ApiCitation",
    "Provider",
    "plain_response",
    "read_answer",
]

Provider = Literal["anthropic", "openai"]
PROVIDERS = ("auto", "anthropic", "openai")
"""What ``provider=`` may say: ``auto`` tells the provider by the response's shape."""

ANTHROPIC_TYPES = (
    "char_location",
    "page_location",
    "content_block_location",
    "search_result_location",
    "web_search_result_location",
)
"""The citation types of Anthropic's Messages API that citecheck reads."""
OPENAI_TYPES = ("file_citation", "url_citation", "container_file_citation")
"""The annotation types of OpenAI's APIs that are citations (``file_path`` is a link to a file
the model wrote, not a citation, and is passed over)."""

PART_SEPARATOR = "\n\n"
"""What stands between two texts of one answer (two output texts, two messages) in
:attr:`ApiAnswer.text`, so that no sentence runs from one into the next."""
_SHOWN = 40
"""Longest value quoted in a problem; a longer one ends with '…'."""


@dataclass(frozen=True, slots=True)
class ApiCitation:
    """One citation an API returned, whatever its provider.

    ``path`` says where it stands in the response (``content[1].citations[0]``,
    ``output[1].content[0].annotations[2]``); ``type`` is the API's own name for it. ``claim``
    is the text of the answer it backs (Anthropic: the text block it is attached to; OpenAI:
    the sentence before its annotation, or the words the annotation covers) and
    ``claim_span`` where that stands in :attr:`ApiAnswer.text`; ``span`` is where the
    citation itself stands there (a marker, a link, the text block). ``cited_text`` is the
    text the API says it cites (Anthropic's ``cited_text``, an Assistants ``quote``).

    Where it points: ``document_index`` (Anthropic's ``document_index``, or
    ``search_result_index`` when ``search_result`` is true), ``file_id`` and ``filename``
    (OpenAI), ``url``; and the place in it: ``chars`` (0-based, end exclusive),
    ``pages`` (1-based, end exclusive) or ``blocks`` (0-based, end exclusive), as the API
    wrote them. ``problem`` says what is wrong with a citation that could not be read
    (the rest may then be missing).
    """

    provider: Provider
    type: str
    path: str
    claim: str | None = None
    claim_span: Span | None = None
    span: Span | None = None
    cited_text: str | None = None
    document_index: int | None = None
    search_result: bool = False
    file_id: str | None = None
    filename: str | None = None
    url: str | None = None
    title: str | None = None
    chars: tuple[int, int] | None = None
    pages: tuple[int, int] | None = None
    blocks: tuple[int, int] | None = None
    problem: str | None = None

    @property
    def source_name(self) -> str:
        """How a reason names what it cites: ``document 0``, ``search result 1``, the file's
        name or id, or the URL."""
        if self.document_index is not None:
            noun = "search result" if self.search_result else "document"
            return f"{noun} {self.document_index}"
        return self.filename or self.file_id or self.url or ""


@dataclass(frozen=True, slots=True)
class ApiAnswer:
    """A response read: its ``provider``, the ``shape`` it came in (``messages``,
    ``responses``, ``chat.completions`` or ``assistants``), the answer's ``text`` (its text
    blocks or output texts, in order) and every citation, in the order the response gives
    them. ``passed_over`` counts the annotations that are no citation (``file_path``)."""

    provider: Provider
    shape: str
    text: str
    citations: tuple[ApiCitation, ...]
    passed_over: int = 0

    @property
    def malformed(self) -> tuple[ApiCitation, ...]:
        """The citations that could not be read, each with its :attr:`~ApiCitation.problem`."""
        return tuple(c for c in self.citations if c.problem is not None)


def plain_response(response: Any) -> Any:
    """The response as plain data: a mapping or a list as it is, an SDK object (Anthropic's
    ``Message``, OpenAI's ``Response`` or ``ChatCompletion``) as its ``model_dump()``."""
    if isinstance(response, Mapping | list | tuple):
        return response
    dump = getattr(response, "model_dump", None)
    if callable(dump):
        return dump()
    raise InputError(
        "a response must be the API's JSON as a dict, an SDK response object (with "
        f"model_dump()), or a list of its content blocks or output items, not "
        f"{type(response).__name__}"
    )


def read_answer(response: Any, provider: str = "auto") -> ApiAnswer:
    """The answer and citations of ``response``; ``provider`` (``anthropic``, ``openai``)
    says which API it comes from, or ``auto`` tells it by its shape. A response of neither
    shape, or one whose structure cannot be read, is an :class:`~citecheck.errors.InputError`
    that names the place; a citation that cannot be read is kept with its
    :attr:`~ApiCitation.problem`."""
    if provider not in PROVIDERS:
        raise InputError(f"provider must be one of {', '.join(PROVIDERS)}, not {provider!r}")
    data = plain_response(response)
    if provider == "auto":
        chosen = _provider_of(data)
    else:
        chosen = "anthropic" if provider == "anthropic" else "openai"
        try:
            seen = _provider_of(data)
        except InputError:
            seen = chosen  # no shape of its own: read as the provider said
        if seen != chosen:
            raise InputError(
                f"provider={provider!r}, but the response is "
                f"{'an Anthropic' if seen == 'anthropic' else 'an OpenAI'} one"
            )
    if chosen == "anthropic":
        return _read_anthropic(data)
    return _read_openai(data)


# -- telling the provider ---------------------------------------------------------------------


def _provider_of(data: Any) -> Provider:
    """Anthropic or OpenAI, by the shape of the response (see the module docstring)."""
    if isinstance(data, Mapping):
        if "output" in data or "choices" in data or data.get("object") == "list":
            return "openai"
        if data.get("object") == "thread.message" or "annotations" in data:
            return "openai"
        content = data.get("content")
        if isinstance(content, list):
            guess = _provider_of_parts(content)
            if guess is not None:
                return guess
            if data.get("type") == "message" and "role" in data:
                return "anthropic"  # an Anthropic message with no text (or no content)
        if isinstance(content, str) and "role" in data:
            return "openai"  # a Chat Completions message
    elif isinstance(data, list | tuple):
        guess = _provider_of_parts(data)
        if guess is not None:
            return guess
    raise InputError(
        "cannot tell which API this response comes from: expected an Anthropic message (a "
        "'content' list of blocks), an OpenAI response ('output'), chat completion "
        "('choices') or Assistants message, or a list of their blocks or items; or say "
        "provider='anthropic' or provider='openai'"
    )


def _provider_of_parts(parts: Sequence[Any]) -> Provider | None:
    """The provider whose content blocks (or output items) ``parts`` are, when they say."""
    for part in parts:
        if not isinstance(part, Mapping):
            continue
        kind = part.get("type")
        if kind in ("message", "output_text", "refusal") or part.get("object") == (
            "thread.message"
        ):
            return "openai"
        if kind == "text":
            return "openai" if isinstance(part.get("text"), Mapping) else "anthropic"
        if kind in ("tool_use", "thinking", "redacted_thinking", "server_tool_use"):
            return "anthropic"
    return None


# -- Anthropic --------------------------------------------------------------------------------


def _read_anthropic(data: Any) -> ApiAnswer:
    """The text blocks of an Anthropic message and the citations attached to each."""
    if isinstance(data, Mapping):
        blocks, root = data.get("content"), "content"
        if blocks is None:
            raise InputError("content missing: not an Anthropic Messages response")
    else:
        blocks, root = data, ""
    if not isinstance(blocks, list | tuple):
        raise InputError(f"{root or 'the response'} must be a list of content blocks")
    texts: list[str] = []
    citations: list[ApiCitation] = []
    offset = 0
    for index, block in enumerate(blocks):
        where = f"{root}[{index}]"
        kind = _block_type(block, where)
        if kind != "text":
            continue
        text = block.get("text")
        if not isinstance(text, str):
            raise InputError(f"{where}.text must be a string, not {_shown(text)}")
        span = _trimmed(text, offset)
        texts.append(text)
        offset += len(text)
        cited = block.get("citations")
        if cited is None:
            continue
        if not isinstance(cited, list | tuple):
            raise InputError(f"{where}.citations must be a list, not {_shown(cited)}")
        claim = " ".join(text.split()) or None
        for number, item in enumerate(cited):
            path = f"{where}.citations[{number}]"
            citations.append(_anthropic_citation(item, path, claim, span))
    return ApiAnswer("anthropic", "messages", "".join(texts), tuple(citations))


def _anthropic_citation(item: Any, path: str, claim: str | None, span: Span | None) -> ApiCitation:
    """One citation of a text block (see :data:`ANTHROPIC_TYPES`), or a malformed one."""
    base = ApiCitation("anthropic", "", path, claim, span, span)
    try:
        fields = _Fields(item, path)
        kind = fields.choice("type", ANTHROPIC_TYPES)
        base = ApiCitation("anthropic", kind, path, claim, span, span)
        cited = fields.text("cited_text")
        if kind == "web_search_result_location":
            url = fields.text("url")
            return _with(base, cited_text=cited, url=url, title=fields.text("title", None))
        if kind == "search_result_location":
            index = fields.number("search_result_index")
            return _with(
                base,
                cited_text=cited,
                document_index=index,
                search_result=True,
                url=fields.text("source", None),
                title=fields.text("title", None),
                blocks=fields.pair("start_block_index", "end_block_index"),
            )
        index = fields.number("document_index")
        title = fields.text("document_title", None)
        base = _with(base, cited_text=cited, document_index=index, title=title)
        if kind == "char_location":
            return _with(base, chars=fields.pair("start_char_index", "end_char_index"))
        if kind == "page_location":
            pages = fields.pair("start_page_number", "end_page_number", least=1)
            return _with(base, pages=pages)
        return _with(base, blocks=fields.pair("start_block_index", "end_block_index"))
    except _Malformed as exc:
        return _with(base, problem=str(exc))


# -- OpenAI -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Part:
    """One text of an OpenAI answer with its annotations, and where they stand."""

    text: str
    annotations: Sequence[Any]
    path: str  # of the annotations list


def _read_openai(data: Any) -> ApiAnswer:
    """The texts of an OpenAI response (Responses, Chat Completions or Assistants) and the
    citations among their annotations."""
    shape, parts = _openai_parts(data)
    texts: list[str] = []
    citations: list[ApiCitation] = []
    passed_over = 0
    offset = 0
    for part in parts:
        if texts:
            offset += len(PART_SEPARATOR)
        read, skipped = _part_citations(part, offset)
        citations += read
        passed_over += skipped
        texts.append(part.text)
        offset += len(part.text)
    return ApiAnswer("openai", shape, PART_SEPARATOR.join(texts), tuple(citations), passed_over)


def _openai_parts(data: Any) -> tuple[str, list[_Part]]:
    """The shape of an OpenAI response and its texts, in order."""
    if isinstance(data, Mapping):
        if "output" in data:
            return "responses", list(_output_items(_listed(data, "output", ""), "output"))
        if "choices" in data:
            return "chat.completions", list(_choices(_listed(data, "choices", ""), "choices"))
        if data.get("object") == "list" or "data" in data:
            return "assistants", list(_messages(_listed(data, "data", ""), "data"))
        if data.get("type") == "message" or "content" in data:
            return _one_message(data, "")
        raise InputError("not an OpenAI response: it has no 'output', 'choices' or 'content'")
    if not isinstance(data, list | tuple):
        raise InputError(f"not an OpenAI response: {_shown(data)}")
    first = next((item for item in data if isinstance(item, Mapping)), None)
    if first is None:
        return "responses", []
    if first.get("type") == "message" or first.get("object") == "thread.message":
        if first.get("object") == "thread.message":
            return "assistants", list(_messages(data, ""))
        return "responses", list(_output_items(data, ""))
    if "message" in first and "index" in first:
        return "chat.completions", list(_choices(data, ""))
    if isinstance(first.get("text"), Mapping):
        return "assistants", list(_assistant_parts(data, ""))
    return "responses", list(_output_texts(data, ""))


def _one_message(data: Mapping[str, Any], root: str) -> tuple[str, list[_Part]]:
    """A single message: a Responses output message, a chat message or an Assistants one."""
    content = data.get("content")
    if isinstance(content, str) or (content is None and "annotations" in data):
        return "chat.completions", [_chat_part(data, root)]
    items = _listed(data, "content", root)
    if data.get("object") == "thread.message" or any(
        isinstance(p, Mapping) and isinstance(p.get("text"), Mapping) for p in items
    ):
        return "assistants", list(_assistant_parts(items, _key(root, "content")))
    return "responses", list(_output_texts(items, _key(root, "content")))


def _output_items(items: Sequence[Any], root: str) -> Iterator[_Part]:
    """The output texts of the ``message`` items of a Responses ``output`` (tool calls and
    reasoning are passed over)."""
    for index, item in enumerate(items):
        where = f"{root}[{index}]"
        if _block_type(item, where) == "message":
            yield from _output_texts(_listed(item, "content", where), _key(where, "content"))


def _output_texts(parts: Sequence[Any], root: str) -> Iterator[_Part]:
    """The ``output_text`` parts of one Responses message (a refusal has no citations)."""
    for index, part in enumerate(parts):
        where = f"{root}[{index}]"
        if _block_type(part, where) != "output_text":
            continue
        text = part.get("text")
        if not isinstance(text, str):
            raise InputError(f"{where}.text must be a string, not {_shown(text)}")
        annotations = part.get("annotations") or []
        if not isinstance(annotations, list | tuple):
            raise InputError(f"{where}.annotations must be a list, not {_shown(annotations)}")
        yield _Part(text, annotations, f"{where}.annotations")


def _choices(choices: Sequence[Any], root: str) -> Iterator[_Part]:
    """The message of each choice of a chat completion."""
    for index, choice in enumerate(choices):
        where = f"{root}[{index}]"
        if not isinstance(choice, Mapping):
            raise InputError(f"{where} must be a mapping, not {_shown(choice)}")
        message = choice.get("message")
        if not isinstance(message, Mapping):
            raise InputError(f"{where}.message must be a mapping, not {_shown(message)}")
        yield _chat_part(message, _key(where, "message"))


def _chat_part(message: Mapping[str, Any], root: str) -> _Part:
    """A chat message's content and its ``annotations``."""
    text = message.get("content")
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise InputError(f"{_key(root, 'content')} must be a string, not {_shown(text)}")
    annotations = message.get("annotations") or []
    if not isinstance(annotations, list | tuple):
        raise InputError(f"{_key(root, 'annotations')} must be a list, not {_shown(annotations)}")
    return _Part(text, annotations, _key(root, "annotations"))


def _messages(messages: Sequence[Any], root: str) -> Iterator[_Part]:
    """The text parts of each Assistants message, in the order given."""
    for index, message in enumerate(messages):
        where = f"{root}[{index}]"
        if not isinstance(message, Mapping):
            raise InputError(f"{where} must be a message (a mapping), not {_shown(message)}")
        yield from _assistant_parts(_listed(message, "content", where), _key(where, "content"))


def _assistant_parts(parts: Sequence[Any], root: str) -> Iterator[_Part]:
    """The ``text`` parts of an Assistants message: ``{"type": "text", "text": {"value",
    "annotations"}}``."""
    for index, part in enumerate(parts):
        where = f"{root}[{index}]"
        if _block_type(part, where) != "text":
            continue
        body = part.get("text")
        if not isinstance(body, Mapping):
            raise InputError(f"{where}.text must be a mapping with a value, not {_shown(body)}")
        value = body.get("value")
        if not isinstance(value, str):
            raise InputError(f"{where}.text.value must be a string, not {_shown(value)}")
        annotations = body.get("annotations") or []
        if not isinstance(annotations, list | tuple):
            raise InputError(f"{where}.text.annotations must be a list, not {_shown(annotations)}")
        yield _Part(value, annotations, f"{where}.text.annotations")


@dataclass(frozen=True, slots=True)
class _Annotation:
    """One annotation read: the citation without its claim, and where it stands in its
    text (a point for a Responses ``file_citation``, else a range)."""

    citation: ApiCitation
    at: Span | None = None
    covers: bool = False  # the range covers the words it backs, not just a marker or link


def _part_citations(part: _Part, offset: int) -> tuple[list[ApiCitation], int]:
    """The citations among one text's annotations, each with the words it backs; and how
    many annotations were no citation."""
    read: list[_Annotation] = []
    passed_over = 0
    for index, item in enumerate(part.annotations):
        annotation = _annotation(item, f"{part.path}[{index}]", part.text)
        if annotation is None:
            passed_over += 1
        else:
            read.append(annotation)
    markers = _merged([a.at for a in read if a.at is not None and not a.covers])
    attached = attach(part.text, [Marker(s, part.text[s.start : s.end], "api") for s in markers])
    claims = dict(zip(markers, attached, strict=True))
    citations = []
    for annotation in read:
        citation = annotation.citation
        at = annotation.at
        if at is None or citation.problem is not None:
            citations.append(citation)
            continue
        if annotation.covers:
            claim: str | None = _words_of(part.text[at.start : at.end])
            claim_span: Span | None = at
        else:
            marker = next(s for s in markers if s.start <= at.start and at.end <= s.end)
            claim, claim_span = claims[marker].claim, claims[marker].text_span
        citations.append(
            _with(
                citation,
                claim=claim,
                claim_span=None if claim_span is None else _shifted(claim_span, offset),
                span=_shifted(at, offset),
            )
        )
    return citations, passed_over


def _annotation(item: Any, path: str, text: str) -> _Annotation | None:
    """One annotation (see :data:`OPENAI_TYPES`), a malformed one, or ``None`` for one that is
    no citation."""
    base = ApiCitation("openai", "", path)
    try:
        fields = _Fields(item, path)
        kind = fields.text("type")
        if kind == "file_path":
            return None
        if kind not in OPENAI_TYPES:
            raise _Malformed(
                f"{path}: an annotation of type {kind!r}, which citecheck does not know "
                f"(it reads {', '.join(OPENAI_TYPES)})"
            )
        base = ApiCitation("openai", kind, path)
        if kind == "url_citation":
            inner = fields.nested("url_citation") if "url_citation" in item else fields
            at = inner.range("start_index", "end_index", len(text))
            citation = _with(base, url=inner.text("url"), title=inner.text("title", None))
            return _Annotation(citation, at, _covers_words(text[at.start : at.end]))
        if kind == "container_file_citation":
            at = fields.range("start_index", "end_index", len(text))
            citation = _with(
                base, file_id=fields.text("file_id"), filename=fields.text("filename", None)
            )
            return _Annotation(citation, at, _covers_words(text[at.start : at.end]))
        if isinstance(item.get("file_citation"), Mapping):  # the Assistants form
            inner = fields.nested("file_citation")
            at = fields.range("start_index", "end_index", len(text))
            citation = _with(
                base,
                file_id=inner.text("file_id"),
                cited_text=inner.text("quote", None) or None,
            )
            return _Annotation(citation, at, _covers_words(text[at.start : at.end]))
        point = fields.number("index")
        if point > len(text):
            raise _Malformed(
                f"{path}: index {point} is past the end of its text ({len(text)} characters)"
            )
        citation = _with(
            base, file_id=fields.text("file_id"), filename=fields.text("filename", None)
        )
        return _Annotation(citation, Span(point, point))
    except _Malformed as exc:
        return _Annotation(_with(base, problem=str(exc)))


_LINK = re.compile(r"!?\[[^\]\n]*\]\([^)\s]*\)|https?://\S+|【[^【】\n]*】")
"""A Markdown link, a bare URL or a file-search marker: how an annotation's range marks the
place of a citation without words of its own."""


_EMPTY_BRACKETS = re.compile(r"\(\s*\)|\[\s*\]")
"""The brackets a link leaves behind once taken out: ``([site](url))``."""


def _covers_words(covered: str) -> bool:
    """Whether an annotation's range holds words of the answer (it backs those), rather than
    only a link or a marker (it backs the sentence before it)."""
    return re.search(r"\w", _LINK.sub(" ", covered)) is not None


def _words_of(covered: str) -> str | None:
    """The words an annotation's range covers, without its links and markers."""
    words = _EMPTY_BRACKETS.sub(" ", _LINK.sub(" ", covered))
    return " ".join(words.split()).strip(" ([{,;:") or None


def _merged(spans: Sequence[Span]) -> list[Span]:
    """The places of the markers, in order, those that overlap or touch a point made one."""
    merged: list[Span] = []
    for span in sorted(set(spans), key=lambda s: (s.start, s.end)):
        last = merged[-1] if merged else None
        if last is not None and (
            span.start < last.end or (span.start == last.end and not (len(span) and len(last)))
        ):
            merged[-1] = Span(last.start, max(last.end, span.end))
        else:
            merged.append(span)
    return merged


# -- fields -----------------------------------------------------------------------------------


class _Malformed(Exception):
    """A citation that cannot be read; the message names the field and the place."""


class _Fields:
    """The fields of one citation object, each read with its type checked: a problem names
    the path and the field."""

    def __init__(self, data: Any, path: str) -> None:
        if not isinstance(data, Mapping):
            raise _Malformed(f"{path}: a citation must be a mapping, not {_shown(data)}")
        self.data = data
        self.path = path

    def _get(self, name: str) -> Any:
        if name not in self.data:
            raise _Malformed(f"{self.path}: {name} missing")
        return self.data[name]

    def text(self, name: str, default: Any = ...) -> Any:
        """A string field; ``default`` (when given) stands for one missing or null."""
        if default is not ... and self.data.get(name) is None:
            return default
        value = self._get(name)
        if not isinstance(value, str):
            raise _Malformed(f"{self.path}: {name} must be a string, not {_shown(value)}")
        return value

    def choice(self, name: str, known: Sequence[str]) -> str:
        value: str = self.text(name)
        if value not in known:
            raise _Malformed(
                f"{self.path}: a citation of type {value!r}, which citecheck does not know "
                f"(it reads {', '.join(known)})"
            )
        return value

    def number(self, name: str, least: int = 0) -> int:
        """A whole number of at least ``least``."""
        value = self._get(name)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            what = "a non-negative integer" if least == 0 else f"an integer of at least {least}"
            raise _Malformed(f"{self.path}: {name} must be {what}, not {_shown(value)}")
        return value

    def pair(self, first: str, last: str, least: int = 0) -> tuple[int, int]:
        """Two numbers that bound a range: the second not before the first."""
        start, end = self.number(first, least), self.number(last, least)
        if end < start:
            raise _Malformed(f"{self.path}: {last} {end} is before {first} {start}")
        return start, end

    def range(self, first: str, last: str, size: int) -> Span:
        """A character range of a text of ``size`` characters."""
        start, end = self.pair(first, last)
        if end > size:
            raise _Malformed(
                f"{self.path}: {last} {end} is past the end of its text ({size} characters)"
            )
        return Span(start, end)

    def nested(self, name: str) -> _Fields:
        """The fields of a mapping inside (``url_citation``, ``file_citation``)."""
        return _Fields(self._get(name), f"{self.path}.{name}")


def _with(citation: ApiCitation, **changes: Any) -> ApiCitation:
    return replace(citation, **changes)


def _block_type(block: Any, where: str) -> str:
    """The ``type`` of a content block or output item, which must be a mapping with one."""
    if not isinstance(block, Mapping):
        raise InputError(f"{where} must be a mapping, not {_shown(block)}")
    kind = block.get("type")
    if not isinstance(kind, str):
        if block.get("object") == "thread.message":
            return "message"
        raise InputError(f"{where}: type missing (or not a string)")
    return kind


def _listed(data: Any, name: str, root: str) -> Sequence[Any]:
    """``data[name]``, which must be a list."""
    where = _key(root, name)
    if not isinstance(data, Mapping):
        raise InputError(f"{root or 'the response'} must be a mapping, not {_shown(data)}")
    value = data.get(name)
    if not isinstance(value, list | tuple):
        raise InputError(f"{where} must be a list, not {_shown(value)}")
    return value


def _key(root: str, name: str) -> str:
    return f"{root}.{name}" if root else name


def _trimmed(text: str, offset: int) -> Span | None:
    """Where ``text``, without its leading and trailing spaces, stands once placed at
    ``offset``; ``None`` for a text of spaces only."""
    stripped = text.strip()
    if not stripped:
        return None
    start = offset + len(text) - len(text.lstrip())
    return Span(start, start + len(stripped))


def _shifted(span: Span, offset: int) -> Span:
    return Span(span.start + offset, span.end + offset)


def _shown(value: Any) -> str:
    """A value as a problem quotes it: its repr, cut short."""
    shown = repr(value)
    return shown if len(shown) <= _SHOWN else shown[: _SHOWN - 1] + "…"
