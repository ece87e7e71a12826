"""The papers door (``doors`` registry name ``papers``): a Markdown draft checked against a
paper library, every citation as :meth:`~citecheck.papers.PaperLibrary.validate_doc` checks
it. The draft is the subject, the library (an open :class:`~citecheck.papers.PaperLibrary`
or its folder) the sources."""

from __future__ import annotations

from os import PathLike
from typing import Any, ClassVar, Literal

from citecheck.errors import InputError
from citecheck.papers.library import PaperLibrary
from citecheck.papers.validation import Reviser
from citecheck.report import Report

__all__ = ["DraftVerifier"]


class DraftVerifier:
    """Check drafts against paper libraries. ``reviser`` rewrites a failing claim from its
    correction (``"builtin"``, a function, or ``None``); ``library_options`` open a library
    given by its folder (``embedder``, ``judge``, ``language``, …: those of
    :class:`~citecheck.papers.PaperLibrary`)."""

    name: ClassVar[str] = "papers"
    """Its name in the registry's ``doors`` group."""
    takes: ClassVar[Literal["text", "items"]] = "text"
    item_detail: ClassVar[str | None] = None

    def __init__(
        self, *, reviser: Reviser | Literal["builtin"] | None = "builtin", **library_options: Any
    ) -> None:
        self.reviser = reviser
        self.library_options = dict(library_options)

    def __repr__(self) -> str:
        return f"DraftVerifier(reviser={self.reviser!r})"

    def verify(
        self, draft: str | PathLike[str], library: PaperLibrary | str | PathLike[str]
    ) -> Report:
        """Every citation of ``draft`` (its text, or a path) checked against ``library``."""
        if isinstance(library, PaperLibrary):
            opened = library
        elif isinstance(library, str | PathLike):
            opened = PaperLibrary(library, **self.library_options)
        else:
            raise InputError(
                f"the papers door checks against a PaperLibrary or its folder, not "
                f"{type(library).__name__}"
            )
        return opened.validate_doc(draft, reviser=self.reviser)
