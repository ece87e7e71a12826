"""How much text an embedding model reads, and windows of text that fit it.

A model reads a fixed number of tokens (all-MiniLM-L6-v2: 256 word pieces, two of them its own
markers) and silently drops the rest. A sentence standing at the end of a long unpunctuated
transcript would never be seen, and the source would be judged not to say it. So every text
citecheck embeds is measured in the model's own tokens (:class:`TokenBudget`), and a text that
does not fit is cut into overlapping windows that do (:func:`token_windows`).

Windows overlap by half: any run of tokens no longer than the overlap lies wholly inside some
window, so a citation of up to that length that crosses the border of one window is whole in
the next. Windows start and end between words where they can; a single word longer than a
window is cut between its tokens, never dropped.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from citecheck.errors import BackendError, ConfigError

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_WINDOW_TOKENS",
    "TokenBudget",
    "TokenSpans",
    "estimate_token_spans",
    "token_windows",
]

TokenSpans = Callable[[Sequence[str]], Sequence[Sequence[tuple[int, int]]]]
"""A tokenizer seen from outside: texts in, each text's tokens out as ``(start, end)`` character
spans in that text, in order (the model's own markers, such as ``[CLS]``, left out)."""

DEFAULT_MAX_TOKENS = 254
"""What an embedder that does not say is assumed to read: all-MiniLM-L6-v2's 256 word pieces
less its two markers, the smallest limit among common sentence embedders."""

DEFAULT_WINDOW_TOKENS = 128
"""The longest window cut from a text that does not fit: short enough that a sentence is a
good share of the window it stands in (a window's vector is the mean of its tokens), long
enough that the overlap (half) holds a long citation whole."""

_ESTIMATE = re.compile(r"[A-Za-z\u00C0-\u024F]{1,2}|[^\sA-Za-z\u00C0-\u024F]")
"""Two Latin letters, or any other character but a space, count as one token."""


def estimate_token_spans(texts: Sequence[str]) -> list[list[tuple[int, int]]]:
    """Pseudo-tokens for an embedder with no tokenizer of its own: every two Latin letters,
    and every other character except whitespace, count as one.

    This overcounts on purpose, so that a window measured with it fits a real model: English
    averages about 4 characters a token in all-MiniLM-L6-v2's word pieces and German about
    2.5, against 2 here; digits, symbols and other scripts, which models cut finer, count one
    a character. Measured on XQuAD's English and German paragraphs, the real count never
    exceeded this one."""
    return [[m.span() for m in _ESTIMATE.finditer(text)] for text in texts]


@dataclass(frozen=True, slots=True)
class TokenBudget:
    """How many tokens a model reads (``max_tokens``, its markers not counted) and how to count
    them (``token_spans``: the model's tokenizer, or :func:`estimate_token_spans`).

    A text longer than ``max_tokens`` is cut into windows of ``window_tokens`` (at most
    ``max_tokens``) that overlap by half."""

    max_tokens: int = DEFAULT_MAX_TOKENS
    token_spans: TokenSpans = estimate_token_spans
    window_tokens: int = DEFAULT_WINDOW_TOKENS

    def __post_init__(self) -> None:
        for name in ("max_tokens", "window_tokens"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 2:
                raise ConfigError(f"{name} must be an int of at least 2, got {value!r}")
        if not callable(self.token_spans):
            raise ConfigError(f"token_spans must be callable, got {self.token_spans!r}")

    @property
    def window(self) -> int:
        """The size of a window, in tokens."""
        return min(self.window_tokens, self.max_tokens)

    def spans(self, texts: Sequence[str]) -> list[list[tuple[int, int]]]:
        """Each text's tokens, checked: a tokenizer that answers for the wrong number of texts
        or with spans outside a text is a :class:`~citecheck.errors.BackendError`, since
        windows cut from a wrong count could be cut by the model after all."""
        if not texts:
            return []
        try:
            found = [list(spans) for spans in self.token_spans(list(texts))]
        except (BackendError, ConfigError):
            raise
        except Exception as exc:  # a tokenizer's own error
            raise BackendError(f"the tokenizer failed: {type(exc).__name__}: {exc}") from exc
        if len(found) != len(texts):
            raise BackendError(f"the tokenizer answered for {len(found)} of {len(texts)} texts")
        for text, spans in zip(texts, found, strict=True):
            previous = 0
            for start, end in spans:
                if not previous <= start <= end <= len(text):
                    raise BackendError(
                        f"the tokenizer gave the span {start}-{end} in a text of {len(text)} "
                        "characters, out of order or outside it"
                    )
                previous = start
        return found


def token_windows(
    spans: Sequence[tuple[int, int]], size: int, overlap: int
) -> list[tuple[int, int]]:
    """Windows of at most ``size`` tokens over ``spans`` (a text's tokens), as ``(first,
    stop)`` token indices; ``[(0, len(spans))]`` when all fit.

    Each window after the first starts at most ``overlap`` tokens before the previous one
    ends, so every run of up to ``overlap`` tokens lies inside some window, and the last window
    ends at the last token. Windows start and end where whitespace separates two tokens when
    such a place keeps these promises, else between any two tokens."""
    if not 0 <= overlap < size:
        raise ConfigError(f"need 0 <= overlap < size, got overlap {overlap} for size {size}")
    count = len(spans)
    if count <= size:
        return [(0, count)]
    # Token indices that start a word: the first one, and any with a gap before it.
    starts = [0, *(i for i in range(1, count) if spans[i][0] > spans[i - 1][1])]

    def last_start(low: int, high: int) -> int | None:
        """The largest word start in ``(low, high]``."""
        at = bisect_right(starts, high) - 1
        return starts[at] if at >= 0 and starts[at] > low else None

    windows: list[tuple[int, int]] = []
    first = 0
    while count - first > size:
        stop = last_start(first + overlap, first + size) or first + size
        windows.append((first, stop))
        first = last_start(first, stop - overlap) or stop - overlap
    windows.append((first, count))
    return windows
