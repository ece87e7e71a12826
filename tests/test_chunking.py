from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from citecheck.documents.chunking import (
    Chunk,
    builtin_splitter,
    chunk_text,
    count_words,
    default_splitter,
    plain_text,
    sentencex_splitter,
)
from citecheck.errors import ConfigError, InputError, MissingDependencyError, SourceError

# -- helpers -------------------------------------------------------------------------------------


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def is_subsequence(needle: str, haystack: str) -> bool:
    """Every non-space character of ``needle`` occurs in ``haystack``, in order."""
    position = 0
    for char in needle:
        if char.isspace():
            continue
        position = haystack.find(char, position)
        if position < 0:
            return False
        position += 1
    return True


def assert_invariants(original: str, chunks: list[Chunk], *, markdown: bool = True) -> None:
    previous_end = 0
    for chunk in chunks:
        assert 0 <= previous_end <= chunk.start < chunk.end <= len(original), chunks
        assert chunk.text == chunk.text.strip()
        assert "  " not in chunk.text
        assert is_subsequence(chunk.text, original[chunk.start : chunk.end]), (
            chunk,
            original[chunk.start : chunk.end],
        )
        previous_end = chunk.end
    rendered = plain_text(original, markdown=markdown).text
    assert words(" ".join(c.text for c in chunks)) == words(rendered)


