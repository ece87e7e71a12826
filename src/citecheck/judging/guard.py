"""The meaning guard: the changes of meaning that no score may forgive in a claim.

A claim may paraphrase its source, so its wording is not checked word for word the way a
quotation's is (:func:`~citecheck.language.meaning.meaning_differences`). A paraphrase is judged
by a similarity score, a fitted support model, an NLI judge or an LLM, and every one of them can
rate "The drug reduced mortality" as supported by "The drug did not reduce mortality", or "over
six months" by "over three months": the sentences share everything but the one fact that
matters. So after any scorer has spoken, :func:`claim_conflicts` looks for the three changes a
paraphrase may never make, and a claim with one is at most partly supported:

- a number the claim states (in digits or words, with its scale: "5 million" is not "5
  billion") that does not stand in the source near the passage, or stands there only with
  another unit ("6 months" where the source has "6 weeks");
- a negation the claim has and the passage lacks, or the reverse, where the negated clause
  is about what the claim says ("did not reduce mortality" against "reduced mortality"; a
  negation in an unrelated clause of the passage does not count); "lacks", "unable" and
  "failed to" deny as "not" does, and "not only" does not deny;
- a universal quantifier ("all", "always", "every") where the source says "some", "most" or
  "often", or a limiting word ("several", "other") before the same two content words;
- a direction turned round ("slower" against "speed up"), also where the source says both
  ways: each direction word is then read of the two content words after it, of three where
  the source says both ways of those two too, or of the one right after it where the source
  never gives the two (:data:`_REACHES`);
- another word in the place of a name or a pronoun of a sentence the claim otherwise
  repeats word for word ("Smith founded" against "Jones founded", "Radium was discovered"
  against "It was discovered");
- a word the text near the passage does not say, in the place of a name it gives, between
  the same words (:func:`stranger_names`, read by :func:`unnamed`: "Sounds of the Challenges
  is an album" against "Sounds of the Universe is the twelfth album"), or before an
  abbreviation the text spells out with that name ("the Questionnaire (US)" against "the
  United States").

The rules lean towards refusing: a claim wrongly refused is shown to the user with a reason to
check, while a false claim wrongly verified is the one error a verifier must not make.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterator, Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from itertools import pairwise

from citecheck.language.lexicon import (
    FEW_QUANTIFIERS,
    MOST_QUANTIFIERS,
    NEGATIONS,
    PARTIAL_QUANTIFIERS,
    UNIVERSAL_QUANTIFIERS,
    ZERO_QUANTIFIERS,
    direction,
    entity_kind,
    function_words,
    guess_language,
    number_words_as_digits,
)
from citecheck.language.meaning import (
    ANTONYMS_BY_INITIAL,
    STOP_WORDS,
    abbreviates,
    comparable_words,
    fold_letters,
    opposite_words,
)
from citecheck.language.negation import DENIALS, NEGATIVE_WORDS, negated
from citecheck.language.numbers import NUMBER_WORDS, Quantity, singular
from citecheck.language.quantities import quantities_in, stated_quantities
from citecheck.language.text import HYPHENATED, NAME, SIGN, normalize

__all__ = [
    "ABSENT",
    "CARRIED_WORDS",
    "carried_by",
    "carried_clauses",
    "carries",
    "claim_conflicts",
    "claim_language",
    "denied_before",
    "denies",
    "leading_denial",
    "sentence_around",
    "sentence_stems",
    "stranger_names",
    "swapped_names",
    "unnamed",
]

_CLAUSE_END = re.compile(
    r"[,;:.!?()\[\]]|\b(?:but|whereas|while|although|though|however|except|unlike)\b"
    r"|(?<!\bnot )(?<!n't )(?<!\bnever )\byet\b"
)
"""Where a clause ends: a mark, or a word that turns to another statement ("but", "yet"; not
the "yet" of "not yet", which goes on denying)."""
_UNIVERSAL = UNIVERSAL_QUANTIFIERS
_PARTIAL = PARTIAL_QUANTIFIERS
_STEM = 5  # "reduced" and "reduction" share "reduc": a stem that needs no language
_SCOPE = 2  # the content words a negation applies to
_SHOWN_NUMBERS = 3
_COUNT_WORDS = frozenset(
    "one first second half quarter double doubled triple tripled once twice thrice single "
    "hundreds thousands millions billions dozens".split()
)
"""Words of count that the number reader leaves alone ("one of", "the second trial" say no
number) but a claim may still get wrong: "only one patient" against "two patients", "coded
once" against "coded twice"."""
_ONCE_COUNTS = frozenset("a an per every each or more again daily weekly monthly yearly".split())
_ONCE_AFTER = frozenset("only just at exactly than".split())
"""The words around a ``once`` that counts ("once a week", "only once", "coded once." at the
end of its clause); any other ``once`` joins a clause ("once vaccinated")."""


def claim_conflicts(
    claim: str, passage: str, nearby: str | None = None, *, quotation: bool = False
) -> list[str]:
    """Human sentences naming each change of meaning between ``claim`` and the source
    ``passage`` that supports it best, or an empty list (see the module docstring).

    ``nearby`` is the source text around the passage (the passage included): a claim may take
    a number from the sentence next to the one that matches it best, and a scorer's "best"
    sentence may not be the one the claim is about. So a negation of the source is read in
    every clause of it about the claim, but what the claim says itself (its negations, its
    quantifiers, its words of opposite meaning) is judged against the clauses that share the
    most words with it: another sentence may add a change, never excuse one.

    A ``quotation`` is a verbatim piece of its sentence, so only a negation of the sentence
    that negates the quotation's own words reverses it ("patients recovered" in "No patients
    recovered"; not "306 grants did" in "306 grants did not review the market"), and the
    sentences name it a "quote".
    """
    own = normalize(claim)
    said = normalize(passage)
    around = normalize(nearby) if nearby else said
    ours, theirs = _clauses(own), _clauses(around)
    stems = frozenset().union(*(_stems(clause) for clause in ours))
    # A claim in another language than its source shares few words with it: its negations
    # are held against the passage the scorer chose, and so are its quantifiers and words of
    # direction when no clause of the source shares a word with them.
    crossed = not quotation and guess_language(own) != guess_language(said)
    passage_clauses = _clauses(said)
    around_stems = frozenset(_stem(word) for clause in theirs for word in clause)
    function = function_words(guess_language(own))
    names = _written_as_names(nearby or passage)
    texts: dict[int, str] = {}  # each source clause as text, read only for a quantified claim
    conflicts = _number_conflicts(claim, said, around)
    if crossed:
        conflicts.extend(_crossed_negation_conflicts(ours, passage_clauses))
    else:
        conflicts.extend(_negation_conflicts(ours, theirs, stems, scoped=quotation))
    for clause in ours:  # each clause of the claim against the source clauses closest to it
        closest = _closest(theirs, _stems(clause)) or (passage_clauses if crossed else [])
        limits = []
        if not _QUANTIFYING.isdisjoint(clause):
            if not texts:
                for clauses, text in ((theirs, around), (passage_clauses, said)):
                    texts.update(zip(map(id, clauses), _clause_texts(text), strict=True))
            limits = [_limit(texts[id(c)]) for c in closest]
        quantified = _quantifier_conflicts(clause, closest, limits)
        conflicts.extend(quantified or _anchored_quantifier_conflicts(clause, theirs))
        conflicts.extend(_opposite_conflicts(clause, closest, theirs))
        if not crossed:
            conflicts.extend(
                _substitution_conflicts(clause, closest, around_stems, names, function)
            )
    conflicts.extend(_symbol_conflicts(own, said))
    conflicts.extend(_version_conflicts(own, around))
    conflicts.extend(_label_conflicts(own, nearby or passage))
    if not quotation:
        conflicts.extend(_entity_conflicts(claim, nearby or passage))
    noun = "quote" if quotation else "claim"
    return [conflict.replace("the claim", f"the {noun}") for conflict in dict.fromkeys(conflicts)]


ABSENT = ("no such number", "no such word")
"""How a change ends that the guard finds because the source lacks a number or a word of the
claim: a gap (the source does not say it), not a contradiction (it says otherwise)."""

CARRIED_WORDS = 3
"""The fewest content words a claim must have for one sentence to carry it: "It rose" is
carried by too many sentences to say anything."""


def carries(claim: str, sentence: str) -> bool:
    """Whether ``sentence`` carries ``claim``: every content word of the claim (by its stem,
    so inflected forms count) stands in the sentence, the words of each clause of the claim in
    the sentence's order (clauses may be reordered, function words changed), and the claim has
    at least :data:`CARRIED_WORDS` of them. Numbers, negations and quantifiers are not content
    words: whether the claim changes them is :func:`claim_conflicts`' question, which a carried
    claim must still answer with nothing."""
    clauses = carried_clauses(claim)
    language = claim_language(claim)
    return clauses is not None and carried_by(clauses, sentence_stems(sentence, language))


def carried_clauses(claim: str) -> list[tuple[str, ...]] | None:
    """The stems of the content words of each clause of ``claim``, in order; ``None`` when
    it has fewer than :data:`CARRIED_WORDS` in all. The function words of the claim's language
    (:func:`~citecheck.language.lexicon.function_words`) are no content words."""
    own = normalize(claim)
    language = guess_language(own)
    clauses = [tuple(_ordered_stems(clause, language)) for clause in _clauses(own)]
    clauses = [clause for clause in clauses if clause]
    return clauses if sum(len(c) for c in clauses) >= CARRIED_WORDS else None


def carried_by(clauses: list[tuple[str, ...]], theirs: tuple[str, ...]) -> bool:
    """Whether the stems ``theirs`` of a sentence hold each clause's stems in order."""
    present = frozenset(theirs)
    for clause in clauses:
        if not present.issuperset(clause):
            return False
        at = -1
        for stem in clause:
            at = next((i for i in range(at + 1, len(theirs)) if theirs[i] == stem), -2)
            if at == -2:
                return False
    return True


