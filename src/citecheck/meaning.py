"""Changes of meaning that similarity scores forgive but readers must not: a negation dropped or
added, a number changed, a word replaced, added or turned into its opposite. A match with such
a difference is never reported as verified."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Any

from citecheck.text import normalize

__all__ = [
    "differences_at",
    "elided_negations",
    "meaning_differences",
    "negation_counts",
    "noun_for",
    "number_list",
    "numbers_with_offsets",
]

_CONTEXT_CHARS = 80

_TOKEN = re.compile(r"\w+(?:'\w+)?")
_NUMBER = re.compile(r"(?:(?<=[\s(\[=])-|^-)?\d+(?:[.,]\d+)*")
_THOUSANDS = re.compile(r",(?=\d{3}(?!\d))")
_DIGIT = re.compile(r"\d")
_NEGATIONS = frozenset(
    "not no never none nor nothing nobody nowhere neither without cannot cant dont doesnt "
    "didnt isnt arent wasnt werent wont wouldnt shouldnt couldnt hasnt havent hadnt mustnt "
    "neednt kein keine keinen keinem keiner keines nicht nichts nie niemals niemand nirgends "
    "weder niet geen nooit niets niemand nergens pas jamais rien aucun aucune".split()
)


def negation_counts(text: str) -> Counter[str]:
    """The negations of ``text`` by word; every ``n't`` counts as ``not``."""
    found: Counter[str] = Counter()
    tokens = _TOKEN.findall(text)
    if "'" not in text and _NEGATIONS.isdisjoint(tokens):
        return found  # the common case, settled in one pass
    for token in [t for t in tokens if t in _NEGATIONS or "'" in t]:
        if token in _NEGATIONS:
            found[token] += 1
        elif token.endswith("n't"):
            found["not"] += 1
        elif token.replace("'", "") in _NEGATIONS:
            found[token.replace("'", "")] += 1
    return found


def number_list(text: str) -> list[str]:
    """Numbers in order: ``-5`` and ``(-5)`` keep their sign (a hyphen inside ``10-20`` does
    not make one), ``1,000`` is a thousand and ``1,5`` a decimal."""
    if not _DIGIT.search(text):
        return []
    return [_number(n) for n in _NUMBER.findall(text)]


def numbers_with_offsets(text: str) -> list[tuple[int, int, str]]:
    """The numbers of :func:`number_list` with the span of ``text`` each one stands in."""
    return [(m.start(), m.end(), _number(m.group())) for m in _NUMBER.finditer(text)]


def _number(written: str) -> str:
    return _THOUSANDS.sub("", written).replace(",", ".")


def _negated(tokens: list[str]) -> list[str]:
    """What each negation among ``tokens`` applies to: the next word that is not a stop
    word."""
    return [
        next((t for t in tokens[i + 1 :] if t not in _STOP_WORDS), "")
        for i, token in enumerate(tokens)
        if token in _NEGATIONS
    ]


def _moved_negations(text: list[str], source: list[str]) -> tuple[str, str] | None:
    """A word the text negates that the source does not (misspellings aside), with the word
    the source negates instead; ``None`` when every negation applies to the same word (both
    given as :func:`_words`)."""
    theirs = _negated(source)
    for word in _negated(text):
        match = next((t for t in theirs if t == word or _slip([word], [t])), None)
        if match is None:
            return word, ", ".join(theirs)
        theirs.remove(match)
    return None


