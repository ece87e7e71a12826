"""The records door: batches of AI-written records, each citation labelled against the
record's own sources (:mod:`~citecheck.records.validate`), the labels a banding of the one
claim-support engine (:mod:`~citecheck.records.labels`), and the command line's files and
checkpoints (:mod:`~citecheck.records.record_files`)."""

from citecheck.records.validate import (
    MAX_RECORD_DEPTH,
    RecordConfig,
    RecordOptions,
    RecordVerifier,
    iter_record_results,
    iter_validated_records,
    records_report,
    validate_records,
    verify_records,
)

__all__ = [
    "MAX_RECORD_DEPTH",
    "RecordConfig",
    "RecordOptions",
    "RecordVerifier",
    "iter_record_results",
    "iter_validated_records",
    "records_report",
    "validate_records",
    "verify_records",
]
