"""Qt tests: settings are sandboxed."""

from tests.qt_sandbox import sandboxed_settings

__all__ = ["sandboxed_settings"]
