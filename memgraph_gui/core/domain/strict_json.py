"""Strict JSON both ways. Python's ``json`` accepts ``NaN``, ``Infinity`` and numbers no float can
hold (``1e400`` becomes inf), and writes NaN and lone surrogates; JSON has none of them. One parser
for every boundary that reads JSON text, one writer for every boundary that answers in it."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from memgraph_gui.core.domain.errors import MemgraphError

SURROGATE = re.compile("[\ud800-\udfff]")  # in a str, always lone: UTF-8 cannot encode it


class NotJsonNumber(ValueError):
    """A number token JSON does not allow; ``token`` is the text, ``constant`` is True for
    ``NaN`` / ``Infinity`` / ``-Infinity`` (False for an out-of-range number)."""

    def __init__(self, token: str, constant: bool) -> None:
        super().__init__(token)
        self.token, self.constant = token, constant


def loads(text: str, *, js_numbers: bool = False) -> Any:
    """``json.loads`` that raises ``NotJsonNumber`` for what is not JSON. Other failures are
    ``json``'s own: ``JSONDecodeError``, ``ValueError`` (too many digits), ``RecursionError``.
    ``js_numbers``: each number as JavaScript's ``JSON.parse`` holds it (``js_number``)."""
    if js_numbers:
        return json.loads(
            text, parse_constant=_refuse_constant, parse_float=_js_float, parse_int=_js_int
        )
    return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)


JS_SAFE = 2**53
"""Integers up to this magnitude are exact doubles."""


def _js_float(token: str) -> int | float:
    """A number with a fraction or exponent as JavaScript holds it: integral ones (``1.0``,
    ``1e2``, ``-0.0``) as ints, as ``JSON.stringify`` prints them."""
    value = _finite_float(token)
    return int(value) if value.is_integer() and -JS_SAFE <= value <= JS_SAFE else value


def _js_int(token: str) -> int | float:
    """An integer as JavaScript holds it: past 2**53 the nearest double (``NotJsonNumber``
    past the doubles)."""
    value = int(token)
    if -JS_SAFE <= value <= JS_SAFE:
        return value
    try:
        return float(value)
    except OverflowError:
        raise NotJsonNumber(token, constant=False) from None


def loads_in_pieces(text: str | Sequence[str], *, js_numbers: bool = False) -> Any:
    """``loads`` for a large document, the same value and the same errors, parsed in pieces: the
    members of the top-level object or array, and of each object or array in it, are each parsed
    by a call of their own. One ``json.loads`` of a 40 MB export holds the GIL for ~0.4 s, so a
    window importing on a worker thread could not paint meanwhile; between the pieces other
    threads run. ``text`` may also be given as consecutive pieces (a file decoded a slice at a
    time): they are read through a window, never joined (one 40 MB text is one allocation that
    holds the GIL ~45 ms). On any failure the whole text goes through ``loads``, which raises its
    error."""
    pieces = [text] if isinstance(text, str) else text
    try:
        reader = _Reader(pieces, _JS_SCANNER if js_numbers else _SCANNER)
        value = _piece(reader, 2)
        if reader.peek():
            raise ValueError("extra data")
        return value
    except (ValueError, IndexError, RecursionError):  # JSONDecodeError, NotJsonNumber are too
        return loads(text if isinstance(text, str) else "".join(text), js_numbers=js_numbers)


_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBERS = (int, float)
_WINDOW = 1 << 23
"""Characters a value parsed in pieces may span (beyond it, the whole text goes to ``loads``)."""


class _Reader:
    """Consecutive pieces of one JSON text, read through a window: ``text[index:]`` is what is
    left of it, and the next piece is appended (what was read dropped) only when a token may run
    past its end."""

    def __init__(self, pieces: Iterable[str], scanner: Any = None) -> None:
        self._scanner = scanner or _SCANNER
        self._pieces = iter(pieces)
        self.text, self.index = "", 0
        self._more()

    def _more(self) -> bool:
        """Append the next piece; False when there is none. ``ValueError`` when the unread
        part is already longer than ``_WINDOW`` (a huge value, or text that is not JSON)."""
        piece = next(self._pieces, None)
        if piece is None:
            return False
        if len(self.text) - self.index > _WINDOW:
            raise ValueError("a value too long to parse in pieces")
        self.text, self.index = self.text[self.index :] + piece, 0
        return True

    def peek(self) -> str:
        """The next character after whitespace (moved to), or "" at the end of the text."""
        while True:
            index = _WHITESPACE.match(self.text, self.index).end()  # type: ignore[union-attr]
            self.index = index
            if index < len(self.text):
                return self.text[index]
            if not self._more():
                return ""

    def scan(self) -> Any:
        """The JSON value at ``index`` (no whitespace before it); moves past it."""
        while True:
            text, index = self.text, self.index
            try:
                value, end = self._scanner(text, index)
            except (StopIteration, ValueError):  # no value here, or not all of it yet
                if self._more():
                    continue
                raise ValueError("expecting a value") from None
            if (end == len(text) or (end > len(text) - 3 and type(value) in _NUMBERS)) and (
                self._more()
            ):
                continue  # a number may go on in the next piece ("-0." read as -0, "1e-" as 1)
            self.index = end
            return value


