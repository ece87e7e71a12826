"""Citation syntaxes and extraction: markers in a text → :class:`~citecheck.model.Citation`.

Three built-in syntaxes — TIP markers (``[[ctx-1:L42-67]]``), pandoc citations
(``[@key, p. 12]``) and numeric markers (``[1]``) — each only find markers;
:func:`extract_citations` merges them and attaches the excerpt and claim each marker vouches for.
"""

from citecheck.syntax.extract import extract_citations
from citecheck.syntax.numeric import NumericSyntax
from citecheck.syntax.pandoc import PandocSyntax
from citecheck.syntax.tip import TipSyntax

__all__ = ["NumericSyntax", "PandocSyntax", "TipSyntax", "extract_citations"]
