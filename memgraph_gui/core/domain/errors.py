"""Errors with the seeds' codes."""

from __future__ import annotations

from typing import Any


class MemgraphError(Exception):
    """An API error carrying the seed's ``code`` (``BAD_ARGS``, ``OP_FAILED``, ...)."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def to_json(self) -> dict[str, Any]:
        """The ``{"code", "message"}`` object of the JSON boundary (plus any details)."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        out.update(self.details)
        return out

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def bad_args(message: str) -> MemgraphError:
    """A ``BAD_ARGS`` error: the caller passed something the contract does not allow."""
    return MemgraphError("BAD_ARGS", message)


class ImportFormatError(MemgraphError):
    """A document to import is malformed; ``path`` names the offending place (``nodes[3].title``)."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__("BAD_IMPORT", f"{path}: {problem}" if path else problem, path=path)
        self.path = path


def as_memgraph_error(exc: BaseException) -> MemgraphError:
    """Any exception as a ``MemgraphError`` for the JSON boundary (never a traceback).

    Storage already raises ``MemgraphError`` for every SQLite failure; this is the last net.
    """
    if isinstance(exc, MemgraphError):
        return exc
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return MemgraphError("IO_ERROR", f"{where}{exc.strerror or exc}")
    return MemgraphError("INTERNAL_ERROR", f"{type(exc).__name__}: {exc}")
