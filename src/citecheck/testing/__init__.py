"""Conformance suites for backend authors (and for citecheck's own backends).

Subclass a suite in your test module and provide its fixture::

    from citecheck.testing import MatcherConformance

    class TestMyMatcher(MatcherConformance):
        @pytest.fixture
        def matcher(self):
            return MyMatcher()

Importing this package needs pytest.
"""

from citecheck.testing.catalog_conformance import CatalogConformance
from citecheck.testing.doors import DoorConformance
from citecheck.testing.fakes import HashingEmbedder
from citecheck.testing.indexes import IndexConformance
from citecheck.testing.matchers import MatcherConformance

__all__ = [
    "CatalogConformance",
    "DoorConformance",
    "HashingEmbedder",
    "IndexConformance",
    "MatcherConformance",
]
