"""Changes of meaning that similarity scores forgive but readers must not: a negation dropped or
added, a number changed, a word replaced, added or turned into its opposite. A match with such
a difference is never reported as verified."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from citecheck.language.lexicon import (
    AGENT_PAIRS,
    DIRECTION_PAIRS,
    NEGATIONS,
    PARTIAL_QUANTIFIERS,
    UNIVERSAL_QUANTIFIERS,
    ZERO_QUANTIFIERS,
    direction,
)
from citecheck.language.negation import negated
from citecheck.language.numbers import (
    NUMBER_WORDS,
    PERIODS,
    SCALE_WORDS,
    number_list,
    numbers_with_offsets,
    quantities_at,
    spelled_numbers,
    unit_named,
)
from citecheck.language.text import CJK, SIGN, normalize

__all__ = [
    "ANTONYMS_BY_INITIAL",
    "NEGATIONS",
    "STOP_WORDS",
    "abbreviates",
    "comparable_words",
    "differences_at",
    "elided_negations",
    "fold_letters",
    "meaning_differences",
    "negation_counts",
    "noun_for",
    "ocr_distance",
    "ocr_forms",
    "opposite_words",
]

_CONTEXT_CHARS = 80

_TOKEN = re.compile(rf"[^\W{CJK}]+(?:'[^\W{CJK}]+)?|[{CJK}]")
"""A word: a Chinese or Japanese character is one (they are written without spaces)."""


def negation_counts(text: str) -> Counter[str]:
    """The negations of ``text`` by word; every ``n't`` counts as ``not``."""
    found: Counter[str] = Counter()
    tokens = _TOKEN.findall(text)
    if "'" not in text and NEGATIONS.isdisjoint(tokens):
        return found  # the common case, settled in one pass
    for token in [t for t in tokens if t in NEGATIONS or "'" in t]:
        if token in NEGATIONS:
            found[token] += 1
        elif token.endswith("n't"):
            found["not"] += 1
        elif token.replace("'", "") in NEGATIONS:
            found[token.replace("'", "")] += 1
    return found


def _negation_targets(tokens: list[str]) -> list[str]:
    """What each denial among ``tokens`` applies to (:func:`~citecheck.language.negation.negated`,
    the guard's reading): the next word that is not a stop word, or ``""``."""
    return [following[0] if following else "" for _, following in negated(tokens, _counted)]


def _counted(word: str) -> bool:
    return not _stop_word(word)


def _stop_word(word: str) -> bool:
    """A stop word, also as OCR misreads it ("fhe" for "the")."""
    return word in STOP_WORDS or fold_letters(word) in _FOLDED_STOP_WORDS


def _moved_negations(text: list[str], source: list[str]) -> tuple[str, str] | None:
    """A word the text negates that the source does not (misspellings aside), with the word
    the source negates instead; ``None`` when every negation applies to the same word (both
    given as :func:`comparable_words`)."""
    theirs = _negation_targets(source)
    for word in _negation_targets(text):
        match = next((t for t in theirs if _same_target(word, t)), None)
        if match is None:
            return word, ", ".join(theirs)
        theirs.remove(match)
    return None


