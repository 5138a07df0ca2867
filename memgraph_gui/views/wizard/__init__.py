"""The compaction wizard, the rollup review and the actions that open them.

The window wires ``CompactionActions(app, window)``: its ``compaction_wizard`` and
``review_rollups`` actions go in Tools, ``preferences`` in Edit.
"""

from memgraph_gui.views.wizard.actions import CompactionActions
from memgraph_gui.views.wizard.compaction_wizard import CompactionWizard
from memgraph_gui.views.wizard.rollup_review import RollupReviewDialog

__all__ = ["CompactionActions", "CompactionWizard", "RollupReviewDialog"]