def _piece(reader: _Reader, depth: int) -> Any:
    """The value at the reader; objects and arrays ``depth`` levels down are parsed member by
    member."""
    opener = reader.peek()
    if depth == 0 or opener not in ("{", "["):
        return reader.scan()
    closer = "}" if opener == "{" else "]"
    members: Any = {} if opener == "{" else []
    reader.index += 1
    if reader.peek() == closer:
        reader.index += 1
        return members
    deeper = depth - 1
    while True:
        if opener == "{":
            if reader.peek() != '"':
                raise ValueError("a key must be a string")
            key = reader.scan()
            if reader.peek() != ":":
                raise ValueError("expected ':'")
            reader.index += 1
            reader.peek()
            # a repeated key keeps its first place and last value, as loads
            members[key] = reader.scan() if deeper == 0 else _piece(reader, deeper)
        else:
            reader.peek()
            members.append(reader.scan() if deeper == 0 else _piece(reader, deeper))
        found = reader.peek()
        reader.index += 1
        if found == closer:
            return members
        if found != ",":
            raise ValueError("expected ',' or a closing bracket")


def _refuse_constant(token: str) -> Any:
    raise NotJsonNumber(token, constant=True)


def _finite_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise NotJsonNumber(token, constant=False)
    return value


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)
_SCANNER = _DECODER.scan_once  # type: ignore[attr-defined]
_JS_SCANNER = json.JSONDecoder(
    parse_constant=_refuse_constant, parse_float=_js_float, parse_int=_js_int
).scan_once  # type: ignore[attr-defined]


def dumps(data: Any) -> str:
    """``data`` as one line of strict JSON text (UTF-8 safe, compact, no trailing newline).

    Non-finite numbers (only Python callers can produce them: NaN, infinities, integers past the
    float range) are written as ``null``, as JavaScript's ``JSON.stringify`` does, and lone
    surrogates as U+FFFD, so every JSON parser accepts the line. Raises ``INTERNAL_ERROR`` when
    ``data`` is not JSON data at all (a foreign object, a cycle, nesting past the recursion limit).
    """
    try:
        try:
            text = _dump(data)
        except ValueError:  # NaN, Infinity or an integer too long to print somewhere
            text = _dump(_finite(data))
    except (TypeError, ValueError, RecursionError) as exc:
        raise MemgraphError(
            "INTERNAL_ERROR", f"the result is not JSON data: {type(exc).__name__}: {exc}"
        ) from exc
    return text if text.isascii() else SURROGATE.sub("\ufffd", text)


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _finite(value: Any) -> Any:
    """A copy of ``value`` with non-finite numbers as None (keys as JavaScript prints them)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, int) and value.bit_length() > _FLOAT_BITS:
        return None
    if isinstance(value, Mapping):
        return {_key(k): _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


_FLOAT_BITS = 1024  # an integer this long is Infinity as a JavaScript number


def _key(key: Any) -> Any:
    if isinstance(key, float) and not math.isfinite(key):
        return "NaN" if math.isnan(key) else ("Infinity" if key > 0 else "-Infinity")
    return key


def first_lone_surrogate(doc: Any, root: str = "") -> tuple[str, str] | None:
    """``(path, what is wrong)`` for the first string or key in ``doc`` (document order) holding a
    lone surrogate, which no UTF-8 file or SQLite text can hold; None when all of it is Unicode.

    A decoded JSON document holds one only through an escape such as ``"\\ud800"``. Paths are as
    ``json_values`` names them (``nodes.n_3.title``, ``edges[2].from``; a bad key is named with
    its surrogate escaped). Walks iteratively, so any nesting depth is fine. Pure; any thread.
    """
    if not _has_lone_surrogate(doc):  # the common case, without building any path
        return None
    stack: list[tuple[str, Any]] = [(root, doc)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            if (found := _lone(value)) is not None:
                return path, found
            continue
        if isinstance(value, Mapping):
            items: list[tuple[str, Any]] = []
            for key, item in value.items():
                name = str(key)
                where = f"{path}.{_escaped(name)}" if path else _escaped(name)
                if (found := _lone(name)) is not None:
                    return where, f"the key: {found}"
                items.append((where, item))
        elif isinstance(value, (list, tuple)):
            items = [(f"{path}[{index}]", item) for index, item in enumerate(value)]
        else:
            continue
        stack.extend(reversed(items))
    return None


def _lone(text: str) -> str | None:
    if text.isascii() or (found := SURROGATE.search(text)) is None:
        return None
    return (
        f"lone surrogate U+{ord(found.group()):04X} at character {found.start()} is not Unicode "
        "text (it cannot be stored as UTF-8)"
    )


def _escaped(name: str) -> str:
    return name if name.isascii() else name.encode("utf-8", "backslashreplace").decode("utf-8")


def _has_lone_surrogate(doc: Any) -> bool:
    stack = [doc]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if not value.isascii() and SURROGATE.search(value) is not None:
                return True
        elif isinstance(value, Mapping):
            stack.extend(str(key) for key in value)
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
    return False
