"""The methods and validation paragraphs of a paper, written from one quote-verification run.

They follow the templates that researchers reporting a quote check expect ("Quote verification
employed a two-stage … approach", "Matches were considered validated if …"), with every number
taken from the run: the window size it used, the BM25 parameters, the embedding model or the
fact that there was none, the thresholds, the counts and shares per status. Where the run
cannot know a number (the outcome of a manual review not yet done) the text says so; nothing is
left in brackets and nothing is made up. The criteria written are citecheck's own, which differ
from the template's: a quote is verified by its similarity to the passage and the meaning
checks, never by its cosine or its BM25 ratio.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citecheck.errors import InputError
from citecheck.matchers.windows import MIN_WINDOW

if TYPE_CHECKING:
    from citecheck.quotes.quote_report import QuoteReport

__all__ = ["methods_text"]

_SPAN_REFINEMENT = {
    "fuzzy": "Span boundaries were refined by fuzzy alignment (RapidFuzz, normalised Indel "
    "similarity) and snapped to word boundaries.",
    "sliding_bm25": "Span boundaries were refined by sliding a run of as many words as the quote "
    "has over the region and keeping the run that shares the most words with it.",
    "hybrid": "Span boundaries were refined by fuzzy alignment (RapidFuzz, normalised Indel "
    "similarity) and snapped to word boundaries; where the fuzzy similarity fell below "
    "{min_fuzzy_ratio}, a sliding run of as many words as the quote has was tried too, and the "
    "more similar passage kept.",
}


def methods_text(
    report: QuoteReport, *, paraphrases: int | None = None, hallucinations: int | None = None
) -> str:
    """Two paragraphs, methods then validation, separated by a blank line.

    ``paraphrases`` and ``hallucinations`` are the outcome of a manual review of the
    low-confidence matches (how many were confirmed as paraphrases, how many excluded as
    fabricated), when one was done; without them the text says the review's outcome is not
    recorded. Their sum may not exceed the number of low-confidence matches.
    """
    low = report.stats()["n_low_match_confidence"]
    for name, value in (("paraphrases", paraphrases), ("hallucinations", hallucinations)):
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or value < 0
        ):
            raise InputError(f"{name} must be a non-negative whole number, not {value!r}")
    if (paraphrases or 0) + (hallucinations or 0) > low:
        raise InputError(
            f"paraphrases and hallucinations add up to {(paraphrases or 0) + (hallucinations or 0)}"
            f", more than the {low} low-confidence matches"
        )
    return f"{_methods(report)}\n\n{_validation(report, paraphrases, hallucinations)}"


def _methods(report: QuoteReport) -> str:
    from citecheck._version import __version__

    config = report.config
    stats = report.stats()
    model = report.embedding_model
    sentences = [
        f"Quote verification (citecheck {__version__}) employed a two-stage approach: lexical "
        "search for the passage each quote most likely comes from, then alignment of the quote "
        "with that passage"
        + (
            ", with the semantic similarity of quote and passage reported alongside"
            if model
            else ""
        )
        + "."
    ]
    if report.window_size_used is None or report.overlap_used is None:
        sentences.append("No windows were built, as no quote had any text to search for.")
    elif not report.n_documents:
        sentences.append("No windows were built, as no source document was given.")
    else:
        size_how = (
            "as configured"
            if config.window_size is not None
            else f"1.1 × the longest quote, at least {MIN_WINDOW} and at most "
            f"{config.max_window_size}"
        )
        overlap_how = "as configured" if config.overlap is not None else "30% of the window"
        sentences.append(
            f"The {_count(report.n_documents, 'source document')} "
            f"{'was' if report.n_documents == 1 else 'were'} segmented into overlapping windows "
            f"of {report.window_size_used} characters ({size_how}), neighbouring windows sharing "
            f"{report.overlap_used} characters ({overlap_how}); no window spans two documents."
        )
    ranked = (
        f"BM25 (Okapi, k1 = {config.bm25_k1:g}, b = {config.bm25_b:g}; computed with "
        f"{config.engine}) ranked the windows for each quote"
    )
    candidates = _count(config.candidates, "best-ranked window")
    if config.trim_spans:
        grow = config.expand_window_neighbors
        sentences.append(
            f"{ranked}, and the quote was aligned in the {candidates}, each widened by the "
            f"quote's length plus {config.trim_padding} characters on either side"
            + (
                f" and grown by one window step ({_times(grow)} at most) where the passage "
                "reached its edge."
                if grow
                else "."
            )
        )
    else:
        sentences.append(
            f"{ranked}, and the quote was compared with each of the {candidates} whole."
        )
    sentences.append(
        "Quotes and sources were compared after normalisation (Unicode NFKC, case folding, "
        "typographic quotes and dashes made plain, runs of whitespace collapsed, hyphenation at "
        "line ends removed)."
    )
    elided = stats["n_with_ellipses"]
    if elided:
        gap = (
            ""
            if config.ellipsis_max_gap is None
            else f", each beginning within {_count(config.ellipsis_max_gap + 1, 'window step')} "
            "of the end of the one before"
        )
        sentences.append(
            f"Quotes containing an ellipsis (n = {elided}) were split at it and their fragments "
            f"matched in order in one document{gap}, the span reconstructed from the start of the "
            "first fragment to the end of the last."
        )
    else:
        sentences.append("No quote contained an ellipsis.")
    sentences.append(_semantic(report))
    if config.trim_spans:
        sentences.append(
            _SPAN_REFINEMENT[config.trim_method].format(
                min_fuzzy_ratio=_percent(config.min_fuzzy_ratio)
            )
        )
    else:
        sentences.append("Span boundaries were not refined: each match is a whole window.")
    return " ".join(sentences)


def _semantic(report: QuoteReport) -> str:
    model = report.embedding_model
    if model is None:
        return "No embedding model was used, so semantic similarity was not computed."
    stats = report.stats()
    scored = sum(row.cosine_similarity is not None for row in report.rows)
    figures = (
        f" (mean {stats['mean_cosine']:.3f}, median {stats['median_cosine']:.3f}, range "
        f"{stats['min_cosine']:.3f} to {stats['max_cosine']:.3f}, over "
        f"{_count(scored, 'matched quote')})"
        if scored
        else " (no quote had a matched span to compare)"
    )
    return (
        f"Semantic similarity between quotes and matched spans was computed using {model} as "
        f"the cosine similarity of their embeddings{figures}; it was reported for review but "
        "decided no status."
    )


def _validation(report: QuoteReport, paraphrases: int | None, hallucinations: int | None) -> str:
    config = report.config
    stats = report.stats()
    total = stats["n_quotes"]
    if not total:
        return "No quotes were checked, so none was validated."
    threshold = _percent(config.match_threshold)
    exact = sum(row.match_ratio == 1.0 for row in report.rows)
    sentences = [
        "Matches were considered validated if the quote's similarity to its matched passage "
        f"(normalised Indel similarity) reached {threshold} and the passage showed no change of "
        "meaning (a negation, number or content word that differs, or one left out inside the "
        "quote); cosine similarity and BM25 ratio were reported but were not criteria.",
        f"Of the {_count(total, 'quote')}, {_share(stats['n_verified'], total)} met these "
        f"criteria ({exact} of them identical to their passage after normalisation), "
        f"{_share(stats['n_partial'], total)} matched a passage only with a change of meaning, "
        f"{_share(stats['n_unsupported'], total)} could not be located (no passage reached "
        f"{threshold}), and {_share(stats['n_unchecked'], total)} could not be checked (empty, "
        "not text, or too unspecific to locate).",
    ]
    if stats["median_bm25_ratio"] is not None:
        sentences.append(
            "The median BM25 ratio of the best-ranked window over the best window elsewhere was "
            f"{stats['median_bm25_ratio']:.1f}."
        )
    low = stats["n_low_match_confidence"]
    low_threshold = _percent(config.low_match_threshold)
    if not low:
        sentences.append(
            f"No match had low confidence (a match ratio below {low_threshold}), so none needed "
            "manual review."
        )
    elif paraphrases is None and hallucinations is None:
        sentences.append(
            f"Low-confidence matches (n = {low}: no passage, or a match ratio below "
            f"{low_threshold}) were flagged for manual review; the outcome of that review is not "
            "part of this run."
        )
    else:
        confirmed, excluded = paraphrases or 0, hallucinations or 0
        rest = low - confirmed - excluded
        sentences.append(
            f"Low-confidence matches (n = {low}: no passage, or a match ratio below "
            f"{low_threshold}) were manually reviewed, with {_share(confirmed, low)} confirmed as "
            f"paraphrases and {_share(excluded, low)} excluded as hallucinations"
            + (f"; {_share(rest, low)} were neither." if rest else ".")
        )
    return " ".join(sentences)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _share(n: int, total: int) -> str:
    return f"{n} ({100 * n / total:.1f}%)"


def _percent(fraction: float) -> str:
    return f"{100 * fraction:.2f}".rstrip("0").rstrip(".") + "%"
