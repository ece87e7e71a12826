"""JUnit XML, the report format every CI system reads: one test case per result.

A failed citation is a failed test (its message the status and reason, its text the evidence);
a citation that could not be checked is a skipped test, since "could not check" is never a
failure. Texts pass through :func:`~citecheck.exports._text.xml_text` first: a NUL byte in an
LLM's answer would otherwise make the whole file unreadable.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from citecheck.exports._text import failed, shorten, source_label, xml_text
from citecheck.model import Status

if TYPE_CHECKING:
    from citecheck.model import Result
    from citecheck.report import Report

__all__ = ["to_junit"]

_NAME_WORDS = 8
"""A test case's name quotes this many words of the excerpt or claim at most."""


def to_junit(report: Report) -> str:
    """``<testsuites>`` holding one ``<testsuite name="citecheck">`` of test cases named
    ``<n>: <source>[:<locator>] <first words>``; a report without results has one case,
    ``no citations``, which fails when citations are required. Warnings go to the suite's
    ``<system-err>``."""
    suite = ET.Element("testsuite", name="citecheck")
    cases = [_case(report, index, result) for index, result in enumerate(report.results)]
    suite.extend(cases or [_no_citations(report)])
    tally = {
        "tests": len(suite),
        "failures": sum(1 for case in suite if case.find("failure") is not None),
        "errors": 0,
        "skipped": sum(1 for case in suite if case.find("skipped") is not None),
    }
    for name, count in tally.items():
        suite.set(name, str(count))
    if report.warnings:
        ET.SubElement(suite, "system-err").text = xml_text("\n".join(report.warnings))
    root = ET.Element("testsuites", {"name": "citecheck", **{k: str(v) for k, v in tally.items()}})
    root.append(suite)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _case(report: Report, index: int, result: Result) -> ET.Element:
    words = " ".join((result.citation.checked_text or "").split()[:_NAME_WORDS])
    first, _ = shorten(words, 80)
    name = f"{index}: {source_label(result)} {first}".rstrip()
    case = ET.Element("testcase", classname=f"citecheck.{report.kind}", name=xml_text(name))
    status = result.status.value
    if failed(report, result):
        failure = ET.SubElement(
            case, "failure", message=xml_text(f"{status}: {result.reason}"), type=status
        )
        failure.text = xml_text(_evidence_detail(result))
    elif result.status is Status.UNCHECKED and result.status not in report.accepted:
        ET.SubElement(case, "skipped", message=xml_text(result.reason))
    return case


def _evidence_detail(result: Result) -> str:
    """The reason, the text checked, and where the best evidence stands, for the CI log."""
    lines = [result.reason]
    if result.citation.checked_text:
        lines.append(f"cited text: {result.citation.checked_text}")
    if result.evidence:
        best = result.evidence[0]
        lines.append(
            f"best evidence ({best.method}, score {best.score:.2f}) at {best.where()} "
            f"of {best.source_id!r}: {best.text}"
        )
    return "\n".join(lines)


def _no_citations(report: Report) -> ET.Element:
    case = ET.Element("testcase", classname=f"citecheck.{report.kind}", name="no citations")
    if report.require_citations:
        ET.SubElement(
            case,
            "failure",
            message="no citations were found, and citations are required",
            type="no_citations",
        )
    return case
