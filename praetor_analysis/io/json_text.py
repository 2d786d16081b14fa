"""JSON text read from a user's file, refused in one line when it is not JSON or is nested too deeply."""

from __future__ import annotations

import json
from typing import Any

from praetor_analysis.errors import PraetorError

__all__ = ["parse_json"]


def parse_json(text: str | bytes, field: str) -> Any:
    """The JSON document in ``text``; anything else (bad JSON, bytes that are not UTF-8, a list nested
    100,000 deep) is refused as a :class:`~praetor_analysis.errors.PraetorError` naming ``field``."""
    try:
        if isinstance(text, (bytes, bytearray)):
            text = bytes(text).decode("utf-8-sig")
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise PraetorError(f"{field}: not JSON ({exc.msg} at line {exc.lineno})", field=field) from None
    except UnicodeDecodeError as exc:
        raise PraetorError(f"{field}: not UTF-8 text ({exc.reason} at byte {exc.start})", field=field) from None
    except RecursionError:
        raise PraetorError(f"{field}: JSON nested too deeply", field=field) from None
    except ValueError as exc:  # an integer beyond Python's digit limit
        raise PraetorError(f"{field}: not JSON this reader accepts ({exc})", field=field) from None
