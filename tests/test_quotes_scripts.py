"""Quotes in Cyrillic and Chinese text: OCR slips of Cyrillic print are noise, a Chinese
ellipsis is an ellipsis, and a quote with a word left out is shown with its whole passage
(issue 29, point 5; measured by ``benchmarks/quotes_scripts.py``)."""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import citecheck
from citecheck import Status
from citecheck.language.meaning import fold_letters

needs_bm25 = pytest.mark.skipif(
    importlib.util.find_spec("bm25s") is None or importlib.util.find_spec("rank_bm25") is None,
    reason="verify_quotes needs the bm25 extra",
)

RU = (
    "Осенью 1895 года Альберт Эйнштейн прибыл в Швейцарию, чтобы сдать вступительные экзамены. "
    "Колледж — одно из ведущих средних учебных заведений области, готовит специалистов сферы "
    "обслуживания: портных, закройщиков и менеджеров. Мы будем продолжать совершенствовать "
    "этот самолет, будучи уверенными, что он потребуется. Из Хабаровска в первый день года "
    "можно выбраться только поездом, а также автотранспортом. Щедрый подъезд к компьютерам "
    "обещали и в этом году."
)


@needs_bm25
@pytest.mark.parametrize(
    "quote",
    [
        # Latin look-alikes, capitals too (М/M, Т/T, Н/H, В/B, Е/E)
        "Mы будем продолжать coвершенствовать этот caмолет, будучи уверенными",
        # digits OCR read for letters inside words (0/о, 6/б, 3/з)
        "Колледж — 0дно из ведущих средних уче6ных заведений области",
        "можно выбраться только пое3дом, а также автотранспортом",
        # Cyrillic letters read as each other (и/н, ш/щ, ъ/ь), one letter as two (ы, ю)
        "Из Хабаровска в первый день года можно вьібраться только поездом, а также автотранспортом",
        "Шедрый подьезд к компьіотерам обещали н в этом году",
        # words broken and run together
        "Осенью 1895 года Альберт Эйнштейн при был в Швейцарию, чтобысдать вступительные экзамены",
    ],
)
def test_ocr_slips_of_cyrillic_print_are_noise(quote: str) -> None:
    row = citecheck.verify_quotes([quote], {"ru": RU}).rows[0]
    assert row.status is Status.VERIFIED, row.reason


@needs_bm25
@pytest.mark.parametrize(
    ("quote", "change"),
    [
        # п/н and л/п make real words of each other: never forgiven
        ("Из Хабаровска в первый день года можно выбраться только поездом, а также нам", "нам"),
        ("Осенью 1896 года Альберт Эйнштейн прибыл в Швейцарию", "1896"),
        ("Колледж — одно из ведущих средних учебных заведений области, не готовит", "не"),
    ],
)
def test_what_ocr_does_not_do_is_still_a_change(quote: str, change: str) -> None:
    row = citecheck.verify_quotes([quote], {"ru": RU}).rows[0]
    assert row.status is not Status.VERIFIED, (change, row.reason)


_FOLDS = {"и": "н", "щ": "ш", "ъ": "ь", "б": "6", "з": "3", "о": "0", "е": "e", "с": "c"}


@given(st.text(alphabet="абвгдежзиклмнопрстуфхцчшщъыьэюя", min_size=1, max_size=12), st.data())
def test_a_cyrillic_word_and_its_ocr_slips_fold_alike(word: str, data: st.DataObject) -> None:
    slipped = "".join(
        _FOLDS[c] if c in _FOLDS and data.draw(st.booleans(), label=c) else c for c in word
    )
    # a word OCR turned into digits alone is a number: that is the number check's
    assume(any("\u0400" <= c <= "\u04ff" for c in slipped))
    assert fold_letters(slipped) == fold_letters(word)


def test_cyrillic_letters_ocr_never_confuses_stay_apart() -> None:
    for one, other in [("пора", "нора"), ("для", "дня"), ("пас", "нас"), ("мир", "пир")]:
        assert fold_letters(one) != fold_letters(other)


