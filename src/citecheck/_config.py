"""Options from files: TOML, JSON or YAML tables, checked against the known option names.

Unknown keys are an error that names them: a misspelt option silently ignored would change a
run's results without anyone noticing.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from citecheck.errors import ConfigError, MissingDependencyError

__all__ = ["check_keys", "read_options"]


def check_keys(values: Mapping[str, Any], known: Iterable[str], what: str) -> None:
    """Raise :class:`ConfigError` naming every key of ``values`` not in ``known``."""
    known = set(known)
    unknown = sorted(str(k) for k in set(values) - known)
    if unknown:
        raise ConfigError(
            f"unknown {what} option(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )


def read_options(path: str | Path) -> Mapping[str, Any]:
    """The table of options in a ``.toml``, ``.json``, ``.yaml`` or ``.yml`` file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"config {path} is not UTF-8 text") from None
    suffix = path.suffix.lower()
    if suffix not in {".toml", ".yaml", ".yml", ".json"}:
        raise ConfigError(f"config {path} must be .toml, .yaml, .yml or .json")
    try:
        if suffix == ".toml":
            data: Any = tomllib.loads(text)
        elif suffix == ".json":
            data = json.loads(text)
        else:
            data = _load_yaml(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, _YamlError) as exc:
        raise ConfigError(f"config {path} is not valid {suffix[1:].upper()}: {exc}") from None
    if not isinstance(data, Mapping):
        raise ConfigError(f"config {path} must hold a table of options")
    return data


class _YamlError(Exception):
    """PyYAML's parse error, without importing PyYAML to name it."""


def _load_yaml(text: str) -> Any:
    try:
        import yaml
    except ImportError:
        raise MissingDependencyError("pyyaml", "yaml") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise _YamlError(str(exc)) from None
