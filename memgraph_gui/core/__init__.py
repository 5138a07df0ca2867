"""The Qt-free core: the store, the seeds' APIs, search, import/export.

Public entry points (imported lazily, so ``import memgraph_gui.core.x`` stays cheap)::

    from memgraph_gui.core import MemoryStore, open_session, external
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "MemoryStore": "memgraph_gui.core.memory",
    "open_session": "memgraph_gui.core.memory",
    "ChangeSet": "memgraph_gui.core.domain.changes",
    "MemgraphError": "memgraph_gui.core.domain.errors",
    "external": "memgraph_gui.core.luker.external",
}

__all__ = ["ChangeSet", "MemgraphError", "MemoryStore", "external", "open_session"]


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(name)
    module = importlib.import_module(module_name)
    return module if name == "external" else getattr(module, name)
