"""Tuning the records door's similarity threshold on labelled records (seed 001's "advanced
parameter tuning ... using a labeled validation set"): fitted on some citations, measured on
the others, every citation accounted for."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from citecheck.cli import main
from citecheck.errors import ConfigError, InputError
from citecheck.records.tuning import GRID, tune_threshold
from citecheck.testing.fakes import HashingEmbedder

WORDS = (
    "river harvest council budget farms wheat rainfall district survey minutes vote autumn "
    "session drought north decade"
).split()
OTHER = "apple zebra quantum violin glacier pepper orbit candle marble tiger lemon comet".split()


@pytest.fixture(autouse=True)
def no_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped judge reads English sentences; these are word lists: the labels here are
    the cosine's and the lexical pass's alone."""
    import citecheck.records.labels as labels

    monkeypatch.setattr(labels, "default_judge", lambda: None)


def labelled(count: int = 40, seed: int = 3) -> list[dict[str, Any]]:
    """Records whose true citations share four of seven words with a source sentence, and whose
    false ones share none."""
    rng = random.Random(seed)
    records = []
    for index in range(count):
        sentences = [" ".join(rng.sample(WORDS, 6)).capitalize() + "." for _ in range(4)]
        base = sentences[rng.randrange(4)].rstrip(".").lower().split()
        true = rng.sample(base, 4) + rng.sample(OTHER, 3)
        false = rng.sample(OTHER, 6)
        records.append(
            {
                "id": f"r{index}",
                "source_text": " ".join(sentences),
                "citations": [
                    {"citation": " ".join(true), "gold": True},
                    {"citation": " ".join(false), "gold": "false"},
                ],
            }
        )
    return records


def test_the_threshold_is_fitted_on_some_citations_and_measured_on_the_others() -> None:
    records = labelled()
    before = json.dumps(records)
    tuning = tune_threshold(records, embedder=HashingEmbedder(), config={"model_name": "x"})
    assert json.dumps(records) == before  # nothing the caller passed is changed
    assert (tuning.fitted, tuning.held_out, tuning.skipped) == (56, 24, 0)
    assert 0.0 <= tuning.before <= 1.0
    assert 0.0 <= tuning.after <= 1.0
    assert tuning.config["similarity_threshold"] == tuning.similarity_threshold
    assert "held-out citations" in tuning.to_text()


def test_a_citation_without_a_truth_is_counted_not_dropped() -> None:
    records = labelled()
    records[0]["citations"][0].pop("gold")
    records[1]["citations"][1]["gold"] = "maybe"
    tuning = tune_threshold(records, embedder=HashingEmbedder(), config={"model_name": "x"})
    assert tuning.skipped == 2
    assert tuning.fitted + tuning.held_out == 78


def test_the_threshold_is_chosen_by_the_final_labels_on_the_fitted_part(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each threshold of the grid labels the fitted records again, and the one whose final
    labels separate best wins; one embedder serves every pass (each text embedded once)."""
    import citecheck.records.tuning as tuning_module

    passes: list[float] = []
    real = tuning_module.__dict__.get("_bounds")
    assert real is not None

    def counted(settings: Any, cut: float) -> dict[str, float]:
        passes.append(cut)
        return real(settings, cut)

    monkeypatch.setattr(tuning_module, "_bounds", counted)
    embedder = HashingEmbedder()
    tuning = tune_threshold(labelled(), embedder=embedder, config={"model_name": "x"})
    assert sorted(set(passes) - {tuning.similarity_threshold}) == sorted(
        set(GRID) - {0.6, tuning.similarity_threshold}
    )
    assert tuning.similarity_threshold in (*GRID, 0.6)


def test_the_other_bounds_move_only_as_far_as_the_order_of_the_bands_needs() -> None:
    from citecheck.records.tuning import _bounds
    from citecheck.records.validate import RecordConfig

    assert _bounds(RecordConfig(), 0.85) == {
        "similarity_threshold": 0.85,
        "very_likely_true": 0.85,
        "ambiguous": 0.4,
        "likely_untrue": 0.2,
    }
    assert _bounds(RecordConfig(), 0.3)["ambiguous"] == 0.3
    RecordConfig.from_mapping(_bounds(RecordConfig(), 0.1))  # a valid configuration


def test_too_few_labelled_citations_is_an_error_that_names_the_field() -> None:
    records = labelled(count=3)
    with pytest.raises(InputError, match="'gold' is the field of their truth"):
        tune_threshold(records, embedder=HashingEmbedder(), config={"model_name": "x"})
    with pytest.raises(ConfigError, match="holdout must be between 0 and 1"):
        tune_threshold(records, holdout=1.0, embedder=HashingEmbedder())


def test_the_command_line_writes_the_tuned_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import citecheck.records.validate as validate

    monkeypatch.setattr(validate, "default_embedder", lambda settings: HashingEmbedder())
    data = tmp_path / "labelled.json"
    data.write_text(json.dumps(labelled()), encoding="utf-8")
    tuned = tmp_path / "tuned.json"
    code = main(["records", str(data), "--tune", "gold", "--tuned", str(tuned)])
    said = capsys.readouterr().out
    assert code == 0
    assert "balanced accuracy on 24 held-out citations" in said
    assert f"written to {tuned}" in said
    config = json.loads(tuned.read_text(encoding="utf-8"))
    assert 0.0 < config["similarity_threshold"] < 1.0
    assert not (tmp_path / "output_validated.json").exists()  # tuning labels nothing on disk


def test_a_tuned_threshold_that_does_worse_held_out_is_said_to_be_worse() -> None:
    from citecheck.records.tuning import Tuning

    worse = Tuning(0.7, before=0.62, after=0.57, fitted=490, held_out=210, skipped=0, config={})
    assert not worse.better
    assert "keep the configuration you have" in worse.to_text()
    same = Tuning(0.6, before=0.62, after=0.62, fitted=490, held_out=210, skipped=0, config={})
    assert same.better
    assert "use the tuned configuration" in same.to_text()
