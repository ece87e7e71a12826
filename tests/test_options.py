"""One configuration shape: every door's options type reads a mapping, a file and options over a
base the same way (written once, in ``citecheck._config.Options``); the one-shot verbs spell
their keywords (no ``**options: Any``); the same idea has the same name at every door."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path
from typing import Any

import pytest

import citecheck
from citecheck import registry
from citecheck._config import COMMON_NAMES, Options
from citecheck.api_citations import ApiCitationConfig, ApiCitationOptions
from citecheck.errors import ConfigError
from citecheck.papers import DraftVerifier
from citecheck.papers.draft_verifier import DraftConfig, DraftOptions
from citecheck.quotes import QuoteConfig, QuoteLocator, QuoteOptions
from citecheck.records import RecordConfig, RecordOptions, RecordVerifier
from citecheck.references import ReferenceConfig, ReferenceOptions, ReferenceVerifier
from citecheck.verification.options import VerifierConfig, VerifyOptions

DOORS = registry.available("doors")
PAIRS = [
    (VerifierConfig, VerifyOptions, set()),
    (QuoteConfig, QuoteOptions, {"threshold"}),
    (RecordConfig, RecordOptions, {"threshold", "embedding_model", "min_claim_words"}),
    (ReferenceConfig, ReferenceOptions, {"scheme", "against"}),  # keywords of their own
    (DraftConfig, DraftOptions, set()),
    (ApiCitationConfig, ApiCitationOptions, set()),
]


@pytest.mark.parametrize("door", DOORS)
def test_every_door_has_one_options_type_of_the_one_shape(door: str) -> None:
    built: Any = registry.load("doors", door)
    options_type = built.options_type
    assert issubclass(options_type, Options)
    for verb in ("from_mapping", "from_file", "merged", "to_dict"):
        assert getattr(options_type, verb).__qualname__ == f"Options.{verb}", verb
    needs = {"references": {"against": {"Bala": [3]}}}.get(door, {})
    assert isinstance(built.from_config(None, **needs), built)


@pytest.mark.parametrize(("config", "keywords", "differ"), PAIRS)
def test_the_typed_keywords_are_the_options_type(
    config: Any, keywords: Any, differ: set[str]
) -> None:
    names = {f.name for f in dataclasses.fields(config)}
    typed = set(keywords.__annotations__)
    assert typed ^ names == differ


def test_the_verifier_takes_what_its_options_type_holds_with_the_same_defaults() -> None:
    parameters = inspect.signature(citecheck.Verifier).parameters
    defaults = {name: p.default for name, p in parameters.items()}
    assert defaults == VerifierConfig().to_dict()
    parameters = inspect.signature(ReferenceVerifier).parameters
    assert {name: p.default for name, p in parameters.items()} == ReferenceConfig().to_dict()


def test_no_public_verb_takes_untyped_options() -> None:
    verbs = [
        citecheck.verify,
        citecheck.locate,
        citecheck.verify_quotes,
        citecheck.verify_references,
        citecheck.verify_records,
        citecheck.validate_records,
        citecheck.evaluate_dataset,
        citecheck.Verifier.from_config,
        QuoteLocator,
        QuoteLocator.from_config,
        RecordVerifier,
        RecordVerifier.from_config,
        ReferenceVerifier.from_config,
        DraftVerifier,
    ]
    for verb in verbs:
        for parameter in inspect.signature(verb).parameters.values():
            if parameter.kind is inspect.Parameter.VAR_KEYWORD:
                assert str(parameter.annotation).startswith("Unpack["), (verb, parameter)


def test_the_verified_threshold_has_one_name_at_every_door() -> None:
    assert "threshold" in COMMON_NAMES
    assert QuoteConfig.merged(None, {"threshold": 0.8}).match_threshold == 0.8
    assert RecordConfig.merged(None, {"threshold": 0.5}).similarity_threshold == 0.5
    assert VerifierConfig.merged(None, {"threshold": 0.7}).threshold == 0.7
    assert ReferenceConfig.merged(None, {"threshold": 0.7}).threshold == 0.7
    assert QuoteLocator(threshold=0.8).config.match_threshold == 0.8
    # the seed's own names stay
    assert QuoteConfig.from_mapping({"match_threshold": 0.8}).match_threshold == 0.8
    assert RecordConfig.from_mapping({"similarity_threshold": 0.5}).similarity_threshold == 0.5


def test_a_common_name_and_the_own_name_must_agree() -> None:
    with pytest.raises(ConfigError, match="threshold and match_threshold name one quote option"):
        QuoteConfig.from_mapping({"threshold": 0.8, "match_threshold": 0.9})
    assert QuoteConfig.from_mapping({"threshold": 0.8, "match_threshold": 0.8})
    with pytest.raises(ConfigError, match=r"known: .*threshold"):
        QuoteConfig.from_mapping({"treshold": 0.8})


def test_options_over_a_base_keep_the_base_and_change_nothing_given(tmp_path: Path) -> None:
    file = tmp_path / "verify.toml"
    file.write_text('matchers = ["exact"]\nthreshold = 0.9\nmin_claim_words = 5\n')
    config = VerifierConfig.from_file(file)
    assert (config.matchers, config.threshold, config.min_claim_words) == (["exact"], 0.9, 5)
    over = VerifierConfig.merged(config, {"threshold": 0.95})
    assert (over.threshold, over.min_claim_words, config.threshold) == (0.95, 5, 0.9)
    verifier = citecheck.Verifier.from_config(file, require_citations=True)
    assert [m.name for m in verifier.matchers] == ["exact"]
    assert verifier.require_citations
    given = {"threshold": 0.8}
    RecordConfig.merged(given, {"batch_size": 8})
    assert given == {"threshold": 0.8}
    with pytest.raises(ConfigError, match="unknown verifier option"):
        citecheck.Verifier.from_config({"matcher": ["exact"]})
    with pytest.raises(ConfigError, match="must be a VerifierConfig, a mapping or a file path"):
        VerifierConfig.merged(42, {})
