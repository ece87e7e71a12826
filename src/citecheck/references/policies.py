"""Whether an answer must cite, by its template: ``T1`` answers must (an answer without a
reference FAILs), ``T3`` answers need not (an answer without one PASSes — and is SKIPPED when a
golden dataset is scored, as there is nothing to score). One place for the rule, read by
:class:`~citecheck.references.ReferenceVerifier` and :func:`~citecheck.evaluate_dataset`."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal

from citecheck.errors import ConfigError

__all__ = ["DEFAULT_POLICIES", "Policy", "check_policies", "policy_for"]

Policy = Literal["required", "optional"]
DEFAULT_POLICIES: Mapping[str, Policy] = MappingProxyType({"T1": "required", "T3": "optional"})
"""``T1`` answers must cite; ``T3`` answers need not. Other templates take the default policy
(``required``)."""


def check_policies(
    policies: Mapping[str, str], default_policy: str
) -> tuple[dict[str, Policy], Policy]:
    """``policies`` and ``default_policy`` checked, as a fresh dict (the caller's is kept)."""
    checked: dict[str, Policy] = {}
    for name, policy in {**policies, "default_policy": default_policy}.items():
        if policy == "required":
            checked[name] = "required"
        elif policy == "optional":
            checked[name] = "optional"
        else:
            raise ConfigError(f"policy for {name!r} must be 'required' or 'optional': {policy!r}")
    default = checked.pop("default_policy")
    return checked, default


def policy_for(template: str | None, policies: Mapping[str, Policy], default: Policy) -> Policy:
    """The policy of ``template`` (the default for an unknown template or none)."""
    return default if template is None else policies.get(template, default)
