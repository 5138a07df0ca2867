"""Qt tests: settings are sandboxed; ``demo_app`` is an AppModel over a demo copy."""

from tests.qt_sandbox import demo_app, sandboxed_settings, unsaved_question_never_blocks

__all__ = ["demo_app", "sandboxed_settings", "unsaved_question_never_blocks"]