ZH = (
    "实现祖国的完全统一，是海内外全体中国人的共同心愿。通过中葡双方的合作和努力，按照“一国两制”"
    "方针和澳门《基本法》，１９９９年１２月澳门的回归一定能够顺利实现。当时，美国购并浪潮兴起，"
    "企业向没有关联的行业迅速扩张。而这批学者视野开阔，思路敏捷，文风谨严而锐利。"
)


@needs_bm25
@pytest.mark.parametrize("marker", ["……", "…", "...", "。。。", "⋯⋯", "．．．"])
def test_a_chinese_ellipsis_is_an_ellipsis(marker: str) -> None:
    quote = f"当时，美国{marker}潮兴起，企业向没有关联的行业迅速扩张。"
    row = citecheck.verify_quotes([quote], {"zh": ZH}).rows[0]
    assert row.status is Status.VERIFIED, row.reason
    evidence = row.evidence[0]
    assert ZH[evidence.start : evidence.end].startswith("当时，美国购并浪潮兴起")


@needs_bm25
def test_an_elided_quote_takes_the_chain_of_fragments_that_fits_best() -> None:
    """A head that also stands, nearly, earlier in the text is the one right before the tail."""
    text = (
        "这批学者生长于四川，受教育于四川。" * 3 + "而这批学者视野开阔，思路敏捷，文风谨严而锐利。"
    )
    row = citecheck.verify_quotes(["而这批学者……路敏捷，文风谨严而锐利。"], {"zh": text}).rows[0]
    assert row.status is Status.VERIFIED, row.reason
    evidence = row.evidence[0]
    assert text[evidence.start : evidence.end].startswith("而这批学者视野开阔")


@needs_bm25
@pytest.mark.parametrize(
    ("quote", "left_out"),
    [
        ("Так наступать на этот чистый, белый снежный покров, не находишь?", "нелепо"),
        ("В центре Буинска в праздничные дни проходят новогодние представления.", "досуговом"),
        ("The committee its decision until the spring of next year.", "delayed"),
    ],
)
def test_a_quote_with_a_word_left_out_shows_its_whole_passage(quote: str, left_out: str) -> None:
    """The word left out may be the second: the span still starts at the first word."""
    text = (
        "Снег шел всю ночь. :) Так нелепо наступать на этот чистый, белый снежный покров, не "
        "находишь? В досуговом центре Буинска в праздничные дни проходят новогодние "
        "представления. The committee delayed its decision until the spring of next year."
    )
    row = citecheck.verify_quotes([quote], {"t": text}).rows[0]
    assert row.status is Status.PARTIAL, row.reason
    assert left_out in row.reason.casefold()
    evidence = row.evidence[0]
    shown = text[evidence.start : evidence.end]
    assert shown.split()[0] == quote.split()[0], shown
    assert left_out in shown.casefold()


@needs_bm25
def test_an_ellipsis_over_a_numero_sign_leaves_out_no_negation() -> None:
    """ "№" folds to "No" in Unicode: it is a number's sign, not a "no"."""
    text = (
        "Экипаж № 500: пилот Фирдаус Кабиров. "
        "Экипаж № 514: пилот Айдар Беляев, штурман Андрей Мокеев."
    )
    quote = "Экипаж № 500: пилот Фирдаус Кабиров. [...] штурман Андрей Мокеев."
    row = citecheck.verify_quotes([quote], {"ru": text}).rows[0]
    assert row.status is Status.VERIFIED, row.reason


# -- the benchmark's generators (benchmarks/quotes_scripts.py), in a small run ----------------

_BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(scope="module")
def scripts() -> Iterator[Any]:
    sys.path.insert(0, str(_BENCHMARKS))
    try:
        import quotes_scripts

        yield quotes_scripts
    finally:
        sys.path.remove(str(_BENCHMARKS))


