"""The inspector's page for a node the trust lens shows redacted: it says "Redacted for this
actor" and shows exactly the seed's eight redacted keys (id, type, sensitivity, salience, scope,
tags, created_at, updated_at) read-only, in plain text: no payload, fields, provenance,
relations or audit log, and nothing can be edited from it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memgraph_gui.app.trust_lens import REDACTED_KEYS
from memgraph_gui.core.domain.model import Node
from memgraph_gui.views.inspector.style import plain_label, section_title, separator
from memgraph_gui.views.qt import QtCore, QWidget, tr
from memgraph_gui.views.qt import QtWidgets as W

Qt = QtCore.Qt


class RedactedPage(QWidget):
    """A read-only form of a redacted node's eight keys. GUI thread only."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspector-redacted")
        self.heading = section_title(tr("Redacted for this actor"))
        self.explain = plain_label(
            tr(
                "This actor reads this memory one level above what it may read in full: only "
                "these keys are shown. Payload, provenance, relations and audit log are "
                "stripped, and nothing can be edited while viewing as this actor."
            )
        )
        self.explain.setWordWrap(True)
        self.values: dict[str, W.QLabel] = {}
        form = W.QFormLayout()
        form.setFieldGrowthPolicy(W.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for key in REDACTED_KEYS:
            value = plain_label()
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.values[key] = value
            form.addRow(plain_label(key), value)
        layout = W.QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 10)
        layout.setSpacing(6)
        layout.addWidget(self.heading)
        layout.addWidget(self.explain)
        layout.addWidget(separator())
        layout.addLayout(form)
        layout.addStretch(1)

    def show_node(self, node: Node) -> None:
        """Show the redacted ``node`` (its fields are the redacted keys: ``AppModel.node``)."""
        fields = node.fields
        for key, label in self.values.items():
            label.setText(_text(fields.get(key)))

    def shown(self) -> dict[str, str]:
        """What each key shows now (tests)."""
        return {key: label.text() for key, label in self.values.items()}


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or tr("(none)")
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    if value == "":
        return tr("(none)")
    return str(value)
