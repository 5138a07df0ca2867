"""Qt tests: settings are sandboxed; ``demo_app`` is an AppModel over a demo copy; the wizard
tests' fixtures (``compactable_app``, ``memory_keyring``, ``wizard_settings``) live in
``wizard_helpers``."""

from wizard_helpers import compactable_app, memory_keyring, wizard_settings

from tests.qt_sandbox import (
    agent,
    demo_app,
    inspector,
    sandboxed_settings,
    unsaved_question_never_blocks,
)

__all__ = [
    "agent",
    "compactable_app",
    "demo_app",
    "inspector",
    "memory_keyring",
    "sandboxed_settings",
    "unsaved_question_never_blocks",
    "wizard_settings",
]
