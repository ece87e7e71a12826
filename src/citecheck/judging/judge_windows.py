"""Where evidence longer than the support judge reads is cut: windows of whole sentences.

A cross-encoder reads the claim and the evidence together, in a fixed number of tokens; what
does not fit is dropped without a word. So evidence is cut into windows that fit beside the
claim, each of them scored, and the best window decides (the judge says how many there were).
A window starts at a sentence and takes the sentences after it while they fit, so a claim that
rests on two neighbouring sentences finds them together; a sentence longer than a window is cut
between its tokens into windows that overlap by half
(:func:`~citecheck.language.tokens.token_windows`).

The same function picks the one window a training pair is trained on (:func:`best_window`), so
the judge learns on the kind of text it is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citecheck.errors import ConfigError
from citecheck.language.text import KEY_WORD, normalize, sentence_spans
from citecheck.language.tokens import TokenBudget, token_windows

__all__ = ["Sentences", "best_window", "sentence_windows", "shared_words"]


@dataclass(frozen=True, slots=True)
class Sentences:
    """A passage's sentences as ``(start, end)`` offsets, each with its tokens as character
    spans in the sentence: measured once, then cut into windows of any size."""

    spans: tuple[tuple[int, int], ...]
    tokens: tuple[tuple[tuple[int, int], ...], ...]

    @classmethod
    def of(cls, passage: str, budget: TokenBudget | None = None) -> Sentences:
        found = sentence_spans(passage) or ([(0, len(passage))] if passage.strip() else [])
        counted = (budget or TokenBudget()).spans([passage[s:e] for s, e in found])
        return cls(tuple(found), tuple(tuple(spans) for spans in counted))

    def windows(self, tokens: int) -> list[tuple[int, int]]:
        """Windows of at most ``tokens`` tokens, in order; one starts at each sentence."""
        if tokens < 2:
            raise ConfigError(f"a window must hold at least 2 tokens, got {tokens}")
        pieces: list[tuple[int, int, int]] = []  # (start, end, tokens): sentences cut to fit
        for (start, end), spans in zip(self.spans, self.tokens, strict=True):
            if len(spans) <= tokens:
                pieces.append((start, end, len(spans)))
                continue
            for first, stop in token_windows(spans, tokens, tokens // 2):
                pieces.append((start + spans[first][0], start + spans[stop - 1][1], stop - first))
        windows: list[tuple[int, int]] = []
        for at, (start, end, used) in enumerate(pieces):
            following = at + 1
            while following < len(pieces):
                next_start, next_end, more = pieces[following]
                if used + more > tokens or next_start < end:
                    break
                end, used = next_end, used + more
                following += 1
            if not windows or end > windows[-1][1]:  # inside the window before: adds nothing
                windows.append((start, end))
        return windows


def sentence_windows(
    passage: str, tokens: int, budget: TokenBudget | None = None
) -> list[tuple[int, int]]:
    """Windows of ``passage`` of at most ``tokens`` tokens (counted by ``budget``'s
    tokenizer), as ``(start, end)`` character offsets into it, in order; ``[]`` for a passage
    of nothing but whitespace. One window starts at each sentence."""
    return Sentences.of(passage, budget).windows(tokens)


def shared_words(claim: str, text: str) -> int:
    """How many distinct words of three letters or more of ``claim`` stand in ``text``."""
    wanted = set(KEY_WORD.findall(normalize(claim)))
    return len(wanted & set(KEY_WORD.findall(normalize(text))))


def best_window(
    claim: str, passage: str, windows: Sequence[tuple[int, int]]
) -> tuple[int, int] | None:
    """The window sharing the most words with ``claim`` (the first on a tie), or ``None``."""
    if not windows:
        return None
    return max(windows, key=lambda w: (shared_words(claim, passage[w[0] : w[1]]), -w[0]))