def _same_target(ours: str, theirs: str) -> bool:
    """Whether two negated words are the same word, misspelt, broken ("sup ported") or run
    into the next word ("deathof" for "death of") or a stop word ("thelegal", "beable")."""
    if ours == theirs or _slip([ours], [theirs]):
        return True
    shorter, longer = sorted((fold_letters(ours), fold_letters(theirs)), key=len)
    if len(shorter) < 3:
        return False
    return longer.startswith(shorter) or longer.removesuffix(shorter) in _FOLDED_STOP_WORDS


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
    our_words, their_words = comparable_words(text), comparable_words(source)
    if (
        our_words == their_words
        and SIGN.findall(text) == SIGN.findall(source)
        and number_list(text) == number_list(source)
    ):
        return []  # the same words, numbers and signs: only punctuation or spacing differ
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
    ours_written, theirs_written = _numbers(text), _numbers(source)
    their_numbers = [value for value, _ in theirs_written]
    if [value for value, _ in ours_written] != their_numbers:
        read = _read_like(text, source)
        if read != text:
            ours_written = _numbers(read)
    our_numbers = [value for value, _ in ours_written]
    missing = Counter(their_numbers) - Counter(our_numbers)
    added = Counter(our_numbers) - Counter(their_numbers)
    if missing or added:
        said = _as_written(added, ours_written) or "no number"
        stands = _as_written(missing, theirs_written) or "no number"
        differences.append(f"the {noun} has {said} where the source has {stands}")
    elif omissions and our_numbers != their_numbers:
        # A quotation keeps the order; a claim may reorder ("20, up from 10").
        differences.append(
            f"the {noun} gives the numbers {', '.join(our_numbers)} in another order than the "
            f"source ({', '.join(their_numbers)})"
        )
    ours_signs, theirs_signs = Counter(SIGN.findall(text)), Counter(SIGN.findall(source))
    # A quotation keeps its signs; a claim may write the source's sign as a word ("0.4
    # percent"), so only a sign it has and the source has not is a change.
    if ours_signs - theirs_signs or (omissions and ours_signs != theirs_signs):
        said = ", ".join(sorted(ours_signs - theirs_signs)) or "no sign"
        stands = ", ".join(sorted(theirs_signs - ours_signs)) or "no sign"
        differences.append(f"the {noun} has {said} where the source has {stands}")
    changes = _word_changes(our_words, their_words, before, after, omissions=omissions, noun=noun)
    if changes and (before or after):
        # The text around the passage absorbs words its estimated edges cut off, but a word
        # alignment over it can also pair a repeated word ("the") with the wrong one: the
        # passage alone is the other reading, and a real change shows in both.
        alone = _word_changes(our_words, their_words, "", "", omissions=omissions, noun=noun)
        changes = min(changes, alone, key=len)
    differences.extend(changes)
    return differences


_DIGIT = re.compile(r"\d")


def _numbers(text: str) -> list[tuple[str, str]]:
    """The numbers of normalised ``text`` in order, in digits or in words ("six" is 6), each
    scaled by the scale word after it ("2 million"): each value with how it is written."""
    found = sorted(numbers_with_offsets(text) + spelled_numbers(text))
    return [(q.value, q.written) for q in quantities_at(text, found)]


def _as_written(values: Counter[str], numbers: list[tuple[str, str]]) -> str:
    """The numbers of ``values`` as ``numbers`` write them: digits as they are, words quoted."""
    shown = []
    for value in sorted(values):
        written = next(w for v, w in numbers if v == value)
        shown.append(written if written[:1].isdigit() or written[:1] == "-" else repr(written))
    return ", ".join(shown)


def _read_like(text: str, other: str) -> str:
    """``text`` with each word that OCR made out of a word of ``other`` written as ``other``
    writes it, so that a digit OCR put into a word or took out of a number, or a number word
    it misspelt, broke or ran into the next word, is no changed number: "wor1d" is "world",
    "2O19" is "2019", "miilion" is "million", "Iaststhree" is "lasts three" and "benann ten"
    is "benannten" when ``other`` has those. Both texts normalised."""
    written = set(_TOKEN.findall(other))
    twins = _ocr_index(written)
    spans = [match.span() for match in _TOKEN.finditer(text)]
    parts: list[str] = []
    position = at = 0
    while at < len(spans):
        start, end = spans[at]
        token = text[start:end]
        following = spans[at + 1] if at + 1 < len(spans) else None
        if following is not None and token not in written and following[0] == end + 1:
            twin = _twin(token + text[following[0] : following[1]], twins)
            if twin is not None and text[end] == " ":  # a word broken in two
                parts += [text[position:start], twin]
                position, at = following[1], at + 2
                continue
        parts += [text[position:start], _as_written_in(token, written, twins)]
        position, at = end, at + 1
    parts.append(text[position:])
    return "".join(parts)


