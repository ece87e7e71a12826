"""``citecheck mcp``: the Model Context Protocol server, driven by the SDK's own client over
stdio (one server process for the module): typed tool schemas, reports as structured content
with a short verdict, tool errors that leave the server answering, paths confined to the
roots."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import ClientSession, StdioServerParameters, stdio_client

from citecheck.cli import main
from citecheck.integrations.mcp_server import TOOLS

EXAMPLES = Path(__file__).parents[1] / "examples"
NO_EMBEDDER = ("--embedder", "none")  # a library checks words only: fast, and the same anywhere

ANSWER = (
    'The committee "approved the new maintenance budget" [[minutes:L3]].\n'
    'It "rejected every proposal" [[minutes:L4]].\n'
    'The report "was printed on blue paper" [[minutes:L9]].\n'
)


@dataclass
class Client:
    """The SDK's client session, called from plain test functions through a portal."""

    portal: BlockingPortal
    session: ClientSession

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The tool's result as the wire has it (``isError``, ``structuredContent``), the
        same under mcp 1.x and 2.x."""
        result = self.portal.call(self.session.call_tool, name, arguments)
        wire: dict[str, Any] = result.model_dump(mode="json", by_alias=True)
        return wire

    def tools(self) -> dict[str, dict[str, Any]]:
        listed = self.portal.call(self.session.list_tools)
        return {tool.name: tool.model_dump(mode="json", by_alias=True) for tool in listed.tools}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the server may use, and a file beside it that it may not."""
    base = tmp_path_factory.mktemp("mcp")
    root = base / "root"
    (root / "sources").mkdir(parents=True)
    (root / "sources" / "minutes.md").write_text(
        "Minutes of the harbour committee.\n\n"
        "The committee approved the new maintenance budget on Tuesday.\n"
        "The treasurer did not object to the increase.\n",
        encoding="utf-8",
    )
    (root / "answer.md").write_text(ANSWER, encoding="utf-8")
    (root / "papers").mkdir()
    for name in ("stoker2022.md",):
        (root / "papers" / name).write_text(
            (EXAMPLES / "papers" / name).read_text(encoding="utf-8"), encoding="utf-8"
        )
    (root / "draft.md").write_text(
        (EXAMPLES / "draft.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (root / "bala.json").write_text(
        (EXAMPLES / "ramayan_map_bala.json").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (base / "secret.md").write_text("The secret was never cited.\n", encoding="utf-8")
    (root / "loop").symlink_to(root / "loop")
    entries = [{"id": "secret2020", "title": "Secret", "file": "../secret.md"}]
    (root / "refs.json").write_text(json.dumps(entries), encoding="utf-8")
    (root / "sources_linked").mkdir()
    (root / "sources_linked" / "secret.md").symlink_to(base / "secret.md")
    return root


@pytest.fixture(scope="module")
def client(root: Path) -> Iterator[Client]:
    """One ``citecheck mcp`` process for the module, its stderr kept in a file."""
    env = {key: os.environ[key] for key in ("PYTHONPATH",) if key in os.environ}
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "citecheck", "mcp", "--root", str(root), "--library", "library", *NO_EMBEDDER],
        cwd=str(root),
        env=env,
    )
    with (
        (root.parent / "server.log").open("w", encoding="utf-8") as log,
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(stdio_client(params, errlog=log)) as (read, write),
        portal.wrap_async_context_manager(ClientSession(read, write)) as session,
    ):
        portal.call(session.initialize)
        yield Client(portal, session)


def text_of(result: dict[str, Any]) -> str:
    return "\n".join(block["text"] for block in result["content"])


