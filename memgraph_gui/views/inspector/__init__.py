"""The inspector / editor dock: ``NodeInspector`` shows and edits ``app.selection.current``."""

from memgraph_gui.views.inspector.inspector import NodeInspector

__all__ = ["NodeInspector"]
