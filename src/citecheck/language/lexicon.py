"""The words that carry meaning no score may forgive, in English, Dutch, German, French and
Spanish: negations, quantifiers, words of direction and of who did it, and the names of
nationalities, countries and languages. One place, so that the meaning guard, the quote
comparison and the judge's hard-pair generator read the same words.

Number words are not listed here: English ones are read by :mod:`citecheck.language.numbers`,
the others by the maintained ``text2num`` library (:func:`foreign_digits`). Which language a
short text is in is guessed from its function words (:func:`guess_language`): enough to tell a
Dutch claim from its English source, and nothing is downloaded.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = [
    "AGENT_PAIRS",
    "DIRECTION_PAIRS",
    "DOWN_STEMS",
    "ENTITY_KINDS",
    "FEW_QUANTIFIERS",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "MOST_QUANTIFIERS",
    "NEGATIONS",
    "PARTIAL_QUANTIFIERS",
    "UNIVERSAL_QUANTIFIERS",
    "UP_STEMS",
    "ZERO_QUANTIFIERS",
    "direction",
    "english_digits",
    "entity_kind",
    "foreign_digits",
    "function_words",
    "guess_language",
    "language_counts",
    "number_words_as_digits",
]

LANGUAGES = ("en", "nl", "de", "fr", "es")
"""The languages whose negations, quantifiers and number words the guard reads."""
LANGUAGE_NAMES = {
    "en": "English", "nl": "Dutch", "de": "German", "fr": "French", "es": "Spanish",
    "it": "Italian", "pt": "Portuguese",
}  # fmt: skip
"""What the reasons call each language :func:`guess_language` tells apart."""

NEGATIONS = frozenset(
    # English
    "not no never none nor nothing nobody nowhere neither without cannot cant dont doesnt "
    "didnt isnt arent wasnt werent wont wouldnt shouldnt couldnt hasnt havent hadnt mustnt "
    "neednt "
    # German
    "kein keine keinen keinem keiner keines nicht nichts nie niemals niemand nirgends weder ohne "
    # Dutch
    "niet geen nooit niets niemand nergens zonder "
    # French
    "pas jamais rien aucun aucune sans "
    # Spanish
    "nunca nada nadie ningun ningún ninguno ninguna jamas jamás tampoco "
    # Chinese and Japanese (each character is a word of its own)
    "不 没 未 无 無".split()
)
"""Words that deny, as normalised (case-folded) text has them. French "ne" is left out (its
"pas", "jamais" or "rien" is counted), and so is Spanish "sin", which English writes for the
sine."""

UNIVERSAL_QUANTIFIERS = frozenset(
    "all every each always everyone everybody everything entire entirely whole completely "
    "totally invariably universally "
    "alle elk elke ieder iedere iedereen altijd volledig helemaal geheel "
    "jeder jede jedes jeden jedem immer vollständig vollstandig ganz sämtliche samtliche "
    "tous toutes tout chaque toujours entièrement entierement complètement completement "
    "todos todas todo cada siempre completamente totalmente".split()
)
"""Words that say "without exception"."""

ZERO_QUANTIFIERS = frozenset(
    "none nobody nothing never niemand nooit niets keine kein nie niemals nichts aucun aucune "
    "jamais rien ninguno ninguna nunca nadie nada".split()
)
"""Words that say "not one": a count above zero in the source denies them."""

PARTIAL_QUANTIFIERS = frozenset(
    "some several few many most mostly often sometimes occasionally rarely seldom usually "
    "partly partially majority minority half certain various generally frequently typically "
    "largely "
    "sommige enkele meeste meestal vaak soms deels gedeeltelijk weinig "
    "einige manche meist meiste meisten oft manchmal teilweise wenige "
    "quelques certains certaines plupart souvent parfois partiellement "
    "algunos algunas mayoría mayoria menudo veces parcialmente pocos".split()
)
"""Words that limit a statement to part of what it is about."""

MOST_QUANTIFIERS = frozenset(
    "most mostly majority meeste meestal meisten meist plupart mayoría mayoria".split()
)
"""Partial words that say "more than half"."""

FEW_QUANTIFIERS = frozenset("few minority rarely seldom weinig wenige pocos".split())
"""Partial words that say "fewer than half"."""

DIRECTION_PAIRS = (
    ("acceler", "deceler"), ("speed", "slow"), ("expand", "contract"), ("expand", "shrink"),
    ("strength", "weaken"), ("doubl", "halv"), ("outperform", "underperform"),
    ("exceed", "trail"), ("boost", "cut"),
    ("meer", "minder"), ("hoger", "lager"), ("sneller", "trager"), ("stijg", "daal"),
    ("steeg", "daald"), ("stijg", "daald"), ("gesteg", "gedaal"), ("toegenomen", "afgenomen"),
    ("toename", "afname"), ("gestieg", "gesunk"), ("zunahm", "abnahm"), ("zunehm", "abnehm"),
    ("mehr", "weniger"), ("höher", "niedriger"), ("schneller", "langsamer"), ("stieg", "sank"),
    ("augment", "diminu"), ("hausse", "baisse"), ("más", "menos"), ("aument", "disminu"),
)  # fmt: skip
"""Stems of words that are each other's opposite, word for word ("decelerated" for
"accelerated", "daalde" for "steeg"), beside the English pairs of
:mod:`citecheck.language.meaning`; the rest of each word must be an ending. Words that say a
direction in other words ("slower" against "speed up", "decreases" against "higher") are
read by :func:`direction`, with what they are the direction of."""

UP_STEMS = (
    "increas", "rise", "rose", "risen", "rising", "grow", "grew", "higher", "highest", "more",
    "greater", "larger", "gain", "boost", "rais", "expand", "acceler", "faster", "quicker",
    "speed", "improv", "better", "doubl", "tripl", "exceed", "outperform", "strength", "up",
    "meer", "hoger", "stijg", "steeg", "gesteg", "toegenomen", "toename", "sneller",
    "mehr", "höher", "stieg", "gestieg", "zunahm", "zunehm", "schneller",
    "augment", "hausse", "aument", "más", "subi",
)  # fmt: skip
DOWN_STEMS = (
    "decreas", "reduc", "fall", "fell", "fallen", "falling", "drop", "declin", "lower",
    "lowest", "less", "fewer", "smaller", "loss", "lost", "cut", "shrink", "shrank", "contract",
    "deceler", "slower", "slow", "wors", "degrad", "deterior", "halv", "underperform",
    "weaken", "down", "diminish",
    "minder", "lager", "daal", "gedaal", "afgenomen", "afname", "trager",
    "weniger", "niedriger", "sank", "gesunk", "abnahm", "abnehm", "langsamer",
    "diminu", "baisse", "moins", "disminu", "menos", "baj",
)  # fmt: skip
"""Stems of words that say "up" (more, faster, better) and "down" (less, slower, worse): a
claim that says one where its source says the other, and not the same, reverses a change
("slower" against "speed up", "decreases" against "higher levels")."""
_DIRECTION_ENDINGS = frozenset(
    "e s es ed d er est ing ion ions ment ments ly ily ally ish ened en ens ening end ende t te "
    "ten de den ung ungen".split()
) | {""}


def direction(word: str) -> int:
    """+1 for a word that says up, -1 for one that says down (:data:`UP_STEMS`,
    :data:`DOWN_STEMS`: the rest of the word must be an ending), 0 for any other word."""
    return _direction(word)


@lru_cache(maxsize=65_536)
def _direction(word: str) -> int:
    for sign, stems in ((1, UP_STEMS), (-1, DOWN_STEMS)):
        for stem in stems:
            if word.startswith(stem) and word[len(stem) :] in _DIRECTION_ENDINGS:
                return sign
    return 0


AGENT_PAIRS = (
    ("automat", "manual"), ("automat", "human"), ("automat", "annotator"), ("machine", "human"),
    ("automatisch", "handmatig"), ("automatisch", "menselijk"),
    ("automatisch", "manuell"), ("automatique", "manuel"), ("automático", "manual"),
)  # fmt: skip
"""Stems that say who did something: a machine, or people ("annotated automatically" against
"annotated by trained human annotators")."""

_NATIONALITIES = (
    "afghan albanian algerian american andorran angolan argentine argentinian armenian "
    "australian austrian azerbaijani bahraini bangladeshi belarusian belgian bolivian bosnian "
    "brazilian british bulgarian burmese cambodian cameroonian canadian chilean chinese "
    "colombian congolese croatian cuban cypriot czech danish dominican dutch ecuadorian "
    "egyptian emirati english eritrean estonian ethiopian fijian filipino finnish french "
    "georgian german ghanaian greek guatemalan haitian honduran hungarian icelandic indian "
    "indonesian iranian iraqi irish israeli italian ivorian jamaican japanese jordanian "
    "kazakh kenyan korean kosovar kuwaiti kyrgyz lao latvian lebanese liberian libyan "
    "lithuanian luxembourgish macedonian malagasy malaysian malian maltese mexican moldovan "
    "mongolian montenegrin moroccan mozambican namibian nepalese nepali nicaraguan nigerian "
    "nigerien norwegian omani pakistani palestinian panamanian paraguayan persian peruvian "
    "polish portuguese qatari romanian russian rwandan saudi scottish senegalese serbian "
    "singaporean slovak slovenian somali spanish sudanese swedish swiss syrian taiwanese "
    "tajik tanzanian thai tibetan tunisian turkish turkmen ugandan ukrainian uruguayan "
    "uzbek venezuelan vietnamese welsh yemeni zambian zimbabwean european african asian "
    "latin arab arabic hispanic"
).split()
_COUNTRIES = (
    "afghanistan albania algeria america andorra angola argentina armenia australia austria "
    "azerbaijan bahrain bangladesh belarus belgium bolivia bosnia brazil britain bulgaria "
    "burma cambodia cameroon canada chile china colombia congo croatia cuba cyprus czechia "
    "denmark ecuador egypt england eritrea estonia ethiopia fiji finland france georgia "
    "germany ghana greece guatemala haiti honduras hungary iceland india indonesia iran iraq "
    "ireland israel italy jamaica japan jordan kazakhstan kenya korea kosovo kuwait "
    "kyrgyzstan laos latvia lebanon liberia libya lithuania luxembourg macedonia madagascar "
    "malaysia mali malta mexico moldova mongolia montenegro morocco mozambique myanmar "
    "namibia nepal netherlands holland nicaragua niger nigeria norway oman pakistan palestine "
    "panama paraguay persia peru philippines poland portugal qatar romania russia rwanda "
    "scotland senegal serbia singapore slovakia slovenia somalia spain sudan sweden "
    "switzerland syria taiwan tajikistan tanzania thailand tibet tunisia turkey turkmenistan "
    "uganda ukraine uruguay usa uk uzbekistan venezuela vietnam wales yemen zambia zimbabwe "
    "europe africa asia"
).split()
_LANGUAGE_NAMES = (
    "english dutch german french spanish italian portuguese russian chinese mandarin "
    "cantonese japanese korean arabic hindi urdu bengali punjabi persian farsi turkish greek "
    "polish czech swedish norwegian danish finnish hungarian romanian hebrew yiddish swahili "
    "latin sanskrit tamil telugu malay indonesian vietnamese thai ukrainian catalan basque "
    "welsh gaelic"
).split()
_MONTHS = "january february april june july september october november december".split()
""""May", "March" and "August" are left out: as "may", "march" and "august" they are words."""
_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()

ENTITY_KINDS: dict[str, frozenset[str]] = {
    "nationality": frozenset(_NATIONALITIES),
    "country": frozenset(_COUNTRIES),
    "language": frozenset(_LANGUAGE_NAMES),
    "month": frozenset(_MONTHS),
    "weekday": frozenset(_WEEKDAYS),
}
"""Names of one kind, lower-case: a claim that says one where its source says another of the
same kind ("an Irish record label" against "an American record label") changes a fact."""


def entity_kind(word: str) -> str | None:
    """The kind of name ``word`` (lower-case) is, from :data:`ENTITY_KINDS`, if any."""
    for kind, names in ENTITY_KINDS.items():
        if word in names:
            return kind
    return None


_FUNCTION_WORDS = {
    "en": "the of and to in is was that for it with as on by be are this at from or an were "
    "which has have had not but its their they been also than more can after all who one his "
    "her there when into other these only may about between most such many some them would "
    "should could our we he she what do does did no over both each",
    "nl": "de het een en van niet is zijn werd worden dat met voor op bij naar ook wordt door",
    "de": "der die das und ist nicht mit sind wurde werden ein eine dem den von zu auf für sich "
    "auch",
    "fr": "le la les de des et est pas une un du dans que qui pour sur avec sont été par",
    "es": "el la los las de y es no una un del en que por con para fue son se como más",
    "it": "il di che è della per non sono gli nel",
    "pt": "o os da em um uma não com por para são",
}
"""Frequent words of each language, by which :func:`guess_language` tells them apart."""
_FUNCTION_SETS = {lang: frozenset(words.split()) for lang, words in _FUNCTION_WORDS.items()}
_FUNCTION_SETS = {
    lang: words if lang == "en" else words - _FUNCTION_SETS["en"]
    for lang, words in _FUNCTION_SETS.items()
}
_MORE_FUNCTION_WORDS = {
    "nl": "wordt werd worden werden was waren heeft hebben had hadden er te die om aan uit "
    "als door over bij dan deze dit zo al nog wel",
    "de": "wird werden wurden war waren hat haben hatte hatten es im am zum zur aus bei als "
    "durch über dass des einer einen eines",
    "fr": "a ont était étaient sera il elle ils elles au aux ce cette ces qui se par en "
    "été être avait avaient",
    "es": "está están estaba estaban ha han había habían al lo le les su sus este esta "
    "estos estas como pero sido ser",
}


def function_words(language: str) -> frozenset[str]:
    """The function words of ``language`` (articles, prepositions, auxiliaries): words whose
    change does not change what a claim says. Empty for English, whose stop words the guard
    keeps itself, and for a language it does not know."""
    if language == "en" or language not in _FUNCTION_SETS:
        return frozenset()
    return _FUNCTION_SETS[language] | frozenset(_MORE_FUNCTION_WORDS.get(language, "").split())


_LETTERS = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=4096)
def language_counts(text: str) -> dict[str, int]:
    """How many words of ``text`` are frequent words of each language (:data:`_FUNCTION_WORDS`:
    English, Dutch, German, French, Spanish, Italian, Portuguese)."""
    words = _LETTERS.findall(text.casefold())
    return {lang: sum(w in table for w in words) for lang, table in _FUNCTION_SETS.items()}


@lru_cache(maxsize=16_384)
def guess_language(text: str) -> str:
    """The language of ``text`` guessed from its frequent words (:func:`language_counts`):
    the language with most of them, ``"en"`` when no other has more than English (or the text
    has none at all). A guess for telling a Dutch claim from its English source, nothing more;
    a text in another script is not told apart here."""
    counts = language_counts(text)
    best = max(counts, key=lambda lang: (counts[lang], lang == "en"))
    return best if counts[best] > counts["en"] else "en"


def foreign_digits(text: str, language: str) -> str:
    """``text`` with its number words in ``language`` (not English) written in digits, by the
    ``text2num`` library ("zes maanden" reads "6 maanden"; "een huis" keeps its article:
    numbers under two are left as words). ``text`` itself when the library is missing or the
    language is English."""
    if language == "en":
        return text
    return _converted(text, language)


_ENGLISH_NUMBER_WORD = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|thirty|"
    r"forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion)\b",
    re.IGNORECASE,
)


def english_digits(text: str) -> str:
    """``text`` with its English number words from two up written in digits ("Thirty-two
    people" reads "32 people"), by ``text2num``; ``text`` itself, at the cost of one pattern
    search, when it holds none."""
    if not _ENGLISH_NUMBER_WORD.search(text):
        return text
    return _converted(text, "en")


def number_words_as_digits(text: str) -> str:
    """``text`` with its number words written in digits, in the language
    :func:`guess_language` reads it in, English included ("four of five" reads "4 of 5")."""
    return _converted(text, guess_language(text))


@lru_cache(maxsize=4096)
def _converted(text: str, language: str) -> str:
    try:
        from text_to_num import alpha2digit  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - text2num is a core dependency
        return text
    try:
        return str(alpha2digit(text, language, threshold=2))
    except Exception:  # a parser failure must not hide the text itself
        return text
