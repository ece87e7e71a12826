"""Matchers find where a piece of text stands in a document.

See :class:`~citecheck.protocols.Matcher` for the contract.
"""

from citecheck.matchers.exact import ExactMatcher
from citecheck.matchers.fuzzy import FuzzyMatcher
from citecheck.matchers.overlap import OverlapMatcher

__all__ = ["ExactMatcher", "FuzzyMatcher", "OverlapMatcher"]
