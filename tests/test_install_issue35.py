"""The command a missing extra names works where citecheck came from (issue 35): a wheel from
the package index gets the index's command, and an extra that needs PyTorch names PyTorch's
CPU index, as ``-c constraints.txt`` does for a clone."""

from __future__ import annotations

import json
import re
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

import citecheck.errors as errors

ROOT = Path(__file__).parents[1]
CPU = "--extra-index-url https://download.pytorch.org/whl/cpu"


def _extras() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    return extras


def _needs_torch(extra: str, extras: dict[str, list[str]]) -> bool:
    """Whether installing ``extra`` installs PyTorch: torch itself, sentence-transformers (which
    needs it), or an extra of ours that does."""
    for requirement in extras[extra]:
        name = re.split(r"[\s<>=!~\[;]", requirement, maxsplit=1)[0].lower()
        if name in {"torch", "sentence-transformers"}:
            return True
        if name == errors.DISTRIBUTION:
            inner = requirement.split("[", 1)[1].split("]", 1)[0].split(",")
            if any(_needs_torch(part.strip(), extras) for part in inner):
                return True
    return False


def test_the_extras_that_install_pytorch_are_named_as_pyproject_says() -> None:
    extras = _extras()
    assert {name for name in extras if _needs_torch(name, extras)} == errors.TORCH_EXTRAS


class Installed:
    """A distribution whose ``direct_url.json`` (PEP 610) names where pip installed it from."""

    def __init__(self, url: str | None) -> None:
        self.url = url

    def read_text(self, name: str) -> str | None:
        assert name == "direct_url.json"
        return None if self.url is None else json.dumps({"url": self.url, "archive_info": {}})


def _installed(monkeypatch: pytest.MonkeyPatch, url: str | None) -> None:
    def distribution(name: str) -> Any:
        assert name == errors.DISTRIBUTION
        return Installed(url)

    monkeypatch.setattr(metadata, "distribution", distribution)


@pytest.mark.parametrize(
    "url", [None, "https://files.example/pycitecheck-0.1.0-py3-none-any.whl", "wheel-file"]
)
def test_a_wheel_gets_the_package_indexs_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, url: str | None
) -> None:
    """From the index (no record), from a wheel's address or a wheel file on disk (pip records
    the file, not a folder): the command is the index's."""
    if url == "wheel-file":
        wheel = tmp_path / "pycitecheck-0.1.0-py3-none-any.whl"
        wheel.write_bytes(b"")
        url = wheel.as_uri()
    _installed(monkeypatch, url)
    assert errors.install_hint("pdf") == 'pip install "pycitecheck[pdf]"'
    hint = errors.install_hint("embeddings")
    assert hint.startswith(f'pip install "pycitecheck[embeddings]" {CPU} (')
    assert "CPU build" in hint


@pytest.mark.parametrize("extra", sorted(errors.TORCH_EXTRAS))
def test_an_extra_that_needs_pytorch_names_its_cpu_index_from_a_clone_too(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, extra: str
) -> None:
    (tmp_path / "constraints.txt").write_text("torch==2.13.0\n", encoding="utf-8")
    _installed(monkeypatch, tmp_path.as_uri())
    hint = errors.install_hint(extra)
    constraints = tmp_path / "constraints.txt"
    assert hint.startswith(f'pip install -c {constraints} "{tmp_path}[{extra}]" {CPU}')
    assert f'from the package index: pip install "pycitecheck[{extra}]" {CPU}' in hint


def test_an_extra_without_pytorch_names_no_other_index(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _installed(monkeypatch, tmp_path.as_uri())
    for extra in set(_extras()) - errors.TORCH_EXTRAS:
        assert "--extra-index-url" not in errors.install_hint(extra)
