"""Files written whole or not at all (:func:`atomic_write` and its helpers, docs/limits.md), and JSON read from
a user's file (:func:`parse_json`)."""

from praetor_analysis.io.atomic import (
    OutputError,
    atomic_write,
    atomic_write_bytes,
    atomic_write_text,
    atomic_write_with,
    check_output_path,
    remove_stale_temporaries,
)
from praetor_analysis.io.json_text import parse_json

__all__ = [
    "OutputError",
    "atomic_write",
    "atomic_write_bytes",
    "atomic_write_text",
    "atomic_write_with",
    "check_output_path",
    "parse_json",
    "remove_stale_temporaries",
]
