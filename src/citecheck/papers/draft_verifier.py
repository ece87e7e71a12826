"""The papers door (``doors`` registry name ``papers``): a Markdown draft checked against a
paper library, every citation as :meth:`~citecheck.papers.PaperLibrary.validate_doc` checks
it. The draft is the subject, the library (an open :class:`~citecheck.papers.PaperLibrary`
or its folder) the sources."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any, ClassVar, Literal, TypedDict, Unpack

from citecheck._config import Options
from citecheck.errors import InputError
from citecheck.judging.support_judge import SupportJudge
from citecheck.papers.library import PaperLibrary
from citecheck.papers.search import FusionOptions
from citecheck.papers.validation import Reviser
from citecheck.protocols import Embedder, Index
from citecheck.report import Report

__all__ = ["DraftConfig", "DraftOptions", "DraftVerifier"]


@dataclass(frozen=True, slots=True)
class DraftConfig(Options):
    """Every option of :class:`DraftVerifier`: the options type of the papers door.
    ``reviser`` rewrites a failing claim from its correction (``"builtin"``, a function, or
    ``None``); the others open a library given by its folder, as
    :class:`~citecheck.papers.PaperLibrary` takes them."""

    reviser: Reviser | Literal["builtin"] | None = "builtin"
    language: str = "en"
    max_chunk_chars: int | None = 1000
    embedder: Embedder | Literal["auto"] | None = "auto"
    index: Index | None = None
    search: FusionOptions | None = None
    judge: SupportJudge | Literal["auto"] | None = "auto"

    _what: ClassVar[str] = "papers"


class DraftOptions(TypedDict, total=False):
    """The keyword options of :class:`DraftVerifier`, typed: those of :class:`DraftConfig`."""

    reviser: Reviser | Literal["builtin"] | None
    language: str
    max_chunk_chars: int | None
    embedder: Embedder | Literal["auto"] | None
    index: Index | None
    search: FusionOptions | None
    judge: SupportJudge | Literal["auto"] | None


class DraftVerifier:
    """Check drafts against paper libraries, with the options of :class:`DraftConfig`."""

    name: ClassVar[str] = "papers"
    """Its name in the registry's ``doors`` group."""
    takes: ClassVar[Literal["text", "items"]] = "text"
    item_detail: ClassVar[str | None] = None
    options_type: ClassVar[type[DraftConfig]] = DraftConfig

    def __init__(
        self,
        config: DraftConfig | Mapping[str, Any] | str | Path | None = None,
        **options: Unpack[DraftOptions],
    ) -> None:
        self.config = DraftConfig.merged(config, options)

    @classmethod
    def from_config(
        cls,
        config: DraftConfig | Mapping[str, Any] | str | Path | None = None,
        **options: Unpack[DraftOptions],
    ) -> DraftVerifier:
        """The door from its options type, a mapping or a file, keyword ``options`` over it."""
        return cls(config, **options)

    def __repr__(self) -> str:
        return f"DraftVerifier(reviser={self.config.reviser!r})"

    def verify(
        self, draft: str | PathLike[str], library: PaperLibrary | str | PathLike[str]
    ) -> Report:
        """Every citation of ``draft`` (its text, or a path) checked against ``library``."""
        if isinstance(library, PaperLibrary):
            opened = library
        elif isinstance(library, str | PathLike):
            options = self.config.to_dict()
            del options["reviser"]  # the rest are the library's own options
            opened = PaperLibrary(library, **options)
        else:
            raise InputError(
                f"the papers door checks against a PaperLibrary or its folder, not "
                f"{type(library).__name__}"
            )
        return opened.validate_doc(draft, reviser=self.config.reviser)
