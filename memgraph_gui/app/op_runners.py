"""What the AppModel's write runners look like to the parts it owns.

Parts of ``app/`` that ``app_model`` imports cannot import ``AppModel`` back (the app folder
reads top-down); each types its host as a small protocol of what it uses, and those that write
inherit these. ``AppModel`` satisfies both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from memgraph_gui.core.domain.errors import MemgraphError
    from memgraph_gui.core.luker.write_api import WriteApi
    from memgraph_gui.core.memory import MemoryStore


class OpRunner(Protocol):
    """Runs a write through the Write API off the GUI thread (``AppModel.run_op``)."""

    def run_op(
        self,
        op: Callable[[WriteApi], Any],
        *,
        initiator: object | None = None,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[MemgraphError], None] | None = None,
    ) -> None: ...


class StoreOpRunner(Protocol):
    """Runs work on the whole store off the GUI thread (``AppModel.run_store_op``)."""

    def run_store_op(
        self,
        op: Callable[[MemoryStore], Any],
        *,
        initiator: object | None = None,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[MemgraphError], None] | None = None,
    ) -> None: ...
