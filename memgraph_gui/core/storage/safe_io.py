"""Safe file writes: temp file in the same folder, fsync, atomic rename, previous kept as ``.bak``."""

from __future__ import annotations

import codecs
import json
import os
import re
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

from memgraph_gui.core.domain import strict_json
from memgraph_gui.core.domain.errors import ImportFormatError

MAX_IMPORT_BYTES = 1 << 30


def write_text_atomic(path: str | os.PathLike[str], text: str, *, backup: bool = True) -> None:
    """Replace ``path`` with ``text`` atomically; an existing file is kept as ``path.bak``."""
    _write_atomic(path, text, "w", backup)


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes, *, backup: bool = True) -> None:
    """``write_text_atomic`` of bytes: written exactly (no newline translation)."""
    _write_atomic(path, data, "wb", backup)


def _write_atomic(path: str | os.PathLike[str], content: Any, mode: str, backup: bool) -> None:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.chmod(tmp, _mode_for(target))  # mkstemp makes 0600; keep the file's usual mode
        encoding = "utf-8" if "b" not in mode else None
        with os.fdopen(fd, mode, encoding=encoding) as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        if backup and target.exists():
            _keep_backup(target)
        os.replace(tmp, target)  # the target always holds a whole file, old or new
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(target.parent)


def _keep_backup(target: Path) -> None:
    """Make ``target.bak`` a copy of ``target`` without ever removing ``target`` itself."""
    backup = target.with_name(target.name + ".bak")
    backup.unlink(missing_ok=True)
    try:
        os.link(target, backup)  # the old file stays reachable under both names
    except OSError:  # no hard links here (e.g. FAT, some network shares): copy instead
        shutil.copy2(target, backup)


def write_json_atomic(path: str | os.PathLike[str], data: Any, *, backup: bool = True) -> None:
    """``write_text_atomic`` of pretty-printed UTF-8 JSON."""
    write_text_atomic(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n", backup=backup)


def read_json(path: str | os.PathLike[str]) -> Any:
    """Parse a JSON file; errors name the file and, for bad JSON, the line and column.

    Strict JSON: ``NaN``, ``Infinity``, ``-Infinity`` and numbers too large for a double (``1e999``),
    which Python's ``json`` would accept, raise ``ImportFormatError`` like any other syntax error;
    so does a lone surrogate (an escape such as ``"\\ud800"`` with no pair), naming its path.
    """
    return read_json_bytes(path)[0]


def read_json_bytes(path: str | os.PathLike[str], *, js_numbers: bool = False) -> tuple[Any, bytes]:
    """``read_json``, with the bytes read (one read: what was parsed is what a hash of them
    describes). ``js_numbers``: each number as JavaScript's ``JSON.parse`` holds it
    (``strict_json.loads``)."""
    source = Path(path)
    try:
        size = source.stat().st_size
    except OSError as exc:
        raise ImportFormatError("", f"cannot read {source}: {exc.strerror or exc}") from exc
    if size > MAX_IMPORT_BYTES:
        raise ImportFormatError("", f"{source} is {size:,} bytes (at most {MAX_IMPORT_BYTES:,})")
    try:
        data = source.read_bytes()
        text = _decode(data)
    except UnicodeDecodeError as exc:
        raise ImportFormatError("", f"{source} is not UTF-8 text ({exc.reason})") from exc
    except OSError as exc:
        raise ImportFormatError("", f"cannot read {source}: {exc.strerror or exc}") from exc
    doc = _parse(source, text, js_numbers)
    if _has_surrogate_escape(data):  # 13 ms at 42 MB; the walk only if needed
        found = strict_json.first_lone_surrogate(doc)
        if found is not None:
            raise ImportFormatError(*found)
    return doc, data


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
"""What a lone surrogate in a decoded JSON document comes from (escaped pairs match it too)."""


def _has_surrogate_escape(data: bytes) -> bool:
    """Whether ``_SURROGATE_ESCAPE`` occurs in ``data``, searched a slice at a time (each search
    holds the GIL; a match straddling a slice's end is found whole in that slice's search)."""
    return any(
        _SURROGATE_ESCAPE.search(data, start, start + PIECES_FROM + 8) is not None
        for start in range(0, len(data), PIECES_FROM)
    )


def _decode(data: bytes) -> str | list[str]:
    """``data.decode("utf-8-sig")`` (the same text and errors); on a worker thread a large file
    is decoded a slice at a time, so other threads get the GIL between slices, and given as the
    list of those pieces: joining them into one text would be one call holding the GIL ~45 ms
    at 40 MB (allocating it)."""
    if len(data) < PIECES_FROM or threading.current_thread() is threading.main_thread():
        return data.decode("utf-8-sig")
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    parts = [decoder.decode(data[i : i + PIECES_FROM]) for i in range(0, len(data), PIECES_FROM)]
    parts.append(decoder.decode(b"", final=True))
    return parts


PIECES_FROM = 1 << 20
"""Files of this many bytes and more, read on a worker thread, are decoded and parsed in pieces
(``strict_json.loads_in_pieces``: the same result, a little slower, but the GUI thread gets the
GIL between pieces instead of waiting ~0.4 s for one ``json.loads``)."""


def _parse(source: Path, text: str | list[str], js_numbers: bool = False) -> Any:
    """``text`` (whole, or as ``_decode``'s pieces) as strict JSON; ``ImportFormatError``."""
    try:
        if isinstance(text, list):
            return strict_json.loads_in_pieces(text, js_numbers=js_numbers)
        return strict_json.loads(text, js_numbers=js_numbers)
    except strict_json.NotJsonNumber as exc:
        whole = text if isinstance(text, str) else "".join(text)
        raise ImportFormatError("", f"{source} is not valid JSON: {_locate(whole, exc)}") from exc
    except json.JSONDecodeError as exc:
        raise ImportFormatError(
            "", f"{source} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from exc
    except ValueError as exc:  # int() refuses more than sys.get_int_max_str_digits() digits
        raise ImportFormatError("", f"{source}: a number has too many digits ({exc})") from exc
    except RecursionError as exc:
        raise ImportFormatError("", f"{source} is nested too deeply to read") from exc


_BARE_TOKENS = re.compile(
    r'"(?:[^"\\]|\\.)*"'  # a string, skipped
    r"|(-?(?:NaN|Infinity)|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"  # a bare constant or number
)


def _locate(text: str, exc: strict_json.NotJsonNumber) -> str:
    """``"<token> at line L, column C (<why>)"`` for the first occurrence outside strings.

    Everything before the offending token parsed, so a plain scan that skips strings finds it.
    """
    where = ""
    for match in _BARE_TOKENS.finditer(text):
        if match.group(1) == exc.token:
            pos = match.start(1)
            line, column = text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)
            where = f" at line {line}, column {column}"
            break
    why = "NaN and Infinity are not JSON" if exc.constant else "too large for a number"
    return f"{exc.token}{where} ({why})"


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _mode_for(target: Path) -> int:
    """The existing file's permission bits, else 0666 less the process umask."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