def _as_written_in(token: str, written: set[str], index: Mapping[str, str]) -> str:
    """``token`` as the words ``written`` write it (see :func:`_read_like`)."""
    if token in written:
        return token
    twin = _twin(token, index)
    if twin is not None:
        return twin
    for cut in range(2, min(len(token), _LONGEST_JOINED) - 1):  # two words run together
        head, tail = _twin(token[:cut], index), _twin(token[cut:], index)
        if head is not None and tail is not None:
            return f"{head} {tail}"
    return _OCR_DIGIT.sub(lambda m: "o" if m.group() == "0" else "l", token)


_LONGEST_JOINED = 32  # characters: a longer token is no pair of words run together


def _twin(token: str, written: Mapping[str, str]) -> str | None:
    """The word that ``token`` is an OCR misreading of, among the words ``written`` by their
    :func:`ocr_forms` (see :func:`_ocr_index`). A lone letter is a twin only of a lone digit
    ("World War l")."""
    twin = next((written[form] for form in _forms(token) if form in written), None)
    if twin is None or (len(token) < 2 and not twin.isdigit()):
        return None
    return twin


def _ocr_index(words: set[str]) -> dict[str, str]:
    """``words`` by each of their :func:`ocr_forms`, for :func:`_twin`."""
    return {form: word for word in sorted(words) for form in _forms(word)}


_OCR_DIGIT = re.compile(
    r"(?<=[^\W\d_])[01](?=[^\W\d_])|^[01](?=[^\W\d_]{3,}$)|(?<=[^\W\d_]{3})[01]$"
)
"""A 0 or 1 that OCR read for an "o" or an "l" inside a word: between letters ("popu1ation"),
before three letters or more ("1ess"), after three letters or more ("wcl1"). "B12", "H5N1",
"1st" and "10th" keep their digits."""


def _number_like(word: str) -> bool:
    return bool(_DIGIT.search(word)) or word in _NUMBER_WORDS


_NUMBER_WORDS = NUMBER_WORDS | SCALE_WORDS | frozenset(PERIODS)
"""Words that say a number, or a part of one: counted by the number check, not as words."""


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
    """True when ``text`` has a slip of a longer negation (OCR's ``nlcht`` for ``nicht``):
    it does say it. A slip swaps only letters that OCR confuses: ``einen`` is not a misspelt
    ``keinen`` but its opposite, and ``seine`` is a word of its own. Short negations (``not``,
    ``no``) are never presumed misspelt."""
    if len(negation) < 4:
        return False
    # The negation itself, said elsewhere in the text, is no slip of this one.
    return any(
        token != negation and ocr_distance(token, negation) == 0 for token in _TOKEN.findall(text)
    )


STOP_WORDS = frozenset(
    "a an the of to in on at for and or but is are was were be been being it its this that "
    "these those with as by from".split()
)


def abbreviates(short: str, name: Sequence[str]) -> bool:
    """Whether ``short`` (an abbreviation, in any case) abbreviates the words of ``name``:
    their first letters, stop words aside ("WHO" for "World Health Organization", "FDA" for
    "Food and Drug Administration"), or each word's first letter in it in order and, as
    Schwartz and Hearst match an abbreviation to its definition, its letters found in the
    name's in order from the end, the first at the start of a word ("FHWA" for "Federal
    Highway Administration"; "ACL" is no "Archive Labels All")."""
    words = [_POSSESSIVE.sub("", word.casefold()) for word in name]
    content = [word for word in words if word and word not in STOP_WORDS]
    letters = short.casefold()
    initials = iter(letters)
    if not content or not all(word[0] in initials for word in content):
        return False
    if "".join(word[0] for word in content) == letters:
        return True
    joined = " ".join(words)
    at = len(joined) - 1
    for index in range(len(letters) - 1, -1, -1):
        while at >= 0 and (
            joined[at] != letters[index] or (index == 0 and at > 0 and joined[at - 1] != " ")
        ):
            at -= 1
        if at < 0:
            return False
        at -= 1
    return True


