"""The falsification table: false twins of true claims, through every door that judges meaning.

Every false twin is a supported claim changed in one thing its verdict must see
(:mod:`citecheck.testing.twins`: a number, a negation added or dropped, a quantifier, a
direction, a name of one kind, who did it, or a name swapped for one of another source's),
against the evidence that supported the original.
A twin whose new words stand in the evidence anyway is left out (it might be true there). The
table counts, per change and per door, how many twins come out ``verified``: the target is 0
in every cell.

Where the twins come from:

* **five sets**: the supported pairs of the five claim sets (``claims_data.py``, a seeded
  sample of ``--limit`` per set); the evidence is the cited document;
* **docling**: sentences of the three docling papers (``pages/docling``), cited to their
  printed page of the paper library (a sentence is a true claim of its page);
* **Dutch**: a fixed page in Dutch and its false twins (numbers in words, negations,
  quantifiers, directions, who did it), written out below.

The doors: the marker door (``citecheck.Verifier`` with the MiniLM embedder and the trained
judge when installed: the default path), the records door (``citecheck.verify_records``) and,
for the docling papers, the paper library (``PaperLibrary.validate`` at the cited page).

Run from the repository root::

    PYTHONPATH=src:benchmarks python benchmarks/falsify.py [--limit 60] [--sentences 40] [--seed N]

It needs the ``embeddings`` and ``bm25`` extras (``judge`` for the default path).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shlex
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

import claims_data as cd

import citecheck
from citecheck import Document, PaperLibrary, Status
from citecheck.embedders import SentenceTransformerEmbedder
from citecheck.testing.twins import CHANGES, names_in, swapped_name

ROOT = Path(__file__).resolve().parent.parent
DOCLING = ROOT / ".." / "shared" / "data" / "pages" / "docling"
SEED = 20261127

NL_PAGE = (
    "Waterfilters werden dagelijks gebruikt in 87 procent van de huishoudens. "
    "De dataset werd in drie maanden geannoteerd door getrainde menselijke annotatoren. "
    "Werknemers zijn het er niet mee eens dat hun managers meer delegeren. "
    "De werkloosheid in de regio daalde sterk in 2020."
)
NL_TWINS = {
    "number changed": "De dataset werd in zes maanden geannoteerd door getrainde menselijke "
    "annotatoren.",
    "negation added": "De werkloosheid in de regio daalde niet sterk in 2020.",
    "negation dropped": "Werknemers zijn het ermee eens dat hun managers meer delegeren.",
    "quantifier": "Waterfilters werden dagelijks gebruikt in alle huishoudens.",
    "direction": "De werkloosheid in de regio steeg sterk in 2020.",
    "agent": "De dataset werd automatisch geannoteerd, zonder menselijke annotatoren.",
}

Twin = tuple[str, str, str, int | None]
"""(kind, false claim, evidence text, cited page)."""


_WORD = re.compile(r"\w+")
_NEGATIONS = frozenset("not no never none nothing nobody neither nor without cannot".split())


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text.replace("n't", " not"))]


def _shown(kind: str, claim: str, twin: str, words: list[str]) -> bool:
    """Whether the evidence's own words (``words``, in order) show the change: the words the
    change took out stand in it beside a word they stand beside in the claim (the number, the
    direction, the name, the limit: "lower respiratory", not "lower" anywhere), or, for a
    negation, the evidence
    says a negation and the words after the changed place. Where they do not, only a judge of
    meaning can see the change, and the table reports it apart."""
    ours, theirs = _words(claim), _words(twin)
    said = set(words)
    removed = [w for w in ours if w not in theirs]
    if kind.startswith("negation"):
        longer, shorter = (ours, theirs) if kind.endswith("dropped") else (theirs, ours)
        at = next(
            (i for i, (a, b) in enumerate(zip(longer, shorter, strict=False)) if a != b),
            len(shorter),
        )
        following = [w for w in longer[at + 1 : at + 4] if len(w) > 3][:2]
        negated = kind.endswith("added") or bool(_NEGATIONS & said)
        return negated and bool(following) and all(w in said for w in following)
    return bool(removed) and all(_with_its_neighbour(w, ours, words) for w in removed)


def _with_its_neighbour(word: str, claim: list[str], evidence: list[str]) -> bool:
    """Whether ``word`` of the claim stands in the evidence beside a word it stands beside in
    the claim (within two words): "lower respiratory tract" is shown by "the lower respiratory
    tract", not by "lower virus titers" in another sentence."""
    near = {
        w
        for i, w0 in enumerate(claim)
        if w0 == word
        for w in claim[max(0, i - 2) : i + 3]
        if w != word and len(w) > 3
    }
    return any(
        w0 == word and near & set(evidence[max(0, i - 2) : i + 3]) for i, w0 in enumerate(evidence)
    )


KINDS = [*CHANGES, "name"]
"""Every change the table reports: :data:`~citecheck.testing.twins.CHANGES`, and a name
swapped for one of another source's (:func:`~citecheck.testing.twins.swapped_name`)."""


def twins_of(
    claim: str,
    evidence: str,
    rng: random.Random,
    page: int | None,
    names: list[str],
    seed: int = SEED,
) -> Iterable[Twin]:
    """The false twins of a true ``claim`` whose new words the evidence does not hold, each
    with whether the evidence's words show the change (:func:`_shown`); ``names`` are the
    names a swapped name is chosen from."""
    words = _words(evidence)
    said = set(words)
    for kind in KINDS:
        twin = (
            swapped_name(claim, names, random.Random(f"{seed} {claim}"))
            if kind == "name"  # a generator of its own: the other twins stay as they were
            else CHANGES[kind](claim, rng)
        )
        if twin is None or twin == claim:
            continue
        if set(_words(twin)) - set(_words(claim)) & said:
            continue  # the evidence may say it too: not false by construction
        shown = "shown" if _shown(kind, claim, twin, words) else "not shown"
        yield f"{kind}, {shown}", twin, evidence, page


