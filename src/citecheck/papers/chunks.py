"""A paper cut into page- and section-aware sentence chunks.

Chunks are :func:`citecheck.documents.chunking.chunk_text`'s sentence chunks, so a paper is cut
as every other source is; each gets the page numbers of its first and last character and the
section holding it, read from the paper's :class:`~citecheck.Document`, so a passage found later
is cited with its page without the paper being read again.

``[PAGE:N]`` markers are taken out of the text before it is chunked and the offsets mapped
back: a marker is no part of any sentence, and a sentence that runs over a page break stays
one chunk (with ``page_start`` < ``page_end``) instead of being cut at the marker.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from citecheck.documents.chunking import chunk_text
from citecheck.documents.document import Document
from citecheck.documents.structure import PAGE_MARKER
from citecheck.papers.values import PaperChunk

__all__ = ["ChunkOptions", "paper_chunks"]


@dataclass(frozen=True, slots=True)
class ChunkOptions:
    """How a paper is chunked; stored with each paper, so that chunks cut under other options
    can be told apart. ``max_chunk_chars`` bounds a chunk (an embedding model reads a few
    hundred tokens); ``min_chunk_chars`` joins fragments to a neighbour."""

    language: str = "en"
    min_chunk_chars: int = 20
    max_chunk_chars: int | None = 1000


def paper_chunks(
    document: Document, *, markdown: bool, markers: bool, options: ChunkOptions
) -> tuple[PaperChunk, ...]:
    """The chunks of ``document``, with offsets into its text. ``markdown``: render Markdown
    away; ``markers``: the pages come from ``[PAGE:N]`` markers, left out of the chunks."""
    clean, removed = _without_markers(document.text) if markers else (document.text, _Removed())
    chunks = chunk_text(
        clean,
        markdown=markdown,
        min_chunk_length_chars=options.min_chunk_chars,
        max_chunk_chars=options.max_chunk_chars,
        language=options.language,
    )
    out = []
    for chunk in chunks:
        start = removed.to_original(chunk.start)
        end = removed.to_original(chunk.end - 1) + 1 if chunk.end > chunk.start else start
        text = chunk.text
        heading, _, rest = text.partition("\n")
        section = document.section_at(start)
        if section is not None and text.strip() == section.strip():
            continue  # a heading alone: no statement to find, and the section names it
        if rest.strip() and heading.strip() and heading.strip() == section:
            # A short heading joined to the sentence after it: the section names it already,
            # and a heading in the passage makes a search hit read as the heading.
            line_end = document.text.find("\n", start, end)
            if line_end >= 0:
                start = (
                    line_end
                    + len(document.text[line_end:end])
                    - len(document.text[line_end:end].lstrip())
                )
                text = rest.strip()
        out.append(
            PaperChunk(
                start=start,
                end=end,
                page_start=document.page_at(start),
                page_end=document.page_at(max(start, end - 1)),
                section=document.section_at(start),
                text=text,
            )
        )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _Removed:
    """Where text was cut out: ``points[i]`` is the offset in the cut text where the ``i``-th
    cut was, ``shifts[i]`` the characters cut up to and including it."""

    points: tuple[int, ...] = ()
    shifts: tuple[int, ...] = ()

    def to_original(self, offset: int) -> int:
        """The original offset of the character at ``offset`` in the cut text."""
        index = bisect_right(self.points, offset) - 1
        return offset + (self.shifts[index] if index >= 0 else 0)


def _without_markers(text: str) -> tuple[str, _Removed]:
    """``text`` with its ``[PAGE:N]`` markers cut out; a marker alone on its line takes its
    line break with it, so that the lines around it stay one paragraph."""
    parts: list[str] = []
    points: list[int] = []
    shifts: list[int] = []
    kept = removed = 0
    position = 0
    for marker in PAGE_MARKER.finditer(text):
        start, end = marker.span()
        if start < position:
            continue
        alone = (start == 0 or text[start - 1] == "\n") and text.startswith("\n", end)
        if alone:
            end += 1
        parts.append(text[position:start])
        kept += start - position
        removed += end - start
        points.append(kept)
        shifts.append(removed)
        position = end
    parts.append(text[position:])
    return "".join(parts), _Removed(tuple(points), tuple(shifts))
