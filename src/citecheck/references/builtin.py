"""The built-in schemes: ``valmiki_ramayana`` and ``bible`` (the 66 books of the Protestant
canon, numbered as in ``pythonbible``). Registered by name in :mod:`citecheck.registry`."""

from __future__ import annotations

from citecheck.references.scheme import Book, ReferenceScheme

__all__ = ["bible", "valmiki_ramayana"]

_KANDAS = (
    ("Bala", "Bal Baala Adi BK Bala-kanda"),
    ("Ayodhya", "Ayodya Ayodhyaa Ayodhia AyK"),
    ("Aranya", "Aranyaka Aranyak Araniya ArK"),
    ("Kishkindha", "Kishkinda Kiskindha Kiskinda Kishkindhaa Kishkindaa KiK"),
    ("Sundara", "Sundar Sunder Sundarkand SuK"),
    ("Yuddha", "Yudha Yuddh Lanka Lankaa YK"),
    ("Uttara", "Uttar Utara Uttaraa UtK"),
)


def valmiki_ramayana() -> ReferenceScheme:
    """Kanda / sarga / shloka: ``Bala 1.1``, ``[Sundara Kanda 15.30]``, ``Ayodhya 2.3.5``."""
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
    )


# Canonical name, then aliases separated by "|" (they may contain spaces).
_BOOKS = """\
Genesis|Gen|Gn
Exodus|Exod|Exo|Ex
Leviticus|Lev|Lv
Numbers|Num|Nm
Deuteronomy|Deut|Deu|Dt
Joshua|Josh|Jos|Jsh
Judges|Judg|Jdg|Jg|Jdgs
Ruth|Rth
1 Samuel|1 Sam|1 Sa|1Sm|I Samuel|First Samuel
2 Samuel|2 Sam|2 Sa|2Sm|II Samuel|Second Samuel
1 Kings|1 Kgs|1 Ki|I Kings|First Kings
2 Kings|2 Kgs|2 Ki|II Kings|Second Kings
1 Chronicles|1 Chron|1 Chr|1 Ch|I Chronicles|First Chronicles
2 Chronicles|2 Chron|2 Chr|2 Ch|II Chronicles|Second Chronicles
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
1 Corinthians|1 Cor|1 Co|I Corinthians|First Corinthians
2 Corinthians|2 Cor|2 Co|II Corinthians|Second Corinthians
Galatians|Gal|Ga
Ephesians|Eph|Ephes
Philippians|Phil|Php
Colossians|Col
1 Thessalonians|1 Thess|1 Thes|1 Th|I Thessalonians|First Thessalonians
2 Thessalonians|2 Thess|2 Thes|2 Th|II Thessalonians|Second Thessalonians
1 Timothy|1 Tim|1 Ti|I Timothy|First Timothy
2 Timothy|2 Tim|2 Ti|II Timothy|Second Timothy
Titus|Tit
Philemon|Philem|Phm
Hebrews|Heb
James|Jas|Jm
1 Peter|1 Pet|1 Pe|1 Pt|I Peter|First Peter
2 Peter|2 Pet|2 Pe|2 Pt|II Peter|Second Peter
1 John|1 Jn|1 Jhn|1 Jo|I John|First John
2 John|2 Jn|2 Jhn|2 Jo|II John|Second John
3 John|3 Jn|3 Jhn|3 Jo|III John|Third John
Jude|Jud
Revelation|Rev|Revelations|The Revelation|Apocalypse"""


def bible() -> ReferenceScheme:
    """Book / chapter / verse: ``John 3:16``, ``1 Cor 13:4-7``, ``(Gen. 1:1, 3)``."""
    books = []
    for number, line in enumerate(_BOOKS.splitlines(), start=1):
        name, *aliases = line.split("|")
        books.append(Book(name, number, tuple(aliases)))
    return ReferenceScheme(
        name="bible",
        title="Bible",
        levels=("book", "chapter", "verse"),
        books=tuple(books),
        separators=(":", "."),
        level_words={"chapter": ("chap", "ch"), "verse": ("vv", "v", "vs")},
    )
