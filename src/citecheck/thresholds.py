"""Every threshold and band of citecheck's judgement of meaning, in one table.

A door that judges a claim or a quotation takes its defaults from here and nowhere else, so
that "verified" means the same at every door. Each can be overridden where its door takes the
option of the same name (``threshold=``, ``fuzzy_threshold=``, ``thresholds=``, ``supported=``
and ``partial=``); the table itself is not changed at run time.

========================  =======================  ===========================================
name                      value                    what it bounds
========================  =======================  ===========================================
``WORDS_VERIFIED``        0.8                      how closely a quotation's (or a claim's)
                                                   words must align with the source to stand
                                                   there (fuzzy, overlap, BM25 windows, quotes,
                                                   the lexical look)
``COSINE_BANDS``          (0.6, 0.4)               a bare cosine's (supported, partial)
``JUDGE_BANDS``           (0.5, 0.25)              a judge's probability's (supported, partial)
``CONTRADICTION``         0.5                      the trained judge's contradiction
                                                   probability that keeps a claim from
                                                   verified, and with little support lowers
                                                   it to unsupported (and a paper to
                                                   contradicted)
``LABEL_BANDS``           (0.8, 0.6, 0.4, 0.2)     the records labels' lower bounds of the
                                                   cosine: very likely true, likely true,
                                                   ambiguous, likely untrue
``COVERAGE_BANDS``        (0.8, 0.2)               the share of a citation's words in its best
                                                   passage that moves an ambiguous label up, or
                                                   down
========================  =======================  ===========================================

The fitted support model's own bounds (``supported``, ``partial``) and the cascade's gate are
the model's, fitted with it: :data:`~citecheck.judging.support_model.FITTED_SUPPORT_MODEL`.

How the doors' words map onto one grade:

=====================  ===============================  ====================================
grade (engine)         records label                    paper library
=====================  ===============================  ====================================
supported              very likely true / likely true   supported (another page: wrong page)
partial                ambiguous                        partially supported
partial, with a        ambiguous (likely untrue when    contradicted (status partial)
change of meaning      the lexical look confirms it)
unsupported, the       likely untrue                    contradicted (status unsupported)
judge reads a
contradiction
unsupported            likely untrue / very likely      not supported
                       untrue
=====================  ===============================  ====================================

The judge's second opinion is read by one rule at every door
(:attr:`Look.outcome <citecheck.judging.support.Look.outcome>`): below its ``partial`` bound
it doubts a supported claim (partial), and with a contradiction at ``CONTRADICTION`` or more
it refutes it (unsupported); above that bound, a contradiction at ``CONTRADICTION`` or more
still doubts it: a judge that reads a contradiction as more likely than not never confirms.
"""

from __future__ import annotations

__all__ = [
    "CONTRADICTION",
    "COSINE_BANDS",
    "COVERAGE_BANDS",
    "JUDGE_BANDS",
    "LABEL_BANDS",
    "WORDS_VERIFIED",
]

WORDS_VERIFIED = 0.8
COSINE_BANDS = (0.6, 0.4)
JUDGE_BANDS = (0.5, 0.25)
CONTRADICTION = 0.5
LABEL_BANDS = (0.80, 0.60, 0.40, 0.20)
COVERAGE_BANDS = (0.8, 0.2)