_POSSESSIVE = re.compile(r"['\u2019]s?$")


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
    ("micro", "macro"), ("input", "output"), ("inbound", "outbound"), ("many", "few"),
    ("most", "few"), ("majorit", "minorit"), ("rise", "drop"), ("rose", "dropped"),
    ("increas", "drop"), ("grow", "shrink"), ("grew", "shrank"), ("gain", "lost"),
    ("won", "lost"), ("winn", "los"), ("fast", "slow"), ("quick", "slow"),
    ("outperform", "underperform"), ("improv", "degrad"), ("improv", "wors"),
    ("improv", "drop"), ("ahead", "behind"), ("manual", "automatic"), ("superior", "inferior"),
    ("benefi", "harm"), ("safe", "danger"), ("cheap", "expensiv"), ("simpl", "complex"),
    ("big", "small"), ("wide", "narrow"), ("deep", "shallow"), ("thick", "thin"),
    ("male", "female"), ("upper", "lower"), ("hot", "cold"), ("young", "old"),
    ("rich", "poor"), ("support", "oppos"), ("sooner", "later"),
    *DIRECTION_PAIRS, *AGENT_PAIRS,
)  # fmt: skip
"""Stems of words with opposite meanings; the rest of both words must be a common ending.
The pairs of direction ("slower" / "speed up") and of who did it ("automatically" /
"human") are :mod:`citecheck.language.lexicon`'s."""


def _by_initial(pairs: tuple[tuple[str, str], ...]) -> dict[str, list[tuple[str, str]]]:
    """Each pair both ways round, under the first letter of its first stem."""
    table: dict[str, list[tuple[str, str]]] = {}
    for x, y in pairs:
        table.setdefault(x[0], []).append((x, y))
        table.setdefault(y[0], []).append((y, x))
    return table


ANTONYMS_BY_INITIAL = _by_initial(_ANTONYMS)
"""The antonym pairs, each both ways round, under the first letter of its first stem."""
_ENDINGS = frozenset(
    {"", *"e y ed d er ier est iest ing s es ly ily ally ic ically al ion ions ity".split()}
)


def comparable_words(text: str) -> list[str]:
    """Words for comparing wording; ``didn't`` is ``did not`` so a negation stays one word."""
    if "n't" in text:
        text = _CONTRACTED_NOT.sub(" not", text)
    words: list[str] = _TOKEN.findall(text)
    return words


def _ignorable(word: str) -> bool:
    """Stop words, numbers and negations: numbers and negations have their own checks."""
    return word in STOP_WORDS or _counted_apart(word)


def _counted_apart(word: str) -> bool:
    """Numbers (in digits or words) and negations, which have checks of their own."""
    return word in NEGATIONS or word[:1].isdigit() or word in _NUMBER_WORDS


def opposite_words(a: str, b: str) -> bool:
    """``likely`` / ``unlikely``, ``increased`` / ``decreased``, ``maximum`` / ``minimum``,
    ``rose`` / ``fell``: words of opposite meaning (a negating prefix, or a listed pair of
    stems with common endings)."""
    if a[:1] not in ANTONYMS_BY_INITIAL and not (a.endswith(b) or b.endswith(a)):
        return False  # the guard asks this of every pair of words: most go no further
    short, long = sorted((a, b), key=len)
    if long.endswith(short) and long[: len(long) - len(short)] in _OPPOSITE_PREFIXES:
        return True
    for x, y in ANTONYMS_BY_INITIAL.get(a[:1], ()):
        if a.startswith(x) and b.startswith(y):
            endings = (a[len(x) :], b[len(y) :])
            if endings[0] == endings[1] or all(e in _ENDINGS for e in endings):
                return True
    return False


