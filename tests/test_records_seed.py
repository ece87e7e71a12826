"""The record validator's seed details: its label strings, config.json found where the seed kept
it, and output_validated.json as the default output."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, ClassVar

import pytest

from citecheck import ConfigError, validate_records
from citecheck.cli import main
from citecheck.records.labels import LABEL_SETS, Label, SemanticValidator, label_names
from citecheck.records.validate import RecordConfig
from citecheck.testing import HashingEmbedder

SOURCE = (
    "Content from report.md\n"
    "# Results\n\n"
    "The river flooded twice in the spring of 2021, and the harvest was late.\n"
)
SEED_LABELS = {
    "very likely true",
    "likely true",
    "ambiguous / review recommended",
    "likely untrue",
    "very likely untrue",
    "untrue (too short)",
    "untrue (no source text)",
}


class AtCosine:
    """Every source sentence embeds to e1; a citation listed here to a vector at that cosine
    (citations are embedded in lower case, so they are looked up in lower case)."""

    def __init__(self, cosines: dict[str, float]) -> None:
        self.cosines = {text.lower(): cosine for text, cosine in cosines.items()}

    def _vector(self, text: str) -> list[float]:
        c = self.cosines.get(text.lower())
        return [1.0, 0.0] if c is None else [c, math.sqrt(1 - c * c)]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


NOT_ALL_TRUE = 1
"""The exit status of a completed run over :func:`batch`: not every citation is likely true
(one is too short, one has no source text, and the offline model calls some untrue)."""


def batch() -> list[dict[str, Any]]:
    return [
        {
            "id": 1,
            "source_text": SOURCE,
            "citations": [
                {"citation": "The river flooded twice in the spring of 2021."},
                {"citation": "Harvests were somewhat delayed that year."},
                {"citation": "Yes."},
            ],
        },
        {"id": 2, "source_text": "", "citations": [{"citation": "The river flooded twice."}]},
    ]


def test_the_seed_label_set_holds_the_seed_strings_exactly() -> None:
    assert set(LABEL_SETS["seed"].values()) == SEED_LABELS
    assert set(LABEL_SETS["seed"]) == set(Label)
    assert dict(LABEL_SETS["citecheck"]) == {label: label.value for label in Label}


def test_records_are_written_with_the_chosen_label_set() -> None:
    embedder = AtCosine({"Harvests were somewhat delayed that year.": 0.5})
    statuses = {}
    for label_set in ("citecheck", "seed"):
        done = validate_records(batch(), embedder=embedder, label_set=label_set, lexical_pass=False)
        statuses[label_set] = [
            c["validation_status"] for record in done for c in record["citations"]
        ]
    assert statuses["citecheck"] == ["very likely true", "ambiguous", "too short", "no source text"]
    assert statuses["seed"] == [
        "very likely true",
        "ambiguous / review recommended",
        "untrue (too short)",
        "untrue (no source text)",
    ]


def test_reasons_spell_labels_as_the_label_set_does() -> None:
    validator = SemanticValidator(
        AtCosine({"Harvests were delayed in 2019.": 0.9}), label_set="seed"
    )
    outcome = validator.validate("Harvests were delayed in 2019.", SOURCE)
    assert outcome.label is Label.AMBIGUOUS
    assert (
        "very likely true; moved to ambiguous / review recommended by the meaning guard: "
        "the claim has the number '2019' where the source has"
    ) in outcome.reason


def test_an_unknown_label_set_is_a_config_error_naming_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"unknown label_set 'tip'; known: citecheck, seed"):
        RecordConfig(label_set="tip")
    with pytest.raises(ConfigError, match="label_set"):
        label_names("Seed")
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"label_set": "seed"}), encoding="utf-8")
    assert RecordConfig.from_file(config).label_set == "seed"
    assert RecordConfig().label_set == "citecheck"


# -- the command line --------------------------------------------------------------------------


class Offline(HashingEmbedder):
    """Stands in for the sentence-transformers model, which the CLI builds from the config."""

    models: ClassVar[list[str]] = []
    model = "loaded"  # the CLI loads the model before the first record

    def __init__(self, model_name: str, **options: Any) -> None:
        super().__init__(256)
        Offline.models.append(model_name)

    @staticmethod
    def check_installed() -> None:
        pass


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    import citecheck.embedders.named

    Offline.models = []
    monkeypatch.setattr(citecheck.embedders.named, "model_embedder", Offline)


def write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def statuses(path: Path) -> list[str]:
    done = json.loads(path.read_text(encoding="utf-8"))
    return [c["validation_status"] for record in done for c in record["citations"]]


@pytest.mark.usefixtures("offline")
def test_config_json_beside_the_input_is_used_and_output_validated_json_written_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write(tmp_path / "app" / "data.json", batch())
    before = data.read_text(encoding="utf-8")
    config = write(tmp_path / "app" / "config.json", {"label_set": "seed", "model_name": "m-1"})
    monkeypatch.chdir(tmp_path)
    assert main(["records", "app/data.json", "--no-progress"]) == NOT_ALL_TRUE
    captured = capsys.readouterr()
    assert f"options from {Path('app') / 'config.json'}" in captured.err
    output = tmp_path / "app" / "output_validated.json"
    assert f"written to {output.relative_to(tmp_path)}" in captured.out
    assert "untrue (too short)" in statuses(output)
    assert Offline.models == ["m-1"]
    assert data.read_text(encoding="utf-8") == before, "the input is never rewritten"
    assert config.is_file()
    assert sorted(p.name for p in output.parent.iterdir()) == [
        "config.json",
        "data.json",
        "output_validated.json",
    ], "no temporary file is left behind"


@pytest.mark.usefixtures("offline")
def test_config_json_in_the_working_directory_when_none_is_beside_the_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "data" / "records.json", batch())
    write(tmp_path / "config.json", {"label_set": "seed"})
    monkeypatch.chdir(tmp_path)
    assert main(["records", "data/records.json", "--no-progress"]) == NOT_ALL_TRUE
    assert f"options from {Path.cwd() / 'config.json'}" in capsys.readouterr().err
    assert "ambiguous" not in statuses(tmp_path / "data" / "output_validated.json")
    assert "untrue (no source text)" in statuses(tmp_path / "data" / "output_validated.json")
    # A config.json beside the input wins over the working directory's.
    write(tmp_path / "data" / "config.json", {"label_set": "citecheck"})
    assert main(["records", "data/records.json", "--no-progress"]) == NOT_ALL_TRUE
    assert f"options from {Path('data') / 'config.json'}" in capsys.readouterr().err
    assert "no source text" in statuses(tmp_path / "data" / "output_validated.json")


@pytest.mark.usefixtures("offline")
def test_without_any_config_the_defaults_are_used_silently(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "records.json", batch())
    monkeypatch.chdir(tmp_path)
    assert main(["records", "records.json", "--no-progress"]) == NOT_ALL_TRUE
    assert capsys.readouterr().err == ""
    assert "too short" in statuses(tmp_path / "output_validated.json")


@pytest.mark.usefixtures("offline")
def test_file_names_in_the_config_are_read_from_its_folder_and_o_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "app" / "in.json", batch())
    config = write(
        tmp_path / "app" / "settings.json",
        {"data_file_name": "in.json", "output_file_name": "out/labelled.json"},
    )
    (tmp_path / "app" / "out").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["records", "--config", str(config), "--no-progress"]) == NOT_ALL_TRUE
    assert statuses(tmp_path / "app" / "out" / "labelled.json")
    elsewhere = tmp_path / "chosen.json"
    assert (
        main(["records", "--config", str(config), "-o", str(elsewhere), "--no-progress"])
        == NOT_ALL_TRUE
    )
    assert statuses(elsewhere)
    capsys.readouterr()


@pytest.mark.usefixtures("offline")
@pytest.mark.parametrize("how", ["default name", "-o", "output_file_name"])
def test_the_input_is_never_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    data = write(tmp_path / "output_validated.json", batch())
    before = data.read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    argv = ["records", "output_validated.json", "--no-progress"]
    if how == "-o":
        argv += ["-o", str(data)]
    elif how == "output_file_name":
        write(tmp_path / "config.json", {"output_file_name": "output_validated.json"})
    assert main(argv) == 2
    assert "is the input" in capsys.readouterr().err
    assert data.read_text(encoding="utf-8") == before
