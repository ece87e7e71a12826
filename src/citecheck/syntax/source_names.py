"""Sources named in brackets, as LLM answers write them: ``(trial.pdf, p. 2)``,
``[Source: trial, page 2]``, ``[trial.pdf]``, ``(Sources: trial.pdf, p. 2; notes.md)``.

Two forms are read, in square brackets or parentheses:

- a **file name** with a document's extension (``.pdf``, ``.md``, ``.txt``, ``.docx``, …) first,
  then an optional locator after a comma, colon or space: ``(trial.pdf, p. 2)``,
  ``[report.docx: pp. 3-4]``;
- a **label** ``Source:`` / ``Sources:`` / ``Ref:`` / ``Reference:`` / ``Document:`` / ``File:``
  and then a source named by its id or file name, with an optional locator:
  ``[Source: trial, page 2]``, ``(Document: notes)``.

Several sources stand apart by ``;``. The name is resolved as any cited key is: a source id,
else the source whose file has that name (``trial.pdf`` is the source ``trial``). Text in
brackets that starts with neither is ordinary prose (``(see p. 2)``, ``(2 mg)``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import ClassVar

from citecheck.model import Marker, Reference, Span
from citecheck.protocols import NamesBy
from citecheck.syntax._locators import locator_of, whole_locator
from citecheck.syntax.scan import code_regions, is_link_label

__all__ = ["DOCUMENT_EXTENSIONS", "NamedSourceSyntax", "read_named"]

DOCUMENT_EXTENSIONS = (
    "pdf txt text md markdown mdx rst tex html htm xhtml xml json jsonl csv tsv xlsx xls docx "
    "doc odt rtf pptx ppt epub vtt srt yaml yml ipynb log eml"
).split()
"""The extensions that make a name in brackets a file name (``trial.pdf``), not prose."""

_EXTENSION = "|".join(DOCUMENT_EXTENSIONS)
_FILE = rf"[\w][\w.+\-]*?\.(?i:{_EXTENSION})(?![\w.])"
_LABEL = re.compile(
    r"[ \t]*(?i:sources?|refs?|references?|documents?|docs?|files?|cited|citations?)"
    r"[ \t]*:[ \t]*"
)
_ITEM = re.compile(
    rf"[ \t]*(?P<name>{_FILE}|https?://[^\s,;]+|[\w][\w.+\-/]*)"
    r"(?:(?P<comma>[ \t]*[,:][ \t]*)|[ \t]+)?(?P<rest>.*?)[ \t]*",
    re.DOTALL,
)
_FILE_ITEM = re.compile(rf"[ \t]*{_FILE}")
_SEE = re.compile(r"^(?i:see[ \t]+also|see|cf\.?|also|and|e\.g\.,?)[ \t]+")
"""Words that lead a further source in the same brackets: ``(a.pdf; see also b.pdf, p. 1)``."""
_BRACKETS = re.compile(r"\[(?P<square>[^\[\]\n]{1,300})\]|\((?P<round>[^()\n]{1,300})\)")


class NamedSourceSyntax:
    """Finds ``(file.pdf, p. 2)`` and ``[Source: id, page 2]`` outside code and links."""

    name: str = "source"
    cited_as: ClassVar[str] = "({})"
    """How a reader writes a cited key in this syntax (``(trial.pdf)``), for reasons."""
    names_by: ClassVar[NamesBy] = "key"
    """What a cited name is: a source ``key`` or file name."""

    def scan(self, text: str) -> Iterator[Marker]:
        """The markers in ``text``, in order; malformed ones carry an ``error``."""
        code = code_regions(text)
        for match in _BRACKETS.finditer(text):
            start, end = match.span()
            square = match.group("square")
            body = square if square is not None else match.group("round")
            if square is not None and (
                text.startswith("[", start - 1) or text.startswith("]", end)
            ):
                continue  # the inside of [[…]]: the TIP syntax's
            if square is not None and is_link_label(text, start, end):
                continue
            if code.overlaps(start, end):
                continue
            marker = _marker(body, match.group(), Span(start, end))
            if marker is not None:
                yield marker


def read_named(body: str, *, labelled: bool = False) -> tuple[Reference, ...] | str | None:
    """The sources ``body`` names (``trial.pdf, p. 2; notes``), an error when it starts as a
    citation but names nothing readable, ``None`` when it is no citation.

    ``labelled``: the caller already knows it is one (a ``Source:`` label, a footnote's note),
    so a bare id counts as well as a file name, and words that are neither (``Smith et al.,
    Nature 2020``) are kept whole as a description of the source, with a locator after its
    last comma (``Lab notes, p. 2``), for the resolver to match against the sources' titles
    and file names."""
    label = _LABEL.match(body)
    if label is not None:
        body, labelled = body[label.end() :], True
    elif not labelled and not _FILE_ITEM.match(_SEE.sub("", body.strip(), count=1)):
        return None
    references = []
    for part in body.split(";"):
        item = _SEE.sub("", part.strip().rstrip(".").strip(), count=1)
        own_label = _LABEL.match(item)  # [Source: a.pdf; Source: b.pdf]
        if own_label is not None:
            item = item[own_label.end() :]
        if not item:
            continue
        reference = _named(item, labelled or own_label is not None)
        if reference is None:
            return f"{item!r} names no source citecheck can read"
        references.append(reference)
    return tuple(references) if references else "it names no source"


def _named(item: str, labelled: bool) -> Reference | None:
    """One source and its locator: a file name or id (and a locator after a comma or colon, or
    a whole locator after a space), else, for a labelled item, the words as a description."""
    found = _ITEM.fullmatch(item)
    if found is not None and (labelled or _FILE_ITEM.fullmatch(found.group("name"))):
        name, rest = found.group("name").rstrip("."), found.group("rest").strip()
        if not rest:
            return Reference(name, None)
        # after a comma a suffix is read as pandoc reads one (a locator, a place kept whole
        # to be reported, or a remark); after a space only a whole locator is: ``Smith et
        # al. 2020`` describes a work, it is no source ``Smith``
        if found.group("comma"):
            return Reference(name, locator_of(rest))
        if (locator := whole_locator(rest)) is not None:
            return Reference(name, locator)
    if not labelled or not any(ch.isalpha() for ch in item):
        return None
    head, comma, tail = item.rpartition(",")
    if comma and head.strip() and whole_locator(tail) is not None:
        return Reference(head.strip(), tail.strip())
    return Reference(item, None)


def _marker(body: str, raw: str, span: Span) -> Marker | None:
    read = read_named(body)
    if read is None:
        return None
    if isinstance(read, str):
        return Marker(span, raw, "source", error=read)
    return Marker(span, raw, "source", read)