def meaning_differences(
    text: str,
    source: str,
    *,
    omissions: bool = False,
    noun: str = "quote",
    before: str = "",
    after: str = "",
) -> list[str]:
    """Human sentences naming each change of meaning between a text and the source passage it
    was matched to — a negation or number that differs, a word put in place of another or
    added — or an empty list.

    ``omissions`` also names a word the text leaves out mid-passage (quotations claim to be
    verbatim; claims may condense). A misspelt word (``commision``) or one split by OCR
    (``commit tee``) is never a difference, but a word turned into its opposite (``likely`` /
    ``unlikely``, ``increase`` / ``decrease``) always is. ``before`` and ``after`` are the
    source text around the passage: words the text shares with them are not "added", since
    the passage's edges were only an estimate. A claim may also frame or reorder its words at
    its edges ("On Tuesday the committee…"); a quotation may not. ``noun`` names the text in
    the sentences ("quote", "claim").
    """
    # Every helper below reads normalised text; normalise each input once.
    text, source, before, after = (normalize(t) for t in (text, source, before, after))
    our_words, their_words = _words(text), _words(source)
    differences = []
    ours, theirs = negation_counts(text), negation_counts(source)
    for word in sorted((theirs - ours).keys()):
        if not _misspelt_in(word, text):
            differences.append(f"the source says {word!r} where the {noun} does not")
    for word in sorted((ours - theirs).keys()):
        if not _misspelt_in(word, source):
            differences.append(f"the {noun} adds {word!r}, which the source does not say")
    if ours == theirs:
        moved = _moved_negations(our_words, their_words)
        if moved:
            here, there = moved
            differences.append(f"the {noun} negates {here!r} where the source negates {there!r}")
    our_numbers, their_numbers = number_list(text), number_list(source)
    missing = Counter(their_numbers) - Counter(our_numbers)
    added = Counter(our_numbers) - Counter(their_numbers)
    if missing or added:
        said = ", ".join(sorted(added)) or "no number"
        stands = ", ".join(sorted(missing)) or "no number"
        differences.append(f"the {noun} has {said} where the source has {stands}")
    elif omissions and our_numbers != their_numbers:
        # A quotation keeps the order; a claim may reorder ("20, up from 10").
        differences.append(
            f"the {noun} gives the numbers {', '.join(our_numbers)} in another order than the "
            f"source ({', '.join(their_numbers)})"
        )
    differences.extend(
        _word_changes(our_words, their_words, before, after, omissions=omissions, noun=noun)
    )
    return differences


def noun_for(quoted: bool) -> str:
    """How reasons name the checked text: a quotation is a "quote", anything else a "claim"."""
    return "quote" if quoted else "claim"


def differences_at(
    text: str, source_text: str, start: int, end: int, *, omissions: bool, noun: str
) -> list[str]:
    """:func:`meaning_differences` for the passage ``source_text[start:end]``, with the text
    around it as context."""
    return meaning_differences(
        text,
        source_text[start:end],
        omissions=omissions,
        noun=noun,
        before=source_text[max(0, start - _CONTEXT_CHARS) : start],
        after=source_text[end : end + _CONTEXT_CHARS],
    )


def _misspelt_in(negation: str, text: str) -> bool:
    """True when ``text`` has a slip of a longer negation (OCR's ``nicbt`` for ``nicht``):
    it does say it. A slip keeps the length: ``einen`` is not a misspelt ``keinen`` but its
    opposite. Short negations (``not``, ``no``) are never presumed misspelt."""
    from rapidfuzz.distance import Hamming

    if len(negation) < 4:
        return False
    # The negation itself, said elsewhere in the text, is no slip of this one.
    return any(
        token != negation
        and len(token) == len(negation)
        and (_fold(token) == _fold(negation) or Hamming.distance(token, negation) == 1)
        for token in _TOKEN.findall(text)
    )