_LOOK_ALIKE_LETTERS = str.maketrans("ic10", "lelo")
"""Letters that optical character recognition confuses (l/I/1, O/0, e/c; accents lost too),
each folded to one form. Only these: folding more (a/o, t/f, b/h, u/v) makes real words
slips of each other ("lost" and "last", "fell" and "tell", "valve" and "value")."""
_LOOK_ALIKE_RUNS = tuple(
    (seen.translate(_LOOK_ALIKE_LETTERS), meant.translate(_LOOK_ALIKE_LETTERS))
    for seen, meant in (("rn", "m"), ("cl", "d"), ("vv", "w"), ("ii", "u"), ("ri", "n"))
)
"""Runs of letters that OCR reads as one letter (rn/m, cl/d, vv/w, ii/u, ri/n), folded."""


_CYRILLIC_LOOK_ALIKES = str.maketrans(
    {"а": "a", "е": "e", "ё": "e", "о": "o", "р": "p", "с": "c", "х": "x", "у": "y", "к": "k",
     "і": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w",
     "в": "b", "м": "m", "т": "t", "н": "h", "и": "h", "щ": "ш", "ъ": "ь",
     "3": "з", "6": "б", "4": "ч"}
)  # fmt: skip
"""Cyrillic letters that look like Latin ones, which OCR (and a typist's keyboard) put in
each other's place: "Pоссия" with a Latin P and "Россия" fold alike, and so do the capitals
В, М, Т, Н and B, M, T, H (words are compared case-folded). Cyrillic letters OCR reads as each
other (и/н, щ/ш, ъ/ь) and digits it reads for letters inside a Cyrillic word (3/з, 6/б, 4/ч;
0/о as in Latin) fold alike too. Only these: folding п/н or л/п as well would make real words
slips of each other ("пора" and "нора", "для" and "дня")."""
_CYRILLIC_RUNS = (re.compile(r"[іi1l][оo0]"), "ю"), (re.compile(r"[ьъ][іi1l]"), "ы")
"""Two characters OCR reads for one Cyrillic letter: "іо" for "ю", "ьі" for "ы" (in that
order: "компьіотер" is "компьютер")."""


def fold_letters(word: str) -> str:
    """``word`` with its accents dropped and each letter that OCR confuses with another
    folded to one form: "c1ass" and "class" fold alike, and so do a Cyrillic word and the same
    word with Latin look-alikes in it ("сила" and "cила"), or with digits OCR read for its
    letters ("уче6ных" and "учебных")."""
    if word.isascii():
        return word.translate(_LOOK_ALIKE_LETTERS)
    bare = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
    if _CYRILLIC.search(bare):
        for run, letter in _CYRILLIC_RUNS:
            bare = run.sub(letter, bare)
        return bare.translate(_CYRILLIC_LOOK_ALIKES).translate(_LOOK_ALIKE_LETTERS)
    return bare.translate(_LOOK_ALIKE_LETTERS)


_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


_FOLDED_STOP_WORDS = frozenset(fold_letters(word) for word in STOP_WORDS)


def ocr_forms(word: str) -> tuple[str, ...]:
    """``word`` and the forms it takes once what OCR confuses is folded away: look-alike
    letters (:func:`fold_letters`), then look-alike runs ("rn" for "m", "ri" for "n"), read in
    two orders since runs overlap ("rii" is "ru" or "nl"). Two words with a form in common
    differ only as OCR makes words differ."""
    return _forms(word)


@lru_cache(maxsize=65536)
def _forms(word: str) -> tuple[str, ...]:
    letters = fold_letters(word)
    forms = [word, letters]  # folding can hide a swap: "modren" folds its "rn"
    for runs in (_LOOK_ALIKE_RUNS, _LOOK_ALIKE_RUNS[::-1]):
        form = letters
        for seen, meant in runs:
            form = form.replace(seen, meant)
        forms.append(form)
    return tuple(dict.fromkeys(forms))