def sentence_stems(sentence: str, language: str = "en") -> tuple[str, ...]:
    """The stems of a sentence's content words, in order (:func:`carried_by` reads them),
    with the function words of ``language`` (the claim's) left out."""
    return _sentence_stems(normalize(sentence), language)


def claim_language(claim: str) -> str:
    """The language :func:`carried_clauses` reads ``claim`` in."""
    return guess_language(normalize(claim))


def _ordered_stems(words: list[str], language: str) -> list[str]:
    function = function_words(language)
    return [
        _stem(word) for word in words if _content(word) and len(word) > 2 and word not in function
    ]


@lru_cache(maxsize=8192)
def _sentence_stems(normalized: str, language: str) -> tuple[str, ...]:
    return tuple(_ordered_stems(comparable_words(normalized), language))


def _closest(clauses: list[list[str]], stems: frozenset[str]) -> list[list[str]]:
    """The clauses that share the most content words with the claim (all of them on a tie)."""
    shared = [len(_stems(clause) & stems) for clause in clauses]
    most = max(shared, default=0)
    return [clause for clause, n in zip(clauses, shared, strict=True) if n == most and n]


def _number_conflicts(claim: str, passage: str, nearby: str) -> list[str]:
    stated = stated_quantities(claim)
    if not stated:
        return []
    present = quantities_in(nearby)  # the digits of names ("A1C", "COVID-19") are no quantity
    conflicts = []
    for quantity in stated:
        same = [q for q in present if q.value == quantity.value]
        fits = [q for q in same if quantity.unit is None or q.unit in (None, quantity.unit)]
        another = _said_of_another(quantity, fits, present) if fits else []
        if fits and not another:
            continue
        theirs = [_in_context(q) for q in another] or [
            q.written.strip() for q in same or quantities_in(passage)
        ]
        written = list(dict.fromkeys(theirs))[:_SHOWN_NUMBERS]
        ours = _in_context(quantity) if another else quantity.written.strip()
        conflicts.append(
            f"the claim has the number {ours!r} where the source has "
            + (", ".join(repr(w) for w in written) if written else "no such number")
        )
    return conflicts


def _said_of_another(
    quantity: Quantity, same: list[Quantity], present: list[Quantity]
) -> list[Quantity]:
    """The source's other numbers next to the word the claim's number stands next to, when
    none of its own occurrences there does: "February 8" against "April 8 … February 2"."""
    words = _beside(quantity)
    if not words or any(words & _beside(q) for q in same):
        return []
    return [q for q in present if q.value != quantity.value and words & _beside(q)]


def _beside(quantity: Quantity) -> set[str]:
    return {w for w in (quantity.before, quantity.after) if w and w not in STOP_WORDS}


def _in_context(quantity: Quantity) -> str:
    """The number with the word before it: "february 8"."""
    before = quantity.before if quantity.before and quantity.before not in STOP_WORDS else ""
    return f"{before} {quantity.written.strip()}".strip()


def denies(text: str, *, or_qualifies: bool = False, or_directs: bool = False) -> bool:
    """Whether ``text`` holds a word that denies ("not", "no", "never", "n't", "lacks",
    "failed to", …), or with ``or_qualifies`` one that quantifies or counts ("all", "one",
    "half"), or with ``or_directs`` one of direction ("lower", "rose": a word alignment
    takes one moved from elsewhere in the passage for the same word): a cheap test before
    the guard reads a sentence around a passage."""
    words = set(comparable_words(normalize(text)))
    if words & _DENIALS:
        return True
    if or_directs and any(map(direction, words)):
        return True
    return or_qualifies and bool(words & _QUALIFIERS)


def denied_before(before: str) -> str | None:
    """The negation that the text just before a quotation ends on, which so applies to the
    quotation's first words ("No | patients recovered", "did not | approve the budget"):
    only stop words and auxiliaries may stand between it and the quotation."""
    clauses = _clauses(normalize(before))
    words = clauses[-1] if clauses and not before.rstrip().endswith(_CLAUSE_MARKS) else []
    for word in reversed(words):
        if word in _DENIALS:
            return word
        if _content(word):
            return None
    return None


SENTENCE_REACH = 400
"""Characters around a passage in which the ends of its sentence are looked for."""
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+|[\u3002\uff01\uff1f]|\n[ \t]*\n")


def sentence_around(text: str, start: int, end: int) -> tuple[str, str]:
    """The rest of the sentence that ``text[start:end]`` stands in: the text before it back to
    the sentence's start and after it up to its end (within :data:`SENTENCE_REACH`
    characters)."""
    before = text[max(0, start - SENTENCE_REACH) : start]
    after = text[end : end + SENTENCE_REACH]
    ends = list(_SENTENCE_END.finditer(before))
    before = before[ends[-1].end() :] if ends else before
    first = _SENTENCE_END.search(after)
    return before, (after[: first.start() + 1] if first else after)


def leading_denial(text: str, start: int) -> tuple[str, ...]:
    """The negation of its own sentence that leads into the passage starting at ``start``
    ("No | patients recovered", "这种药不 | 能降低死亡率"), as a change of meaning: a quotation
    cut right after it says the opposite of the source (:func:`denied_before`). Every door
    that locates quotations reads it."""
    before, _ = sentence_around(text, start, start)
    negation = denied_before(before)
    if negation is None:
        return ()
    return (f"the source has the negation {negation!r} right before the quote",)


_CLAUSE_MARKS = tuple(",;:.!?()[]")
_QUANTIFYING = UNIVERSAL_QUANTIFIERS | MOST_QUANTIFIERS | FEW_QUANTIFIERS | ZERO_QUANTIFIERS
"""The claim's words that make the guard read the shares its source gives."""
_DENIALS = DENIALS
_QUALIFIERS = _UNIVERSAL | _COUNT_WORDS


def _clauses(text: str) -> list[list[str]]:
    return [comparable_words(part) for part in _CLAUSE_END.split(text) if part.strip()]


def _bears_on(clause: list[str], claim_stems: frozenset[str]) -> bool:
    """Whether a clause and the claim share at least half of the content words of one of
    them: "the drug did not reduce mortality" bears on "the drug reduced mortality", and "the
    mortality did not fall in the trial" on "mortality fell"; "it did not affect sleep" does
    not."""
    content = _stems(clause)
    shared = 2 * len(content & claim_stems)
    return bool(content) and (shared >= len(content) or shared >= len(claim_stems))


def _negation_conflicts(
    claim: list[list[str]], source: list[list[str]], claim_stems: frozenset[str], *, scoped: bool
) -> list[str]:
    """A negation on one side only, where it bears on what the claim says. Each negation
    scopes over the next content words of its clause (:func:`_scopes`), and two negations
    match when the first word one of them negates is among the words the other negates: a
    negation of the claim needs a match in the source clauses closest to its clause; a negation
    of the source about the claim's words, or in a clause about the claim, needs a match in
    the claim."""
    ours = [scope for clause in claim for scope in _scopes(clause)]
    theirs = [(scope, clause) for clause in source for scope in _scopes(clause)]
    conflicts = []
    for clause in claim:
        near = [scope for c in _closest(source, _stems(clause)) for scope in _scopes(c)]
        for negation, first, targets in _scopes(clause):
            # A negation that ends its clause ("… did not") negates what the text cut off.
            dangling = not first and bool(near)
            if not dangling and not any(_same_scope((first, targets), (f, t)) for _, f, t in near):
                conflicts.append(
                    f"the claim has the negation {negation!r} ({_said(targets, claim)}), which "
                    "the source does not"
                )
    for (negation, first, targets), clause in theirs:
        about = set(targets) & claim_stems or (not scoped and _bears_on(clause, claim_stems))
        excused = any(_same_scope((first, targets), (f, t)) for _, f, t in ours)
        if about and (not excused or (not scoped and _affirmed(targets, claim))):
            conflicts.append(
                f"the source has the negation {negation!r} ({_said(targets, source)}), which "
                "the claim does not"
            )
    return list(dict.fromkeys(conflicts))


def _crossed_negation_conflicts(claim: list[list[str]], passage: list[list[str]]) -> list[str]:
    """A negation on one side only, for a claim in another language than its source: the
    words a negation applies to cannot be matched across languages, so the claim and the
    passage the scorer chose must both deny or both affirm ("werd zonder menselijke
    annotatoren geannoteerd" against "annotated by human annotators")."""
    ours = [clause[index] for clause in claim for index, _ in _negated(clause)]
    theirs = [clause[index] for clause in passage for index, _ in _negated(clause)]
    if ours and not theirs:
        return [f"the claim has the negation {ours[0]!r}, which the source does not"]
    if theirs and not ours:
        return [f"the source has the negation {theirs[0]!r}, which the claim does not"]
    return []


_TOKENS = re.compile(r"[^\W_][\w'\u2019-]*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n")
_LONGEST_NAME = 3  # words a replaced name may span on either side