_STOP_WORDS = frozenset(
    "a an the of to in on at for and or but is are was were be been being it its this that "
    "these those with as by from".split()
)
_CONTRACTED_NOT = re.compile(r"n't\b")
_CONTEXT_WORDS = 4
_OPPOSITE_PREFIXES = frozenset({"un", "in", "im", "il", "ir", "dis", "non", "anti", "a"})
_ANTONYMS = (
    ("increas", "decreas"), ("high", "low"), ("more", "less"), ("more", "fewer"),
    ("maxim", "minim"), ("before", "after"), ("above", "below"), ("inside", "outside"),
    ("positiv", "negativ"), ("major", "minor"), ("rise", "fall"), ("rose", "fell"),
    ("risen", "fallen"), ("gain", "loss"), ("win", "lose"), ("accept", "reject"),
    ("includ", "exclud"), ("success", "failure"), ("strong", "weak"), ("earl", "lat"),
    ("first", "last"), ("always", "never"), ("most", "least"), ("better", "worse"),
    ("best", "worst"), ("good", "bad"), ("larg", "small"), ("long", "short"), ("true", "false"),
    ("import", "export"), ("open", "clos"), ("allow", "forbid"), ("approv", "reject"),
    ("hyper", "hypo"), ("over", "under"), ("pre", "post"), ("intra", "extra"),
    ("micro", "macro"), ("input", "output"), ("inbound", "outbound"),
)  # fmt: skip
"""Stems of words with opposite meanings; the rest of both words must be a common ending."""


def _by_initial(pairs: tuple[tuple[str, str], ...]) -> dict[str, list[tuple[str, str]]]:
    """Each pair both ways round, under the first letter of its first stem."""
    table: dict[str, list[tuple[str, str]]] = {}
    for x, y in pairs:
        table.setdefault(x[0], []).append((x, y))
        table.setdefault(y[0], []).append((y, x))
    return table


_ANTONYMS_BY_INITIAL = _by_initial(_ANTONYMS)
_ENDINGS = frozenset({"", *"e y ed d er ier est iest ing s es ly ily ion ions ity".split()})


def _words(text: str) -> list[str]:
    """Words for comparing wording; ``didn't`` is ``did not`` so a negation stays one word."""
    if "n't" in text:
        text = _CONTRACTED_NOT.sub(" not", text)
    words: list[str] = _TOKEN.findall(text)
    return words


def _ignorable(word: str) -> bool:
    """Stop words, numbers and negations: numbers and negations have their own checks."""
    return word in _STOP_WORDS or word in _NEGATIONS or word[:1].isdigit()


def _opposite(a: str, b: str) -> bool:
    """``likely`` / ``unlikely``, ``increased`` / ``decreased``, ``maximum`` / ``minimum``: near in
    spelling, opposite in meaning."""
    short, long = sorted((a, b), key=len)
    if long.endswith(short) and long[: len(long) - len(short)] in _OPPOSITE_PREFIXES:
        return True
    for x, y in _ANTONYMS_BY_INITIAL.get(a[:1], ()):
        if a.startswith(x) and b.startswith(y):
            endings = (a[len(x) :], b[len(y) :])
            if endings[0] == endings[1] or all(e in _ENDINGS for e in endings):
                return True
    return False


_LOOK_ALIKE = (("rn", "m"), ("cl", "d"), ("vv", "w"), ("ii", "u"), ("ri", "n"))
_LOOK_ALIKE_LETTERS = str.maketrans("icbvtoyq01", "lehufauglo")
"""Letters that optical character recognition confuses (rn/m, cl/d, l/i, e/c, h/b, u/v, f/t,
a/o, y/v, g/q, and accents lost), folded to one form before two words are compared."""


def _fold(word: str) -> str:
    for seen, meant in _LOOK_ALIKE:
        word = word.replace(seen, meant)
    bare = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
    return bare.translate(_LOOK_ALIKE_LETTERS)


