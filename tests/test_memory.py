"""Memory for a long source stays a small multiple of its size and grows linearly (issue 16).

A 50 MB source once took 3.15 GB: every word of it kept a string, an int object and a hash
in Python lists, sets and dictionaries. The peak of traced allocations while one quote is
looked up in a source of 0.5 and 2.5 million characters, exactly and fuzzily, at the cited
place and then everywhere else (the quote, with a slip, stands on another line, so every index
of both matchers is built), must stay under ten times the source's length and grow in
proportion to it. The 50 MB figure,
as resident size, is in ``benchmarks/hostile.py``.
"""

from __future__ import annotations

import random
import tracemalloc

import citecheck
from citecheck import Document, Status

MAX_GROWTH = 10.0


def source(size: int) -> str:
    """English-like lines of a few thousand distinct words, with blank lines, accented letters
    and typographic punctuation, as a long transcript or book has them."""
    rng = random.Random(size)
    words = [
        "".join(rng.choices("abcdefghijklmnopqrstuvwxyzé", k=rng.randint(2, 9)))
        for _ in range(3000)
    ]
    lines, length = [], 0
    while length < size:
        line = " ".join(rng.choices(words, k=rng.randint(5, 15))) + rng.choice(
            [".", ",", " —", "”"]
        )
        if rng.random() < 0.2:
            line += "\n"
        lines.append(line)
        length += len(line) + 1
    return "\n".join(lines)[:size]


def peak_growth(size: int) -> float:
    """The traced peak while a quote from the middle of a source of ``size`` characters is
    verified, as a multiple of ``size``."""
    text = source(size)
    middle = text[size // 2 : size // 2 + 300]
    quote = " ".join(middle.split()[1:9])
    quote = f"{quote[:20]}zq{quote[22:]}"  # a slip: exact matching fails, fuzzy searches
    answer = f'"{quote}" [[d:L1]]'
    tracemalloc.start()
    try:
        report = citecheck.verify(answer, [Document("d", text)], matchers=("exact", "fuzzy"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.results[0].status == Status.WRONG_LOCATION  # found elsewhere, fuzzily
    return peak / size


def test_memory_stays_under_ten_times_a_long_source_and_grows_linearly() -> None:
    small, large = 500_000, 2_500_000
    peak_growth(100_000)  # lazy imports (numpy) and caches, which are no source's growth
    little, big = peak_growth(small), peak_growth(large)
    assert little < MAX_GROWTH, f"{small} characters: peak {little:.1f}x the source"
    assert big < MAX_GROWTH, f"{large} characters: peak {big:.1f}x the source"
    assert big < 1.5 * little, f"peak per character {little:.1f}x -> {big:.1f}x: not linear"