@lru_cache(maxsize=65536)
def ocr_distance(ours: str, theirs: str) -> int:
    """How many edits (with swaps of neighbours), beyond what OCR confuses, turn one word into
    the other: the least distance between their :func:`ocr_forms`. 0 means the words differ
    only as OCR makes words differ."""
    from rapidfuzz.distance import OSA

    return min(OSA.distance(a, b) for a in _forms(ours) for b in _forms(theirs))


def _slip(ours: list[str], theirs: list[str]) -> bool:
    """A misspelling, an OCR confusion or words split or run together differently, not a
    change of wording: the words of both sides can be paired in order, one word against one,
    two or three, each pair a slip of one word (:func:`_word_slip`)."""
    if len(ours) == len(theirs) and any(
        opposite_words(a, b) for a, b in zip(ours, theirs, strict=True)
    ):
        return False
    if max(len(ours), len(theirs)) > _LONGEST_SLIP:
        return False  # a long run of other words is no slip, and pairing it would be slow
    reached = {(0, 0)}
    for i in range(len(ours) + 1):
        for j in range(len(theirs) + 1):
            if (i, j) not in reached:
                continue
            for step_ours, step_theirs in _PAIRINGS:
                end_ours, end_theirs = i + step_ours, j + step_theirs
                if (
                    (end_ours, end_theirs) not in reached
                    and end_ours <= len(ours)
                    and end_theirs <= len(theirs)
                    and _word_slip(
                        "".join(ours[i:end_ours]),
                        "".join(theirs[j:end_theirs]),
                        joined=step_ours > 1 or step_theirs > 1,
                    )
                ):
                    reached.add((end_ours, end_theirs))
    return (len(ours), len(theirs)) in reached


_LONGEST_SLIP = 24  # words on either side of one stretch of slips

_PAIRINGS = tuple(
    (ours, theirs) for ours in (1, 2, 3, 4) for theirs in (1, 2, 3, 4) if ours + theirs <= 6
)
"""How many words of each side one slip may pair: one, up to three run together or split
elsewhere ("dergra vitation" for "der gravitation"), one word broken in four, or two words
broken in four ("com mit teedela yed" for "committee delayed")."""


def _units_apart(ours: str, theirs: str) -> bool:
    """Two words that name different units ("ml" / "mi", "mg" / "g"): never a slip."""
    ours_unit, theirs_unit = unit_named(ours), unit_named(theirs)
    return ours_unit is not None and theirs_unit is not None and ours_unit != theirs_unit


