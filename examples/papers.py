"""Check a draft against a library of papers: where a paper says something, whether the cited
page supports each claim, and the fix when it does not.

Run from the repository root, with the ``embeddings`` (or ``multilingual``) and ``bm25``
extras installed::

    python examples/papers.py

It builds a paper library in a temporary folder from ``examples/papers/stoker2022.md`` (an
invented paper with ``[PAGE:N]`` markers), quotes it for a question, validates two claims, then
checks every citation of ``examples/draft.md`` and prints the report with each citation's draft
line and suggested fix. The same from the command line::

    citecheck papers add examples/papers/stoker2022.md --library library
    citecheck cite stoker2022 "how long the annotation took" --library library
    citecheck validate stoker2022 "The interviews were coded once." --page 2 --library library
    citecheck validate-doc examples/draft.md --library library -o draft.html
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from citecheck import PaperLibrary

HERE = Path(__file__).parent


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        library = PaperLibrary(Path(folder) / "library")
        key = library.add(HERE / "papers" / "stoker2022.md")
        print(f"added {key}: {len(library.pages(key))} pages, {len(library.chunks(key))} chunks")
        for quote in library.cite(key, "how long the annotation took", k=2):
            print(quote)
        for claim, page in [
            ("Managers think they delegate more when their staff work from home.", 1),
            ("The interviews were annotated over six months.", 2),
        ]:
            result = library.validate(key, claim, page)
            print(f"\n{claim} (p. {page}): {result.details['support']}")
            print(f"  {result.reason}")
            if "correction" in result.details:
                print(f"  fix: {result.details['correction']['revision']}")
        print()
        print(library.validate_doc(HERE / "draft.md").to_text())


if __name__ == "__main__":
    main()