def test_every_tool_is_listed_with_a_typed_schema_and_a_report_shape(client: Client) -> None:
    tools = client.tools()
    assert list(tools) == list(TOOLS)
    for tool in tools.values():
        assert tool["description"]
        assert tool["outputSchema"] is not None
        assert tool["inputSchema"]["type"] == "object"
        assert tool["annotations"]["readOnlyHint"] is (tool["name"] != "papers_add")
        assert tool["annotations"]["openWorldHint"] is False
    verify = tools["verify_answer"]["inputSchema"]
    assert verify["required"] == ["sources"]
    assert verify["properties"]["sources"]["type"] == "array"
    assert verify["properties"]["sources"]["items"] == {"type": "string"}
    assert verify["properties"]["sources"]["minItems"] == 1
    threshold = verify["properties"]["threshold"]
    assert (threshold["type"], threshold["minimum"], threshold["maximum"]) == ("number", 0, 1)
    statuses = verify["properties"]["accept"]["items"]["enum"]
    assert set(statuses) == {s.value for s in __import__("citecheck").Status}
    assert all(p.get("description") for p in verify["properties"].values())
    report = tools["verify_answer"]["outputSchema"]
    assert {"outcome", "summary", "results", "phantom_citations"} <= set(report["required"])
    assert tools["papers_search"]["inputSchema"]["properties"]["mode"]["anyOf"][0]["enum"] == [
        "hybrid",
        "bm25",
        "vector",
    ]


