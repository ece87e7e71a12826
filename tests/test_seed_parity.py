"""The seed-parity table (``docs/seeds.md``) stays true: every test it names exists, every row
says where citecheck keeps its promise, and every name and command it gives is still there.

Each of the five seeds is a section with one table; each row is a promise, where citecheck
keeps it, the tests that show it, and a note. A row whose note says **in progress** or
**missing** names no test, and every row without a test says which of the two it is. Those
rows are the known gaps, allowed here (the table is where they are kept, one a line):

- 000, TIP: PDF page numbers with OCR (missing: a scan without a text layer is refused).

The last tests hold promises of the seeds that no other test held.
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import citecheck
from citecheck.cli import main
from citecheck.records.labels import Label, Validation

ROOT = Path(__file__).parents[1]
PAGE = ROOT / "docs" / "seeds.md"
SEEDS = ("000", "001", "002", "003", "004")
HEADER = ["promise", "where", "test", "note"]
GAP = re.compile(r"\*\*(in progress|missing)\*\*")
NO_TEST = "—"
TEST_REF = re.compile(r"`(tests/[\w/]+\.py)::(\w+)(?:::(\w+))?`")
CODE = re.compile(r"`([^`]+)`")
DOTTED = re.compile(r"citecheck(?:\.\w+)+")
COMMAND = re.compile(r"citecheck( [a-z][a-z-]*)+")


@dataclass(frozen=True)
class Row:
    seed: str
    line: int
    promise: str
    where: str
    test: str
    note: str

    @property
    def gap(self) -> str | None:
        found = GAP.search(self.note)
        return found.group(1) if found else None

    @property
    def tests(self) -> list[tuple[str, str, str | None]]:
        return [(m.group(1), m.group(2), m.group(3)) for m in TEST_REF.finditer(self.test)]

    def __str__(self) -> str:
        return f"docs/seeds.md:{self.line} ({self.seed}: {self.promise[:50]})"


def _cells(line: str) -> list[str]:
    inner = line.strip()
    assert inner.startswith("|")
    assert inner.endswith("|")
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", inner[1:-1])]


@cache
def sections() -> dict[str, list[Row]]:
    """The page's rows by seed, in order; asserts the page's shape as it reads it."""
    found: dict[str, list[Row]] = {}
    seed: str | None = None
    for number, line in enumerate(PAGE.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("## "):
            seed = line[3:6]
            assert seed not in found, f"line {number}: seed {seed} has a second section"
            found[seed] = []
            continue
        if not line.startswith("|"):
            continue
        assert seed is not None, f"line {number}: a table before the first seed's section"
        cells = _cells(line)
        assert len(cells) == len(HEADER), f"line {number}: {len(cells)} cells, not 4: {line}"
        if cells == HEADER or set("".join(cells)) <= set("-:"):
            continue
        found[seed].append(Row(seed, number, *cells))
    return found


def rows() -> list[Row]:
    return [row for section in sections().values() for row in section]


def test_there_is_a_section_with_a_table_for_every_seed() -> None:
    assert tuple(sections()) == SEEDS
    for seed, section in sections().items():
        assert section, f"seed {seed} has no rows"


def test_every_row_names_its_promise_and_where_citecheck_keeps_it() -> None:
    for row in rows():
        assert row.promise, row
        assert row.where, f"{row}: the 'where' cell is empty"
        assert CODE.search(row.where), f"{row}: the 'where' cell names no code"


def test_a_row_names_tests_unless_it_is_a_known_gap() -> None:
    for row in rows():
        if row.gap:
            assert row.test == NO_TEST, f"{row}: a row {row.gap} names no test"
            continue
        assert row.tests, f"{row}: no test, and the note does not say in progress or missing"
        rest = TEST_REF.sub("", row.test)
        assert set(rest) <= {",", " "}, f"{row}: the test cell holds more than tests: {rest!r}"


@cache
def _defined(path: str) -> dict[str, set[str]]:
    """The test file's top-level functions and classes, each class with its methods."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names[node.name] = set()
        elif isinstance(node, ast.ClassDef):
            names[node.name] = {
                item.name
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            }
    return names


def test_every_test_the_table_names_exists() -> None:
    missing = []
    for row in rows():
        for path, name, method in row.tests:
            if not (ROOT / path).is_file():
                missing.append(f"{row}: no file {path}")
                continue
            defined = _defined(path)
            if name not in defined:
                missing.append(f"{row}: {path} defines no {name}")
            elif method is not None and method not in defined[name]:
                missing.append(f"{row}: {path}::{name} defines no {method}")
    assert missing == []


def _resolve(dotted: str) -> object:
    """The object a dotted name names: the longest module that imports, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError as exc:
            if exc.name and not exc.name.startswith("citecheck"):
                raise  # a module of citecheck needs an extra that is not installed
            continue
        for part in parts[cut:]:
            found = getattr(found, part)
        return found
    raise AssertionError(f"no module of {dotted} imports")


def test_every_python_name_the_table_gives_exists() -> None:
    absent = []
    for row in rows():
        for code in CODE.findall(row.where):
            if not DOTTED.fullmatch(code):
                continue
            try:
                _resolve(code)
            except (ImportError, citecheck.MissingDependencyError):
                continue  # an optional extra is not installed here
            except AttributeError as exc:
                absent.append(f"{row}: {code}: {exc}")
    assert absent == []


def _help(command: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0, command
    return capsys.readouterr().out


def test_every_command_and_option_the_table_gives_exists(
    capsys: pytest.CaptureFixture[str],
) -> None:
    wrong = []
    for row in rows():
        if row.gap:
            continue
        for code in CODE.findall(row.where):
            command = COMMAND.match(code)
            if command is None:
                continue
            words = tuple(command.group(0).split()[1:])
            text = _help(words, capsys)
            for option in re.findall(r"(?<!\S)(--?[a-z][a-z-]*)", code[command.end() :]):
                if option not in text:
                    wrong.append(f"{row}: citecheck {' '.join(words)} has no {option}")
    assert wrong == []


# -- promises of the seeds that no other test held ----------------------------------------------


@pytest.mark.parametrize(
    ("score", "percent"),
    [(1.0000002, 100.0), (1.7, 100.0), (-0.25, 0.0), (0.8, 80.0), (0.123456, 12.35)],
)
def test_the_confidence_percent_is_clamped_to_0_and_100(score: float, percent: float) -> None:
    """Seed 001: "This score is clamped between 0.0 and 1.0", and written as a percentage
    rounded to two decimals. A cosine a hair above 1 (float rounding) reads 100.0."""
    outcome = Validation(Label.VERY_LIKELY_TRUE, score, None, "why")
    assert outcome.confidence_percent == percent
