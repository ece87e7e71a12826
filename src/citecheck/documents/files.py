"""Documents from files; a document's id is its file name without the extension
(``ctx-1.md`` → ``ctx-1``).

A folder of sources is rarely clean: an image, a file saved in another encoding, a damaged PDF.
One such file must neither stop the run nor vanish without a word, so :func:`load_paths` loads
every file it can and hands back the others, each with the reason, beside the documents.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

from citecheck.documents.document import Document
from citecheck.documents.transcripts import SUBTITLE_FORMATS, read_subtitles
from citecheck.errors import MissingDependencyError, SourceError

__all__ = [
    "SkippedFile",
    "SourceFiles",
    "decode_text",
    "load_file",
    "load_paths",
    "reject_binary",
    "source_files",
]

_MARKDOWN = {".md", ".markdown"}
_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")
"""Control bytes that no text file holds (tab, line and page breaks and escape are allowed).
In UTF-8 they never occur inside a multi-byte character, so a match is a binary file (or
UTF-16 text, whose ASCII letters come with NUL bytes), never a letter."""

PathArg = str | PathLike[str]


@dataclass(frozen=True, slots=True)
class SkippedFile:
    """A source file that could not be read; ``reason`` says why and names the file."""

    path: Path
    reason: str

    @property
    def id(self) -> str:
        """The id its document would have had: citations of it cite a file that exists."""
        return self.path.stem

    def __str__(self) -> str:
        return f"skipped a source file: {self.reason}"


@dataclass(frozen=True, slots=True)
class SourceFiles:
    """What :func:`load_paths` read: the documents, and the files skipped with the reason.

    Iterating yields the documents, so the value itself can be passed as ``sources``
    (``citecheck.verify(text, citecheck.load_paths("sources/"))``); ``skipped`` and
    ``warnings`` say what was left out, for the caller to report.
    """

    documents: tuple[Document, ...]
    skipped: tuple[SkippedFile, ...] = ()

    def __iter__(self) -> Iterator[Document]:
        return iter(self.documents)

    def __len__(self) -> int:
        return len(self.documents)

    @property
    def warnings(self) -> tuple[str, ...]:
        """One line per skipped file, naming it and the reason."""
        return tuple(str(skipped) for skipped in self.skipped)


def reject_binary(raw: bytes, name: PathArg) -> None:
    """A :class:`SourceError` naming the file ``name`` and the line when ``raw`` holds a control
    byte that only binary data holds: read as text, it would give junk, not an error."""
    control = _CONTROL.search(raw)
    if control is not None:
        offset = control.start()
        raise SourceError(
            f"{name} is not a text file: line {_line(raw, offset)} holds the byte "
            f"0x{raw[offset]:02x} (binary data, or text saved as UTF-16)"
        )


def decode_text(raw: bytes, name: PathArg, encoding: str = "utf-8") -> str:
    """``raw`` as text. Binary data (see :func:`reject_binary`) and bytes that are not UTF-8 are
    a :class:`SourceError` naming the file ``name`` and the line, never a silent mangling."""
    reject_binary(raw, name)
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"{name} is not UTF-8 text ({exc.reason} on line {_line(raw, exc.start)}, "
            f"byte {exc.start})"
        ) from None


def _line(raw: bytes, offset: int) -> int:
    return raw.count(b"\n", 0, offset) + 1


def load_file(path: Path) -> Document:
    """One file as a document: ``.pdf`` through pypdf, ``.md`` as Markdown, ``.vtt`` (WebVTT)
    and ``.srt`` (SubRip) as transcripts with timed segments, anything else as UTF-8 text. A
    file that cannot be read is a :class:`SourceError` naming it: not UTF-8, binary, a damaged
    PDF, a PDF with no text layer (a scan, whose every quote would otherwise look
    unsupported), a malformed transcript."""
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        document = Document.from_pdf(path.stem, path, metadata={"path": str(path)})
        if not document.text.strip():
            raise SourceError(f"{path} has no text layer (a scanned PDF needs OCR first)")
        return document
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror}") from None
    text = decode_text(raw, path)
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


def load_paths(paths: PathArg | Iterable[PathArg]) -> SourceFiles:
    """Documents from a file or folder, or several (see :func:`source_files`).

    A file that cannot be read (see :func:`load_file`; also a PDF while the ``pdf`` extra is
    missing) is skipped and listed in :attr:`SourceFiles.skipped`, so one bad file does not stop
    a run. Nothing to read at all (no file, or none readable) is a :class:`SourceError`, as are
    two files with the same id and a path that does not exist."""
    given = [paths] if isinstance(paths, str | PathLike) else list(paths)
    files = source_files(Path(p) for p in given)
    documents: dict[str, Document] = {}
    skipped: list[SkippedFile] = []
    for file in files:
        try:
            document = load_file(file)
        except SourceError as exc:
            skipped.append(SkippedFile(file, str(exc)))
            continue
        except MissingDependencyError as exc:
            skipped.append(SkippedFile(file, f"cannot read {file}: {exc}"))
            continue
        if document.id in documents:
            raise SourceError(
                f"two sources named {document.id!r}: {documents[document.id].metadata['path']} "
                f"and {file}"
            )
        documents[document.id] = document
    if not documents:
        where = ", ".join(str(p) for p in given) or "no path given"
        if not skipped:
            raise SourceError(f"no source files in {where}")
        reasons = "; ".join(s.reason for s in skipped)
        raise SourceError(f"no readable source file in {where}: {reasons}")
    return SourceFiles(tuple(documents.values()), tuple(skipped))
