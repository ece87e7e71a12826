"""False twins: a true claim changed in one thing its verdict must see.

Each change takes a claim (and a random generator, so that a seed gives the same twins) and
returns the claim with one fact changed, or ``None`` when the claim has nothing of that kind:

- ``number changed``: one digit of a number it states ("3 months" for "8 months");
- ``negation added`` / ``negation dropped``: "not" after an auxiliary, or a negation taken out
  (never after "may" or "might": a possibility and its negation can both hold);
- ``quantifier``: "all" where it says "some", "most", "many", "several" or a percentage;
- ``direction``: a word of direction turned round ("decreased" for "increased", "slower"
  for "faster", "fell" for "rose");
- ``entity``: a nationality, country, language, month or weekday replaced by another of its
  kind ("Irish" for "American");
- ``agent``: who did it ("automatically" for "manually" or "by human annotators").

:func:`swapped_name` changes a name inside the claim for another one ("Douala is Manuel's
best friend" for "Gregorio is …"); it takes the names to choose from (those of other
sources), so it is not one of :data:`CHANGES`.

The meaning guard, the cross-door tests, ``benchmarks/falsify.py`` and the judge's training
script (hard pairs) make their false claims here, so that what is tested, measured and trained
on is the same thing.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from citecheck.language.lexicon import ENTITY_KINDS, entity_kind
from citecheck.language.text import LETTERS

__all__ = [
    "CHANGES",
    "NEGATION",
    "added_negation",
    "changed_agent",
    "changed_direction",
    "changed_entity",
    "changed_number",
    "changed_quantifier",
    "dropped_negation",
    "names_in",
    "swapped_name",
]

_NUMBER = re.compile(r"(?<![\w.,\-/])\d+(?:[.,]\d+)?(?![\w\-/])")
_NOT_A_STATEMENT = re.compile(
    r"[\[(][^\[\]()]{0,40}[\])]"  # a bracket: a reference marker or an author and a year
    r"|^\s*\d+[.)]|\d+[.)]?\s*$"  # the number of a list item
    r"|<\|[a-z_]+\|>",  # a citation placeholder
    re.MULTILINE,
)
NEGATION = re.compile(
    r"\b(?:not|no|never|none|nothing|nobody|neither|nor|without|cannot)\b|n't\b", re.IGNORECASE
)
"""An English negation, as the changes below read one."""
_DROP_NEGATION = re.compile(
    r"\b(?:not(?! only\b| just\b| merely\b| simply\b)|never|no) |(?<=\w)n't\b|\bcannot\b",
    re.IGNORECASE,
)
_AUXILIARY = re.compile(
    r"\b(?:is|was|are|were|can|will|would|could|should|must|has|have|had|does|did)"
    r"\b(?! not\b| never\b| only\b| just\b| merely\b| simply\b)(?= \w)",
    re.IGNORECASE,
)


def changed_number(claim: str, rng: random.Random) -> str | None:
    """``claim`` with one digit of one number it states changed (a leading digit never to 0,
    and never into another number the claim holds), or ``None`` when it states none. Numbers
    in brackets (reference markers, author and year), of list items and of citation
    placeholders are not statements."""
    skipped = [m.span() for m in _NOT_A_STATEMENT.finditer(claim)]
    numbers = [
        m
        for m in _NUMBER.finditer(claim)
        if not any(start <= m.start() < end for start, end in skipped)
    ]
    if not numbers:
        return None
    match = rng.choice(numbers)
    held = {m.group() for m in _NUMBER.finditer(claim)}
    digits = list(match.group())
    places = [i for i, d in enumerate(digits) if d.isdigit()]
    for _ in range(20):
        i = rng.choice(places)
        allowed = [d for d in "0123456789" if d != digits[i] and (d != "0" or i != places[0])]
        changed = [*digits[:i], rng.choice(allowed or ["1"]), *digits[i + 1 :]]
        if "".join(changed) not in held:
            return claim[: match.start()] + "".join(changed) + claim[match.end() :]
    return None


_POSSIBILITY = re.compile(r"\b(?:may|might)\s*$", re.IGNORECASE)
"""A modal of possibility just before a negation: "they might not be aware" and "they might
be aware" can both be true, so a "not" after "may" or "might" is neither added nor dropped."""


def added_negation(claim: str, rng: random.Random) -> str | None:
    """``claim`` with ``not`` added after an auxiliary verb, when it has no negation (never
    before "only", "just", "merely" or "simply": "not only" adds, it does not deny; never
    after "may" or "might": a possibility and its negation can both hold)."""
    auxiliaries = list(_AUXILIARY.finditer(claim))
    if NEGATION.search(claim) or not auxiliaries:
        return None
    match = rng.choice(auxiliaries)
    return claim[: match.end()] + " not" + claim[match.end() :]


def dropped_negation(claim: str, rng: random.Random) -> str | None:
    """``claim`` with one negation dropped (``not``, ``never``, ``no``, ``n't``, ``cannot``;
    not the "not" of "not only", which adds rather than denies, nor one after "may" or
    "might", whose claim without it can be as true)."""
    negations = [
        m for m in _DROP_NEGATION.finditer(claim) if not _POSSIBILITY.search(claim[: m.start()])
    ]
    if not negations:
        return None
    match = rng.choice(negations)
    kept = "can" if match.group().lower() == "cannot" else ""
    return claim[: match.start()] + kept + claim[match.end() :]


_LIMITED = re.compile(
    r"\b(?:some|most|many|several|a few|a majority of|the majority of|half of|"
    r"\d+(?:[.,]\d+)? ?(?:%|percent|per cent) of)\b ?(?:the )?",
    re.IGNORECASE,
)


