"""Batches beyond one process: the engine-neutral BatchVerifier, alone, on Dask and on a local
Ray cluster the tests start with 2 CPUs (and stop). Skipped without pandas; the engines'
tests without their extras."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pandas")

import pandas as pd

import citecheck
from citecheck.batch import COLUMNS, BatchVerifier
from citecheck.errors import ConfigError, InputError
from citecheck.testing import HashingEmbedder

EXAMPLES = Path(__file__).parents[1] / "examples"
RECORDS = json.loads((EXAMPLES / "records.json").read_text(encoding="utf-8"))
EMBEDDER = HashingEmbedder()


def _frame(records: list[dict[str, Any]]) -> Any:
    return pd.DataFrame(
        {
            "id": [r["id"] for r in records],
            "source_text": [r.get("source_text") for r in records],
            "citations": [r["citations"] for r in records],
        }
    )


def _single(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The single-process door's results, without the record's position (a batch lacks it)."""
    report = citecheck.verify_records(records, embedder=EMBEDDER)
    return [
        {**r.to_dict(), "details": {k: v for k, v in r.details.items() if k != "record"}}
        for r in report.results
    ]


def _batched(verifier: BatchVerifier, frame: Any) -> list[dict[str, Any]]:
    return [r.to_dict() for r in verifier.report(frame).results]


def test_a_batch_of_records_matches_the_single_process_door() -> None:
    frame = _frame(RECORDS)
    verifier = BatchVerifier("records", embedder=EMBEDDER)
    checked = verifier(frame)
    assert list(checked.columns) == [*frame.columns, *COLUMNS]
    assert list(checked["id"]) == [r["id"] for r in RECORDS]
    assert _batched(verifier, checked) == _single(RECORDS)
    assert list(checked["citecheck_outcome"]) == ["FAIL", "UNCHECKED", "UNCHECKED"]
    assert "source_text" in checked["citecheck_error"][2]
    assert "citecheck_outcome" not in frame  # the input is not changed


def test_arrow_tables_and_column_mappings_come_back_as_they_came() -> None:
    pyarrow = pytest.importorskip("pyarrow")
    verifier = BatchVerifier("records", embedder=EMBEDDER)
    table = pyarrow.Table.from_pandas(_frame(RECORDS[:1]), preserve_index=False)
    out = verifier(table)
    assert isinstance(out, pyarrow.Table)
    assert out.column("citecheck_outcome").to_pylist() == ["FAIL"]
    mapping = {
        "id": ["r"],
        "source_text": ["The sky is blue."],
        "citations": [[{"citation": "The sky is blue today."}]],
    }
    assert list(verifier(mapping)["citecheck_outcome"]) == ["PASS"]


def test_a_bad_row_gets_its_error_and_the_rest_are_checked() -> None:
    frame = pd.DataFrame(
        {
            "quote": ["approved the budget", 17, "never said at all anywhere"],
        }
    )
    sources = {"minutes": "The committee approved the budget on Tuesday."}
    checked = BatchVerifier("quotes", sources=sources)(frame)
    statuses = [json.loads(r)[0]["status"] for r in checked["citecheck_results"]]
    assert statuses == ["verified", "unchecked", "unsupported"]
    answers = pd.DataFrame(
        {
            "answer": ['"approved the budget" [[m]]', '"x y z" [[m]]'],
            "sources": [{"m": "They approved the budget."}, "{not json"],
        }
    )
    out = BatchVerifier("answers")(answers)
    assert list(out["citecheck_outcome"]) == ["PASS", "UNCHECKED"]
    assert out["citecheck_error"][0] is None
    assert "not JSON" in out["citecheck_error"][1]


def test_answers_against_shared_sources_and_bad_settings() -> None:
    frame = pd.DataFrame({"text": ['"approved the budget" [[m]]', '"voted no" [[m]]']})
    verifier = BatchVerifier("answers", sources={"m": "They approved the budget."}, column="text")
    assert list(verifier(frame)["citecheck_outcome"]) == ["PASS", "FAIL"]
    with pytest.raises(ConfigError, match="kind"):
        BatchVerifier("tweets")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="sources"):
        BatchVerifier("quotes")
    with pytest.raises(ConfigError, match="cannot read config strict"):
        BatchVerifier("answers", config="strict")  # a config file, as every door reads one
    with pytest.raises(ConfigError, match="unknown verifier option"):
        BatchVerifier("answers", treshold=0.9)
    with pytest.raises(ConfigError, match="similarity_treshold"):
        BatchVerifier("records", similarity_treshold=0.5)  # said before any worker starts
    with pytest.raises(InputError, match="DataFrame"):
        verifier([1, 2])
    with pytest.raises(InputError, match="citecheck_results"):
        verifier.report(frame)


