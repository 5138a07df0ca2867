"""The inspector's pure parts: which editor a column gets, edit patches, link rows; and the
editors' keyboard behaviour."""

from __future__ import annotations

from typing import Any

import pytest


def test_the_editor_follows_the_value_then_the_name_and_hint() -> None:
    from memgraph_gui.views.inspector.field_kinds import FieldKind, kind_of

    assert kind_of("aliases", ("a", "b")) is FieldKind.LIST
    assert kind_of("aliases", "a, b") is FieldKind.TEXT  # the stored value decides
    assert kind_of("aliases", None) is FieldKind.LIST
    assert kind_of("summary", "short") is FieldKind.LONG_TEXT
    assert kind_of("goal", "x" * 61) is FieldKind.LONG_TEXT
    assert kind_of("goal", "one\ntwo") is FieldKind.LONG_TEXT
    assert kind_of("level", 3) is FieldKind.NUMBER and kind_of("hp", 2.5) is FieldKind.NUMBER
    assert kind_of("alive", True) is FieldKind.BOOL
    assert kind_of("stats", {"str": 3}) is FieldKind.JSON
    hint = "One of: active (推进中) / resolved (达成或彻底解决) / abandoned (永久放弃). Default active."
    assert kind_of("status", "resolved", hint) is FieldKind.CHOICE
    assert kind_of("status", "paused for now", hint) is FieldKind.TEXT


def test_choices_come_from_one_of_hints_only() -> None:
    from memgraph_gui.views.inspector.field_kinds import choices_from_hint

    hint = "One of: active (推进中) / resolved (达成或彻底解决) / abandoned (永久放弃). Default active."
    assert choices_from_hint(hint) == ("active", "resolved", "abandoned")
    assert choices_from_hint('May use "X(名义)/Y(实际)". Forbid temporary roles.') == ()
    assert choices_from_hint("") == ()


def test_columns_follow_the_schema_and_keep_extra_fields() -> None:
    from memgraph_gui.core.domain.default_schema import default_schema
    from memgraph_gui.core.domain.schema import Schema
    from memgraph_gui.views.inspector.field_kinds import columns_for

    spec = Schema.from_json(default_schema()).get("character_sheet")
    columns = columns_for(spec, {"goal": "g", "mood": "calm"})
    names = [c.name for c in columns]
    assert names[0] == "aliases" and "title" not in names and names[-1] == "mood"
    by_name = {c.name: c for c in columns}
    assert by_name["aliases"].primary_key and not by_name["goal"].required
    assert not by_name["mood"].in_schema and by_name["aliases"].hint


def test_an_empty_value_clears_the_field() -> None:
    from memgraph_gui.views.inspector.field_kinds import parse_number, patch_for, same_value

    assert patch_for("goal", "  ") == ({}, ["goal"])
    assert patch_for("aliases", []) == ({}, ["aliases"])
    assert patch_for("aliases", ("a",)) == ({"aliases": ["a"]}, [])
    assert parse_number("1,200") == 1200 and parse_number("2.5") == 2.5
    with pytest.raises(ValueError):
        parse_number("12x")
    with pytest.raises(ValueError):
        parse_number("nan")
    assert same_value(("a", "b"), ["a", "b"]) and same_value(None, "")
    assert not same_value(1, True) and not same_value("1", 1)


def test_link_rows_merge_both_ways_and_skip_the_hierarchy() -> None:
    from memgraph_gui.core.domain.model import Edge
    from memgraph_gui.views.inspector.link_rows import LinkRow, link_rows

    edges = [
        Edge("a", "b", "mentor_of"),
        Edge("a", "c", "knows"),
        Edge("c", "a", "knows"),
        Edge("d", "a", "allied_with"),  # symmetric, stored once
        Edge("e", "a", "involved_in"),
        Edge("a", "f", "contains"),
    ]
    assert link_rows("a", edges) == [
        LinkRow("b", "mentor_of", "outgoing"),
        LinkRow("c", "knows", "bidirectional"),
        LinkRow("d", "allied_with", "bidirectional"),
        LinkRow("e", "involved_in", "incoming"),
    ]


def test_delete_in_a_list_removes_the_item_not_the_node(qtbot: Any) -> None:
    from memgraph_gui.views.inspector.area_editors import ListEditor
    from memgraph_gui.views.qt import QAction, QKeySequence, Qt, QWidget

    window = QWidget()
    qtbot.addWidget(window)
    archived: list[bool] = []
    action = QAction("Archive", window)
    action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
    action.triggered.connect(lambda: archived.append(True))
    window.addAction(action)
    editor = ListEditor(window)
    editor.set_value(("a", "b", "c"))
    window.show()
    editor.list.setCurrentRow(1)
    editor.list.setFocus()
    qtbot.keyClick(editor.list, Qt.Key.Key_Delete)
    assert editor.items() == ["a", "c"] and archived == []
    assert editor.bar.apply_button.isVisibleTo(editor)
    editor.revert()
    assert editor.items() == ["a", "b", "c"] and not editor.is_dirty()


def test_a_number_field_refuses_text_before_any_write(qtbot: Any) -> None:
    from memgraph_gui.views.inspector.editors import NumberEditor

    editor = NumberEditor()
    qtbot.addWidget(editor)
    editor.set_value(3)
    sent: list[object] = []
    problems: list[str] = []
    editor.committed.connect(sent.append)
    editor.input_rejected.connect(problems.append)
    editor.line.setText("12x")
    editor.line.editingFinished.emit()
    assert sent == [] and "not a number" in problems[0]
    editor.line.setText("12")
    editor.line.editingFinished.emit()
    assert sent == [12]