_SUPERLATIVE = re.compile(
    r"\b(?:the|a|an|its|their|his|her|our|my|your|whose|this|that)\s+$", re.IGNORECASE
)
"""What stands before "most" that makes it a superlative ("their most recent win"), not a
quantifier: "all" there says nothing ("their all recent win")."""


def changed_quantifier(claim: str, rng: random.Random) -> str | None:
    """``claim`` with "all" where it limits what it speaks of ("some", "most", "many",
    "several", "half of", "87 percent of"; not "most" after "the" or "their", a superlative),
    or ``None`` when it limits nothing."""
    found = list(_LIMITED.finditer(claim))
    if not found:
        return None
    match: re.Match[str] | None = rng.choice(found)  # drawn among all: as a seed drew before
    if match is not None and _SUPERLATIVE.search(claim[: match.start()]):
        match = next((m for m in found if not _SUPERLATIVE.search(claim[: m.start()])), None)
    if match is None:
        return None
    word = "All" if match.start() == 0 or claim[: match.start()].rstrip().endswith(".") else "all"
    return claim[: match.start()] + f"{word} " + claim[match.end() :]


_OPPOSITE_WORDS = {
    "increase": "decrease", "increased": "decreased", "increases": "decreases",
    "increasing": "decreasing", "rise": "fall", "rises": "falls", "rose": "fell",
    "risen": "fallen", "rising": "falling", "grew": "shrank", "grow": "shrink",
    "grows": "shrinks", "growing": "shrinking", "higher": "lower", "highest": "lowest",
    "more": "less", "faster": "slower", "improved": "worsened", "improves": "worsens",
    "improve": "worsen", "larger": "smaller", "largest": "smallest", "greater": "smaller",
    "gained": "lost", "gain": "loss", "gains": "losses", "up": "down", "above": "below",
    "before": "after", "earlier": "later", "outperformed": "underperformed",
    "outperforms": "underperforms", "doubled": "halved", "expanded": "contracted",
    "strengthened": "weakened", "accelerated": "decelerated",
}  # fmt: skip
_OPPOSITES = {**_OPPOSITE_WORDS, **{b: a for a, b in _OPPOSITE_WORDS.items()}}


_TEXT_REFERENCE = re.compile(
    r"\b(?:see|mentioned|described|shown|listed|discussed|noted|outlined|stated|given|cited"
    r"|presented|explained|defined|detailed)\s+$",
    re.IGNORECASE,
)
"""Before "above" or "below", words that make them point into the text itself ("the methods
mentioned above", "see below"): turned round, they change the text's layout, not a fact a
source could show."""


def changed_direction(claim: str, rng: random.Random) -> str | None:
    """``claim`` with one word of direction turned round ("decreased" for "increased",
    "fell" for "rose", "slower" for "faster"), or ``None`` when it has none. "Above" and
    "below" that point into the text ("those mentioned above") are left alone."""
    found = [
        m
        for m in LETTERS.finditer(claim)
        if m.group().lower() in _OPPOSITES
        and not (
            m.group().lower() in ("above", "below") and _TEXT_REFERENCE.search(claim[: m.start()])
        )
    ]
    if not found:
        return None
    match = rng.choice(found)
    opposite = _OPPOSITES[match.group().lower()]
    if match.group()[0].isupper():
        opposite = opposite.capitalize()
    return claim[: match.start()] + opposite + claim[match.end() :]


def changed_entity(claim: str, rng: random.Random) -> str | None:
    """``claim`` with a nationality, country, language, month or weekday replaced by another
    of its kind ("Irish" for "American"), or ``None`` when it names none."""
    found = [(m, kind) for m in LETTERS.finditer(claim) if (kind := entity_kind(m.group().lower()))]
    if not found:
        return None
    match, kind = rng.choice(found)
    said = {w.lower() for w in LETTERS.findall(claim)}
    others = sorted(ENTITY_KINDS[kind] - said)
    other = rng.choice(others)
    written = other.capitalize() if match.group()[0].isupper() else other
    return claim[: match.start()] + written + claim[match.end() :]


_AGENTS = re.compile(
    r"\b(?:manually|by hand|by (?:trained |expert |human )*(?:human )?"
    r"(?:annotators|experts|humans|people|volunteers|researchers))\b",
    re.IGNORECASE,
)


def changed_agent(claim: str, rng: random.Random) -> str | None:
    """``claim`` with who did it changed: "automatically" for "manually", "by hand" or "by
    (trained, expert) human annotators"; ``None`` when it names no such agent."""
    found = list(_AGENTS.finditer(claim))
    if not found:
        return None
    match = rng.choice(found)
    return claim[: match.start()] + "automatically" + claim[match.end() :]


CHANGES: dict[str, Callable[[str, random.Random], str | None]] = {
    "number changed": changed_number,
    "negation added": added_negation,
    "negation dropped": dropped_negation,
    "quantifier": changed_quantifier,
    "direction": changed_direction,
    "entity": changed_entity,
    "agent": changed_agent,
}
"""Every change, by the name the benchmarks report it under."""


_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]{2,}(?: [A-Z][a-z]{2,})?")


def names_in(text: str) -> list[str]:
    """Capitalised words (one or two) inside a sentence, never at its start."""
    return [m.group() for m in _NAME.finditer(text)]


def swapped_name(claim: str, names: Sequence[str], rng: random.Random) -> str | None:
    """``claim`` with one capitalised name inside it (:func:`names_in`) replaced by one of
    ``names`` that it does not hold, or ``None``."""
    own = list(_NAME.finditer(claim))
    others = [n for n in names if n.lower() not in claim.lower()]
    if not own or not others:
        return None
    match = rng.choice(own)
    return claim[: match.start()] + rng.choice(others) + claim[match.end() :]