def _word_slip(ours: str, theirs: str, *, joined: bool = False) -> bool:
    """One word against one: the same but for what OCR confuses, or one other slip in a word,
    two in a long one. "Tuesday" / "Thursday" is two slips, and a new word; in a short word
    one letter makes another word ("Iraq" / "Iran"). Words run together (``joined``) may
    differ only as OCR makes them differ: "aredcar" is not a slip of "abedcar"."""
    if opposite_words(ours, theirs) or _units_apart(ours, theirs):
        return False
    slips = ocr_distance(ours, theirs)
    if slips == 0:
        return True
    if joined:
        return False
    longest = max(len(ours), len(theirs))
    return longest > 4 and slips <= max(1, longest // 10)


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
    of the source passage (both given as :func:`comparable_words`), with the text around the
    passage."""
    from rapidfuzz.distance import Levenshtein

    lead = comparable_words(before)[-_CONTEXT_WORDS:] if before else []
    tail = comparable_words(after)[:_CONTEXT_WORDS] if after else []
    theirs_all = lead + source + tail
    passage = (len(lead), len(theirs_all) - len(tail))  # the passage's own words
    # A claim may reorder: a word it moves is neither added nor replaced.
    moved = set() if omissions else set(ours_all) & set(source)
    # A quotation may not, but a word it moves is a word moved, not one added and one left
    # out: the words of its changed blocks that the source has in another changed block.
    shifted = _shifted(ours_all, theirs_all) if omissions else set()
    changes = []
    # Aligned by their letters as OCR reads them, so "fhe committee" pairs with "the committee"
    # and not with whatever else the edit distance finds as cheap.
    keys = [_key(w) for w in ours_all], [_key(w) for w in theirs_all]
    blocks = [op for op in Levenshtein.opcodes(*keys) if op.tag != "equal"]
    for a, b, c, d in _fused(_merged(blocks), ours_all, theirs_all):
        # Source words that a quotation skips between words it shares with the text before or
        # after the passage are inside the quotation all the same, whatever the passage's
        # estimated edges: "A merchant" against "a greedy merchant" leaves out "greedy".
        interior = (
            omissions
            and a == b
            and (
                _skipped_at_edge(ours_all, theirs_all, a, c, d, passage)
                or _skipped_between(ours_all, theirs_all, a, c, d)
            )
        )
        inside = (
            theirs_all[c:d] if interior else theirs_all[max(c, passage[0]) : min(d, passage[1])]
        )
        edges = (not interior and c <= passage[0], not interior and d >= passage[1])
        if (
            ours_all[a:b]
            and (
                (inside and _slip_within(ours_all[a:b], inside, *edges))
                # Words the passage's estimated start or end left in the text around it.
                or (
                    (c < passage[0] or d > passage[1])
                    and _slip_within(ours_all[a:b], theirs_all[c:d], c < passage[0], d > passage[1])
                )
            )
        ):
            continue  # "ore" for "are", "thc chamher" for "the chamber": slips, stop words or not
        apart = _counted_apart if omissions else _ignorable  # a quotation keeps its stop words
        ours = [w for w in ours_all[a:b] if not apart(w) and w not in moved]
        theirs = [w for w in inside if not apart(w) and w not in moved]
        # Only stop words before or after the block: it frames the claim ("The minutes say…").
        at_edge = all(_ignorable(w) for w in ours_all[:a]) or all(
            _ignorable(w) for w in ours_all[b:]
        )
        if ours and theirs:
            if not _slip(ours, theirs):
                changes.append(
                    f"the {noun} has {' '.join(ours)!r} where the source has {' '.join(theirs)!r}"
                )
        elif not omissions and ours and _left_outside(ours, lead, tail):
            continue  # moved: a claim's word the passage's estimated edge left just outside
        elif ours and shifted.issuperset(ours):
            changes.append(
                f"the {noun} puts {' '.join(ours)!r} in another place than the source does"
            )
        elif ours and not (omissions is False and at_edge):
            changes.append(f"the {noun} adds {' '.join(ours)!r}")
        elif theirs and shifted.issuperset(theirs):
            continue  # said where the quotation puts the words
        elif theirs and omissions and (interior or (c > passage[0] and d < passage[1])):
            changes.append(f"the {noun} leaves out {' '.join(theirs)!r}")
    return changes


def _left_outside(ours: list[str], lead: list[str], tail: list[str]) -> bool:
    """Whether the words a claim adds are one word of the source standing right next to its
    passage ("… reduce support tickets considerably" for "considerably reduce support
    tickets"): the passage's estimated edges left it out, the claim only moved it. A quantifier
    or a word of direction is never forgiven so: "all" or "sharply" a few words away says
    something else there."""
    beside = {*lead[-1:], *tail[:1]}
    return all(
        word in beside and word not in _QUANTIFIERS and direction(word) == 0 for word in ours
    )


_QUANTIFIERS = UNIVERSAL_QUANTIFIERS | ZERO_QUANTIFIERS | PARTIAL_QUANTIFIERS


def _shifted(ours: list[str], theirs: list[str]) -> set[str]:
    """The content words that a text and a source (with the words around its passage) both
    have but that the alignment of the two leaves unpaired on both sides: words the text
    puts in another place, not words it adds or leaves out."""
    from rapidfuzz.distance import Levenshtein

    keys = [_key(w) for w in ours], [_key(w) for w in theirs]
    added: set[str] = set()
    dropped: set[str] = set()
    for op in Levenshtein.opcodes(*keys):
        if op.tag in ("insert", "replace", "delete"):
            added.update(ours[op.src_start : op.src_end])
            dropped.update(theirs[op.dest_start : op.dest_end])
    return {w for w in added & dropped if not _ignorable(w)}


def _skipped_at_edge(
    ours: list[str], theirs: list[str], at: int, start: int, end: int, passage: tuple[int, int]
) -> bool:
    """Whether the source words ``theirs[start:end]``, which the text skips at its word
    ``at``, lie just outside the passage between words the text shares with the source there:
    the text's words before them are the source's words before them (at the passage's start),
    or its words after them the source's words after them (at its end)."""
    if 0 < at < len(ours) and end == passage[0] and start >= at:
        return ours[:at] == theirs[start - at : start]
    if 0 < at < len(ours) and start == passage[1]:
        rest = len(ours) - at
        return ours[at:] == theirs[end : end + rest]
    return False


def _skipped_between(ours: list[str], theirs: list[str], at: int, start: int, end: int) -> bool:
    """Whether the source words ``theirs[start:end]``, which the text skips at its word
    ``at``, stand between two words the text has on either side of the skip: inside the
    quotation, even where they are the passage's first or last words ("their disastrous
    situation" against "their disastrous financial | situation", the passage cut short by
    the word the quote left out)."""
    return (
        0 < at < len(ours)
        and start > 0
        and end < len(theirs)
        and _key(ours[at - 1]) == _key(theirs[start - 1])
        and _key(ours[at]) == _key(theirs[end])
    )


@lru_cache(maxsize=65536)
def _key(word: str) -> str:
    """A word as the word alignment compares it: its letters folded as OCR confuses them, but
    a unit as written ("ml" and "mi" are other units, not a slip)."""
    return word if unit_named(word) is not None else fold_letters(word)


def _slip_within(ours: list[str], theirs: list[str], first: bool, last: bool) -> bool:
    """:func:`_slip`, where a block at the passage's first or last words may leave out up to
    two source words there: the passage's edges are an estimate, and OCR's joined words
    ("enhancedcooperation") move them."""
    for cut_start in range(_EDGE_WORDS + 1 if first else 1):
        for cut_end in range(_EDGE_WORDS + 1 if last else 1):
            part = theirs[cut_start : len(theirs) - cut_end]
            if part and _slip(ours, part):
                return True
    return False


_EDGE_WORDS = 2


def _fused(
    blocks: list[tuple[int, int, int, int]], ours: list[str], theirs: list[str]
) -> list[tuple[int, int, int, int]]:
    """``blocks`` with two neighbours fused, the few equal words between them included, where
    neither is a slip alone but together they are: OCR's "the orie diekombination" for
    "theorie die kombination" aligns "die" with "die" and splits one slip in two."""
    fused: list[tuple[int, int, int, int]] = []
    for block in blocks:
        if fused:
            a, b, c, d = fused[-1]
            next_a, next_b, _, next_d = block
            if (
                next_a - b <= _EDGE_WORDS
                and not _slip(ours[a:b], theirs[c:d])
                and _slip(ours[a:next_b], theirs[c:next_d])
            ):
                fused[-1] = (a, next_b, c, next_d)
                continue
        fused.append(block)
    return fused


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
    near = near.replace("\u2116", "#")  # the numero sign, which Unicode folds to "No"
    return [
        f"the ellipsis leaves out {word!r}" for word in sorted(negation_counts(normalize(near)))
    ]
