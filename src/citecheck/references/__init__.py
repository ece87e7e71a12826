"""Structured references — ``[Bala Kanda 1.1]``, ``(Ayodhya 2:3-5)``, ``John 3:16`` — extracted
(the Bible by ``pythonbible``'s parser where installed), normalised by a :class:`ReferenceScheme`
and checked against a catalog: a :class:`StructureMap`, any index (:class:`IndexCatalog`), or
``pythonbible`` (:class:`PythonBibleCatalog`, the ``bible`` extra). :func:`verify_references`
gives PASS / FAIL with the phantom citations; :func:`evaluate_dataset` the pass rate of a golden
dataset.
"""

from citecheck.references.bible import PythonBibleCatalog
from citecheck.references.builtin import bible, valmiki_ramayana
from citecheck.references.catalogs import Presence, StructureMap
from citecheck.references.coverage import Coverage, LookalikeGroup, group_lookalikes
from citecheck.references.evaluate import Evaluation, ItemOutcome, evaluate_dataset, read_jsonl
from citecheck.references.finder import Lookalike, Mention, ReferenceExtractor
from citecheck.references.index_catalog import IndexCatalog
from citecheck.references.policies import DEFAULT_POLICIES, Policy
from citecheck.references.reference_report import ReferenceReport
from citecheck.references.scheme import (
    Book,
    ReferenceScheme,
    StructuredReference,
    fold,
    name_key,
)
from citecheck.references.valmiki import load_valmiki_shlokas, read_verse_texts
from citecheck.references.verify import (
    ReferenceConfig,
    ReferenceOptions,
    ReferenceVerifier,
    scheme_named,
    verify_references,
)

__all__ = [
    "DEFAULT_POLICIES",
    "Book",
    "Coverage",
    "Evaluation",
    "IndexCatalog",
    "ItemOutcome",
    "Lookalike",
    "LookalikeGroup",
    "Mention",
    "Policy",
    "Presence",
    "PythonBibleCatalog",
    "ReferenceConfig",
    "ReferenceExtractor",
    "ReferenceOptions",
    "ReferenceReport",
    "ReferenceScheme",
    "ReferenceVerifier",
    "StructureMap",
    "StructuredReference",
    "bible",
    "evaluate_dataset",
    "fold",
    "group_lookalikes",
    "load_valmiki_shlokas",
    "name_key",
    "read_jsonl",
    "read_verse_texts",
    "scheme_named",
    "valmiki_ramayana",
    "verify_references",
]