def five_sets(data: Path, limit: int, rng: random.Random, seed: int = SEED) -> list[Twin]:
    pairs = cd.load_all(data)
    out: list[Twin] = []
    for name in sorted(pairs):
        names = sorted({n for p in pairs[name] for n in names_in(p.evidence)})
        supported = [p for p in pairs[name] if p.supported]
        sample = (
            cd.seeded_sample(supported, limit)
            if seed == SEED  # the table's own sample, as it always was
            else cd.seeded_sample(supported, limit, seed)
        )
        for pair in sample:
            out.extend(twins_of(pair.claim, pair.evidence, rng, None, names, seed))
    return out


def docling_sentences(paper: Path, count: int, rng: random.Random) -> list[tuple[str, int]]:
    """Body sentences of a docling paper (8 to 40 words) with their printed page."""
    texts = json.loads(paper.read_text(encoding="utf-8"))["texts"]
    found = []
    for item in texts:
        if item.get("label") != "text" or not item.get("prov"):
            continue
        for sentence in re.split(r"(?<=[.!?])\s+", item["text"]):
            if 8 <= len(sentence.split()) <= 40 and sentence.endswith("."):
                found.append((sentence, int(item["prov"][0]["page_no"])))
    return rng.sample(found, min(count, len(found)))


Door = Callable[[str, str, int | None], bool]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=cd.DEFAULT_DATA)
    parser.add_argument("--limit", type=int, default=60, help="supported pairs per set")
    parser.add_argument("--sentences", type=int, default=40, help="sentences per paper")
    parser.add_argument(
        "--seed",
        type=int,
        default=SEED,
        help="another seed draws other pairs, sentences and twins: a sample no rule was fitted to",
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    embedder = SentenceTransformerEmbedder()
    verifier = citecheck.Verifier(embedder=embedder)
    started = time.perf_counter()

    def marker(claim: str, evidence: str, page: int | None) -> bool:
        report = verifier.verify(f"{claim} [[e]]", [Document("e", evidence)])
        return report.results[0].status is Status.VERIFIED

    def records(claim: str, evidence: str, page: int | None) -> bool:
        record = {"id": "r", "source_text": evidence, "citations": [{"citation": claim}]}
        report = citecheck.verify_records([record], embedder=embedder)
        return report.results[0].status is Status.VERIFIED

    table: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])

    def run(origin: str, twins: list[Twin], doors: dict[str, Door]) -> None:
        for kind, claim, evidence, page in twins:
            for door, check in doors.items():
                cell = table[(origin, kind, door)]
                cell[1] += 1
                if check(claim, evidence, page):
                    cell[0] += 1
                    print(f"  VERIFIED [{origin} / {kind} / {door}] {claim!r}", file=sys.stderr)

    run(
        "five sets",
        five_sets(args.data, args.limit, rng, args.seed),
        {"Verifier": marker, "records": records},
    )
    with tempfile.TemporaryDirectory() as folder:
        library = PaperLibrary(Path(folder) / "library", embedder=embedder)
        for paper in sorted(DOCLING.glob("*.json")):
            key = library.add(paper)
            document = library.document(key)
            pages = {p.number: p.text for p in library.pages(key) if p.number is not None}
            twins = []
            names = sorted({n for text in pages.values() for n in names_in(text)})
            for sentence, page in docling_sentences(paper, args.sentences, rng):
                if page in pages:
                    twins.extend(twins_of(sentence, pages[page], rng, page, names, args.seed))

            def cited(claim: str, evidence: str, page: int | None, k: str = key) -> bool:
                report = verifier.verify(f"{claim} [[{k}:p. {page}]]", [library.document(k)])
                return report.results[0].status is Status.VERIFIED

            def validate(claim: str, evidence: str, page: int | None, k: str = key) -> bool:
                return library.validate(k, claim, page).status is Status.VERIFIED

            del document
            run("docling", twins, {"Verifier": cited, "records": records, "papers": validate})
        nl = [(kind, claim, NL_PAGE, None) for kind, claim in NL_TWINS.items()]
        run("Dutch", nl, {"Verifier": marker, "records": records})
    took = time.perf_counter() - started
    print("# Falsification table\n")
    print(f"- command: `{shlex.join(['python', *sys.argv])}`")
    print(f"- machine: {cd.cpu_model()}; Python {sys.version.split()[0]}; {took:.0f} s")
    print(f"- citecheck {citecheck.__version__} from {Path(citecheck.__file__).parent}\n")
    doors = sorted({door for _, _, door in table})
    print("| source | change | " + " | ".join(doors) + " |")
    print("|---|---|" + "--:|" * len(doors))
    kinds = [f"{kind}, {shown}" for kind in KINDS for shown in ("shown", "not shown")]
    for origin in ("five sets", "docling", "Dutch"):
        for kind in [*kinds, *KINDS]:
            cells = [table.get((origin, kind, door)) for door in doors]
            if not any(cells):
                continue
            shown = [f"{c[0]} / {c[1]}" if c else "—" for c in cells]
            print(f"| {origin} | {kind} | " + " | ".join(shown) + " |")


if __name__ == "__main__":
    main()