def test_the_benchmark_cuts_quotes_where_they_stand_and_perturbs_them_as_it_says(
    scripts: Any,
) -> None:
    contexts = scripts.documents([RU] * 2, "ru") + scripts.documents([ZH], "zh")
    assert len({c.id for c in contexts}) == len(contexts)
    rng = random.Random(1)
    for lang in ("ru", "zh"):
        pool = scripts.gold_pool([c for c in contexts if c.lang == lang], lang)
        golds = pool[1] + pool[2]
        assert golds
        for gold in golds:
            assert gold.context.text[gold.start : gold.end] == gold.text
            assert "\n" not in gold.text
        for family, perturb in scripts.families(lang, pool).items():
            for gold in golds:
                quote = perturb(gold, rng)
                if quote is None or family in ("untouched", "spliced"):
                    continue
                assert quote != gold.text, family
                if family == "ellipsis" and lang == "zh":
                    head, tail = re.split(r"……|…|\.\.\.|。。。", quote)
                    assert gold.text.startswith(head)
                    assert gold.text.endswith(tail)
                    assert scripts._HAN.match(head[-1])
                    assert scripts._HAN.match(tail[0])
                if family.startswith("ocr"):
                    assert scripts._RU_NEGATION.findall(quote) == scripts._RU_NEGATION.findall(
                        gold.text
                    ), "a slip never makes or unmakes a negation"


def test_the_benchmark_runs_and_scores(scripts: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("bm25s")
    monkeypatch.setattr(scripts, "DOC_CHARS", 300)  # two documents, for spliced quotes
    rows = scripts.measure("ru", [RU, RU.replace("1895", "1905")], 4, ["citecheck"])
    families = {row["family"] for row in rows}
    assert {"ru/untouched", "ru/ocr_3", "ru/word_dropped", "ru/spliced"} <= families
    spliced = next(row for row in rows if row["family"] == "ru/spliced")
    assert spliced["verified"] == 0
    table = scripts.table(rows)
    assert table.startswith("| family | system |")


@pytest.mark.parametrize(
    "quote",
    [
        "Колледж — 0дно из ведущих средних уче6ных заведений области",
        "Mы будем продолжать coвершенствовать этот caмолет",
    ],
)
def test_the_marker_door_forgives_the_same_cyrillic_slips(quote: str) -> None:
    """The same meaning checks at the marker door, which needs no extra."""
    report = citecheck.Verifier().verify(f"\u201c{quote}\u201d [[ru]]", {"ru": RU})
    assert report.results[0].status is Status.VERIFIED, report.results[0].reason


def test_the_marker_door_reads_a_chinese_ellipsis() -> None:
    quote = "当时，美国。。。潮兴起，企业向没有关联的行业迅速扩张。"
    report = citecheck.Verifier().verify(f"\u201c{quote}\u201d [[zh]]", {"zh": ZH})
    assert report.results[0].status is Status.VERIFIED, report.results[0].reason


NEGATED = (
    "In the trial, no patients recovered within a week. The drug did not reduce mortality. "
    "这种药不能降低死亡率。企业向没有关联的行业迅速扩张。"
)


@needs_bm25
@pytest.mark.parametrize(
    "quote",
    [
        "patients recovered within a week",
        "reduce mortality",
        "能降低死亡率",
        "有关联的行业迅速扩张",
        "patients recovered … a week",
    ],
)
def test_a_quote_cut_right_after_its_negation_is_never_verified(quote: str) -> None:
    """At both doors that locate quotations: the words stand verbatim, in a sentence that
    denies them."""
    row = citecheck.verify_quotes([quote], {"t": NEGATED}).rows[0]
    assert row.status is Status.PARTIAL, row.reason
    assert "right before the quote" in row.reason
    marked = citecheck.Verifier().verify(f"\u201c{quote}\u201d [[t]]", {"t": NEGATED})
    assert marked.results[0].status is not Status.VERIFIED, marked.results[0].reason
