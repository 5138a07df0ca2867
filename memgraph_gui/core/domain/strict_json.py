"""Strict JSON parsing: Python's ``json`` accepts ``NaN``, ``Infinity`` and numbers no float can
hold (``1e400`` becomes inf); JSON does not. One parser for every boundary that reads JSON text."""

from __future__ import annotations

import json
import math
from typing import Any


class NotJsonNumber(ValueError):
    """A number token JSON does not allow; ``token`` is the text, ``constant`` is True for
    ``NaN`` / ``Infinity`` / ``-Infinity`` (False for an out-of-range number)."""

    def __init__(self, token: str, constant: bool) -> None:
        super().__init__(token)
        self.token, self.constant = token, constant


def loads(text: str) -> Any:
    """``json.loads`` that raises ``NotJsonNumber`` for what is not JSON. Other failures are
    ``json``'s own: ``JSONDecodeError``, ``ValueError`` (too many digits), ``RecursionError``."""
    return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)


def _refuse_constant(token: str) -> Any:
    raise NotJsonNumber(token, constant=True)


def _finite_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise NotJsonNumber(token, constant=False)
    return value
