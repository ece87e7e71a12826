"""Hard pairs for the support judge: true and false twins of the training pairs' evidence.

The public training pairs teach a judge what NLI data teaches; they rarely show it the one
thing a citation checker must never miss: a sentence copied from its source with one fact
changed. This generator makes such pairs from the training pairs themselves. For each pair
whose claim the evidence supports, it finds the evidence sentence that shares most words with
the claim and makes, with a seeded random generator:

**False twins** (the claim, or that sentence, with one thing changed), through the changes of
:mod:`citecheck.testing.twins` (the ones the meaning guard, the cross-door tests and
``benchmarks/falsify.py`` use) and three more:

- ``number changed``, ``negation added``, ``negation dropped``, ``direction`` ("fell" for
  "rose"), ``entity`` (a nationality, country, language, month or weekday of the same kind),
  ``agent`` ("automatically" for "by human annotators"): *contradicted*;
- ``direction in other words``: a word that says up replaced by a phrase that says down with
  another stem ("went down" for "increased", "slowed" for "sped up"), and the other way:
  *contradicted*;
- ``agent`` also swaps who did it and to whom in a passive between two names ("Henry was
  succeeded by Otto" for "Otto was succeeded by Henry"): *contradicted*;
- ``name swapped``: a capitalised name inside the sentence replaced by a capitalised name of
  another pair's evidence: *contradicted*;
- ``quantifier`` ("all" for "some", "most" or "87 percent of"): *not supported* (either
  failing class: "all" for "some" is more than the source says, not always its opposite);
- ``clause added``: the sentence and a clause of another pair's evidence (the source says
  nothing of it): *not enough information*.

**True twins** (must stay supported): ``evidence sentence`` (the sentence itself), ``sub-clause``
(a clause of it of five words or more, never from a sentence that speaks of a condition or of
what someone claims), ``reordered`` (two clauses of it, or two adjacent sentences, swapped) and
``function words`` (a few function words replaced by others that mean the same: "about" for
"approximately", "since" for "because").

A twin is labelled with the same integers as ``benchmarks/train_support.py`` (0 supported,
1 contradicted, 2 not enough information, 3 either failing class) and carries the name of the
change as ``kind``, so that a held-out part can be measured per kind. Run from the repository
root::

    PYTHONPATH=src python benchmarks/hard_pairs.py [--data DIR] [--seed N] [--limit N]

which prints a sample and the counts per kind; ``benchmarks/train_support.py`` calls
:func:`hard_pairs` on its training and held-out splits separately, so that no held-out twin
comes from a trained pair.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from citecheck.language.lexicon import direction
from citecheck.language.text import sentence_spans
from citecheck.testing.twins import CHANGES, NEGATION, names_in, swapped_name

__all__ = [
    "FALSE_KINDS",
    "REFINEMENT_KINDS",
    "TRUE_KINDS",
    "Twin",
    "hard_pairs",
    "negated_evidence",
    "twins_of",
]

SUPPORTED, CONTRADICTED, NO_INFO, EITHER = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class Twin:
    """A made pair: ``claim`` against ``evidence``, its label and the change that made it."""

    claim: str
    evidence: str
    label: int
    kind: str


_WORD = re.compile(r"[^\W_]+")
_STEM = 5


def _stems(text: str) -> set[str]:
    return {w[:_STEM] for w in _WORD.findall(text.lower()) if len(w) > 2}


def evidence_sentence(claim: str, evidence: str) -> str | None:
    """The sentence of ``evidence`` (four to sixty words) sharing most word stems with
    ``claim``, or ``None`` when none shares two."""
    wanted = _stems(claim)
    best, best_shared = None, 1
    for start, end in sentence_spans(evidence):
        sentence = evidence[start:end].strip()
        words = len(sentence.split())
        if not 4 <= words <= 60:
            continue
        shared = len(wanted & _stems(sentence))
        if shared > best_shared:
            best, best_shared = sentence, shared
    return best


_UP_PHRASES = ("went up", "rose", "grew", "climbed")
_DOWN_PHRASES = ("went down", "fell", "declined", "dropped", "shrank")
_UP_PRESENT = ("goes up", "rises", "grows", "climbs")
_DOWN_PRESENT = ("goes down", "falls", "declines", "drops", "shrinks")
_UP_COMPARATIVES = ("higher", "greater", "larger", "more")
_DOWN_COMPARATIVES = ("lower", "smaller", "fewer", "less")
_SPEED = {
    "faster": "more slowly",
    "quicker": "more slowly",
    "slower": "more quickly",
    "speed up": "slowdown",
    "speedup": "slowdown",
    "sped up": "slowed down",
    "slowed down": "sped up",
    "improved": "got worse",
    "improves": "gets worse",
    "worsened": "got better",
    "better": "worse",
    "worse": "better",
}
_COMPARATIVE_ENDING = ("er", "est")
_TOO_SHORT = frozenset("more less most least down over under fall cut lost loss".split())


def direction_in_other_words(claim: str, rng: random.Random) -> str | None:
    """``claim`` with one word that says up or down replaced by a phrase of the other way
    with another stem ("went down" for "increased", "more slowly" for "faster"), or ``None``."""
    lowered = claim.lower()
    speed = [(m.start(), m.end(), _SPEED[m.group().lower()]) for m in _SPEED_WORDS.finditer(claim)]
    if speed:
        start, end, other = rng.choice(speed)
        return claim[:start] + _cased(other, claim[start:end]) + claim[end:]
    found = []
    for m in _WORD.finditer(claim):
        word = m.group().lower()
        way = direction(word)
        if way and len(word) > 3 and word not in _TOO_SHORT:
            found.append((m, way))
    if not found:
        return None
    match, way = rng.choice(found)
    word = match.group().lower()
    if word.endswith(_COMPARATIVE_ENDING) and not word.endswith(("ier", "eer")):
        choices = _DOWN_COMPARATIVES if way > 0 else _UP_COMPARATIVES
    elif word.endswith("ed"):
        choices = _DOWN_PHRASES if way > 0 else _UP_PHRASES
    elif word.endswith("es"):
        choices = _DOWN_PRESENT if way > 0 else _UP_PRESENT
    else:  # a noun or an infinitive: no phrase fits it
        return None
    choices = tuple(c for c in choices if c.split()[0] not in lowered)
    if not choices:
        return None
    other = rng.choice(choices)
    return claim[: match.start()] + _cased(other, match.group()) + claim[match.end() :]


_SPEED_WORDS = re.compile(
    r"\b(?:" + "|".join(re.escape(w) for w in sorted(_SPEED, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)


def _cased(replacement: str, original: str) -> str:
    return replacement[0].upper() + replacement[1:] if original[:1].isupper() else replacement


_PASSIVE = re.compile(
    r"\b((?:[A-Z][\w'-]+ )*[A-Z][\w'-]+) (was|were|is|are|has been|had been) (\w+ed) by "
    r"(?:the )?((?:[A-Z][\w'-]+ )*[A-Z][\w'-]+)"
)


def swapped_roles(claim: str) -> str | None:
    """``claim`` with who did it and to whom swapped in a passive between two names ("Otto was
    succeeded by Henry" → "Henry was succeeded by Otto"), or ``None``."""
    match = _PASSIVE.search(claim)
    if match is None or match.group(1) == match.group(4):
        return None
    first, verb, done, agent = match.groups()
    swapped = f"{agent} {verb} {done} by {first}"
    return claim[: match.start()] + swapped + claim[match.end() :]


_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|whether|would|could|might|may|should|suppose[sd]?|claim(?:s|ed)?|"
    r"believe[sd]?|think|thought|den(?:y|ied|ies)|rumou?r(?:ed|s)?|hypothes\w+|allegedly|"
    r"not|no|never|only|except|than|but|although|though)\b",
    re.IGNORECASE,
)
_CLAUSE_CUT = re.compile(r"\s*(?:[,;:]|\s-\s|—)\s*")