def _entity_conflicts(claim: str, source: str) -> list[str]:
    """A name the claim puts where its source has another name: of the same kind ("an Irish
    record label" against "an American record label": nationalities, countries, languages,
    months, weekdays; :data:`~citecheck.language.lexicon.ENTITY_KINDS`), or any name the
    source writes with a capital inside a sentence, where the claim has other words in its
    place with the same words on both sides ("signed by Smith in 2010" against "signed by
    Jones in 2010"). The claim's own capitals are not read, so its case changes nothing."""
    ours = [word.casefold() for word in _TOKENS.findall(normalize(claim))]
    mine = set(ours)
    found = []
    sentences = [part for part in _SENTENCE_END.split(source) if part.strip()]
    theirs_all = {word.casefold() for word in _TOKENS.findall(source)}
    for word in dict.fromkeys(ours):
        kind = entity_kind(word)
        if kind is None or word in theirs_all:
            continue
        other = sorted(w for w in theirs_all - mine if entity_kind(w) == kind)
        if other:
            found.append(f"the claim says {word!r} where the source says {other[0]!r}")
    best = max(sentences, key=lambda sentence: _shared(ours, sentence), default="")
    if not best or 2 * _shared(ours, best) < len(set(ours) - STOP_WORDS):
        return found
    written = _TOKENS.findall(_plain_marks(best))
    theirs = [word.casefold() for word in written]
    plain = {w for w in _TOKENS.findall(source) if not w[:1].isupper()}  # words, not names
    names = {
        index
        for index, word in enumerate(written)
        if index
        and word[:1].isupper()
        and word.casefold() not in plain
        and not written[index - 1].endswith((".", ":"))
    }
    blocks = SequenceMatcher(None, ours, theirs, autojunk=False).get_opcodes()
    for position, (tag, i1, i2, j1, j2) in enumerate(blocks):
        if tag != "replace" or i2 - i1 > _LONGEST_NAME or j2 - j1 > _LONGEST_NAME:
            continue
        before = blocks[position - 1] if position else None
        after = blocks[position + 1] if position + 1 < len(blocks) else None
        anchored = (
            before is not None
            and before[0] == "equal"
            and before[2] - before[1] >= 2
            and after is not None
            and after[0] == "equal"
        )
        said = ours[i1:i2]
        named = [written[j] for j in range(j1, j2) if j in names]
        if (
            anchored
            and named
            and not {_stem(w) for w in said} & {_stem(w) for w in theirs[j1:j2]}
            and not set(said) & set(theirs)
            and not set(said) & (STOP_WORDS | _AUXILIARIES)
            and not any(entity_kind(w) for w in said)  # a kind's swap is named above
        ):
            found.append(
                f"the claim says {' '.join(said)!r} where the source names {' '.join(named)!r}"
            )
    return found


def _plain_marks(text: str) -> str:
    """``text`` in its own case, with typographic apostrophes and quotes made plain."""
    return unicodedata.normalize("NFKC", text).translate(_MARKS)


_MARKS = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})


def _shared(words: list[str], sentence: str) -> int:
    """How many of the content ``words`` stand in ``sentence``."""
    theirs = {word.casefold() for word in _TOKENS.findall(sentence)}
    return len((set(words) - STOP_WORDS) & theirs)


def _scopes(clause: list[str]) -> list[tuple[str, str, tuple[str, ...]]]:
    """Each negation of a clause, with the stem of the first content word it applies to and
    the stems of the first few, in order ("not only" adds, and is no negation)."""
    return [
        (clause[index], following[0] if following else "", following)
        for index, following in _negated(clause)
    ]


def _negated(clause: list[str]) -> list[tuple[int, tuple[str, ...]]]:
    """Where each negation of a clause stands, and the stems of the words it applies to
    (:func:`~citecheck.language.negation.negated`): its next content words, or a number
    ("Spence is not 21")."""
    return [
        (index, tuple(_stem(w) for w in following[:_SCOPE]))
        for index, following in negated(clause, _scoped)
    ]


def _scoped(word: str) -> bool:
    """Whether a negation can apply to ``word``: a content word or a number."""
    return _content(word) or word[:1].isdigit()


def _affirmed(targets: tuple[str, ...], claim: list[list[str]]) -> bool:
    """Whether the claim says the words a source negation applies to, in order and with no
    negation of its own on them: "is indexed by standard search engines" against "not indexed
    by standard search engines", even where the claim denies "indexed" elsewhere ("includes
    non-indexed websites"), which would otherwise pass for the source's negation."""
    if len(targets) < _SCOPE:
        return False
    for clause in claim:
        content = [i for i, w in enumerate(clause) if _scoped(w)]
        negated = set()
        for index, following in _negated(clause):
            negated.update([i for i in content if i > index][: len(following)])
        for here, there in pairwise(content):
            pair = (_stem(clause[here]), _stem(clause[there]))
            if pair == targets[:_SCOPE] and here not in negated:
                return True
    return False


def _same_scope(ours: tuple[str, tuple[str, ...]], theirs: tuple[str, tuple[str, ...]]) -> bool:
    """Whether two negations negate the same thing: the first word either negates is among
    the words the other negates ("not significantly reduce" and "did not reduce")."""
    (first, targets), (their_first, their_targets) = ours, theirs
    return bool(first and first in their_targets) or bool(their_first and their_first in targets)


def _said(stems: Collection[str], clauses: list[list[str]]) -> str:
    """The words of ``clauses`` whose stems are ``stems``, as a short phrase."""
    words = dict.fromkeys(w for clause in clauses for w in clause if _stem(w) in stems)
    return " ".join(list(words)[:_SCOPE]) or "nothing said"


def _quantifier_conflicts(
    claim: list[str], closest: list[list[str]], limits: Sequence[tuple[float, str] | None] = ()
) -> list[str]:
    """A universal quantifier in the claim where the clauses about it limit the statement (a
    word such as "some", or a share: "87 percent", "a third", "4 of 5"); "most" where they give
    under half, "few" where they give over half; a word of count ("one", "half", "doubled",
    "thousands") the claim says and they do not."""
    said = {word for clause in closest for word in clause}
    shares = [limit for limit in limits if limit is not None]
    conflicts = []
    universal = [word for word in claim if word in _UNIVERSAL]
    theirs = [word for clause in closest for word in clause if word in _UNIVERSAL]
    if universal and len(universal) > len(theirs):  # "all models have all weaknesses"
        limited = [repr(word) for word in sorted(said & _PARTIAL)]
        limited += [repr(written) for share, written in shares if share < 1]
        limited = list(dict.fromkeys(limited))
        if limited:
            conflicts.append(
                f"the claim says {universal[0]!r} where the source says {', '.join(limited)}"
            )
        elif not theirs and (bare := _said_bare(claim, closest)):
            conflicts.append(
                f"the claim says {universal[0]!r} where the source says {bare!r} without it"
            )
    most = [word for word in claim if word in MOST_QUANTIFIERS]
    few = [word for word in claim if word in FEW_QUANTIFIERS]
    for words, under in ((most, True), (few, False)):
        against = [written for share, written in shares if (share < 0.5 if under else share > 0.5)]
        if words and against:
            shown = ", ".join(repr(w) for w in against)
            conflicts.append(f"the claim says {words[0]!r} where the source says {shown}")
    zero = [word for word in claim if word in ZERO_QUANTIFIERS]
    if zero and any(share > 0 for share, _ in shares):
        shown = ", ".join(repr(written) for share, written in shares if share > 0)
        conflicts.append(f"the claim says {zero[0]!r} where the source says {shown}")
    for index, word in enumerate(claim):
        one_of = word == "one" and claim[index + 1 : index + 2] == ["of"]  # "one of them"
        if word == "once" and not _counting_once(claim, index):
            continue
        if word in _COUNT_WORDS and word not in said and not one_of:
            theirs = sorted(said & (_COUNT_WORDS | NUMBER_WORDS))
            shown = ", ".join(repr(w) for w in theirs) or "no such word"
            conflicts.append(f"the claim says {word!r} where the source says {shown}")
    return conflicts


_GENERALISING = frozenset(("all", "every"))
_DETERMINERS = frozenset(
    "the a an this that these those its their our his her my your no any each both either "
    "neither such".split()
)


def _said_bare(claim: list[str], closest: list[list[str]]) -> str | None:
    """The word after "all" or "every" in the claim where the closest clauses say it with
    no word before it that counts or picks (a bare plural: "All researchers have found"
    against "Researchers found"), in a clause with no word of quantity at all: the source
    speaks of them in general, not of each one. ``None`` where there is none."""
    for index, word in enumerate(claim[:-1]):
        following = claim[index + 1]
        if word not in _GENERALISING or not _content(following) or len(following) < 4:
            continue
        stem = _stem(following)
        for clause in closest:
            if not set(clause).isdisjoint(_QUANTIFYING | _LIMITING):
                continue  # a part or a whole the source states: the rules above read it
            for at, other in enumerate(clause):
                if _stem(other) == stem and (at == 0 or clause[at - 1] not in _DETERMINERS):
                    return other
    return None


_LIMITING = _PARTIAL | frozenset({"other", "another", "andere", "anderen", "autres", "otros"})
"""Words before a noun that limit it to a part: "some", "several", "other" ("other possible
impacts are …" lists some of them, not all)."""


def _anchored_quantifier_conflicts(claim: list[str], clauses: Sequence[list[str]]) -> list[str]:
    """A universal quantifier of the claim ("all possible negative impacts") where a clause of
    the source puts a limiting word before the same two content words ("other possible
    negative impacts", "several downsides have emerged"), and none says it without limit:
    the claim made a part the whole, wherever the scorer's closest clause is."""
    found = []
    for index, word in enumerate(claim):
        anchor = _ahead(claim, index) if word in _UNIVERSAL else frozenset()
        if not anchor:
            continue
        before = [
            other
            for clause in clauses
            for at, other in enumerate(clause)
            if (other in _LIMITING or other in _UNIVERSAL) and _ahead(clause, at) == anchor
        ]
        limiting = [w for w in before if w in _LIMITING and w not in claim]
        if limiting and not any(w in _UNIVERSAL for w in before):
            found.append(f"the claim says {word!r} where the source says {limiting[0]!r}")
    return found


_PERCENT = re.compile(
    r"(?<![\d.,])(\d+(?:[.,]\d+)?)\s*(?:%|per ?cent\b|procent\b|prozent\b|pour ?cent\b"
    r"|por ?ciento\b)"
)
_OUT_OF = re.compile(
    r"(?<![\d.,])(\d+)\s+(?:out of|of|in|van|von|sur|de)\s+(?:the |de |die |les |los )?(\d+)\b"
)
_FRACTION = re.compile(
    r"\b(?:(?P<n>\d|a|one|two|three|een|twee|ein|eine|zwei|un|une|deux|una|dos)\s+)?"
    r"(?P<d>half|halves|third|thirds|quarter|quarters|fifth|fifths|helft|derde|kwart"
    r"|hälfte|drittel|viertel|moitié|tiers|quart|mitad|tercio|cuarto)\b"
)
_FRACTION_VALUES = {
    "half": 2, "halves": 2, "helft": 2, "hälfte": 2, "moitié": 2, "mitad": 2,
    "third": 3, "thirds": 3, "derde": 3, "drittel": 3, "tiers": 3, "tercio": 3,
    "quarter": 4, "quarters": 4, "kwart": 4, "viertel": 4, "quart": 4, "cuarto": 4,
    "fifth": 5, "fifths": 5,
}  # fmt: skip
_NUMERATORS = {"two": 2, "twee": 2, "zwei": 2, "deux": 2, "dos": 2, "three": 3}


