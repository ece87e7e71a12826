"""The shape of the house, read from the imports of ``src/citecheck`` (the standard library's
``ast``, nothing imported): no import runs in a circle, none runs up a layer, and no two modules
of the same name in different folders stand for different ideas.

An import counts wherever it is written, in a function body too; one under
``if TYPE_CHECKING:`` does not (it never runs). ``python tests/test_architecture.py`` prints the
graph's numbers (modules, edges, cycles, upward edges, function-local imports).
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src" / "citecheck"

LAYERS: tuple[tuple[str, ...], ...] = (
    # the foundation: errors, saving, configuration files, the registry, the contracts
    (
        "_version",
        "_verbosity",
        "errors",
        "_atomic",
        "_identity_cache",
        "_config",
        "registry",
        "protocols",
        "thresholds",
    ),
    # the value types
    ("locations", "model", "report"),
    # words, numbers, negations, sentences, chunks: text without documents
    ("language",),
    # sources: documents, pages, sections, files
    ("documents",),
    ("embedders",),
    # where a text stands
    ("matchers",),
    # whether a passage supports a claim: one engine
    ("judging",),
    # markers in text; stores of vectors; formats a report is written in
    ("syntax", "indexes", "exports"),
    # the doors: each takes text or items and sources and returns a Report
    ("verification", "references", "quotes", "records", "papers", "api_citations", "doors"),
    # what is built on the doors: one-shot verbs, batches, integrations, the command line
    ("_api", "batch", "integrations", "testing", "cli", "__main__", "_moved", ""),
)
"""Each top-level module or folder of ``citecheck`` in its layer, lowest first (``""`` is the
package itself). A module may import from its own layer and those below."""

SAME_NAME_ALLOWED = {"__init__", "__main__"}


@dataclass
class Graph:
    modules: dict[str, Path]
    edges: dict[str, set[str]] = field(default_factory=dict)
    local: Counter[tuple[str, str]] = field(default_factory=Counter)

    @property
    def edge_count(self) -> int:
        return sum(len(targets) for targets in self.edges.values())


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for statement in node.body:
                inside.update(id(child) for child in ast.walk(statement))
    return inside


def _function_nodes(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for statement in node.body:
                inside.update(id(child) for child in ast.walk(statement))
    return inside


def read_graph() -> Graph:
    modules = {_module_name(path): path for path in SOURCE.rglob("*.py")}
    graph = Graph(modules)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        skipped = _type_checking_nodes(tree)
        in_functions = _function_nodes(tree)
        targets: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            imported: list[str] = []
            if isinstance(node, ast.Import):
                imported = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    origin = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    origin = node.module or ""
                imported = [
                    f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in modules else origin
                    for alias in node.names
                ]
            for target in imported:
                if target != "citecheck" and not target.startswith("citecheck."):
                    continue
                while target not in modules:
                    target = target.rpartition(".")[0]
                if target == name:
                    continue
                targets.add(target)
                if id(node) in in_functions:
                    graph.local[(name, target)] += 1
        graph.edges[name] = targets
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph.modules:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.edges.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def layer_of(module: str) -> int:
    part = module.split(".")[1] if "." in module else ""
    for number, layer in enumerate(LAYERS):
        if part in layer:
            return number
    raise AssertionError(f"{module} is in no layer: add its folder to LAYERS")


def upward(graph: Graph) -> list[tuple[str, str]]:
    return sorted(
        (source, target)
        for source, targets in graph.edges.items()
        for target in targets
        if layer_of(target) > layer_of(source)
    )


def folder_cycles(graph: Graph) -> list[list[str]]:
    """Cycles between the top-level folders (a module graph can be acyclic while two folders
    lean on each other)."""
    top = Graph({m.split(".")[1] if "." in m else "": p for m, p in graph.modules.items()})
    for source, targets in graph.edges.items():
        a = source.split(".")[1] if "." in source else ""
        for target in targets:
            b = target.split(".")[1] if "." in target else ""
            if a != b:
                top.edges.setdefault(a, set()).add(b)
    return cycles(top)


GRAPH = read_graph()


def test_every_module_has_a_layer() -> None:
    for module in GRAPH.modules:
        layer_of(module)


def test_no_import_runs_in_a_circle() -> None:
    assert cycles(GRAPH) == []


def test_no_two_folders_lean_on_each_other() -> None:
    assert folder_cycles(GRAPH) == []


def test_no_import_runs_up_a_layer() -> None:
    assert upward(GRAPH) == []


def test_no_module_imports_the_package_itself() -> None:
    """``citecheck/__init__`` is the top: a module inside that imports it runs in a circle."""
    assert [m for m, targets in GRAPH.edges.items() if "citecheck" in targets] == []


def test_no_module_reads_another_folders_files_by_path() -> None:
    """A file climbs the layers too when a module builds a path up and out of its own folder
    (``Path(__file__).parent.parent / "judging" / ...``): data a lower layer needs lives there."""
    climbing = re.compile(r"__file__\)[^\n]*\.parent\.parent|__file__\)[^\n]*\.parents\[")
    assert [
        name for name, path in GRAPH.modules.items() if climbing.search(path.read_text("utf-8"))
    ] == []


def test_names_say_what_they_are() -> None:
    """No two modules of the same name in different folders."""
    names = Counter(path.stem for path in GRAPH.modules.values())
    assert {n: c for n, c in names.items() if c > 1 and n not in SAME_NAME_ALLOWED} == {}


def main() -> None:
    found = cycles(GRAPH)
    print(f"modules {len(GRAPH.modules)}, edges {GRAPH.edge_count}")
    print(f"cycles {len(found)} ({', '.join(str(len(c)) for c in found)} modules)")
    print(f"folder cycles {folder_cycles(GRAPH)}")
    up = upward(GRAPH)
    print(f"upward edges {len(up)}")
    for source, target in up:
        print(f"  {source} -> {target}")
    print(
        f"function-local imports of citecheck modules {sum(GRAPH.local.values())} "
        f"({len(GRAPH.local)} edges)"
    )
    if "-v" in sys.argv:
        for (source, target), count in sorted(GRAPH.local.items()):
            print(f"  local {source} -> {target} ({count})")
    names = Counter(path.stem for path in GRAPH.modules.values())
    print("same names", {n: c for n, c in names.items() if c > 1 and n not in SAME_NAME_ALLOWED})


if __name__ == "__main__":
    main()
