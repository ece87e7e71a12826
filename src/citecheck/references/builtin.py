"""The built-in schemes: ``valmiki_ramayana`` and ``bible`` (the 72 books ``pythonbible`` knows,
numbered as there: the 66 of the Protestant canon, then 1 Esdras, Tobit, Wisdom of Solomon,
Ecclesiasticus and 1-2 Maccabees). Registered by name in :mod:`citecheck.registry`.

The short kanda forms follow common usage: the initials of the kanda and the word *Kanda*
(``BK``, ``KK``, ``SK``, ``YK``, ``UK``, ``LK`` for Lanka Kanda), the two-letter abbreviations of
the critical edition's translations (``Bā``, ``Ay``, ``Ār``, ``Ki``, ``Su``, ``Yu``, ``Utt``),
and ``AyK`` / ``ArK`` / ``KiK`` / ``SuK`` / ``UtK``. ``AK`` is written for both Ayodhya and
Aranya Kanda, so it is declared ambiguous: never resolved to one of them silently."""

from __future__ import annotations

from citecheck.references.scheme import Book, ReferenceScheme

__all__ = ["bible", "valmiki_ramayana"]

_KANDAS = (
    ("Bala", "Bal Baala Adi BK Ba Bala-kanda"),
    ("Ayodhya", "Ayodya Ayodhyaa Ayodhia AyK Ay"),
    ("Aranya", "Aranyaka Aranyak Araniya ArK Ar"),
    ("Kishkindha", "Kishkinda Kiskindha Kiskinda Kishkindhaa Kishkindaa KiK KK Ki"),
    ("Sundara", "Sundar Sunder Sundarkand SuK SK Su"),
    ("Yuddha", "Yudha Yuddh Lanka Lankaa YK LK Yu"),
    ("Uttara", "Uttar Utara Uttaraa UtK UK Ut Utt"),
)


def valmiki_ramayana() -> ReferenceScheme:
    """Kanda / sarga / shloka: ``Bala 1.1``, ``[Sundara Kanda 15.30]``, ``Ayodhya 2.3.5``; a
    kanda is cited by its number too (``Kanda 2, Sarga 3, Shloka 4``, ``(2.3.4)``), as the
    data numbers every shloka kanda-sarga-shloka (``॥२-३-४॥``)."""
    return ReferenceScheme(
        name="valmiki_ramayana",
        title="Valmiki Ramayana",
        levels=("kanda", "sarga", "shloka"),
        books=tuple(
            Book(name, number, tuple(aliases.split()))
            for number, (name, aliases) in enumerate(_KANDAS, start=1)
        ),
        separators=(".",),
        level_words={
            "kanda": ("kandam", "kandah", "kaanda", "kand", "khanda", "khand"),
            "sarga": ("sargah", "sargam", "canto", "chapter"),
            "shloka": ("sloka", "shlok", "slok", "verse", "stanza"),
        },
        work_names=("Ramayana", "Ramayanam", "Valmiki Ramayana", "VR"),
        ambiguous={"AK": ("Ayodhya", "Aranya")},
        numbered_top=True,
    )


# Canonical name, then aliases separated by "|" (they may contain spaces). Numbered books list
# their digit forms only: "I Samuel", "First Samuel", "1st Sam" and "1Sam" are read as "1 Sam".
_BOOKS = """\
Genesis|Gen|Gn
Exodus|Exod|Exo|Ex
Leviticus|Lev|Lv
Numbers|Num|Nm
Deuteronomy|Deut|Deu|Dt
Joshua|Josh|Jos|Jsh
Judges|Judg|Jdg|Jg|Jdgs
Ruth|Rth
1 Samuel|1 Sam|1 Sa|1Sm
2 Samuel|2 Sam|2 Sa|2Sm
1 Kings|1 Kgs|1 Ki
2 Kings|2 Kgs|2 Ki
1 Chronicles|1 Chron|1 Chr|1 Ch
2 Chronicles|2 Chron|2 Chr|2 Ch
Ezra|Ezr
Nehemiah|Neh
Esther|Esth|Est
Job|Jb
Psalms|Psalm|Ps|Psa|Pss|Psm
Proverbs|Prov|Pro|Prv
Ecclesiastes|Eccles|Eccl|Ecc|Qoheleth
Song of Solomon|Song of Songs|Song|SOS|Canticles|Song of Sol
Isaiah|Isa
Jeremiah|Jer
Lamentations|Lam
Ezekiel|Ezek|Eze|Ezk
Daniel|Dan|Dn
Hosea|Hos
Joel|Jl
Amos
Obadiah|Obad
Jonah|Jnh|Jon
Micah|Mic
Nahum|Nah
Habakkuk|Hab|Hb
Zephaniah|Zeph|Zep|Zp
Haggai|Hag|Hg
Zechariah|Zech|Zec|Zc
Malachi|Mal|Ml
Matthew|Matt|Mat|Mt
Mark|Mrk|Mar|Mk
Luke|Luk|Lk
John|Jhn|Jn|Joh
Acts|Act|Ac
Romans|Rom|Ro|Rm
1 Corinthians|1 Cor|1 Co
2 Corinthians|2 Cor|2 Co
Galatians|Gal|Ga
Ephesians|Eph|Ephes
Philippians|Phil|Php
Colossians|Col
1 Thessalonians|1 Thess|1 Thes|1 Th
2 Thessalonians|2 Thess|2 Thes|2 Th
1 Timothy|1 Tim|1 Ti
2 Timothy|2 Tim|2 Ti
Titus|Tit
Philemon|Philem|Phm
Hebrews|Heb
James|Jas|Jm
1 Peter|1 Pet|1 Pe|1 Pt
2 Peter|2 Pet|2 Pe|2 Pt
1 John|1 Jn|1 Jhn|1 Jo
2 John|2 Jn|2 Jhn|2 Jo
3 John|3 Jn|3 Jhn|3 Jo
Jude|Jud
Revelation|Rev|Revelations|The Revelation|Apocalypse
1 Esdras|1 Esd|1 Esdr
Tobit|Tob|Tb
Wisdom of Solomon|Wisdom|Wis|Wisd of Sol
Ecclesiasticus|Sirach|Sir|Ecclus
1 Maccabees|1 Macc|1 Mac
2 Maccabees|2 Macc|2 Mac"""


_ONE_CHAPTER = frozenset({"Obadiah", "Philemon", "2 John", "3 John", "Jude"})


def bible() -> ReferenceScheme:
    """Book / chapter / verse: ``John 3:16``, ``1 Cor 13:4-7``, ``(Gen. 1:1, 3)``, read by
    ``pythonbible`` where it is installed (the ``bible`` extra), by these names otherwise."""
    books = []
    for number, line in enumerate(_BOOKS.splitlines(), start=1):
        name, *aliases = line.split("|")
        books.append(Book(name, number, tuple(aliases), single_part=name in _ONE_CHAPTER))
    return ReferenceScheme(
        name="bible",
        title="Bible",
        levels=("book", "chapter", "verse"),
        books=tuple(books),
        separators=(":", "."),
        level_words={"chapter": ("chap", "ch"), "verse": ("vv", "v", "vs")},
        parser="pythonbible",
    )
