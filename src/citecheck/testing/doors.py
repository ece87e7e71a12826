"""The contract every door keeps (:class:`~citecheck.protocols.Verifier`), as a pytest suite.

A door takes a text or items, and sources, and returns one :class:`~citecheck.Report`.
Subclass :class:`DoorConformance` and provide three fixtures: ``door`` (the door, built),
``passing`` and ``failing`` (each a ``(subject, sources)`` pair: a true citation that the
door must pass, and a false one it must fail). citecheck runs every door it registers
(``markers``, ``quotes``, ``references``, ``records``, ``papers``) through this suite; a
door registered under the entry-point group ``citecheck.doors`` can run it too.
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest

from citecheck import registry
from citecheck.model import Result, Status
from citecheck.protocols import Verifier
from citecheck.report import Report

__all__ = ["DoorConformance"]


def _snapshot(value: Any) -> Any:
    """What "left as it was" compares: a deep copy where one can be made, else the pickle,
    else the object's repr."""
    try:
        return copy.deepcopy(value)
    except Exception:  # an object that cannot be copied is compared by its bytes
        try:
            return pickle.dumps(value)
        except Exception:
            return repr(value)


def _same(before: Any, value: Any) -> bool:
    if isinstance(before, bytes) and not isinstance(value, bytes):
        return before == pickle.dumps(value)
    if isinstance(before, str) and not isinstance(value, str):
        return before == repr(value)
    return bool(before == value)


class DoorConformance:
    """The door contract. Provide ``door``, ``passing`` and ``failing`` fixtures."""

    @pytest.fixture
    def door(self) -> Verifier:
        raise NotImplementedError("provide a 'door' fixture")

    @pytest.fixture
    def passing(self) -> tuple[Any, Any]:
        raise NotImplementedError("provide a 'passing' fixture: (subject, sources)")

    @pytest.fixture
    def failing(self) -> tuple[Any, Any]:
        raise NotImplementedError("provide a 'failing' fixture: (subject, sources)")

    # -- what it is ---------------------------------------------------------------------------

    def test_it_is_a_door(self, door: Verifier) -> None:
        assert isinstance(door, Verifier)
        assert isinstance(door.name, str)
        assert door.name
        assert door.takes in ("text", "items")
        assert (door.item_detail is not None) == (door.takes == "items")

    def test_it_is_registered_under_its_name(self, door: Verifier) -> None:
        assert door.name in registry.available("doors")
        built: Any = registry.load("doors", door.name)
        assert isinstance(door, built)

    # -- what it says -------------------------------------------------------------------------

    def test_a_true_citation_passes(self, door: Verifier, passing: tuple[Any, Any]) -> None:
        report = door.verify(*passing)
        assert isinstance(report, Report)
        assert report.results, "a door says something of every citation it was given"
        assert report.outcome == "PASS", report.to_text()

    def test_a_false_citation_fails(self, door: Verifier, failing: tuple[Any, Any]) -> None:
        report = door.verify(*failing)
        assert isinstance(report, Report)
        assert report.outcome == "FAIL", report.to_text()
        assert any(r.status is not Status.VERIFIED for r in report.results)

    def test_it_says_the_same_twice(self, door: Verifier, failing: tuple[Any, Any]) -> None:
        first = [(r.status, r.reason) for r in door.verify(*failing).results]
        again = [(r.status, r.reason) for r in door.verify(*failing).results]
        assert first == again

    def test_it_changes_nothing_it_was_given(
        self, door: Verifier, passing: tuple[Any, Any], failing: tuple[Any, Any]
    ) -> None:
        for subject, sources in (passing, failing):
            before = (_snapshot(subject), _snapshot(sources))
            door.verify(subject, sources)
            assert _same(before[0], subject)
            assert _same(before[1], sources)

    def test_each_item_is_named_in_order(self, door: Verifier, failing: tuple[Any, Any]) -> None:
        if door.takes != "items":
            pytest.skip("a door that takes one text")
        subject, sources = failing
        report = door.verify(subject, sources)
        key = door.item_detail
        assert key is not None
        positions = [r.details[key] for r in report.results]
        assert positions == sorted(positions)
        assert set(positions) == set(range(len(subject)))

    # -- what it gives back -------------------------------------------------------------------

    def test_its_results_read_back_from_their_data(
        self, door: Verifier, failing: tuple[Any, Any]
    ) -> None:
        report = door.verify(*failing)
        for result in report.results:
            data = json.loads(json.dumps(result.to_dict()))
            assert Result.from_dict(data).to_dict() == result.to_dict()
        assert json.loads(report.to_json())["outcome"] == report.outcome

    def test_its_report_is_written_in_every_text_format(
        self, door: Verifier, failing: tuple[Any, Any]
    ) -> None:
        report = door.verify(*failing)
        for name in registry.available("formats"):
            chosen: Any = registry.load("formats", name)
            if not chosen.binary:
                assert isinstance(chosen.render(report), str)