def _limit(clause: str) -> tuple[float, str] | None:
    """The share of a whole a source clause gives, with how it writes it: "87 percent"
    (0.87), "4 of 5" (0.8), "a third" (0.33); ``None`` when it gives none."""
    fraction = _FRACTION.search(clause)  # before the number words turn "thirds" into "3rds"
    digits = number_words_as_digits(clause)
    for match in _PERCENT.finditer(digits):
        value = float(match[1].replace(",", "."))
        if value <= 100:
            return value / 100, match[0].strip()
    for match in _OUT_OF.finditer(digits):
        part, whole = int(match[1]), int(match[2])
        if 0 <= part <= whole and whole > 1:
            return part / whole, match[0].strip()
    if fraction is not None and fraction["d"] in _FRACTION_VALUES:
        written = fraction["n"] or ""
        numerator = int(written) if written.isdigit() else _NUMERATORS.get(written, 1)
        return min(1.0, numerator / _FRACTION_VALUES[fraction["d"]]), fraction[0].strip()
    return None


def _clause_texts(text: str) -> list[str]:
    """The clauses of :func:`_clauses` as text, in the same order."""
    return [part for part in _CLAUSE_END.split(text) if part.strip()]


_VERSIONED = re.compile(r"\b([^\W\d_]{2,})[-\u2010\u2011](\d+(?:\.\d+)*)\b")
"""A name with a version or size after a hyphen: "ResNet-50", "GPT-4", "COVID-19" (a name
with its digits joined on, "ResNet50", is compared letter by letter elsewhere)."""


def _version_conflicts(claim: str, nearby: str) -> list[str]:
    """A versioned name of the claim that the source gives with another number only
    ("ResNet-50" where it says "ResNet-18"): the number reader leaves the digits of names
    alone, so that "COVID-19" is no count."""
    theirs: dict[str, set[str]] = {}
    for name, number in _VERSIONED.findall(nearby):
        theirs.setdefault(name, set()).add(number)
    conflicts = []
    for name, number in dict.fromkeys(_VERSIONED.findall(claim)):
        said = theirs.get(name)
        if said and number not in said:
            shown = ", ".join(repr(f"{name}-{n}") for n in sorted(said))
            conflicts.append(f"the claim has '{name}-{number}' where the source has {shown}")
    return conflicts


_LABELLED = re.compile(r"(?<![\w.])([^\W\d_]{2,})\.?[ \t\u00a0]+(\d{1,3})(?!\w|[.,:/-]\d)")
"""A word and a small whole number after it, as a text labels its parts: "Figure 6",
"Table 2", "Fig. 5", "Article 12" (not "3.5", "12,000" or "6/7")."""


def _label_conflicts(claim: str, nearby: str) -> list[str]:
    """A numbered part of the source that the claim calls by another word, standing where
    the source has it: "In Precision 6, OTSL proves …" against "In Figure 6, OTSL proves …";
    "as Table 3 shows" against "as Figure 3 shows". The source's labels are words it writes
    with a capital before a number; the claim's word is read in any case, and it may shorten
    the label ("Fig. 6", "Eq. 2"). No change: a label the source also gives with that number
    ("Table 3" anywhere in it), or a word not in the label's place (the words before and
    after the two differ: "children aged 6" against "(Figure 6)"). A month before a day is
    a date, the entity rule's ("February 19" against "December 19")."""
    ours = list(_LABELLED.finditer(claim))
    if not ours:
        return []  # the common case: the source's text is not read
    labels: dict[str, list[tuple[str, str, str, str]]] = {}  # a number: its labels, each
    given: set[tuple[str, str]] = set()  # with its words before and after, as written
    for match in _LABELLED.finditer(nearby):
        word, number = match.group(1), match.group(2)
        given.add((word.lower(), number))
        if word[0].isupper() and word.lower() not in _NO_NAME and not entity_kind(word.lower()):
            labels.setdefault(number, []).append(
                (word.lower(), *_word_beside(nearby, match.start(), match.end()), match.group(0))
            )
    if not labels:
        return []
    conflicts = []
    for match in ours:
        word, number = match.group(1).lower(), match.group(2)
        if word in _NO_NAME or (word, number) in given or number not in labels:
            continue
        before, after = _word_beside(claim, match.start(), match.end())
        for label, their_before, their_after, written in labels[number]:
            if label.startswith(word) or word.startswith(label):
                break  # "Fig. 6" for "Figure 6"
            if (before and before == their_before) or (after and after == their_after):
                conflicts.append(
                    f"the claim says {match.group(0)!r} where the source says {written!r}"
                )
                break
    return conflicts


def _word_beside(text: str, start: int, end: int) -> tuple[str, str]:
    """The words just before ``start`` and just after ``end`` of ``text``, in lower case: ""
    at an end, or where a mark stands between (a comma after is passed over: "In Figure 6,
    OTSL")."""
    before = _WORD_BEFORE.search(text, max(0, start - _BESIDE_CHARS), start)
    after = _WORD_AFTER.match(text, end, end + _BESIDE_CHARS)
    return (
        before.group(1).lower() if before else "",
        after.group(1).lower() if after else "",
    )


_WORD_BEFORE = re.compile(r"([^\W_]+)\s*$")
_WORD_AFTER = re.compile(r"\s*,?\s*([^\W_]+)")


def _counting_once(words: list[str], index: int) -> bool:
    """Whether the ``once`` at ``index`` counts ("coded once", "once a week", "only once")
    rather than joins a clause ("once vaccinated", "once the data were in")."""
    after = words[index + 1 : index + 2]
    before = words[index - 1 : index] if index else []
    return not after or after[0] in _ONCE_COUNTS or bool(before and before[0] in _ONCE_AFTER)


_REPEATED_WORDS = 4
"""The fewest words a claim's clause must repeat, in order, from a source clause for a word it
puts in the place of one of that clause's to be a substitution (:func:`_substitution_conflicts`);
and at least :data:`_REPEATED_SHARE` of its words."""
_REPEATED_SHARE = 0.7
_PRONOUNS = frozenset("it he she they this these those its his her their".split())
"""Words that leave who or what to the text before: a claim that names it instead says what
the source does not ("Radium was discovered in 1935" against "It was discovered in 1935")."""


def swapped_names(claim: str, passage: str, nearby: str | None = None) -> list[str]:
    """The words of ``claim`` put in the place of a name or a pronoun of a ``passage``
    sentence the claim otherwise repeats word for word (:func:`_substitution_conflicts`, one
    of :func:`claim_conflicts`' rules), for a door that compares a claim word by word and
    reads the rest of the guard only where a negation is near."""
    own, around = normalize(claim), normalize(nearby or passage)
    if guess_language(own) != guess_language(normalize(passage)):
        return []
    theirs = _clauses(around)
    present = frozenset(_stem(word) for clause in theirs for word in clause)
    function = function_words(guess_language(own))
    names = _written_as_names(nearby or passage)
    changes = []
    for clause in _clauses(own):
        closest = _closest(theirs, _stems(clause))
        changes.extend(_substitution_conflicts(clause, closest, present, names, function))
    return list(dict.fromkeys(changes))


_CAPITALISED = re.compile(r"\b[^\W\d_][\w-]*")


def _written_as_names(text: str) -> frozenset[str]:
    """The words ``text`` writes with a capital and never in lower case, in lower case: the
    names of the text around a passage ("Jones" at the start of a sentence too)."""
    capital: set[str] = set()
    lower: set[str] = set()
    for match in _CAPITALISED.finditer(text):
        word = match.group()
        (capital if word[0].isupper() else lower).add(word.lower())
    return frozenset(capital - lower)


def _substitution_conflicts(
    claim: list[str],
    closest: list[list[str]],
    present: frozenset[str],
    names: frozenset[str],
    function: frozenset[str] = frozenset(),
) -> list[str]:
    """A word of the claim in the place of a name or a pronoun of a source clause that the
    claim otherwise repeats word for word: "Smith founded the company in 1990" against "Jones
    founded the company in 1990" (``names``: the words the text around the passage writes
    only with a capital), "Radium was discovered in 1935" against "It was discovered in 1935"
    (the source leaves who or what to the sentence before, which does not say it). The clause
    must repeat :data:`_REPEATED_WORDS` words of the source clause or more, and
    :data:`_REPEATED_SHARE` of its own, and the swap must be one word for one, between
    repeated words; the claim's word must stand nowhere in the text around the passage
    (``present``: its stems), nor the source's anywhere in the claim (a moved word is no
    swap). A slip of spelling or an inflection is no swap, nor one of the claim language's
    ``function`` words; a number, a negation, a word of opposite meaning and a name of a kind
    have rules of their own. A common word for another ("students" for "experts") is not
    read: it may be a synonym ("staff" for "employees"), which only a judge can tell."""
    if len(claim) < _REPEATED_WORDS:
        return []
    ours = frozenset(_stem(word) for word in claim)
    changes = []
    for source in closest:
        matcher = SequenceMatcher(None, claim, source, autojunk=False)
        blocks = matcher.get_opcodes()
        repeated = sum(i2 - i1 for tag, i1, i2, _, _ in blocks if tag == "equal")
        if repeated < _REPEATED_WORDS or repeated < _REPEATED_SHARE * len(claim):
            continue
        for at, (tag, i1, i2, j1, j2) in enumerate(blocks):
            if tag != "replace" or i2 - i1 != 1 or j2 - j1 != 1:
                continue
            flanked = (at == 0 or blocks[at - 1][0] == "equal") and (
                at == len(blocks) - 1 or blocks[at + 1][0] == "equal"
            )
            word, theirs = claim[i1], source[j1]
            if (
                flanked
                and _content(word)
                and word not in function
                and theirs not in function
                and len(word) > 2
                and word.isalpha()
                and (theirs in _PRONOUNS or (theirs in names and _content(theirs)))
                and _stem(word) not in present
                and _stem(theirs) not in ours
                and not _slip(word, theirs)
                and not opposite_words(word, theirs)
                and entity_kind(word) is None
                and direction(word) == 0
            ):
                changes.append(f"the claim says {word!r} where the source says {theirs!r}")
    return changes


