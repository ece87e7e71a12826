"""The version, in one place below everything that names it (the package, the command line, the
methods text of a quote run, the footer of an HTML report)."""

__version__ = "0.1.0"
