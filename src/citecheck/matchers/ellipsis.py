"""Quotes with an ellipsis (``...``, ``…``, ``……``, ``[...]``, ``。。。``) are matched as
ordered fragments.

Each fragment must be found after the previous one, within ``max_gap`` characters of it; the
evidence runs from the first fragment's start to the last one's end. What the ellipsis left out
is checked for negations, since eliding a "not" reverses a quote.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from citecheck.documents import Document
from citecheck.language.meaning import differences_at, elided_negations, noun_for
from citecheck.model import Evidence, Span

__all__ = [
    "FragmentMatch",
    "fragment_differences",
    "match_fragments",
    "split_fragments",
    "tight",
]

_ELLIPSIS = re.compile(
    r"(?<!\s)\s*+(?:\[\s*(?:\.\s*){3}\]|\[\s*\u2026\s*\]|\.\s?\.\s?\.|[\u2026\u22ef]++"
    r"|(?:\u3002\s?){2}\u3002|(?:\uff0e\s?){2}\uff0e)\s*"
)
"""An ellipsis: "...", "…" (Chinese writes two, "……", or the midline "⋯⋯"), "[...]",
"[…]", and three ideographic or full-width full stops ("。。。", "．．．")."""
_MAX_FIRST_CANDIDATES = 20

Finder = Callable[[str, Document, Span], Sequence[Evidence]]


def split_fragments(quote: str) -> list[str]:
    """The pieces of a quote between ellipses that hold words (one piece when there is no
    ellipsis; a sentence's own full stop before "..." is not a piece)."""
    pieces = (p.strip() for p in _ELLIPSIS.split(quote))
    return [piece for piece in pieces if any(ch.isalnum() for ch in piece)]


@dataclass(frozen=True, slots=True)
class FragmentMatch:
    """The outcome of matching a quote's fragments in order.

    ``evidence`` spans all fragments when every one was found; otherwise it is ``None`` and
    ``found`` says how many, in order, were.
    ``differences`` names changes of meaning: in a fragment, or a negation the ellipsis left out.
    """

    total: int
    found: int
    evidence: Evidence | None
    differences: tuple[str, ...] = ()


def match_fragments(
    fragments: Sequence[str],
    document: Document,
    within: Span,
    find: Finder,
    max_gap: int,
    *,
    quoted: bool = True,
) -> FragmentMatch:
    """Find ``fragments`` in order inside ``within``; ``find`` is the matcher cascade.
    ``quoted`` texts must keep the source's words (see :func:`meaning_differences`)."""
    best_found = 0
    complete: list[tuple[Evidence, list[Evidence]]] = []
    for first in list(find(fragments[0], document, within))[:_MAX_FIRST_CANDIDATES]:
        chain = [first]
        for fragment in fragments[1:]:
            window = Span(
                chain[-1].end, min(within.end, chain[-1].end + max_gap + 2 * len(fragment))
            )
            hits = [
                h for h in find(fragment, document, window) if h.start - chain[-1].end <= max_gap
            ]
            if not hits:
                break
            chain.append(hits[0])
        best_found = max(best_found, len(chain))
        if len(chain) == len(fragments):
            complete.append((_join(chain, document), chain))
            if tight([(e.start, e.end, e.method == "exact") for e in chain]):
                break  # every fragment verbatim, each right after the one before: none better
    if not complete:
        return FragmentMatch(len(fragments), best_found, None)
    # the best-matching chain, then the shortest: a fragment that also stands (or nearly)
    # earlier in the text is the one just before the next fragment
    joined, chain = max(complete, key=lambda c: (c[0].score, c[0].start - c[0].end))
    return FragmentMatch(
        len(fragments),
        len(chain),
        joined,
        fragment_differences(
            fragments, [(e.start, e.end, e.method == "exact") for e in chain], document, quoted
        ),
    )


TIGHT_GAP = 40
"""Characters between fragments under which a chain of verbatim fragments is taken at once."""


def tight(places: Sequence[tuple[int, int, bool]]) -> bool:
    """Whether a chain of fragments (each one's ``(start, end, verbatim)``) has every fragment
    verbatim, each within :data:`TIGHT_GAP` characters of the one before: no other chain of
    the same fragments can be better, so the search for one may stop."""
    return all(verbatim for _, _, verbatim in places) and all(
        after[0] - before[1] <= TIGHT_GAP for before, after in pairwise(places)
    )


def _join(chain: list[Evidence], document: Document) -> Evidence:
    lengths = [e.end - e.start for e in chain]
    score = sum(e.score * n for e, n in zip(chain, lengths, strict=True)) / max(1, sum(lengths))
    methods = {e.method for e in chain}
    method = chain[0].method if len(methods) == 1 else "+".join(sorted(methods))
    return document.evidence(
        chain[0].start,
        chain[-1].end,
        round(score, 4),
        method,
        {"fragments": float(len(chain)), "fragment_score_min": min(e.score for e in chain)},
    )


def fragment_differences(
    fragments: Sequence[str],
    places: Sequence[tuple[int, int, bool]],
    document: Document,
    quoted: bool,
) -> tuple[str, ...]:
    """Changes of meaning of an elided quote: in each fragment not matched verbatim
    (``places`` holds each fragment's ``(start, end, verbatim)``), and negations the ellipsis
    left out between them."""
    notes: list[str] = []
    for fragment, (start, end, verbatim) in zip(fragments, places, strict=True):
        if not verbatim:
            notes.extend(
                differences_at(
                    fragment, document.text, start, end, omissions=quoted, noun=noun_for(quoted)
                )
            )
    for (_, before, _), (after, _, _) in pairwise(places):
        notes.extend(elided_negations(document.text[before:after]))
    return tuple(dict.fromkeys(notes))
