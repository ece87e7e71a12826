"""Options: the one shape of every door's options type, and options from files (TOML, JSON or
YAML tables), checked against the known option names.

Unknown keys are an error that names them: a misspelt option silently ignored would change a
run's results without anyone noticing.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import fields
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Self

from citecheck.errors import ConfigError, MissingDependencyError

__all__ = ["COMMON_NAMES", "Options", "check_keys", "read_options"]

COMMON_NAMES = MappingProxyType(
    {
        "threshold": "the score from which a citation counts as verified",
        "embedding_model": "the sentence-transformers model a door loads when given no embedder",
        "min_claim_words": "the fewest words a claim needs to be checked",
    }
)
"""The option names every door that has the idea takes, whatever its own name for it (a
door's seed-given name, such as ``match_threshold``, is kept beside the common one)."""


class Options:
    """What every door's options type shares, written once: it reads a mapping
    (:meth:`from_mapping`, unknown keys named), a ``.toml``, ``.yaml`` / ``.yml`` or ``.json``
    file (:meth:`from_file`), or keyword options over a base (:meth:`merged`), and gives its
    values back (:meth:`to_dict`).

    A subclass is a frozen, slotted dataclass. It names itself in errors (``_what``), may take
    a :data:`COMMON_NAMES` entry under its own name (``_aliases``: common name → its field),
    and may read a mapping before its keys are checked (``_read``).
    """

    __slots__ = ()
    _what: ClassVar[str] = "door"
    _aliases: ClassVar[Mapping[str, str]] = MappingProxyType({})

    @classmethod
    def _read(cls, values: dict[str, Any]) -> dict[str, Any]:
        return values

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Self:
        """Options from a mapping; unknown keys raise :class:`ConfigError` naming them."""
        if not isinstance(values, Mapping):
            raise ConfigError(f"{cls._what} options must be a mapping, not {values!r}")
        options = cls._renamed(cls._read(dict(values)))
        names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
        check_keys(options, [*names, *cls._aliases], cls._what)
        return cls(**options)

    @classmethod
    def _renamed(cls, values: Mapping[str, Any]) -> dict[str, Any]:
        """``values`` with each common name (:data:`COMMON_NAMES`) under this door's own."""
        options = dict(values)
        for common, own in cls._aliases.items():
            if common in options:
                value = options.pop(common)
                if own in options and options[own] != value:
                    raise ConfigError(
                        f"{common} and {own} name one {cls._what} option; give one of them, "
                        f"not {common}={value!r} and {own}={options[own]!r}"
                    )
                options[own] = value
        return options

    @classmethod
    def from_file(cls, path: str | Path) -> Self:
        """Options from a ``.toml``, ``.yaml`` / ``.yml`` or ``.json`` file."""
        return cls.from_mapping(read_options(path))

    @classmethod
    def merged(cls, config: object, options: Mapping[str, Any]) -> Self:
        """``config`` (options of this type, a mapping, a file path or ``None``) with the
        keyword ``options`` over it: how every door reads its options."""
        if isinstance(config, cls):
            base = config.to_dict()
        elif isinstance(config, str | Path):
            base = cls.from_file(config).to_dict()
        elif config is None or isinstance(config, Mapping):
            base = dict(config or {})
        else:
            raise ConfigError(
                f"config must be a {cls.__name__}, a mapping or a file path, not {config!r}"
            )
        if not options and isinstance(config, cls):
            return config
        own = cls.from_mapping(base).to_dict()
        return cls.from_mapping({**own, **cls._renamed(options)})

    def to_dict(self) -> dict[str, Any]:
        """The options by name (each value as it is held)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]


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
