"""Quote verification at scale: locate extracted quotes in a corpus, with metrics and exports."""

from citecheck.quotes.config import QuoteConfig, QuoteOptions
from citecheck.quotes.locator import QuoteLocator
from citecheck.quotes.quote_report import QuoteReport, QuoteRow

__all__ = ["QuoteConfig", "QuoteLocator", "QuoteOptions", "QuoteReport", "QuoteRow"]