def test_the_report_of_answers_keeps_their_pass_policy() -> None:
    lenient = BatchVerifier(
        "answers", sources={"m": "They did not approve the budget."}, accept=["verified", "partial"]
    )
    checked = lenient(pd.DataFrame({"answer": ['"They did approve the budget" [[m]]']}))
    assert list(checked["citecheck_outcome"]) == ["PASS"]
    assert lenient.report(checked).outcome == "PASS"


def test_options_may_come_from_a_file(tmp_path: Path) -> None:
    options = tmp_path / "quotes.json"
    options.write_text(json.dumps({"match_threshold": 0.95}), encoding="utf-8")
    verifier = BatchVerifier("quotes", sources={"m": "x"}, config=options, candidates=5)
    assert (verifier.settings.match_threshold, verifier.settings.candidates) == (0.95, 5)


def test_the_verifier_pickles_without_what_it_loaded() -> None:
    import pickle

    verifier = BatchVerifier("quotes", sources={"m": "They approved the budget."})
    verifier(pd.DataFrame({"quote": ["approved the budget"]}))
    assert verifier._loaded
    copy = pickle.loads(pickle.dumps(verifier))
    assert copy._loaded == {}
    again = copy(pd.DataFrame({"quote": ["approved the budget"]}))
    assert list(again["citecheck_outcome"]) == ["PASS"]


def test_dask_maps_the_same_class_over_partitions() -> None:
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    verifier = BatchVerifier("records", embedder=EMBEDDER)
    frame = _frame(RECORDS)
    with dask.config.set({"dataframe.convert-string": False}):  # keep the citations lists
        ddf = dd.from_pandas(frame, npartitions=2)
        checked = ddf.map_partitions(verifier, meta=verifier.meta(frame)).compute()
    assert _batched(verifier, checked.reset_index(drop=True)) == _single(RECORDS)


# -- Ray ----------------------------------------------------------------------------------------


class DiesOnce(BatchVerifier):
    """Kills its worker process on its first batch, once for the whole test (a marker file)."""

    def __init__(self, marker: str, **options: Any) -> None:
        super().__init__(**options)
        self.marker = marker

    def __call__(self, batch: Any) -> Any:
        if not os.path.exists(self.marker):
            Path(self.marker).write_text("died", encoding="utf-8")
            os._exit(1)
        return super().__call__(batch)


RAY_WARNINGS = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray")
"""Ray warns about its own settings' deprecations while it runs: not this code's."""


@pytest.fixture(scope="module")
def ray_cluster() -> Any:
    ray = pytest.importorskip("ray")
    pytest.importorskip("ray.data")
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_AUTH_MODE", "disabled")  # a loopback cluster: no token written
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            object_store_memory=150 * 2**20,
        )
        context = ray.data.DataContext.get_current()
        context.execution_options.preserve_order = True
        context.enable_progress_bars = False
        yield ray
        ray.shutdown()


@RAY_WARNINGS
def test_ray_data_gives_the_single_process_results(ray_cluster: Any) -> None:
    records = RECORDS * 4
    records = [{**r, "id": f"{r['id']}-{i}"} for i, r in enumerate(records)]
    frame = _frame(records)
    dataset = ray_cluster.data.from_pandas([frame.iloc[i : i + 3] for i in range(0, 12, 3)])
    checked = dataset.map_batches(
        BatchVerifier,
        fn_constructor_kwargs={"kind": "records", "embedder": EMBEDDER},
        batch_format="pandas",
        batch_size=3,
        compute=ray_cluster.data.ActorPoolStrategy(size=2),
    ).to_pandas()
    verifier = BatchVerifier("records")
    assert list(checked["id"]) == [r["id"] for r in records]
    assert _batched(verifier, checked) == _single(records)