def _clauses(sentence: str) -> list[str]:
    return [c.strip(" .") for c in _CLAUSE_CUT.split(sentence) if len(c.split()) >= 5]


def sub_clause(sentence: str, rng: random.Random) -> str | None:
    """A clause of ``sentence`` of five words or more (when it has two or more parts), never
    from a sentence that speaks of a condition, a claim, a limit or a negation."""
    if _HYPOTHETICAL.search(sentence):
        return None
    parts = _CLAUSE_CUT.split(sentence)
    clauses = _clauses(sentence)
    if len(parts) < 2 or not clauses:
        return None
    clause = rng.choice(clauses)
    if _starts_subordinate(clause):
        return None
    return _sentence_case(clause) + "."


_SUBORDINATE = re.compile(
    r"^(?:which|who|whom|whose|where|when|while|because|since|as|after|before|until|that|and|"
    r"or|so|then|to|for|with|by|in|on|at|of|from|including|such|e\.g|i\.e)\b",
    re.IGNORECASE,
)


def _starts_subordinate(clause: str) -> bool:
    return bool(_SUBORDINATE.match(clause))


def _sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]


_AND = re.compile(r",? and (?=[a-z])")


def reordered(sentence: str, following: str | None) -> str | None:
    """Two clauses of ``sentence`` joined by "; " swapped, else ``sentence`` and the
    sentence after it in the other order, or ``None``."""
    parts = [p.strip(" .") for p in sentence.split("; ")]
    if len(parts) == 2 and all(len(p.split()) >= 4 for p in parts):
        return f"{_sentence_case(parts[1])}; {parts[0][:1].lower() + parts[0][1:]}."
    if following and 4 <= len(following.split()) <= 60:
        return f"{following.strip()} {sentence.strip()}"
    return None