class _TextOf(HTMLParser):
    """An independent reading of what markdown-it's HTML shows: text, alt text, and a space
    for every tag that is not inline."""

    INLINE = frozenset({"em", "strong", "a", "code", "s", "img"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.parts.append(dict(attrs).get("alt") or "")
        elif tag not in self.INLINE:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.INLINE:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def html_words(markdown: str) -> list[str]:
    parser = _TextOf()
    parser.feed(MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(markdown))
    return words("".join(parser.parts))


def passages(original: str, chunks: list[Chunk]) -> list[str]:
    return [original[c.start : c.end] for c in chunks]


# -- Markdown rendering and offsets --------------------------------------------------------------


def test_emphasis_links_and_code_are_rendered_and_offsets_cover_their_markup() -> None:
    source = (
        "He said **bold** things about [the report](https://x.org/r 'Report') today. "
        "Run `make  test` before *you* commit!"
    )
    chunks = chunk_text(source, min_chunk_length_chars=0)
    assert [c.text for c in chunks] == [
        "He said bold things about the report today.",
        "Run make test before you commit!",
    ]
    assert passages(source, chunks) == [
        "He said **bold** things about [the report](https://x.org/r 'Report') today.",
        "Run `make  test` before *you* commit!",
    ]


def test_spans_are_tight_around_the_rendered_words() -> None:
    source = "**Bold start** and a [link at the end](http://x.y)"
    (chunk,) = chunk_text(source)
    assert chunk.text == "Bold start and a link at the end"
    assert source[chunk.start : chunk.end] == "Bold start** and a [link at the end"


def test_entities_and_escapes_are_decoded_with_exact_offsets() -> None:
    source = "Salt &amp; pepper cost 5 \\* 3 &#36; today. Nothing \\[else\\] matters here."
    chunks = chunk_text(source, min_chunk_length_chars=0)
    assert [c.text for c in chunks] == [
        "Salt & pepper cost 5 * 3 $ today.",
        "Nothing [else] matters here.",
    ]
    assert passages(source, chunks) == [
        "Salt &amp; pepper cost 5 \\* 3 &#36; today.",
        "Nothing \\[else\\] matters here.",
    ]


def test_crlf_line_endings_and_non_ascii_text() -> None:
    source = (
        "# Über Größe\r\n\r\n"
        "Die Straße ist\r\nsehr lang. Ça va, naïve café?\r\n\r\n"
        "日本語のテキスト。\r\n"
    )
    chunks = chunk_text(source, min_chunk_length_chars=0, language="de")
    assert [c.text for c in chunks] == [
        "Über Größe",
        "Die Straße ist sehr lang.",
        "Ça va, naïve café?",
        "日本語のテキスト。",
    ]
    assert passages(source, chunks) == [
        "Über Größe",
        "Die Straße ist\r\nsehr lang.",
        "Ça va, naïve café?",
        "日本語のテキスト。",
    ]


def test_markup_does_not_reach_the_chunk_text() -> None:
    source = (
        "# Heading One\n\n"
        "Intro paragraph with **strong** and _em_ and ~~gone~~ text.\n\n"
        "- first bullet item here\n"
        "- second bullet item here\n\n"
        "1. numbered item number one\n\n"
        "> a quoted line that goes on\n\n"
        "| Name | Value |\n"
        "|------|-------|\n"
        "| alpha | 1 |\n\n"
        "![an image of a cat](cat.png)\n\n"
        "Setext heading\n"
        "==============\n"
    )
    chunks = chunk_text(source, min_chunk_length_chars=0)
    text = "\n".join(c.text for c in chunks)
    for markup in ("#", "**", "_em_", "~~", "- ", "1.", ">", "|", "](", "cat.png", "==="):
        assert markup not in text
    assert [c.text for c in chunks] == [
        "Heading One",
        "Intro paragraph with strong and em and gone text.",
        "first bullet item here",
        "second bullet item here",
        "numbered item number one",
        "a quoted line that goes on",
        "Name Value",
        "alpha 1",
        "an image of a cat",
        "Setext heading",
    ]
    assert_invariants(source, chunks)


def test_link_titles_and_targets_are_not_taken_for_text() -> None:
    source = "See [b](u 'c d') d and [e][ref] f and [g](<a b> \"h i\") i.\n\n[ref]: http://r.s\n"
    (chunk,) = chunk_text(source)
    assert chunk.text == "See b d and e f and g i."
    assert source[chunk.start : chunk.end] == source[: source.index("i.\n") + 2]
    plain = plain_text(source)
    d = plain.text.index(" d ") + 1
    assert plain.to_original(d, d + 1) == (source.index(") d") + 2, source.index(") d") + 3)


def test_code_blocks_are_kept_whole_and_html_is_dropped() -> None:
    source = (
        "Some text before the code.\n\n"
        "```python\nx = 1  # first. Second?\nprint(x)\n```\n\n"
        "    indented code. Not split.\n\n"
        "<div>\n<b>raw html block</b>\n</div>\n\n"
        "Inline <span class='x'>tags</span> go, their text stays.\n"
    )
    chunks = chunk_text(source, min_chunk_length_chars=0)
    assert [c.text for c in chunks] == [
        "Some text before the code.",
        "x = 1 # first. Second? print(x)",
        "indented code. Not split.",
        "Inline tags go, their text stays.",
    ]
    assert passages(source, chunks)[1] == "x = 1  # first. Second?\nprint(x)"
    assert passages(source, chunks)[3] == (
        "Inline <span class='x'>tags</span> go, their text stays."
    )


def test_escaped_table_pipes_are_placed_between_their_neighbours() -> None:
    source = "| a \\| b | c |\n|---|---|\n| d | e |\n"
    chunks = chunk_text(source, min_chunk_length_chars=0)
    assert [c.text for c in chunks] == ["a | b c", "d e"]
    assert_invariants(source, chunks)
    assert passages(source, chunks)[0].startswith("a \\| b")


def test_multi_line_inline_code_and_nested_blocks() -> None:
    source = "> - item with ``code\n>   over lines`` and more\n>\n>   second para here.\n"
    chunks = chunk_text(source, min_chunk_length_chars=0)
    assert [c.text for c in chunks] == [
        "item with code over lines and more",
        "second para here.",
    ]
    assert_invariants(source, chunks)


def test_plain_text_maps_back() -> None:
    source = "A *b*\n\nc &amp; d"
    plain = plain_text(source)
    assert plain.text == "A b\nc & d"
    assert [(b.kind, plain.text[b.start : b.end]) for b in plain.blocks] == [
        ("paragraph", "A b"),
        ("paragraph", "c & d"),
    ]
    amp = plain.text.index("&")
    assert plain.to_original(amp, amp + 1) == (source.index("&amp;"), source.index("&amp;") + 5)
    assert plain.to_original(len(plain.text), len(plain.text)) == (len(source), len(source))
    with pytest.raises(InputError):
        plain.to_original(0, len(plain.text) + 1)


# -- plain mode ----------------------------------------------------------------------------------


def test_plain_mode_keeps_markup_and_collapses_whitespace() -> None:
    source = "# Not a heading\there.   Stars **stay**.\r\n\r\nSecond  paragraph\nhere."
    chunks = chunk_text(source, markdown=False, min_chunk_length_chars=0)
    assert [c.text for c in chunks] == [
        "# Not a heading here.",
        "Stars **stay**.",
        "Second paragraph here.",
    ]
    assert passages(source, chunks) == [
        "# Not a heading\there.",
        "Stars **stay**.",
        "Second  paragraph\nhere.",
    ]
    assert_invariants(source, chunks, markdown=False)


# -- short and long chunks -----------------------------------------------------------------------


def test_short_chunks_join_a_neighbour_and_no_text_is_lost() -> None:
    source = (
        "## Methods\n\n"
        "Yes. We sampled thirty people in total. It worked.\n\n"
        "- Apples\n- Pears\n\n"
        "The last paragraph is long enough."
    )
    chunks = chunk_text(source, min_chunk_length_chars=20, splitter=builtin_splitter)
    assert [c.text for c in chunks] == [
        "Methods\nYes. We sampled thirty people in total. It worked.\nApples\nPears",
        "The last paragraph is long enough.",
    ]
    assert_invariants(source, chunks)
    unmerged = chunk_text(source, min_chunk_length_chars=0, splitter=builtin_splitter)
    assert [c.text for c in unmerged] == [
        "Methods",
        "Yes.",
        "We sampled thirty people in total.",
        "It worked.",
        "Apples",
        "Pears",
        "The last paragraph is long enough.",
    ]


def test_a_short_first_sentence_joins_the_next_one_in_its_paragraph() -> None:
    source = "A long first paragraph sentence.\n\nShort. Then a longer second sentence."
    chunks = chunk_text(source, splitter=builtin_splitter)
    assert [c.text for c in chunks] == [
        "A long first paragraph sentence.",
        "Short. Then a longer second sentence.",
    ]


def test_max_chunk_chars_cuts_between_words_and_bounds_joins() -> None:
    sentence = " ".join(f"word{i}" for i in range(200)) + "."
    source = f"{sentence} Short one.\n\nhuge{'x' * 80}"
    chunks = chunk_text(source, min_chunk_length_chars=10, max_chunk_chars=50)
    assert all(len(c.text) <= 50 for c in chunks[:-1])
    assert chunks[-1].text == f"huge{'x' * 80}"  # a single longer word stays whole
    assert_invariants(source, chunks)
    assert words(" ".join(c.text for c in chunks)) == words(source)


def test_long_text_is_never_truncated() -> None:
    source = " ".join(f"w{i}" for i in range(20000))
    chunks = chunk_text(source)
    assert len(chunks) == 1
    assert (chunks[0].start, chunks[0].end) == (0, len(source))
    assert chunks[0].text == source


def test_empty_and_markup_only_sources_give_no_chunks() -> None:
    assert chunk_text("") == []
    assert chunk_text("   \n\n ") == []
    assert chunk_text("---\n\n<!-- comment -->\n") == []


# -- splitters -----------------------------------------------------------------------------------


def test_builtin_splitter_keeps_abbreviations_and_numbers_together() -> None:
    text = (
        'Dr. Smith arrived (Smith et al., 2020). See Fig. 3, e.g. the 3.5 value. "Is it?" '
        "she asked. It was vol. 2 of the report. Really!"
    )
    assert [text[s:e] for s, e in builtin_splitter(text)] == [
        "Dr. Smith arrived (Smith et al., 2020).",
        "See Fig. 3, e.g. the 3.5 value.",
        '"Is it?" she asked.',
        "It was vol. 2 of the report.",
        "Really!",
    ]


def test_sentencex_splitter_knows_other_languages() -> None:
    pytest.importorskip("sentencex")
    german = "Vgl. Abb. 3 auf S. 12. Die Inflation lag bei 3,5 Prozent, d. h. sehr hoch. Gut."
    split = sentencex_splitter("de")
    assert [german[s:e].strip() for s, e in split(german)] == [
        "Vgl. Abb. 3 auf S. 12.",
        "Die Inflation lag bei 3,5 Prozent, d. h. sehr hoch.",
        "Gut.",
    ]
    dutch = "Dr. Jansen kwam o.a. te laat. Prof. De Vries e.a. vonden dit."
    assert [dutch[s:e].strip() for s, e in sentencex_splitter("nl")(dutch)] == [
        "Dr. Jansen kwam o.a. te laat.",
        "Prof. De Vries e.a. vonden dit.",
    ]
    assert default_splitter("de") is not builtin_splitter


def test_without_sentencex_the_builtin_splitter_is_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "sentencex", None)  # makes the import fail
    assert default_splitter("en") is builtin_splitter
    with pytest.raises(MissingDependencyError, match=r"citecheck\[embeddings\]"):
        sentencex_splitter("en")
    chunks = chunk_text("First sentence is here. Second sentence is here.")
    assert [c.text for c in chunks] == ["First sentence is here.", "Second sentence is here."]


def test_a_custom_splitter_cannot_lose_text() -> None:
    source = "One two three. Four five six. Seven eight nine."
    whole = chunk_text(source, splitter=lambda text: [])
    assert [c.text for c in whole] == [source]
    skipping = chunk_text(source, min_chunk_length_chars=0, splitter=lambda text: [(15, 29)])
    assert [c.text for c in skipping] == ["One two three.", "Four five six.", "Seven eight nine."]
    with pytest.raises(ConfigError, match="splitter"):
        chunk_text(source, splitter=lambda text: ["nonsense"])  # type: ignore[list-item]


# -- words and errors ----------------------------------------------------------------------------


def test_count_words() -> None:
    assert count_words("") == 0
    assert count_words("The state-of-the-art model, e.g. GPT, don't cost 3.5 €.") == 8
    assert count_words("Größe  und\nGewicht") == 3
    assert count_words("*** -- !!") == 0


@pytest.mark.parametrize("bad", [b"bytes", None, 3, ["a"]])
def test_non_text_is_refused_with_a_clear_message(bad: object) -> None:
    with pytest.raises(SourceError, match=type(bad).__name__):
        chunk_text(bad)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        count_words(bad)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        plain_text(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"min_chunk_length_chars": -1}, "min_chunk_length_chars"),
        ({"min_chunk_length_chars": True}, "min_chunk_length_chars"),
        ({"max_chunk_chars": 0}, "max_chunk_chars"),
        ({"max_chunk_chars": 2.5}, "max_chunk_chars"),
        ({"min_chunk_length_chars": 30, "max_chunk_chars": 10}, "larger than"),
        ({"language": ""}, "language"),
        ({"splitter": "en"}, "callable"),
    ],
)
def test_bad_options_are_config_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        chunk_text("Some text here.", **options)  # type: ignore[arg-type]