def _slip(word: str, other: str) -> bool:
    """Whether two words are one spelt two ways ("labelled" / "labeled") or inflected
    ("annotates" / "annotated"): the same stem, or nearly the same letters."""
    from rapidfuzz.distance import Levenshtein

    return _stem(word) == _stem(other) or Levenshtein.normalized_similarity(word, other) >= 0.85


def _opposite_conflicts(
    claim: list[str], closest: list[list[str]], everywhere: Sequence[list[str]] = ()
) -> list[str]:
    """A word of the claim whose opposite the closest clauses say instead ("rose" / "fell",
    "effective" / "ineffective"), or a name with digits in place of another of the same
    letters ("H5N1" / "H7N9"). A word of direction the source says the same way of the same
    thing in another clause (``everywhere``: "a lower death rate") is no change, whatever the
    closest clause says of something else."""
    said = {word for clause in closest for word in clause}
    listed = sorted(said)
    conflicts = []
    for word in dict.fromkeys(claim):
        if word in said or _said_alike(claim, word, everywhere):
            continue
        letters = _letters_of(word)
        if letters:
            other = next((w for w in listed if w != word and _letters_of(w) == letters), None)
        elif word.isalpha():
            opposite = _opposite_candidates(word, said)
            other = next((w for w in listed if w in opposite), None) if opposite else None
        else:
            other = None
        if other is not None:
            conflicts.append(f"the claim says {word!r} where the source says {other!r}")
    conflicts.extend(_direction_conflicts(claim, closest, everywhere))
    return conflicts


def _opposite_candidates(word: str, said: set[str]) -> set[str]:
    """The words of ``said`` that are ``word``'s opposite (:func:`opposite_words`), found
    without comparing ``word`` with every one of them: only words that begin with the other
    stem of one of its pairs, or that differ from it by a negating prefix, can be."""
    starts = _other_stems(word)
    return {
        w
        for w in said
        if ((starts and w.startswith(starts)) or w.endswith(word) or word.endswith(w))
        and opposite_words(word, w)
    }


@lru_cache(maxsize=65_536)
def _other_stems(word: str) -> tuple[str, ...]:
    """The stems a word's opposite may begin with, by the antonym pairs its own stem is in."""
    return tuple(
        dict.fromkeys(y for x, y in ANTONYMS_BY_INITIAL.get(word[:1], ()) if word.startswith(x))
    )


def _direction_conflicts(
    claim: list[str], closest: list[list[str]], everywhere: Sequence[list[str]] = ()
) -> list[str]:
    """A word of the claim that says up (or down) where the closest clauses say only the
    other way, in other words, of the same thing ("inference slower" against "speed up in
    inference", "decreases the levels" against "higher levels"):
    :func:`~citecheck.language.lexicon.direction`. A clause of the claim that says both ways
    ("increases expenditure and reduces weight") speaks of two things and is left alone, and
    so is a direction word whose neighbours share no content word with the other's, or that
    the source (``everywhere``: its clauses near the passage) says the same way of the same
    two words (:func:`_said_alike`). Then, where either side says both ways, a direction word
    is held against the source's words of direction before the same two content words
    (:func:`_anchored_direction_conflicts`: "lower death rates" against "a higher death
    rate"). A word of direction before "up" or "down" says what the particle says ("speed
    down" is down, "slow down" is down): :func:`_particles`."""
    claim, closest = _particles(claim), [_particles(clause) for clause in closest]
    everywhere = [_particles(clause) for clause in everywhere]
    return _one_way_conflicts(claim, closest, everywhere) or _anchored_direction_conflicts(
        claim, everywhere or closest
    )


_PARTICLES = frozenset(("up", "down"))


def _particles(clause: list[str]) -> list[str]:
    """``clause`` without the words of direction that stand right before "up" or "down" and
    say the other way: the particle says which way the phrase goes (a claim's "speed down"
    against its source's "speed up"); "speed up" and "slow down" say it twice."""
    return [
        word
        for at, word in enumerate(clause)
        if not (
            at + 1 < len(clause)
            and clause[at + 1] in _PARTICLES
            and direction(word) == -direction(clause[at + 1])
        )
    ]


def _said_alike(claim: list[str], word: str, clauses: Sequence[list[str]]) -> bool:
    """Whether every ``word`` of direction in ``claim`` stands in one of ``clauses`` as a word
    of the same direction before the same two content words ("lower death rate" in "a lower
    death rate, but a higher infection rate")."""
    sign = direction(word)
    if not sign or not clauses:
        return False
    anchors = [_ahead(claim, at) for at, w in enumerate(claim) if w == word]
    if not anchors or not all(anchors):
        return False
    theirs = {
        _ahead(clause, at)
        for clause in clauses
        for at, other in enumerate(clause)
        if direction(other) == sign
    }
    return all(anchor in theirs for anchor in anchors)


def _one_way_conflicts(
    claim: list[str], closest: list[list[str]], everywhere: Sequence[list[str]]
) -> list[str]:
    """A clause that says one way against closest clauses that say only the other way, of
    something near it (:func:`_direction_conflicts`)."""
    signs = {direction(word) for word in claim} - {0}
    if len(signs) != 1:
        return []
    (sign,) = signs
    said = {word for clause in closest for word in clause}
    against = [
        (word, _around(clause, index))
        for clause in closest
        for index, word in enumerate(clause)
        if direction(word) == -sign
    ]
    if not against or any(direction(word) == sign for word in said):
        return []
    for index, word in enumerate(claim):
        if direction(word) != sign or word in said or _said_alike(claim, word, everywhere):
            continue
        near = _around(claim, index)
        for theirs, their_near in against:
            if near & their_near:
                return [f"the claim says {word!r} where the source says {theirs!r}"]
    return []


def _anchored_direction_conflicts(claim: list[str], clauses: Sequence[list[str]]) -> list[str]:
    """A direction word of the claim whose next two content words the source's ``clauses``
    give only after a word of the other direction ("lower death rates" against "a higher death
    rate"): the claim reversed what it says of that very thing, though the source says both
    ways (or the claim does). Where the source also says the claim's way of those words, or
    gives them no direction, nothing is read here."""
    found = []
    for index, word in enumerate(claim):
        sign = direction(word)
        if not sign:
            continue
        for reach in _REACHES:
            anchor = _ahead(claim, index, reach)
            if not anchor:
                continue
            theirs = [
                (other, direction(other))
                for clause in clauses
                for at, other in enumerate(clause)
                if direction(other)
                and (
                    _ahead(clause, at, reach) == anchor
                    or (reach == 1 and _behind(clause, at) == anchor)
                )
            ]
            signs = {other_sign for _, other_sign in theirs}
            if signs == {-sign}:
                found.append(f"the claim says {word!r} where the source says {theirs[0][0]!r}")
            if signs and signs != {sign, -sign}:
                break  # said one way of these words: no need to read further, or fewer
    return found


def _behind(words: list[str], index: int) -> frozenset[str]:
    """The stem of the content word a word of direction that ends its clause says is higher or
    lower, before it past stop words ("as the altitude increases,": altitude), as
    :func:`_ahead` gives one; empty for a word with words of its clause after it ("exercise
    reduces weight" says nothing of exercise)."""
    if index != len(words) - 1:
        return frozenset()
    for word in reversed(words[max(0, index - 3) : index]):
        if direction(word):
            break
        if _content(word) and len(word) > 2:
            return frozenset((_stem(singular(word)),))
    return frozenset()


_REACHES = (2, 3, 1)
"""How many content words after a word of direction say what it is the direction of, in the
order they are tried: two ("lower death rates"); three where the source says both ways of the
two ("the lower heart rate in an untrained heart" against "a lower heart rate … in a trained
heart as the higher heart rate in an untrained heart"); the one right after it where the
source never gives the two ("more money and prestige" against "less money and less
prestige"), or the one before it where it ends a clause of the source ("at lower altitudes"
against "as the altitude increases,")."""


def _ahead(words: list[str], index: int, reach: int = 2) -> frozenset[str]:
    """The stems of the ``reach`` content words right after ``words[index]`` (within
    2 × ``reach`` - 1 words, before any other word of direction): what a comparative says is
    higher or lower ("lower death rates": death, rate; "rate of infection" is "infection
    rate"); empty when there are not so many. One word must stand right after it ("more
    money"), not past a stop word."""
    stems: list[str] = []
    for word in words[index + 1 : index + 2 * reach]:
        if direction(word):
            break
        if _content(word) and len(word) > 2:
            stems.append(_stem(singular(word)))
            if len(stems) == reach:
                return frozenset(stems)
    return frozenset()


_NEAR = 3
"""Words on either side of a direction word that say what it is the direction of."""


def _around(words: list[str], index: int) -> frozenset[str]:
    """The stems of the content words within :data:`_NEAR` of ``words[index]``."""
    low, high = max(0, index - _NEAR), index + _NEAR + 1
    return frozenset(
        _stem(w) for i, w in enumerate(words[low:high], low) if i != index and _content(w)
    )


def _letters_of(word: str) -> str:
    """The letters of a word that holds digits ("h5n1" is "hn"); "" for a word without any."""
    return "".join(ch for ch in word if ch.isalpha()) if any(ch.isdigit() for ch in word) else ""