_SAME = {
    "approximately": "about",
    "about": "approximately",
    "because": "since",
    "however": "but",
    "therefore": "so",
    "thus": "so",
    "whereas": "while",
    "whilst": "while",
    "amongst": "among",
    "among": "amongst",
    "towards": "toward",
    "toward": "towards",
    "upon": "on",
    "in addition": "additionally",
    "additionally": "in addition",
    "in order to": "to",
    "was able to": "could",
    "were able to": "could",
    "a number of": "several",
    "numerous": "many",
    "nearly": "almost",
    "almost": "nearly",
    "roughly": "about",
    "commonly": "often",
    "frequently": "often",
    "the majority of": "most",
}
_SAME_WORDS = re.compile(
    r"\b(?:" + "|".join(re.escape(w) for w in sorted(_SAME, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)


def function_words_changed(sentence: str, rng: random.Random) -> str | None:
    """``sentence`` with its function words replaced by others that mean the same ("about"
    for "approximately"), or ``None`` when it has none of them."""
    found = list(_SAME_WORDS.finditer(sentence))
    if not found:
        return None
    out, last = [], 0
    for m in found:
        if m is found[0] or rng.random() < 0.5:
            out.append(sentence[last : m.start()])
            out.append(_cased(_SAME[m.group().lower()], m.group()))
            last = m.end()
    out.append(sentence[last:])
    return "".join(out)


def clause_added(sentence: str, other: str, rng: random.Random) -> str | None:
    """``sentence`` and a clause of ``other`` (another pair's evidence) joined by "and", or
    ``None`` when ``other`` has no clause of five words that stands alone."""
    clauses = [c for c in _clauses(other) if not _starts_subordinate(c)]
    if not clauses:
        return None
    clause = rng.choice(clauses)
    if not (clause[:1].isupper() and clause[1:2].isupper()):  # "OTSL …" keeps its capitals
        clause = clause[:1].lower() + clause[1:]
    return f"{sentence.rstrip(' .')}, and {clause}."


FALSE_KINDS: dict[str, int] = {
    "number changed": CONTRADICTED,
    "negation added": CONTRADICTED,
    "negation dropped": CONTRADICTED,
    "direction": CONTRADICTED,
    "direction in other words": CONTRADICTED,
    "entity": CONTRADICTED,
    "agent": CONTRADICTED,
    "name swapped": CONTRADICTED,
    "quantifier": EITHER,
    "clause added": NO_INFO,
}
"""Each false twin's kind and the label it is trained with."""
TRUE_KINDS = ("evidence sentence", "sub-clause", "reordered", "function words")
"""Each true twin's kind (all supported)."""


def twins_of(
    claim: str,
    evidence: str,
    other_evidence: str,
    rng: random.Random,
    *,
    false_twins: int = 2,
    true_twins: int = 1,
) -> list[Twin]:
    """Up to ``false_twins`` false and ``true_twins`` true twins of a supported pair, each of
    another kind, chosen at random among the kinds that apply. ``other_evidence`` (another
    pair's) lends a clause and names. A changed claim never equals the one it came from."""
    spans = sentence_spans(evidence)
    sentence = evidence_sentence(claim, evidence)
    following = None
    if sentence is not None:
        texts = [evidence[s:e].strip() for s, e in spans]
        at = texts.index(sentence) if sentence in texts else -1
        following = texts[at + 1] if 0 <= at < len(texts) - 1 else None
    bases = [b for b in (claim.strip(), sentence) if b]
    if not bases:
        return []

    made: dict[str, str | None] = {}
    names = names_in(other_evidence)
    for kind in FALSE_KINDS:
        base = rng.choice(bases)
        if kind in CHANGES and kind != "agent":
            changed = CHANGES[kind](base, rng)
        elif kind == "direction in other words":
            changed = direction_in_other_words(base, rng)
        elif kind == "agent":
            changed = CHANGES[kind](base, rng) or swapped_roles(base)
        elif kind == "name swapped":
            changed = swapped_name(base, names, rng)
        else:  # clause added
            changed = clause_added(base, other_evidence, rng)
        if changed and changed.strip() != base.strip() and not _ADVERB_QUANTIFIED.search(changed):
            made[kind] = _articles(changed, base)
    twins = [
        Twin(made[kind], evidence, FALSE_KINDS[kind], kind)
        for kind in _weighted_sample(sorted(made), false_twins, rng)
    ]
    if sentence is not None:
        true: dict[str, str | None] = {
            "evidence sentence": sentence,
            "sub-clause": sub_clause(sentence, rng),
            "reordered": reordered(sentence, following),
            "function words": function_words_changed(sentence, rng),
        }
        kinds = sorted(k for k, v in true.items() if v)
        for kind in _weighted_sample(kinds, true_twins, rng):
            text = true[kind]
            assert text is not None
            twins.append(Twin(text, evidence, SUPPORTED, kind))
    return twins


_WEIGHTS = {"clause added": 0.2, "negation added": 0.3, "evidence sentence": 0.4}
"""The kinds that apply to nearly every sentence are drawn less often, so that the rarer
changes (a direction, an entity, a quantifier) are not crowded out."""
_ADVERB_QUANTIFIED = re.compile(r"\b[Aa]ll \w+ly\b")  # "most recently" is no quantifier
_ARTICLE = re.compile(r"\b([Aa])(n?) (\w)")


def _weighted_sample(kinds: Sequence[str], count: int, rng: random.Random) -> list[str]:
    """Up to ``count`` of ``kinds`` without repeats, each drawn with its :data:`_WEIGHTS`."""
    left, chosen = list(kinds), []
    while left and len(chosen) < count:
        weights = [_WEIGHTS.get(k, 1.0) for k in left]
        chosen.append(left.pop(rng.choices(range(len(left)), weights)[0]))
    return chosen


def _articles(changed: str, base: str) -> str:
    """``changed`` with "a"/"an" agreeing with the word after it, where the change made them
    disagree (an article the base already wrote stays as it was)."""

    def fix(m: re.Match[str]) -> str:
        wanted = "n" if m.group(3).lower() in "aeiou" else ""
        if m.group(2) == wanted or m.group() in base:
            return m.group()
        return f"{m.group(1)}{wanted} {m.group(3)}"

    return _ARTICLE.sub(fix, changed)


def hard_pairs(
    pairs: Sequence[tuple[str, str, int]],
    seed: int,
    *,
    false_twins: int = 2,
    true_twins: int = 1,
) -> list[Twin]:
    """The twins of every supported ``(claim, evidence, label)`` pair, seeded: the same pairs
    and seed give the same twins. Another pair's evidence is drawn for each pair."""
    rng = random.Random(seed)
    evidences = [evidence for _, evidence, _ in pairs]
    out: list[Twin] = []
    for claim, evidence, label in pairs:
        if label != SUPPORTED:
            continue
        other = ""
        for _ in range(5):  # another pair's evidence; none when every pair has this one
            drawn = evidences[rng.randrange(len(evidences))]
            if drawn != evidence:
                other = drawn
                break
        out.extend(
            twins_of(claim, evidence, other, rng, false_twins=false_twins, true_twins=true_twins)
        )
    return out


REFINEMENT_KINDS: dict[str, int] = {
    "negation in the evidence": CONTRADICTED,
    "negation on both sides": SUPPORTED,
}
"""The kinds :func:`negated_evidence` makes, and their labels (the refinement round of
``benchmarks/train_support.py --refine-from``)."""


def negated_evidence(claim: str, evidence: str, rng: random.Random) -> list[Twin]:
    """Two twins of a supported pair whose evidence sentence takes a ``not`` (after an
    auxiliary verb, :func:`citecheck.testing.twins.added_negation`), the rest of the evidence
    kept: the claim (or the sentence as it was) against that evidence, *contradicted*
    (``negation in the evidence``: the source denies what the claim says, the case of a claim
    that dropped its source's *not*); and the negated sentence itself against it, *supported*
    (``negation on both sides``: a *not* the source also writes is no change). ``[]`` when the
    sentence takes no negation. The first round's hard pairs held 22 added negations to every
    dropped one, and the judge learned "a *not* in the claim" instead of "a *not* on one side"
    (docs/benchmarks.md)."""
    sentence = evidence_sentence(claim, evidence)
    if sentence is None:
        return []
    negated = CHANGES["negation added"](sentence, rng)
    if not negated or sentence not in evidence:
        return []
    changed = evidence.replace(sentence, negated, 1)
    bases = [b for b in (claim.strip(), sentence) if b and not NEGATION.search(b)]
    if not bases:
        return []
    return [
        Twin(rng.choice(bases), changed, CONTRADICTED, "negation in the evidence"),
        Twin(negated, changed, SUPPORTED, "negation on both sides"),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    import argparse
    import sys
    from collections import Counter
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    import train_support as ts

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ts.DEFAULT_TRAIN)
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--limit", type=int, default=5000, help="pairs read (0: all)")
    parser.add_argument("--show", type=int, default=3, help="twins printed per kind")
    args = parser.parse_args(argv)
    pairs = ts.load_train(args.data)
    random.Random(args.seed).shuffle(pairs)
    if args.limit:
        pairs = pairs[: args.limit]
    twins = hard_pairs([(p.claim, p.evidence, p.label) for p in pairs], args.seed)
    counts = Counter(t.kind for t in twins)
    print(f"{len(twins)} twins of {len(pairs)} pairs (seed {args.seed})")
    for kind in [*FALSE_KINDS, *TRUE_KINDS]:
        print(f"  {kind:26} {counts.get(kind, 0):6}")
    shown: Counter[str] = Counter()
    for twin in twins:
        if shown[twin.kind] < args.show:
            shown[twin.kind] += 1
            print(f"\n[{twin.kind}] label {twin.label}\n  claim: {twin.claim[:300]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