def test_an_answer_is_checked_and_its_report_is_the_json_the_command_line_writes(
    client: Client, root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = client.call("verify_answer", {"answer_file": "answer.md", "sources": ["sources"]})
    assert not result["isError"]
    data = result["structuredContent"]
    assert [r["status"] for r in data["results"]] == ["verified", "unsupported", "not_found"]
    assert data["outcome"] == "FAIL"
    assert data["phantom_citations"] == ["minutes:L9"]
    main(["verify", str(root / "answer.md"), str(root / "sources"), "--json"])
    assert data == json.loads(capsys.readouterr().out)
    verdict = text_of(result)
    assert verdict.startswith("FAIL: 3 checked, 1 verified, 1 unsupported, 1 not found")
    assert "[[minutes:L9]]" in verdict
    assert f"not_found: {data['results'][2]['reason']}" in verdict  # each failure, with why


def test_a_true_citation_passes_given_as_text(client: Client) -> None:
    result = client.call(
        "verify_answer",
        {"text": ANSWER.splitlines()[0], "sources": ["sources/minutes.md"], "accept": ["verified"]},
    )
    assert not result["isError"]
    assert result["structuredContent"]["outcome"] == "PASS"
    assert result["structuredContent"]["summary"]["counts"]["verified"] == 1
    assert text_of(result) == "PASS: 1 checked, 1 verified"


def test_quotes_are_located_without_a_location(client: Client) -> None:
    quotes = ["approved the new maintenance budget on Tuesday", "sold the harbour to a bank"]
    result = client.call("verify_quotes", {"quotes": quotes, "sources": ["sources"]})
    assert not result["isError"], text_of(result)
    data = result["structuredContent"]
    assert data["kind"] == "quotes"
    assert data["results"][0]["status"] == "verified"
    assert data["results"][1]["status"] != "verified"
    assert data["metrics"]["n_quotes"] == 2
    assert text_of(result).startswith("FAIL: 2 checked, 1 verified")


def test_structured_references_are_checked_against_a_map(client: Client) -> None:
    text = (EXAMPLES / "ramayana.md").read_text(encoding="utf-8")
    result = client.call("verify_references", {"text": text, "structure_map": "bala.json"})
    assert not result["isError"], text_of(result)
    data = result["structuredContent"]
    assert data["kind"] == "references"
    assert data["outcome"] == "FAIL"
    assert "Bala 1.999" in " ".join(data["phantom_citations"])
    assert text_of(result).startswith("FAIL:")


def test_an_llm_answer_citing_file_names_is_read_and_an_unreadable_one_is_unchecked(
    client: Client,
) -> None:
    claim = "The committee approved the new maintenance budget on Tuesday"
    read = client.call(
        "verify_answer", {"text": f"{claim}【4:0†minutes.md】.", "sources": ["sources"]}
    )
    assert read["structuredContent"]["outcome"] == "PASS", text_of(read)
    unread = client.call(
        "verify_answer",
        {"text": f"{claim}【4:0†source】.", "sources": ["sources"], "require_citations": True},
    )
    assert not unread["isError"]
    assert unread["structuredContent"]["outcome"] == "UNCHECKED"
    assert unread["structuredContent"]["summary"]["unread"] == 1


def test_a_paraphrase_is_checked_by_meaning_with_an_embedder(client: Client) -> None:
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnxruntime")
    text = "On Tuesday the committee approved a new budget for maintenance [[minutes:L3]]."
    words = client.call("verify_answer", {"text": text, "sources": ["sources"]})
    assert words["structuredContent"]["results"][0]["status"] != "verified"
    assert words["structuredContent"]["results"][0]["details"]["correction"]["problem"] == (
        "words_only"
    )
    meaning = client.call(
        "verify_answer",
        {"text": text, "sources": ["sources"], "embedder": "onnx", "judge": "none"},
    )
    assert meaning["structuredContent"]["results"][0]["status"] == "verified", text_of(meaning)


def test_records_are_labelled_through_the_records_door(client: Client) -> None:
    pytest.importorskip("sentence_transformers")
    records = [
        {
            "source_text": "The committee approved the new maintenance budget on Tuesday.",
            "citations": [
                {"citation": "The committee approved the new maintenance budget on Tuesday."}
            ],
        }
    ]
    result = client.call("verify_records", {"records": records})
    assert not result["isError"], text_of(result)
    data = result["structuredContent"]
    assert data["kind"] == "records"
    assert data["results"][0]["status"] == "verified"
    both = client.call("verify_records", {"records": records, "records_file": "x.json"})
    assert both["isError"]
    assert "one of them" in text_of(both)


API_CITATIONS = Path(__file__).parent / "data" / "api_citations"


def test_an_anthropic_response_is_checked_against_its_request(client: Client) -> None:
    data = json.loads((API_CITATIONS / "anthropic_char_location.json").read_text("utf-8"))
    result = client.call(
        "verify_api_citations", {"response": data["response"], "request": data["request"]}
    )
    assert not result["isError"], text_of(result)
    report = result["structuredContent"]
    assert report["kind"] == "api"
    assert report["outcome"] == "PASS"
    assert [r["status"] for r in report["results"]] == ["verified", "verified"]


def test_an_openai_response_is_checked_against_files_in_the_roots(
    client: Client, root: Path
) -> None:
    data = json.loads((API_CITATIONS / "openai_responses_file_citation.json").read_text("utf-8"))
    (file_id, sent), *_ = data["files"].items()
    (root / "sent.txt").write_text(sent["text"], encoding="utf-8")
    result = client.call(
        "verify_api_citations", {"response": data["response"], "files": {file_id: "sent.txt"}}
    )
    assert not result["isError"], text_of(result)
    assert result["structuredContent"]["outcome"] == "PASS", text_of(result)
    outside = client.call(
        "verify_api_citations",
        {"response": data["response"], "files": {file_id: "../secret.md"}},
    )
    assert outside["isError"]
    assert "outside the folders" in text_of(outside)


def test_a_paper_library_is_filled_searched_and_checked(client: Client, root: Path) -> None:
    added = client.call("papers_add", {"files": ["papers/stoker2022.md"]})
    assert not added["isError"], text_of(added)
    assert added["structuredContent"]["papers"] == [
        {"file": str(root / "papers" / "stoker2022.md"), "key": "stoker2022", "pages": 3}
    ]
    assert (root / "library" / "manifest.json").is_file()
    listed = client.call("papers_list", {})
    assert [p["key"] for p in listed["structuredContent"]["papers"]] == ["stoker2022"]
    assert listed["structuredContent"]["papers"][0]["pages"] == "pp. 1-3"

    found = client.call("papers_search", {"query": "employees do not agree", "k": 2})
    assert not found["isError"], text_of(found)
    assert found["structuredContent"]["passages"][0]["key"] == "stoker2022"
    assert found["structuredContent"]["passages"][0]["pages"] == "p. 2"

    cited = client.call("papers_cite", {"key": "stoker2022", "text": "small teams"})
    assert cited["structuredContent"]["passages"][0]["page_start"] == 3
    assert "[stoker2022, p. 3]" in text_of(cited)

    wrong_page = client.call(
        "papers_validate",
        {
            "key": "stoker2022",
            "claim": "Employees do not agree that managers delegate more",
            "page": 1,
        },
    )
    assert not wrong_page["isError"], text_of(wrong_page)
    assert wrong_page["structuredContent"]["kind"] == "paper-claim"
    assert wrong_page["structuredContent"]["results"][0]["status"] == "unchecked"
    assert "no embedder" in text_of(wrong_page)

    draft = client.call("papers_validate_doc", {"draft_file": "draft.md"})
    assert not draft["isError"], text_of(draft)
    statuses = [r["status"] for r in draft["structuredContent"]["results"]]
    # without an embedder (--embedder none) a claim is not judged; [@lee2019] is no paper
    assert statuses == ["unchecked"] * 4 + ["not_found"]
    assert draft["structuredContent"]["outcome"] == "FAIL"
    assert draft["structuredContent"]["phantom_citations"] == ["lee2019"]

    as_text = client.call("papers_validate_doc", {"text": "Remote work is new [@nobody2020]."})
    assert as_text["structuredContent"]["results"][0]["status"] == "not_found"


def test_a_bad_call_is_a_tool_error_and_the_server_answers_the_next(
    client: Client,
) -> None:
    refused = client.call("verify_answer", {"text": "x", "sources": []})  # the schema refuses
    assert refused["isError"]
    assert "sources" in text_of(refused)
    missing = client.call("verify_answer", {"text": "x", "sources": ["no-such-folder"]})
    assert missing["isError"]
    assert "no such file or directory" in text_of(missing)
    both = client.call("verify_answer", {"sources": ["sources"]})
    assert both["isError"]
    assert "give the text" in text_of(both)
    assert client.call("verify_answer", {"text": "x", "sources": ["loop"]})["isError"]
    unknown = client.call("papers_cite", {"key": "nobody", "text": "anything"})
    assert unknown["isError"]
    assert "nobody" in text_of(unknown)
    after = client.call("verify_answer", {"answer_file": "answer.md", "sources": ["sources"]})
    assert not after["isError"]
    assert after["structuredContent"]["outcome"] == "FAIL"


@pytest.mark.parametrize(
    ("tool", "arguments", "named"),
    [
        ("verify_answer", {"text": "x", "sources": ["../secret.md"]}, "../secret.md"),
        ("verify_answer", {"answer_file": "../secret.md", "sources": ["sources"]}, "secret.md"),
        ("verify_answer", {"text": "x", "sources": ["sources_linked"]}, "secret.md"),
        ("verify_quotes", {"quotes": ["q"], "sources": ["sources_linked/secret.md"]}, "secret"),
        ("papers_add", {"files": ["papers/stoker2022.md"], "library": "../elsewhere"}, "elsewhere"),
        ("papers_add", {"bibliographies": ["refs.json"]}, "secret2020"),
        ("papers_validate_doc", {"draft_file": "/etc/hostname"}, "/etc/hostname"),
        ("verify_references", {"text": "Bala 1.1", "structure_map": "/etc/passwd"}, "passwd"),
    ],
)
def test_a_path_outside_the_roots_is_refused_and_nothing_is_read_or_written(
    client: Client, root: Path, tool: str, arguments: dict[str, Any], named: str
) -> None:
    result = client.call(tool, arguments)
    assert result["isError"]
    message = text_of(result)
    assert named in message
    assert f"outside the folders this server may use ({root.resolve()}" in message
    assert "never cited" not in message
    assert not (root.parent / "elsewhere").exists()
    manifest = root / "library" / "manifest.json"
    assert not manifest.exists() or "secret2020" not in manifest.read_text(encoding="utf-8")


def test_a_one_line_draft_naming_a_file_is_read_as_text(client: Client, root: Path) -> None:
    secret = str(root.parent / "secret.md")
    result = client.call("papers_validate_doc", {"text": secret})
    assert not result["isError"], text_of(result)
    assert "draft" not in result["structuredContent"]["metadata"]  # it was no file


def test_the_server_does_not_start_on_a_root_that_is_no_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["mcp", "--root", str(tmp_path / "missing")]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_without_the_extra_the_command_names_the_install_command() -> None:
    code = "import sys; sys.modules['mcp'] = None; from citecheck.cli import main; main(['mcp'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert 'pip install "pycitecheck[mcp]"' in done.stderr


def test_the_command_line_imports_no_mcp_until_the_command_runs() -> None:
    code = (
        "import sys, citecheck.cli; citecheck.cli._parser(); "
        "assert not {'mcp', 'citecheck.integrations.mcp_server'} & set(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