def _symbol_conflicts(claim: str, passage: str) -> list[str]:
    """A comparison, currency or percent sign of the claim that the passage has not, where
    the passage has another: "p < 0.05" against "p > 0.05"."""
    ours, theirs = set(SIGN.findall(claim)), set(SIGN.findall(passage))
    missing = sorted(ours - theirs)
    if missing and theirs - ours:
        return [
            f"the claim has {', '.join(missing)} where the source has "
            + ", ".join(sorted(theirs - ours))
        ]
    return []


_AUXILIARIES = frozenset(
    "do does did done has have had having will would shall should can could may might must "
    "also".split()
)
"""Words that carry no content of their own: no clause is closer to a claim for sharing them."""


def _content(word: str) -> bool:
    return (
        word not in STOP_WORDS
        and word not in _AUXILIARIES
        and word not in NEGATIONS
        and word not in NEGATIVE_WORDS
        and not word[:1].isdigit()
    )


@lru_cache(maxsize=65_536)
def _stem(word: str) -> str:
    """The word's first letters, folded (kept: the guard stems the same words many times)."""
    return fold_letters(word[:_STEM])


def _stems(words: list[str]) -> frozenset[str]:
    return _stems_of(tuple(words))


@lru_cache(maxsize=16_384)
def _stems_of(words: tuple[str, ...]) -> frozenset[str]:
    """The stems of a clause's content words (kept: a claim's clauses are compared with every
    clause of its source, and a source's clauses with every claim's)."""
    return frozenset(_stem(word) for word in words if _content(word) and len(word) > 2)


@lru_cache(maxsize=16)
def _names_of(text: str) -> frozenset[str]:
    """The names a document writes (:data:`~citecheck.language.text.NAME`), in lower case."""
    return frozenset(m.group().casefold() for m in NAME.finditer(text) if _a_name(m.group()))


def _as_written(word: str, document: str) -> str | None:
    """How ``document`` writes ``word`` (compared in lower case, whole words only) when it
    writes it as a name (:func:`_a_name`): its first such spelling, else ``None``. A few
    searches of the document's lower-cased text, not a scan of every word of it."""
    lowered = _lowered(document)
    if len(lowered) != len(document):  # a letter whose lower case is longer: read the names
        names = _names_of(document)
        return word if word.casefold() in names else None
    key = word.lower()
    start = lowered.find(key)
    for _ in range(_LOOKS):
        if start < 0:
            return None
        end = start + len(key)
        written = document[start:end]
        inside = (start and _in_word(document[start - 1])) or (
            end < len(document) and _in_word(document[end])
        )
        if not inside and _a_name(written):
            return written
        start = lowered.find(key, start + 1)
    return None


_LOOKS = 8
"""How many places of a word :func:`_as_written` looks at before it gives up: a name is
written as one where it first stands; a common word stands often, in lower case."""


def _in_word(char: str) -> bool:
    return char.isalnum() or char in "-_"


@lru_cache(maxsize=16)
def _lowered(text: str) -> str:
    return text.lower()


def _a_name(word: str) -> bool:
    """A word with letters and digits, or with a small letter and a capital after its first
    letter: "GPT-4", "DocLayNet"; not a word in capitals ("THE", a heading's)."""
    letters = [c for c in word if c.isalpha()]
    if not letters:
        return False
    if any(c.isdigit() for c in word):
        return True
    return any(c.islower() for c in letters) and any(c.isupper() for c in word[1:])


def unnamed(claim: str, passage: str, document: str, around: str = "") -> list[str]:
    """The names of ``claim`` that ``passage`` does not give, each as a change: "PubLayNet
    contains 80863 pages" is not supported by "DocLayNet contains 80863 pages", however close
    their vectors. A name is a word ``document`` writes as one
    (:data:`~citecheck.language.text.NAME`) or one that mixes letters and digits (not an
    ordinal: "15th" is a number, the guard's); it is compared in lower case and without its
    hyphens ("COVID19" is "COVID-19"), so the claim's own spelling changes nothing. Names of a
    kind (nationalities, countries, months) are :func:`claim_conflicts`'s.

    A name the passage lacks while it gives another of the document's names of the same shape
    that the claim does not ("DocLayNet" for "PubLayNet", "GPT-3" for "GPT-4"; not one that
    holds the other, "SARS-CoV-2" and "CoV-2"; not in a claim that lists names) is swapped:
    ``"the claim names 'PubLayNet' where the passage names 'DocLayNet'"``. A name that
    ``around`` (the text near the passage, the passage included) does not give at all is a
    gap, ending ``"which the passage does not"``: a claim often takes a name from the sentence
    before or after its best one."""
    ours: dict[str, tuple[str, str]] = {}  # a name's core: the claim's word, the document's
    for word in HYPHENATED.findall(claim):
        core = _core(word)
        if len(core) < 3 or core in ours or core in STOP_WORDS or not _a_claim_name(word):
            continue
        written = _as_written(word, document)
        if written is not None or _mixed(core):
            ours[core] = (word, written or word)
    strangers = stranger_names(claim, around or passage)
    if not ours:
        return strangers  # the common case: a claim that names nothing, settled at once
    said = _compact(normalize(passage))
    near = _compact(normalize(around)) if around else said
    theirs = {
        _core(word): word
        for word in HYPHENATED.findall(passage)
        if _a_name(word) and _core(word) not in ours
    }
    nearby = {_core(word) for word in HYPHENATED.findall(around or passage) if _mixed(word)}
    changes = []
    for low, (word, written) in ours.items():
        if low in said:
            continue
        swapped = [
            shown for other, shown in theirs.items() if _shape(shown) == _shape(written)
            and not _same_name(low, other) and len(ours) <= _LISTED
        ]  # fmt: skip
        if swapped:
            shown = ", ".join(repr(w) for w in swapped[:3])
            changes.append(f"the claim names {word!r} where the passage names {shown}")
        elif low not in near and not any(_same_name(low, other) for other in nearby):
            changes.append(f"the claim names {word!r}, which the passage does not")
    return [*changes, *strangers]


_TOKEN = re.compile(_TOKENS.pattern + r"|\S")
"""A word (:data:`_TOKENS`) or a mark."""
_OPENING = frozenset(".!?:;\"“”„'‘’«»()[]{}—–•*#")
"""Marks after which a word is capitalised as the start of something (a sentence, a title,
a quotation, an item), not as a name."""
_CAPITALISED_NOUNS = frozenset({"de"})
"""Languages that write every noun with a capital: a capital there says no name."""


def stranger_names(claim: str, around: str) -> list[str]:
    """Words of the claim that ``around`` (the text near the passage) does not say, each in
    the place of a name of it that the claim does not give: the two stand between the same
    words ("Sounds of the Challenges is an album" against "Sounds of the Universe is the
    twelfth album"; "during its Be Right event" against "during its Ubisoft Forward event"),
    beside a word of content or between the same two words.

    The claim's own capitals are not read (its case changes nothing): a word of it is a
    stranger when the text has no word of the same first five letters and nearly its length
    ("Obama's" and "Bellflowers" are the text's "Obama" and "Bellflower"; "FormsTabNet" is not
    its "forms"; "Tim" is its "Timothy"), and a run of strangers takes along the words beside
    it that the text writes only as names ("Mercury Records" where the text has "Mute
    Records"). The text's names are runs of words it writes with a capital inside a sentence
    (:func:`_name_runs`: not a word that opens one unless the text names it inside one too,
    not a heading in title case); a name the claim gives only word by word, not in a row, is
    one it does not give ("World Wide Country" and "the deep web" against "the World Wide
    Web"). No swap: a run that shares a word with the name ("name Marcus" / "Marcus
    Morgan") or is spelt nearly as it ("Faroe" / "Faeroes", "China" / "Chinese"), authors
    cited in brackets or "et al.", a number (the number rules read those), a claim in a
    language that writes every noun with a capital, a word that cannot be a name (a
    preposition, a pronoun: :data:`_NO_NAME`). A run of the claim may stand in the place of
    a name with only its first words ("Patents Search Administration's" of "Patents Search
    Administration's Next Generation" against "the Federal Highway Administration's (FHWA)
    Next Generation"), and an aside in brackets beside a run is passed over as the words
    beside it are read. Words of the claim the text does not say before an abbreviation in
    brackets that the text spells out with another of its names are a swap too
    (:func:`_spelt_out_otherwise`). A claim that says what the text near its passage does
    not, in no such place, is left to :func:`unnamed` and the judge.
    """
    if claim_language(claim) in _CAPITALISED_NOUNS:
        return []
    ours = _tokens(claim)
    strangers = _stranger_runs(ours, around)
    if not strangers:
        return []
    cited = _cited(ours)
    plain = [_plain(word) for word in ours]
    said = frozenset(plain)
    theirs = [
        name
        for name in _name_runs(around)
        if any(len(w) >= 3 and w not in STOP_WORDS and w not in said for w in map(_plain, name[0]))
        or (len(name[0]) > 1 and not _says_run([_plain(w) for w in name[0]], plain))
    ]  # a name the claim does not give: a word of it, or all its words but not in a row
    changes = []
    for cuts in strangers:
        if cuts[0][0][0] in cited:
            continue
        places = [place for stranger in cuts for place in _places(stranger, theirs)]
        if places:
            run, other, _ = max(places, key=lambda place: place[2])  # both sides alike first
            changes.append(
                f"the claim says {' '.join(run)!r} where the passage names {' '.join(other)!r}"
            )
    changes.extend(_spelt_out_otherwise(ours, around, theirs))
    return list(dict.fromkeys(changes))


def _says_run(name: list[str], words: list[str]) -> bool:
    """Whether ``words`` hold the words of ``name`` in a row ("World Wide Web")."""
    return any(words[at : at + len(name)] == name for at in range(len(words) - len(name) + 1))