def _slip(ours: list[str], theirs: list[str]) -> bool:
    """A misspelling, an OCR confusion or a word split differently, not a change of wording."""
    from rapidfuzz.distance import OSA

    if len(ours) == len(theirs) and any(_opposite(a, b) for a, b in zip(ours, theirs, strict=True)):
        return False
    if len(ours) == len(theirs) > 1:
        return all(_slip([a], [b]) for a, b in zip(ours, theirs, strict=True))
    raw_ours, raw_theirs = "".join(ours), "".join(theirs)
    folded_ours, folded_theirs = _fold(raw_ours), _fold(raw_theirs)
    if folded_ours == folded_theirs:
        return True  # split or joined differently, or letters OCR confuses
    longest = max(len(raw_ours), len(raw_theirs))
    if longest <= 4:
        return False  # "Iraq" / "Iran": in a short word one letter makes another word
    # One slip in a word, two in a long one: "Tuesday" / "Thursday" is two, and a new word.
    # Folding can hide a swap ("modren" / "modern" folds "rn"), so the raw letters count too.
    slips = min(OSA.distance(raw_ours, raw_theirs), OSA.distance(folded_ours, folded_theirs))
    return slips <= max(1, longest // 10)


def _word_changes(
    ours_all: list[str],
    source: list[str],
    before: str,
    after: str,
    *,
    omissions: bool,
    noun: str,
) -> list[str]:
    """Words replaced, added or (``omissions``) left out, between the words of the text and
    of the source passage (both given as :func:`_words`), with the text around the passage."""
    from rapidfuzz.distance import Levenshtein

    lead = _words(before)[-_CONTEXT_WORDS:] if before else []
    tail = _words(after)[:_CONTEXT_WORDS] if after else []
    theirs_all = lead + source + tail
    passage = (len(lead), len(theirs_all) - len(tail))  # the passage's own words
    # A claim may reorder: a word it moves is neither added nor replaced.
    moved = set() if omissions else set(ours_all) & set(theirs_all)
    changes = []
    blocks = [op for op in Levenshtein.opcodes(ours_all, theirs_all) if op.tag != "equal"]
    for a, b, c, d in _merged(blocks):
        inside = theirs_all[max(c, passage[0]) : min(d, passage[1])]
        if ours_all[a:b] and inside and _slip(ours_all[a:b], inside):
            continue  # "ore" for "are", "thc chamher" for "the chamber": slips, stop words or not
        ours = [w for w in ours_all[a:b] if not _ignorable(w) and w not in moved]
        theirs = [w for w in inside if not _ignorable(w) and w not in moved]
        # Only stop words before or after the block: it frames the claim ("The minutes say…").
        at_edge = all(_ignorable(w) for w in ours_all[:a]) or all(
            _ignorable(w) for w in ours_all[b:]
        )
        if ours and theirs:
            if not _slip(ours, theirs):
                changes.append(
                    f"the {noun} has {' '.join(ours)!r} where the source has {' '.join(theirs)!r}"
                )
        elif ours and not (omissions is False and at_edge):
            changes.append(f"the {noun} adds {' '.join(ours)!r}")
        elif theirs and omissions and c > passage[0] and d < passage[1]:
            changes.append(f"the {noun} leaves out {' '.join(theirs)!r}")
    return changes


def _merged(blocks: list[Any]) -> list[tuple[int, int, int, int]]:
    """Adjacent edit operations as one block: ``(quote_start, quote_end, source_start,
    source_end)``."""
    merged: list[list[int]] = []
    for op in blocks:
        if merged and merged[-1][1] == op.src_start and merged[-1][3] == op.dest_start:
            merged[-1][1], merged[-1][3] = op.src_end, op.dest_end
        else:
            merged.append([op.src_start, op.src_end, op.dest_start, op.dest_end])
    return [(a, b, c, d) for a, b, c, d in merged]


def elided_negations(elided: str) -> list[str]:
    """Negations inside the part of a sentence that an ellipsis left out.

    Only the clause touching the ellipsis counts — text up to the first and after the last
    sentence end — so eliding whole unrelated sentences is not flagged.
    """
    pieces = re.split(r"(?<=[.!?])\s+", elided.strip())
    near = pieces[0] if len(pieces) == 1 else f"{pieces[0]} {pieces[-1]}"
    return [
        f"the ellipsis leaves out {word!r}" for word in sorted(negation_counts(normalize(near)))
    ]