@RAY_WARNINGS
def test_ray_retries_a_batch_whose_worker_died(ray_cluster: Any, tmp_path: Path) -> None:
    marker = str(tmp_path / "died")
    frame = pd.DataFrame({"quote": [f"approved the budget {i}" for i in range(6)]})
    checked = (
        ray_cluster.data.from_pandas(frame)
        .map_batches(
            DiesOnce,
            fn_constructor_kwargs={
                "marker": marker,
                "kind": "quotes",
                "sources": {"m": "The committee approved the budget."},
            },
            batch_format="pandas",
            batch_size=2,
            compute=ray_cluster.data.ActorPoolStrategy(size=1),
        )
        .to_pandas()
    )
    assert Path(marker).exists()  # a worker did die
    assert list(checked["quote"]) == list(frame["quote"])  # and no row was lost
    assert set(checked["citecheck_outcome"]) <= {"PASS", "FAIL"}


@RAY_WARNINGS
def test_the_command_line_checks_records_on_ray_as_it_does_alone(
    ray_cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sentence_transformers")
    from citecheck.cli import main

    records = [*RECORDS, {"source_text": "The sky is blue.", "citations": [{"citation": "Sky."}]}]
    source = tmp_path / "records.json"
    source.write_text(json.dumps(records), encoding="utf-8")
    outputs = {}
    for engine in ("local", "ray"):
        output, report = tmp_path / f"{engine}.json", tmp_path / f"{engine}-report.json"
        argv = ["records", str(source), "-o", str(output), "--report", str(report)]
        status = main([*argv, "--engine", engine, "--workers", "2", "--no-progress"])
        outputs[engine] = (status, output.read_text("utf-8"), report.read_text("utf-8"))
    assert outputs["ray"] == outputs["local"]
    assert json.loads(outputs["ray"][2])["results"][-1]["citation"]["source_id"] == "record 3"


def test_the_command_line_says_a_bad_ray_option_before_it_writes_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("ray")
    pytest.importorskip("sentence_transformers")
    from citecheck.cli import main

    source = tmp_path / "records.json"
    source.write_text(json.dumps(RECORDS), encoding="utf-8")
    argv = ["records", str(source), "-o", str(tmp_path / "out.json"), "--no-progress"]
    assert main([*argv, "--engine", "ray", "--workers", "0"]) == 2
    assert "workers must be a positive integer" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.json"]


def test_any_door_of_the_registry_checks_a_batch() -> None:
    frame = pd.DataFrame({"answer": ["Rama went [Bala Kanda 1.1].", "False [Bala 1.999]."]})
    verifier = BatchVerifier("references", against={"Bala": [100, 43]})
    checked = verifier(frame)
    assert list(checked["citecheck_outcome"]) == ["PASS", "FAIL"]
    report = verifier.report(checked)
    assert report.kind == "references"
    assert [r.status.value for r in report.results] == ["verified", "not_found"]
    rows = pd.DataFrame({"answer": ['"x" [[a]]', '"x" [[a]]'], "sources": [None, {"a": "x"}]})
    unsourced = BatchVerifier("answers")(rows)
    assert "no sources" in unsourced["citecheck_error"][0]
    assert list(unsourced["citecheck_outcome"]) == ["UNCHECKED", "PASS"]


@RAY_WARNINGS
def test_ray_workers_run_the_default_model_on_one_cache_as_the_loop_does(
    ray_cluster: Any, tmp_path: Path
) -> None:
    """Two Ray workers load the default model (the ONNX build when installed), share one cache
    folder, and give the loop's results; the loop after them embeds nothing."""
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnxruntime")
    import logging

    from citecheck.batch import ray_record_results
    from citecheck.records import RecordVerifier

    config = {"cache_dir": str(tmp_path / "cache")}
    records = [{**r, "id": f"{r['id']}-{i}"} for i, r in enumerate(RECORDS * 4)]
    level = logging.getLogger("ray.data").level
    on_ray = [results for _, results in ray_record_results(records, config=config, block=3)]
    assert logging.getLogger("ray.data").level == level  # quiet during the run only
    door = RecordVerifier(config=config)
    alone = door.verify(records)
    assert door.embedder.cache.misses == 0  # type: ignore[union-attr]
    assert [r.to_dict() for rs in on_ray for r in rs] == [r.to_dict() for r in alone.results]