def _spelt_out_otherwise(tokens: list[str], text: str, theirs: list[Run]) -> list[str]:
    """Words of the claim that the text does not say, before an abbreviation in brackets
    that the text writes in capitals and spells out otherwise, with a name of ``theirs`` (the
    text's names the claim does not give) whose words it abbreviates: "research in the
    Questionnaire (US)" against a text that says "the United States" and "the US". A claim
    that spells the abbreviation out itself ("the Federal Housing Administration (FHWA)") is
    left to the names read in their place. The claim's case is not read: the text's capitals
    say which word is an abbreviation."""
    said, capitals = _bare_lower(text), _capital_words(text)
    changes = []
    for at in range(1, len(tokens) - 2):
        short = tokens[at + 1]
        if tokens[at] != "(" or tokens[at + 2] != ")" or not short.isalpha() or len(short) < 2:
            continue
        written = short.upper()
        if _plain(short) not in capitals or written not in text:
            continue  # the text writes no such abbreviation
        own = tokens[max(0, at - len(written) - 2) : at]
        if any(abbreviates(written, own[start:]) for start in range(len(own))):
            continue  # the claim spells it out itself: its words are read as names, above
        for other in (name[0] for name in theirs if abbreviates(written, name[0])):
            before = [_plain(word) for word in tokens[max(0, at - len(other) - 1) : at]]
            if not set(before).isdisjoint(_parts(other)):
                continue  # the claim gives a word of the name: no other name
            strangers: list[str] = []
            for word in reversed(tokens[:at]):
                plain = _plain(word)
                if len(plain) < 3 or not plain.isalpha() or plain in _NO_NAME:
                    break
                if _says(plain, said):
                    break
                strangers.insert(0, word)
            if strangers and not _spelt_alike(strangers, other):
                changes.append(
                    f"the claim says {' '.join(strangers)!r} for {written!r} where the "
                    f"passage names {' '.join(other)!r}"
                )
                break
    return changes


def _places(stranger: Run, theirs: list[Run]) -> list[tuple[list[str], list[str], bool]]:
    """The names of the text (``theirs``) that a run of the claim with a stranger in it
    stands in the place of (:func:`stranger_names`): the two runs without the words they
    share, and whether both sides are alike."""
    places = []
    beside = {*stranger[1][:2], *stranger[2][:2]}
    for name in theirs:
        if (
            beside.isdisjoint((*name[1][:2], *name[2][:2]))
            and _plain(stranger[0][0]) != _plain(name[0][0])
            and _plain(stranger[0][-1]) != _plain(name[0][-1])
        ):
            continue  # nothing beside them alike, no word alike at an end: no place
        (run, left, right), (other, their_left, their_right) = _trimmed(stranger, name)
        if (
            run
            and other
            and _same_place(left, right, their_left, their_right)
            and not _spelt_alike(run, other)
            and _parts(run).isdisjoint(_parts(other))  # "name Marcus" / "Marcus Morgan"
        ):
            places.append((run, other, their_left == left and their_right == right))
    return places


def _parts(run: list[str]) -> frozenset[str]:
    """The words of a run and their hyphenated parts (:func:`_plain`)."""
    return frozenset(part for word in run for part in _plain(word).split("-") if part)


def _trimmed(ours: Run, theirs: Run) -> tuple[Run, Run]:
    """Two runs without the words they share at their start and their end ("Stage II" and
    "Philip II" are "Stage" and "Philip" before "ii"), each with the words now beside it."""
    (run, left, right), (other, their_left, their_right) = ours, theirs
    start = 0
    while start < min(len(run), len(other)) and _plain(run[start]) == _plain(other[start]):
        word = _plain(run[start])
        left, their_left = (word, word, left[2] | {word}), (word, word, their_left[2] | {word})
        start += 1
    end = 0
    while end < min(len(run), len(other)) - start and _plain(run[-1 - end]) == _plain(
        other[-1 - end]
    ):
        word = _plain(run[-1 - end])
        right = (word, word, right[2] | {word})
        their_right = (word, word, their_right[2] | {word})
        end += 1
    return (
        (run[start : len(run) - end], left, right),
        (other[start : len(other) - end], their_left, their_right),
    )


def _stranger_runs(tokens: list[str], text: str) -> list[list[Run]]:
    """The runs of the claim's ``tokens`` with a stranger in them (:func:`stranger_names`),
    with the words beside them; each run with the runs cut from it at a word the text writes
    as a name, which may be the end or the start of one of the text's names: "Patents Search
    Administration's" is cut from "Patents Search Administration's Next Generation" against
    "the Federal Highway Administration's (FHWA) Next Generation Simulation"."""
    said, capitals = _bare_lower(text), _capital_words(text)
    kinds = [_kind_of(token, said, capitals, text) for token in tokens]
    found: list[list[Run]] = []
    at = 0
    while at < len(tokens):
        if kinds[at] is None:
            at += 1
            continue
        end = at
        while end < len(tokens) and kinds[end] is not None:
            end += 1
        begin = at
        if kinds[at] == "name" and (at == 0 or tokens[at - 1] in _OPENING):
            begin += 1  # as the text's names: a word that opens a sentence begins none
        if "stranger" in kinds[begin:end]:
            cuts = [(begin, end)]
            cuts += [
                (begin, cut + 1)
                for cut in range(begin + 1, end - 1)
                if kinds[cut] == "name" and "stranger" in kinds[begin:cut]
            ]
            cuts += [
                (cut, end)
                for cut in range(begin + 1, end)
                if kinds[cut] == "name" and "stranger" in kinds[cut + 1 : end]
            ]
            found.append([(tokens[i:j], *_around_run(tokens, i, j)) for i, j in cuts])
        at = end
    return found


def _kind_of(token: str, said: str, capitals: frozenset[str], text: str) -> str | None:
    """ "stranger" for a word of the claim the text does not say, "name" for one it writes
    only as a name (with a capital, never in lower case), else ``None``."""
    plain = _plain(token)
    if not plain[:1].isalpha() or any(c.isdigit() for c in plain) or plain in _NO_NAME:
        return None
    if plain in capitals and not _in_lower_case(plain, text):
        return "name"
    if len(plain) < 3 or _says(plain, said):
        return None
    return "stranger"


def _says(plain: str, said: str) -> bool:
    """Whether the text (``said``, :func:`_bare_lower`) says ``plain``: a word of the same
    first five letters, no more than :data:`_INFLECTION` letters longer or shorter; a shorter
    word, one that begins a word of the text ("Tim" of "Timothy"). A few searches of the
    text, no pattern compiled for each word."""
    key = plain[:_STEM]
    for at in _word_starts(key, said):
        if len(plain) < _STEM:
            return True
        end = at + len(key)
        while end < len(said) and (_in_word(said[end]) or said[end] in "'’"):
            end += 1
        if abs(len(_plain(said[at:end])) - len(plain)) <= _INFLECTION:
            return True
    return False


def _word_starts(key: str, text: str) -> Iterator[int]:
    """Where ``key`` begins a word of ``text``: a few searches, no pattern compiled."""
    at = text.find(key)
    while at >= 0:
        if at == 0 or not _in_word(text[at - 1]):
            yield at
        at = text.find(key, at + 1)


_INFLECTION = 3
_NO_NAME = (
    STOP_WORDS
    | _AUXILIARIES
    | _PRONOUNS
    | frozenset(
        "about above across after against along among around because before behind below "
        "beneath beside besides between beyond despite during except if including inside "
        "into like near onto outside over per since than though through throughout till "
        "toward towards under unless unlike until upon via whereas whether while within "
        "without".split()
    )
)
"""English words of a closed class (prepositions, conjunctions, pronouns, auxiliaries) that
cannot stand in a name's place: "a questionnaire like the Asthma Control Test" puts "like"
beside the words a list of the text's names puts "Lara Asthma Symptom Scale" beside."""


@lru_cache(maxsize=64)
def _bare_lower(text: str) -> str:
    """``text`` in lower case, without accents (as :func:`_plain` writes a word)."""
    return _unaccented(text.lower())


def _unaccented(text: str) -> str:
    if text.isascii():
        return text
    bare = unicodedata.normalize("NFKD", text)
    return "".join(c for c in bare if not unicodedata.combining(c))


@lru_cache(maxsize=64)
def _capital_words(text: str) -> frozenset[str]:
    """The words ``text`` writes with a capital (:func:`_plain`)."""
    return frozenset(
        _plain(m.group()) for m in _CAPITAL_WORD.finditer(text) if m.group()[0].isupper()
    )


def _in_lower_case(plain: str, text: str) -> bool:
    """Whether ``text`` writes the word ``plain`` in lower case somewhere, as a whole word."""
    return any(
        at + len(plain) == len(text) or not _in_word(text[at + len(plain)])
        for at in _word_starts(plain, text)
    )


Beside = tuple[str, str, frozenset[str]]
"""What stands on one side of a run (:func:`_plain`; "" at an end): the next word or mark,
the next that is not a stop word, and the next :data:`_WINDOW` words and marks."""
Run = tuple[list[str], Beside, Beside]
"""A run of words as written, with what stands before it and after it."""


def _around_run(tokens: list[str], begin: int, end: int) -> tuple[Beside, Beside]:
    """What stands before and after ``tokens[begin:end]``."""
    return _next_words(tokens, begin - 1, -1), _next_words(tokens, end, 1)


def _next_words(tokens: list[str], at: int, step: int) -> Beside:
    """The token at ``at``, the first from there on (by ``step``) that is no stop word, and
    the :data:`_WINDOW` tokens from there on, past a bracket of :data:`_ASIDE` tokens or
    fewer ("the Federal Highway Administration's (FHWA) Next Generation": "next" follows)."""
    first = content = ""
    window: list[str] = []
    pairs = _BRACKETS if step > 0 else {shut: opened for opened, shut in _BRACKETS.items()}
    while 0 <= at < len(tokens) and (not content or len(window) < _WINDOW):
        if tokens[at] in pairs:  # "Administration's (FHWA) Next": an aside is passed over
            closing = pairs[tokens[at]]
            shut = next(
                (i for i in range(at + step, at + step * (_ASIDE + 2), step)
                 if 0 <= i < len(tokens) and tokens[i] == closing),
                None,
            )  # fmt: skip
            if shut is not None:
                at = shut + step
                continue
        word = _plain(tokens[at])
        first = first or word
        if len(window) < _WINDOW:
            window.append(word)
        if not content and word not in STOP_WORDS:
            content = word
        at += step
    return first, content, frozenset(window)


