"""Documents from files; a document's id is its file name without the extension
(``ctx-1.md`` → ``ctx-1``)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from citecheck.documents.document import Document
from citecheck.documents.transcripts import SUBTITLE_FORMATS, read_subtitles
from citecheck.errors import SourceError

__all__ = ["load_file", "load_paths", "source_files"]

_MARKDOWN = {".md", ".markdown"}


def load_file(path: Path) -> Document:
    """One file as a document: ``.pdf`` through pypdf, ``.md`` as Markdown, ``.vtt`` (WebVTT)
    and ``.srt`` (SubRip) as transcripts with timed segments, anything else as UTF-8 text (a
    file that is not UTF-8 is a :class:`SourceError`, never a silent mangling)."""
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        return Document.from_pdf(path.stem, path, metadata={"path": str(path)})
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror}") from None
    if suffix in _MARKDOWN:
        return Document.from_markdown(path.stem, text, {"path": str(path)})
    if suffix in SUBTITLE_FORMATS:
        kind = SUBTITLE_FORMATS[suffix]
        segments = read_subtitles(text, kind, str(path))
        return Document.from_transcript(path.stem, segments, {"path": str(path), "format": kind})
    return Document(path.stem, text, {"path": str(path)})


def source_files(paths: Iterable[Path]) -> list[Path]:
    """The files named, with each directory replaced by its files (sorted, not recursing,
    hidden files left out)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
            )
        elif path.exists():
            files.append(path)
        else:
            raise SourceError(f"no such file or directory: {path}")
    return files


def load_paths(paths: Iterable[Path]) -> list[Document]:
    """Documents from files and directories (see :func:`source_files`). Two files with the
    same id are a :class:`SourceError`."""
    documents: dict[str, Document] = {}
    for file in source_files(paths):
        document = load_file(file)
        if document.id in documents:
            raise SourceError(
                f"two sources named {document.id!r}: {documents[document.id].metadata['path']} "
                f"and {file}"
            )
        documents[document.id] = document
    return list(documents.values())
