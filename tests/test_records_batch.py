"""Record batches under load and faults (issue 16): sources embedded across records, a run
that resumes where it was interrupted, an output that never overwrites its input, and a clear
message for every bad input, per record or per run."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest

import citecheck.records.validate
from citecheck import validate_records
from citecheck.cli import main
from citecheck.errors import BackendError, ConfigError
from citecheck.records.validate import MAX_RECORD_DEPTH, RecordConfig
from citecheck.testing import HashingEmbedder

TOPICS = ["river", "harvest", "census", "railway", "library", "vaccine", "orchard", "bridge"]


def batch(count: int = 12) -> list[dict[str, Any]]:
    """Records with sources of their own (two documents each) and three citations."""
    records = []
    for i in range(count):
        a, b = TOPICS[i % len(TOPICS)], TOPICS[(i + 3) % len(TOPICS)]
        source = (
            f"Content from {a}-{i}.md\nThe {a} report of year {2000 + i} counted {i * 7} sites "
            f"in the north. Most of the {a} sites were closed by the council.\n"
            f"Content from {b}-{i}.md\nA survey of the {b} found {i + 3} problems in {1990 + i}."
            f" The {b} was repaired twice after the survey.\n"
        )
        records.append(
            {
                "id": i,
                "source_text": source,
                "citations": [
                    {"citation": f"The {a} report of year {2000 + i} counted {i * 7} sites."},
                    {"citation": f"The {b} was repaired twice after a survey."},
                    {"citation": "Nobody ever measured the moon from a boat."},
                ],
            }
        )
    return records


class Counting(HashingEmbedder):
    """Counts the calls and the texts it embeds."""

    def __init__(self) -> None:
        super().__init__(128)
        self.texts = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.texts += len(texts)
        return super().embed_documents(texts)


def labels(done: list[dict[str, Any]]) -> list[tuple[Any, Any, Any]]:
    return [
        (c.get("validation_status"), c.get("confidence_score_percent"), c.get("validation_reason"))
        for record in done
        for c in record.get("citations", ())
    ]


# -- batching across records ------------------------------------------------------------------


def test_sources_are_embedded_in_one_call_per_block_not_one_per_record() -> None:
    records = batch(40)
    embedder = Counting()
    done = validate_records(records, embedder=embedder)
    assert embedder.calls <= 2, f"{embedder.calls} embedding calls for 40 records"
    alone = [validate_records([r], embedder=Counting())[0] for r in records]
    assert labels(done) == labels(alone), "batching changes no label, confidence or reason"
    assert done == alone


class ShortReading(Counting):
    """A model that reads 8 tokens, counted as words: every source sentence needs windows, cut
    where this tokenizer says, not where the estimate would."""

    max_tokens = 8

    @staticmethod
    def token_spans(texts: list[str]) -> list[list[tuple[int, int]]]:
        return [[m.span() for m in re.finditer(r"\S+", text)] for text in texts]


def test_the_dry_run_cuts_the_windows_the_model_reads() -> None:
    records = batch(20)
    embedder = ShortReading()
    done = validate_records(records, embedder=embedder)
    assert embedder.calls <= 2, f"{embedder.calls} embedding calls for 20 records"
    assert done == [validate_records([r], embedder=ShortReading())[0] for r in records]


def test_blocks_split_a_long_batch_and_give_the_same_results(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    records = batch(9)
    whole = validate_records(records, embedder=Counting())
    monkeypatch.setattr(citecheck.records.validate, "BLOCK_RECORDS", 4)
    embedder = Counting()
    assert validate_records(records, embedder=embedder) == whole
    assert embedder.calls == 3, "one call per block of four records"


def test_a_record_that_cannot_be_read_does_not_spoil_the_block() -> None:
    records = [*batch(3), {"source_text": "The \ud800 river.", "citations": []}]
    embedder = Counting()
    done = validate_records(records, embedder=embedder)
    assert embedder.calls == 1
    assert labels(done[:3]) == labels(validate_records(batch(3), embedder=Counting()))


# -- bad input: per record, or per run ----------------------------------------------------------


@pytest.mark.parametrize("value", ["a string", 5, None, [1, 2], True])
def test_a_record_that_is_not_an_object_is_kept_in_place_and_flagged(value: object) -> None:
    records = [*batch(1), value, *batch(1)]
    done = validate_records(records, embedder=HashingEmbedder())
    assert len(done) == 3
    assert done[1] == {
        "record": value,
        "validation_error": f"a record must be an object, got {type(value).__name__}",
    }
    assert done[0]["id"] == done[2]["id"] == 0


def test_a_lone_surrogate_is_an_error_of_its_record_or_citation() -> None:
    bad_source = {"id": "s", "source_text": "The river \ud800 flooded.", "citations": []}
    bad_citation = {
        "id": "c",
        "source_text": batch(1)[0]["source_text"],
        "citations": [{"citation": "The river \udfff flooded twice."}, *batch(1)[0]["citations"]],
    }
    done = validate_records([bad_source, bad_citation], embedder=HashingEmbedder())
    assert done[0]["validation_error"] == (
        "'source_text' holds a lone surrogate (U+D800) at character 10, which is not text "
        "(an escape such as \\ud800 in JSON)"
    )
    first, *rest = done[1]["citations"]
    assert "lone surrogate (U+DFFF) at character 10" in first["validation_error"]
    assert all("validation_status" in c for c in rest)
    assert "validation_error" not in done[1]


def test_a_record_nested_too_deeply_is_flagged_and_the_batch_goes_on() -> None:
    deep: Any = "bottom"
    for _ in range(MAX_RECORD_DEPTH + 400):
        deep = [deep]
    records = [{"id": "deep", "source_text": "x", "citations": [], "extra": deep}, *batch(1)]
    done = validate_records(records, embedder=HashingEmbedder())
    assert done[0]["validation_error"] == (
        f"the record nests {MAX_RECORD_DEPTH + 1} levels deep; at most {MAX_RECORD_DEPTH} are read"
    )
    assert done[0]["extra"] is deep
    assert "validation_status" in done[1]["citations"][0]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"similarity_threshold": "high"}, "similarity_threshold must be a number, not 'high'"),
        ({"ambiguous": None}, "ambiguous must be a number"),
        ({"likely_untrue": True}, "likely_untrue must be a number"),
        ({"batch_size": "64"}, "batch_size must be a positive integer"),
        ({"batch_size": 0}, "batch_size must be a positive integer"),
        ({"lexical_pass": "yes"}, "lexical_pass must be true or false"),
        ({"device": 3}, "device must be a non-empty string"),
        ({"cache_dir": 5}, "cache_dir must be a string"),
    ],
)
def test_options_of_the_wrong_type_are_config_errors(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        RecordConfig.from_mapping(options)


class Broken:
    """A sentence-transformers embedder whose model cannot load (device="cuda", no GPU)."""

    def __init__(self, model_name: str, **options: Any) -> None:
        self.device = options["device"]

    @staticmethod
    def check_installed() -> None:
        pass

    @property
    def model(self) -> Any:
        raise BackendError(f"cannot load the embedding model: no {self.device} device")


def test_a_model_that_cannot_load_fails_the_run_not_every_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import citecheck.embedders.named

    monkeypatch.setattr(citecheck.embedders.named, "model_embedder", Broken)
    with pytest.raises(BackendError, match="no cuda device"):
        validate_records(batch(2), device="cuda")


# -- the command line ---------------------------------------------------------------------------


class Offline(HashingEmbedder):
    """Stands in for the sentence-transformers model; ``stop_after`` embedding calls it
    interrupts the run as Ctrl-C does."""

    stop_after: ClassVar[int | None] = None
    model = "loaded"

    def __init__(self, model_name: str, **options: Any) -> None:
        super().__init__(128)

    @staticmethod
    def check_installed() -> None:
        pass

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if Offline.stop_after is not None:
            if Offline.stop_after == 0:
                raise KeyboardInterrupt
            Offline.stop_after -= 1
        return super().embed_documents(texts)


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    import citecheck.embedders.named

    Offline.stop_after = None
    monkeypatch.setattr(citecheck.embedders.named, "model_embedder", Offline)


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


UNTRUE_IN_EVERY_BATCH = 1
"""The exit status of a completed run over :func:`batch`: its moon citation is untrue."""


def run(*argv: str) -> int:
    return main(["records", *argv, "--no-progress"])


@pytest.mark.usefixtures("offline")
def test_an_interrupted_run_resumes_where_it_stopped_and_gives_the_same_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(citecheck.records.validate, "BLOCK_RECORDS", 3)
    data = write(tmp_path / "in.json", batch(10))
    whole, out = tmp_path / "whole.json", tmp_path / "out.json"
    assert run(str(data), "-o", str(whole)) == UNTRUE_IN_EVERY_BATCH
    Offline.stop_after = 2  # two blocks embedded, the third interrupted
    assert run(str(data), "-o", str(out)) == 130
    err = capsys.readouterr().err
    checkpoint = tmp_path / "out.json.partial.jsonl"
    assert f"interrupted after 6 of 10 records, kept in {checkpoint}" in err
    assert not out.exists(), "the output is written whole at the end, never half"
    assert len(checkpoint.read_text(encoding="utf-8").splitlines()) == 1 + 6
    Offline.stop_after = None
    assert run(str(data), "-o", str(out)) == 2, "a checkpoint is never thrown away unasked"
    assert "run again with --resume" in capsys.readouterr().err
    assert run(str(data), "-o", str(out), "--resume") == UNTRUE_IN_EVERY_BATCH
    assert "resuming from" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
    assert not checkpoint.exists()


@pytest.mark.usefixtures("offline")
def test_the_report_of_a_resumed_run_covers_every_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(citecheck.records.validate, "BLOCK_RECORDS", 3)
    data = write(tmp_path / "in.json", batch(10))
    whole, out = tmp_path / "whole.json", tmp_path / "out.json"
    first, second = tmp_path / "whole-report.json", tmp_path / "report.json"
    assert run(str(data), "-o", str(whole), "--report", str(first)) == UNTRUE_IN_EVERY_BATCH
    Offline.stop_after = 2
    assert run(str(data), "-o", str(out), "--report", str(second)) == 130
    assert not second.exists()
    Offline.stop_after = None
    code = run(str(data), "-o", str(out), "--report", str(second), "--resume")
    assert code == UNTRUE_IN_EVERY_BATCH
    capsys.readouterr()
    expected = json.loads(first.read_text(encoding="utf-8"))
    resumed = json.loads(second.read_text(encoding="utf-8"))
    assert resumed["results"] == expected["results"]
    assert len(resumed["results"]) == 30  # three citations in each of ten records
    assert resumed["kind"] == "records"
    assert resumed["outcome"] == "FAIL"
    assert resumed["metrics"]["records"] == 10
    # the report in any format, and a bad report name said before anything is labelled
    assert run(str(data), "-o", str(out), "--report", str(tmp_path / "r.xml")) == 1
    assert "<testsuites" in (tmp_path / "r.xml").read_text(encoding="utf-8")
    assert run(str(data), "-o", str(out), "--report", str(tmp_path / "r.docx")) == 2
    assert run(str(data), "-o", str(out), "--format", "html") == 2
    assert "--report" in capsys.readouterr().err


@pytest.mark.usefixtures("offline")
def test_a_line_cut_short_by_a_crash_is_dropped_on_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write(tmp_path / "in.json", batch(5))
    whole, out = tmp_path / "whole.jsonl", tmp_path / "out.jsonl"
    assert run(str(data), "-o", str(whole)) == UNTRUE_IN_EVERY_BATCH
    lines = whole.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["id"] for line in lines] == [0, 1, 2, 3, 4], "JSON Lines, in order"
    checkpoint = tmp_path / "out.jsonl.partial.jsonl"
    Offline.stop_after = 0
    assert run(str(data), "-o", str(out)) == 130  # nothing done: only the header, if anything
    Offline.stop_after = None
    assert run(str(data), "-o", str(out), "--resume") == UNTRUE_IN_EVERY_BATCH
    full = checkpoint_of(data, out, tmp_path)
    torn = full.splitlines(keepends=True)
    checkpoint.write_text("".join(torn[:3]) + torn[3][:25], encoding="utf-8")
    assert run(str(data), "-o", str(out), "--resume") == UNTRUE_IN_EVERY_BATCH
    assert "2 of 5 records done" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")


class FullDisk:
    """A checkpoint stream on a disk that fills up after ``room`` lines: the next line is cut
    short and the write fails as a full disk's does."""

    def __init__(self, stream: Any, room: int) -> None:
        self.stream, self.room = stream, room

    def write(self, text: str) -> int:
        if self.room == 0:
            self.stream.write(text[:20])
            self.stream.flush()
            raise OSError(28, "No space left on device")
        self.room -= 1
        return int(self.stream.write(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


@pytest.mark.usefixtures("offline")
def test_a_full_disk_while_checkpointing_names_the_checkpoint_and_keeps_what_it_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from citecheck.errors import WriteError
    from citecheck.records.record_files import Checkpoint

    data = write(tmp_path / "in.json", batch(6))
    whole, out = tmp_path / "whole.json", tmp_path / "out.json"
    assert run(str(data), "-o", str(whole)) == UNTRUE_IN_EVERY_BATCH
    real = Checkpoint.begin

    def on_a_small_disk(self: Checkpoint) -> None:
        real(self)
        self._stream = FullDisk(self._stream, room=4)  # type: ignore[assignment]

    with monkeypatch.context() as patch:
        patch.setattr(Checkpoint, "begin", on_a_small_disk)
        assert run(str(data), "-o", str(out)) == 2
    err = capsys.readouterr().err
    checkpoint = tmp_path / "out.json.partial.jsonl"
    assert f"cannot write {checkpoint}: No space left on device" in err
    assert f"4 of 6 records are kept in {checkpoint}" in err
    assert "--resume" in err
    assert "Traceback" not in err
    assert not out.exists()
    assert run(str(data), "-o", str(out), "--resume") == UNTRUE_IN_EVERY_BATCH
    assert "4 of 6 records done" in capsys.readouterr().err, "the line cut short is dropped"
    assert out.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
    # the same at the door's own level: a WriteError, an OSError naming the file
    kept = Checkpoint(tmp_path / "c.jsonl", [1, 2], {})
    kept.begin()
    kept._stream = FullDisk(kept._stream, room=0)  # type: ignore[assignment]
    with pytest.raises(WriteError, match=r"c\.jsonl") as raised:
        kept.append({}, [])
    assert isinstance(raised.value, OSError)
    assert raised.value.errno == 28
    assert kept.done == 0


def checkpoint_of(data: Path, out: Path, tmp_path: Path) -> str:
    """The checkpoint of a complete run over ``data``: interrupted just before it is removed."""
    from citecheck.records.record_files import Checkpoint

    real = Checkpoint.remove
    kept: list[str] = []

    def keep(self: Checkpoint) -> None:
        kept.append(self.path.read_text(encoding="utf-8"))
        real(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Checkpoint, "remove", keep)
        assert run(str(data), "-o", str(tmp_path / "again.jsonl")) == UNTRUE_IN_EVERY_BATCH
    return kept[0]


@pytest.mark.usefixtures("offline")
@pytest.mark.parametrize("change", ["record", "count", "options"])
def test_resume_refuses_a_checkpoint_of_another_input_or_other_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: str
) -> None:
    records = batch(6)
    data = write(tmp_path / "in.json", records)
    out = tmp_path / "out.json"
    Offline.stop_after = 0
    assert run(str(data), "-o", str(out)) == 130
    Offline.stop_after = None
    checkpoint = tmp_path / "out.json.partial.jsonl"
    checkpoint.write_text(checkpoint_of(data, out, tmp_path), encoding="utf-8")
    config: list[str] = []
    if change == "record":
        records[4]["citations"][0]["citation"] = "Another claim altogether, changed."
        write(data, records)
        expected = "line 6: record 4 of the input is not the one this checkpoint labelled"
    elif change == "count":
        write(data, records[:5])
        expected = "run over 6 records, not these 5"
    else:
        config = ["--config", str(write(tmp_path / "c.json", {"similarity_threshold": 0.5}))]
        expected = "made with other options"
    before = checkpoint.read_bytes()
    assert run(str(data), "-o", str(out), "--resume", *config) == 2
    assert expected in capsys.readouterr().err
    assert checkpoint.read_bytes() == before
    assert not out.exists()


@pytest.mark.usefixtures("offline")
@pytest.mark.parametrize("link", ["symlink", "hardlink", "checkpoint"])
def test_the_output_is_never_the_input_under_another_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], link: str
) -> None:
    data = write(tmp_path / "in.json", batch(2))
    before = data.read_bytes()
    if link == "symlink":
        out = tmp_path / "out.json"
        out.symlink_to(data)
    elif link == "hardlink":
        out = tmp_path / "out.json"
        os.link(data, out)
    else:
        out = tmp_path / "out.json"
        os.link(data, tmp_path / "out.json.partial.jsonl")
    assert run(str(data), "-o", str(out)) == 2
    assert "is the input" in capsys.readouterr().err
    assert data.read_bytes() == before


