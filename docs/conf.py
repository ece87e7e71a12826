"""Sphinx configuration for the citecheck documentation.

Build with ``sphinx-build -W --keep-going -b html docs docs/_build/html`` (the ``docs`` nox
session). Only Sphinx's own extensions and myst-parser are used, and nothing is fetched from the
network, so the build works offline.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
from pathlib import Path

from docutils import nodes

# Prefer the source tree next to these docs, so a build from a checkout documents that checkout;
# when citecheck is pip-installed (the nox session) the same code is found either way.
_SRC = Path(__file__).resolve().parent.parent / "src"
if _SRC.is_dir():
    sys.path.insert(0, str(_SRC))

import citecheck  # noqa: E402

project = "citecheck"
author = "citecheck developers"
copyright = "citecheck developers"
release = citecheck.__version__
version = ".".join(release.split(".")[:2])

# No sphinx.ext.napoleon: citecheck's docstrings are reST, and napoleon would read an attribute
# docstring such as "The cited source ... does not exist: a phantom citation." as "type: text".
extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# MyST: heading anchors so pages can link to each other's sections (concepts.md#statuses).
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]

# autodoc: document what the docstrings say, in source order, with type hints in the signature.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_class_signature = "mixed"
autodoc_preserve_defaults = True
autodoc_default_options = {"members": True}
# citecheck.testing imports pytest, and the integrations their frameworks, which the docs
# environment (the ``docs`` extra) lacks: they are stood in for while the docstrings are read.
autodoc_mock_imports = ["pytest", "langchain_core", "llama_index", "pydantic"]

# Python code in examples is highlighted as Python; interactive sessions use ``pycon`` blocks.
highlight_language = "python3"
pygments_style = "sphinx"

html_theme = "alabaster"
html_title = f"citecheck {release}"
html_theme_options = {
    "description": "Verify that citations point at real sources, real places and real words.",
    "fixed_sidebar": True,
    "show_relbars": True,
}
html_static_path: list[str] = []


def _clean_signature(app, what, name, obj, options, signature, return_annotation):
    """Readable signatures for the few objects autodoc renders badly.

    A Protocol's signature is ``(*args, **kwargs)`` and an Enum's is ``(value)``: neither says
    anything, so they are left out. A dataclass field built by ``default_factory`` shows as
    ``<factory>``, which is not Python and makes Sphinx give up on parsing the whole signature,
    so it is written as the call that builds the default (``dict()``).
    """
    if what not in {"class", "exception"} or not isinstance(obj, type) or signature is None:
        return None
    if getattr(obj, "_is_protocol", False) or issubclass(obj, enum.Enum):
        return "", return_annotation
    if dataclasses.is_dataclass(obj) and "<factory>" in signature:
        for field in dataclasses.fields(obj):
            if field.init and field.default_factory is not dataclasses.MISSING:
                factory = getattr(field.default_factory, "__name__", "factory")
                signature = signature.replace("<factory>", f"{factory}()", 1)
        return signature, return_annotation
    return None


def _trim_code_blocks(app, doctree):
    """Drop blank lines at the end of code blocks.

    An interactive example must end with a blank line before its closing fence, or doctest
    (``tests/test_docs.py``) reads the fence as part of the expected output. Pygments would show
    that line as an empty last row of the block.
    """
    for block in doctree.findall(nodes.literal_block):
        if len(block.children) != 1 or not isinstance(block[0], nodes.Text):
            continue
        text = block.astext()
        trimmed = text.rstrip("\n")
        if trimmed == text:
            continue
        if block.rawsource == text:
            block.rawsource = trimmed
        block.replace(block[0], nodes.Text(trimmed))


def setup(app):
    app.connect("autodoc-process-signature", _clean_signature)
    app.connect("doctree-read", _trim_code_blocks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
