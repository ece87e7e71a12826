"""Citation syntaxes and extraction: markers in a text → :class:`~citecheck.model.Citation`.

Four built-in syntaxes — TIP markers (``[[ctx-1:L42-67]]``), pandoc citations
(``[@key, p. 12]``), numeric markers (``[1]``, ``[1, p. 12]``) and author–year citations
(``(Smith, 2020, p. 12)``, ``Smith (2020)``) — each only find markers; :func:`extract_citations`
merges them, leaves out the text's reference list (:func:`find_reference_list`), warns about
marker-like text that none of them read (:func:`marker_like_spans`) and attaches the excerpt
and claim each marker vouches for.
"""

from citecheck.syntax.author_year import AuthorYearSyntax
from citecheck.syntax.extract import extract_citations
from citecheck.syntax.lookalikes import marker_like_spans
from citecheck.syntax.numeric import NumericSyntax
from citecheck.syntax.pandoc import PandocSyntax
from citecheck.syntax.reference_list import ReferenceEntry, ReferenceList, find_reference_list
from citecheck.syntax.tip import TipSyntax

__all__ = [
    "AuthorYearSyntax",
    "NumericSyntax",
    "PandocSyntax",
    "ReferenceEntry",
    "ReferenceList",
    "TipSyntax",
    "extract_citations",
    "find_reference_list",
    "marker_like_spans",
]