_WINDOW = 3
_ASIDE = 3
"""The most words and marks a bracket may hold for the words beside a run to be read past it
(an abbreviation, a year, a reference number)."""
_BRACKETS = {"(": ")", "[": "]"}


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _capitalised(word: str) -> bool:
    """A word written as a name: a capital first, small letters too, and a capital after each
    hyphen ("Cateau-Cambrésis"; not "N-glycosylation", a term)."""
    return (
        word[0].isupper()
        and any(c.islower() for c in word)
        and all(part[:1].isupper() or part[:1].isdigit() for part in word.split("-"))
    )


@lru_cache(maxsize=64)
def _name_runs(text: str) -> tuple[Run, ...]:
    """The names ``text`` writes inside its sentences: runs of capitalised words (a word in
    capitals goes on one, "Philip II"; a stop word ends one, "Sounds Of The Universe"), with
    the words beside them. A word that opens a sentence, a title or a quotation begins no
    run, unless the text writes it as a name inside a sentence too (never in lower case):
    then the run is read both with it and without it ("Ramaphosa faces …" where the text
    speaks of "a scandal surrounding Ramaphosa"). A run among capitalised words (a heading in
    title case) is none. Only the
    capitalised words are visited, and the text beside each run: not every word."""
    words = [m for m in _CAPITAL_WORD.finditer(text) if m.group().lower() not in STOP_WORDS]
    runs: list[tuple[list[str], list[str], list[str], bool]] = []
    inside: set[str] = set()  # the words the text writes as names inside a sentence
    at = 0
    while at < len(words):
        if not _capitalised(words[at].group()):
            at += 1
            continue
        end = at + 1
        while (
            end < len(words)
            and text[words[end - 1].end() : words[end].start()].isspace()
            and (_capitalised(words[end].group()) or words[end].group().isupper())
        ):
            end += 1
        run = [m.group() for m in words[at:end]]
        before_text = text[max(0, words[at].start() - _BESIDE_CHARS) : words[at].start()]
        after_text = text[words[end - 1].end() : words[end - 1].end() + _BESIDE_CHARS]
        before = _tokens(before_text.rpartition("\n")[2])  # a line before is another block:
        after = _tokens(after_text.partition("\n")[0])  # a heading ("## 4.1 Language Definition")
        opens = not before or before[-1] in _OPENING
        inside.update(_plain(word) for word in run[1 if opens else 0 :])
        runs.append((run, before, after, opens))
        at = end
    found: list[Run] = []
    for run, before, after, opens in runs:
        readings = [(run, before)]
        if opens:  # it opens a sentence: its first word may
            readings = [(run[1:], [*before, run[0]])]  # be no name ("Regarding FinTabNet"),
            if _plain(run[0]) in inside and not _in_lower_case(_plain(run[0]), text):
                readings.append((run, before))  # unless the text names it inside a sentence
        # too ("… surrounding Ramaphosa" for "Ramaphosa faces"); a heading is read as before
        beside = readings[0][1][-_TITLE:] + after[:_TITLE]
        if sum(map(_capitalised, beside)) >= _TITLE_CAPITALS:
            continue
        for name, ahead in readings:
            if name:
                found.append(
                    (name, _next_words(ahead, len(ahead) - 1, -1), _next_words(after, 0, 1))
                )
    return tuple(found)


_CAPITAL_WORD = re.compile(r"(?<![\w'’\-])[^\W\da-zß-öø-ÿ_][\w'’\-]*")
"""A word that may begin with a capital: its first letter is no small Latin letter (each
found is asked, :func:`_capitalised`)."""
_BESIDE_CHARS = 80
"""How much text on either side of a run its neighbours are read from."""


_TITLE = 4
_TITLE_CAPITALS = 3
"""A run with this many capitalised words among the :data:`_TITLE` words on either side of
it stands in a heading in title case ("Estate Planning and Capital Gains"): no name."""


@lru_cache(maxsize=65_536)
def _plain(word: str) -> str:
    """A word as runs and their neighbours are compared: in lower case, without accents or a
    possessive ending."""
    plain = _unaccented(word.lower())
    for ending in ("'s", "’s", "'", "’"):
        plain = plain.removesuffix(ending)
    return plain


def _same_place(left: Beside, right: Beside, their_left: Beside, their_right: Beside) -> bool:
    """Whether two runs stand in the same place: between the same two words (one of them a
    word, not a mark), next to them or past the stop words ("its Be Right event" and "its
    Ubisoft Forward event" stand between "during" and "event"), with :data:`_SHARED_BESIDE`
    of the :data:`_WINDOW` words and marks on either side the same, a word of content among
    them ("used in natural language processing." and "written in Python." share only "in"
    and the full stop); or with one side alike word for word, a word of content in it
    ("belongs to Stage II and his widow" and "associated with Philip II and his widow")."""
    between = any(
        ours == theirs and (ours[0].isalnum() or ours[1].isalnum())
        for ours, theirs in (
            ((left[0], right[0]), (their_left[0], their_right[0])),
            ((left[1], right[1]), (their_left[1], their_right[1])),
        )
    )
    shared_left, shared_right = left[2] & their_left[2], right[2] & their_right[2]
    if not between:  # one side alike word for word is a place too ("to Stage II and his")
        return any(
            ours[0] == theirs[0] and len(shared) >= _WINDOW and any(map(_a_content_word, shared))
            for ours, theirs, shared in (
                (left, their_left, shared_left),
                (right, their_right, shared_right),
            )
        )
    return len(shared_left) + len(shared_right) >= _SHARED_BESIDE and any(
        _a_content_word(word) for word in shared_left | shared_right
    )


_SHARED_BESIDE = 3


def _a_content_word(word: str) -> bool:
    return word.isalnum() and word not in STOP_WORDS


def _cited(tokens: list[str]) -> frozenset[str]:
    """The words of ``tokens`` that cite authors: inside a bracket with "et al." or a year in
    it ("(Collin et al., 2019; Deco and Kringelbach)"), or before "et al." or "and
    colleagues"."""
    inside: set[str] = set()
    opened: list[int] = []
    for at, token in enumerate(tokens):
        if token in "([":
            opened.append(at)
        elif token in ")]" and opened:
            start = opened.pop()
            held = tokens[start + 1 : at]
            if _citing(held):
                inside.update(held)
    if opened:  # a bracket the claim leaves open runs to its end
        held = tokens[opened[0] + 1 :]
        if _citing(held):
            inside.update(held)
    for at in range(1, len(tokens) - 1):  # "Smith et al.", "Hrecka and colleagues"
        token, following = tokens[at].lower(), tokens[at + 1].lower()
        if (token == "et" and following == "al") or (token == "and" and following in _COLLEAGUES):
            inside.add(tokens[at - 1])
    return frozenset(inside)


_COLLEAGUES = frozenset(("colleagues", "co-workers", "coworkers", "collaborators"))


def _citing(held: list[str]) -> bool:
    """Whether the words inside a bracket cite: "et al." or a year."""
    return any(word.lower() == "et" or _YEAR.fullmatch(word.lower()) for word in held)


_YEAR = re.compile(r"(?:1[5-9]|20)\d\d[a-z]?")


def _spelt_alike(ours: list[str], theirs: list[str]) -> bool:
    """Whether a word of one run is a word of the other spelt or inflected another way: the
    same first four letters ("China" / "Chinese"), or nearly the same letters ("Faroe" /
    "Faeroes")."""
    from rapidfuzz.distance import Levenshtein

    return any(
        a[:4] == b[:4] or Levenshtein.normalized_similarity(a, b) >= _SPELT_ALIKE
        for a in map(_plain, ours)
        for b in map(_plain, theirs)
        if len(a) >= 3 and len(b) >= 3 and a != b  # a word both give is not the swap
    )


_SPELT_ALIKE = 0.7


_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)", re.IGNORECASE)
_LISTED = 2
"""A claim naming more names than this lists them ("IL-1, IL-2, IL-6"): no one of them is
read as swapped for a name of its passage."""


def _a_claim_name(word: str) -> bool:
    return not _ORDINAL.fullmatch(word) and not word.isdigit()


def _core(word: str) -> str:
    """A name as compared: in lower case, without the plain words hyphenated to it
    ("SARS-CoV-2-associated" is "sarscov2", "COVID-19-related" "covid19") or its hyphens."""
    parts = word.split("-")
    while len(parts) > 1 and parts[-1].isalpha() and parts[-1].islower():
        parts.pop()
    while len(parts) > 1 and parts[0].isalpha() and parts[0].islower():
        parts.pop(0)
    return _compact("-".join(parts).casefold())


def _same_name(ours: str, theirs: str) -> bool:
    """Whether two compared names are one: one holds the other ("sarscov2", "cov2"), or they
    have the same digits and differ in one letter of four or more ("covd19", "covid19")."""
    if ours in theirs or theirs in ours:
        return True
    digits = [c for c in ours if c.isdigit()] == [c for c in theirs if c.isdigit()]
    letters = "".join(c for c in ours if c.isalpha()), "".join(c for c in theirs if c.isalpha())
    return digits and min(map(len, letters)) >= 4 and _one_edit(*letters)


def _one_edit(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1:
        return False
    return SequenceMatcher(None, a, b).ratio() >= 1 - 2 / (len(a) + len(b))


def _compact(text: str) -> str:
    """``text`` without hyphens of any kind: "covid19", "sars-cov-2" and "sars‑cov‑2" alike."""
    return "".join(c for c in text if c.isalnum() or c.isspace())


def _mixed(word: str) -> bool:
    return any(c.isdigit() for c in word) and any(c.isalpha() for c in word)


def _shape(word: str) -> tuple[bool, bool]:
    """Whether a name holds a digit, and a capital after its first letter."""
    return any(c.isdigit() for c in word), any(c.isupper() for c in word[1:])