def test_importing_chunking_stays_light() -> None:
    code = (
        "import sys, citecheck.documents.chunking; "
        "print([m for m in ('markdown_it', 'sentencex') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- properties ----------------------------------------------------------------------------------

_PIECES = [
    "alpha",
    "Beta",
    "gamma.",
    "Dr.",
    "e.g.",
    "3.5",
    "Größe",
    "naïve",
    "日本",
    "x",
    " ",
    " ",
    " ",
    "  ",
    "\t",
    "\n",
    "\n",
    "\r\n",
    "\n\n",
    "**",
    "*",
    "_",
    "`",
    "``",
    "~~",
    "# ",
    "## ",
    "- ",
    "1. ",
    "> ",
    "    ",
    "[",
    "]",
    "](http://x.y)",
    "](u 'alpha beta')",
    "![",
    "\\*",
    "\\",
    "&amp;",
    "&#38;",
    "|",
    "---",
    "===",
    "```",
    "(",
    ")",
    '"',
    ".",
    "!",
    "?",
]
markdownish = st.lists(st.sampled_from(_PIECES), max_size=60).map("".join)


@settings(max_examples=400, deadline=None)
@given(markdownish, st.integers(min_value=0, max_value=40))
def test_markdown_chunks_keep_every_word_in_place(source: str, minimum: int) -> None:
    chunks = chunk_text(source, min_chunk_length_chars=minimum, splitter=builtin_splitter)
    assert_invariants(source, chunks)
    assert words(" ".join(c.text for c in chunks)) == html_words(source)


@settings(max_examples=200, deadline=None)
@given(markdownish, st.integers(min_value=1, max_value=30))
def test_bounded_chunks_keep_every_word_in_place(source: str, maximum: int) -> None:
    chunks = chunk_text(source, min_chunk_length_chars=0, max_chunk_chars=maximum)
    assert_invariants(source, chunks)
    for chunk in chunks:
        assert len(chunk.text) <= maximum or " " not in chunk.text  # or it is one long word


@settings(max_examples=200, deadline=None)
@given(markdownish, st.integers(min_value=0, max_value=40))
def test_plain_chunks_keep_every_word_in_place(source: str, minimum: int) -> None:
    chunks = chunk_text(source, markdown=False, min_chunk_length_chars=minimum)
    assert_invariants(source, chunks, markdown=False)
    assert words(" ".join(c.text for c in chunks)) == words(source)


@st.composite
def unique_words_in_markup(draw: st.DrawFn) -> str:
    """Markdown-ish text whose words are all different, so each can be found in one place."""
    # Not a fence right before a word: that word would be its info string, which is dropped.
    markup = [m for m in _PIECES if m != "```"] + ["\n```\n"]
    parts = draw(st.lists(st.one_of(st.none(), st.sampled_from(markup)), max_size=60))
    counter = iter(range(len(parts)))
    return "".join(f"w{next(counter)}z" if part is None else part for part in parts)


@settings(max_examples=300, deadline=None)
@given(unique_words_in_markup(), st.integers(min_value=0, max_value=30))
def test_each_passage_holds_exactly_its_own_words(source: str, minimum: int) -> None:
    # Pieces can still join into a fence line with a word after it ("``" + "`" + "w1z"): that
    # word is the fence's info string, which is dropped.
    assume(not re.search(r"(?m)^ {0,3}(`{3,}|~{3,})[^\n]*w\d+z", source))
    chunks = chunk_text(source, min_chunk_length_chars=minimum, splitter=builtin_splitter)
    unique = re.compile(r"w\d+z")
    for chunk in chunks:
        assert unique.findall(source[chunk.start : chunk.end]) == unique.findall(chunk.text)