@pytest.mark.usefixtures("offline")
def test_bad_files_and_options_are_one_clear_message_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.json"
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert run(str(deep), "-o", str(out)) == 2
    assert f"{deep} nests lists or objects too deeply to read" in capsys.readouterr().err
    latin = tmp_path / "latin.json"
    latin.write_bytes('[{"source_text": "caf\xe9"}]'.encode("latin-1"))
    assert run(str(latin), "-o", str(out)) == 2
    assert f"{latin} is not UTF-8 text" in capsys.readouterr().err
    an_object = write(tmp_path / "object.json", {"records": []})
    assert run(str(an_object), "-o", str(out)) == 2
    assert "must hold a JSON list of records, not a object" in capsys.readouterr().err
    data = write(tmp_path / "in.json", batch(1))
    config = write(tmp_path / "c.json", {"similarity_threshold": "high"})
    assert run(str(data), "-o", str(out), "--config", str(config)) == 2
    assert "similarity_threshold must be a number, not 'high'" in capsys.readouterr().err
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "c.json",
        "deep.json",
        "in.json",
        "latin.json",
        "object.json",
    ], "a run that cannot start leaves no file"


def test_a_model_that_cannot_load_exits_2_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import citecheck.embedders.named

    monkeypatch.setattr(citecheck.embedders.named, "model_embedder", Broken)
    data = write(tmp_path / "in.json", batch(2))
    config = write(tmp_path / "config.json", {"device": "cuda"})
    assert run(str(data), "--config", str(config)) == 2
    assert "citecheck: error: cannot load the embedding model: no cuda device" in (
        capsys.readouterr().err
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json", "in.json"]


@pytest.mark.usefixtures("offline")
def test_exit_2_when_no_record_could_be_validated_and_surrogates_round_trip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "in.json"
    data.write_text(
        '[{"id": "\\udc80", "source_text": "The \\ud800 river.", "citations": []}, "text"]',
        encoding="utf-8",
    )
    out = tmp_path / "out.json"
    assert run(str(data), "-o", str(out)) == 2  # nothing could be read: an input error
    assert "2 records (2 with errors)" in capsys.readouterr().out
    done = json.loads(out.read_text(encoding="utf-8"))
    assert done[0]["id"] == "\udc80", "a lone surrogate is written back as the escape it was"
    assert "lone surrogate" in done[0]["validation_error"]
    assert done[1] == {"record": "text", "validation_error": "a record must be an object, got str"}
    good = write(tmp_path / "good.json", [*batch(1), "text"])
    # a run that labelled something is judged by its labels: the moon citation is untrue
    assert run(str(good), "-o", str(out)) == 1
    # every record has one citation that is not an object (a per-record error), yet the others
    # were labelled: the run did its work
    stray = [{**r, "citations": [*r["citations"], 7]} for r in batch(2)]
    assert run(str(write(tmp_path / "stray.json", stray)), "-o", str(out)) == 1
