"""The Recall lab dock: a message, and what every recall path would pick for it."""

from memgraph_gui.views.recall_lab.panel import RecallLabPanel

__all__ = ["RecallLabPanel"]
