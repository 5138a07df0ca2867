"""``seed_docs`` covers exactly the methods ``memgraph call`` knows: a method added without its
description, title or argument docs (or a doc left behind for a method gone) fails here."""

from __future__ import annotations

from memgraph_gui.core import jsonapi, seed_docs


def test_every_method_has_a_description_and_a_title() -> None:
    missing_tools = sorted(set(jsonapi.METHODS) - set(seed_docs.TOOLS))
    missing_titles = sorted(set(jsonapi.METHODS) - set(seed_docs.TITLES))
    assert missing_tools == [], f"no TOOLS entry for {missing_tools}"
    assert missing_titles == [], f"no TITLES entry for {missing_titles}"


def test_no_entry_names_an_unknown_method() -> None:
    known = set(jsonapi.METHODS)
    for table in ("TOOLS", "TITLES", "PARAMS"):
        unknown = sorted(set(getattr(seed_docs, table)) - known)
        assert unknown == [], f"{table} describes methods that do not exist: {unknown}"


def test_descriptions_are_short_plain_text() -> None:
    for name, text in seed_docs.TOOLS.items():
        assert text.strip(), name
        assert len(text) <= 900, f"{name}: {len(text)} characters"
        assert "|---" not in text and "**" not in text, f"{name}: markdown"
    for name, title in seed_docs.TITLES.items():
        assert title.strip() and len(title) <= 40, name
    for name, params in seed_docs.PARAMS.items():
        for argument, text in params.items():
            assert argument and text.strip(), (name, argument)


def test_a_tool_with_arguments_describes_them() -> None:
    """Every tool whose ``memgraph call`` takes arguments has PARAMS for them (the names are the
    server's to check); the argument-free ones have none."""
    no_arguments = {"undo", "redo", "history", "getSchema", "getInjectionState"}
    no_arguments.add("getCurrentlyInjectedNodeIds")
    for name in jsonapi.METHODS:
        params = seed_docs.PARAMS.get(name, {})
        if name in no_arguments:
            assert params == {}, name
        else:
            assert params, f"{name}: no PARAMS"
