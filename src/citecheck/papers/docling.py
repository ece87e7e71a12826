"""A docling JSON document (``DoclingDocument``) as page texts.

docling converts a PDF into a tree (``body``) of text items, groups, tables and pictures, each
with its provenance: ``prov[0].page_no`` is the page it was read from. Walking the tree in
reading order and putting every item on its page gives the paper's text page by page, with
section headers as Markdown headings (so ``sec-…`` locations and chunk sections find them),
list items as ``- …`` and tables as one line per row. Page furniture (running headers, page
numbers) is left out: it repeats on every page and is nothing a claim cites.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["docling_pages", "is_docling"]

_CAPTION_LABELS = frozenset({"caption", "footnote"})


def is_docling(data: object) -> bool:
    """Whether parsed JSON is a docling document."""
    return (
        isinstance(data, Mapping)
        and isinstance(data.get("texts"), list)
        and isinstance(data.get("body"), Mapping)
        and data.get("schema_name", "DoclingDocument") == "DoclingDocument"
    )


def docling_pages(data: Mapping[str, Any]) -> list[tuple[int, str]]:
    """``(page number, text)`` for every page the document lists, in page order; a page's text
    is its items in reading order, joined by blank lines (empty for a page with none)."""
    blocks: dict[int, list[str]] = {}
    page = 1
    for item, kind in _walk(data, data["body"], set()):
        page = _page_of(item, page)
        text = _render(item, kind)
        if text:
            blocks.setdefault(page, []).append(text)
    listed = data.get("pages")
    numbers = set(blocks)
    if isinstance(listed, Mapping):
        numbers.update(int(n) for n in listed if str(n).isdigit())
    return [(n, "\n\n".join(blocks.get(n, []))) for n in sorted(numbers)]


def _walk(
    data: Mapping[str, Any], node: Mapping[str, Any], seen: set[str]
) -> Iterator[tuple[Mapping[str, Any], str]]:
    """The items under ``node`` in reading order, each with its kind (``texts``, ``tables``,
    …); a picture yields only its captions (text found inside a figure is not prose)."""
    for child in node.get("children") or ():
        ref = child.get("cref") if isinstance(child, Mapping) else None
        if not isinstance(ref, str) or ref in seen:
            continue
        seen.add(ref)
        item, kind = _resolve(data, ref)
        if item is None or item.get("content_layer", "body") != "body":
            continue
        if kind == "pictures":
            for caption, caption_kind in _walk(data, item, seen):
                if caption.get("label") in _CAPTION_LABELS:
                    yield caption, caption_kind
            continue
        if kind in ("texts", "tables"):
            yield item, kind
        yield from _walk(data, item, seen)


def _resolve(data: Mapping[str, Any], ref: str) -> tuple[Mapping[str, Any] | None, str]:
    """The item a JSON pointer such as ``#/texts/12`` names."""
    parts = ref.split("/")
    if len(parts) != 3 or parts[0] != "#" or not parts[2].isdigit():
        return None, ""
    items = data.get(parts[1])
    index = int(parts[2])
    if not isinstance(items, list) or index >= len(items) or not isinstance(items[index], Mapping):
        return None, ""
    return items[index], parts[1]


def _page_of(item: Mapping[str, Any], default: int) -> int:
    prov = item.get("prov")
    if isinstance(prov, list) and prov and isinstance(prov[0], Mapping):
        number = prov[0].get("page_no")
        if isinstance(number, int) and not isinstance(number, bool):
            return number
    return default


def _render(item: Mapping[str, Any], kind: str) -> str:
    if kind == "tables":
        return _table(item)
    text = item.get("text")
    if not isinstance(text, str) or not text.strip():
        return ""
    text = " ".join(text.split())
    label = item.get("label")
    if label == "title":
        return f"# {text}"
    if label == "section_header":
        level = item.get("level")
        depth = level if isinstance(level, int) and 1 <= level <= 5 else 1
        return f"{'#' * (depth + 1)} {text}"
    if label == "list_item":
        return f"- {text}"
    return text


def _table(item: Mapping[str, Any]) -> str:
    """One line per table row, its cells' text separated by `` | ``."""
    table = item.get("data")
    cells = table.get("table_cells") if isinstance(table, Mapping) else None
    rows: dict[int, list[tuple[int, str]]] = {}
    for cell in cells if isinstance(cells, list) else ():
        if not isinstance(cell, Mapping) or not isinstance(cell.get("text"), str):
            continue
        row, column = cell.get("start_row_offset_idx", 0), cell.get("start_col_offset_idx", 0)
        if isinstance(row, int) and isinstance(column, int) and cell["text"].strip():
            rows.setdefault(row, []).append((column, " ".join(cell["text"].split())))
    return "\n".join(
        " | ".join(text for _, text in sorted(rows[row])) for row in sorted(rows) if rows[row]
    )
