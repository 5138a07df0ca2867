"""The FTS5 trigram index gives exactly the plain scan's answers, after loads, writes and undo."""

from __future__ import annotations

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo import load_demo

QUERIES = [
    "silver",
    "银月城",
    "艾琳",
    "Summary 1",
    "secret deal",
    "時間",
    "zzz",
    "L2 recap",
    "别名",
]


def _same(store: MemoryStore) -> None:
    read = store.read_api()
    for query in QUERIES:
        assert read.search_text(query, use_index=True) == read.search_text(query, use_index=False)


def test_index_matches_scan_after_load_write_and_undo(file_store: MemoryStore) -> None:
    load_demo(file_store, 300, seed=5)
    _same(file_store)
    write = file_store.write_api()
    created = write.create_node(
        type="character_sheet", title="新人 Newcomer", fields={"aliases": ["别名甲", "Silverhand"]}
    )["id"]
    assert created in file_store.read_api().search_text("silverhand")
    assert created in file_store.read_api().search_text("别名甲")
    write.edit_node(id=created, set_fields={"aliases": ["Goldhand"]})
    assert created not in file_store.read_api().search_text("silverhand")
    assert created in file_store.read_api().search_text("goldhand")
    _same(file_store)
    file_store.history.undo()
    file_store.history.undo()
    assert file_store.read_api().search_text("新人") == ()
    _same(file_store)


def test_index_sees_writes_made_by_another_connection(file_store: MemoryStore) -> None:
    load_demo(file_store, 100, seed=2)
    other = MemoryStore.open(file_store.path)
    try:
        node = other.write_api().create_node(
            type="thread",
            title="Heist",
            fields={"status": "active", "note": "the vault under 银月城"},
        )["id"]
    finally:
        other.close()
    assert node in file_store.read_api().search_text("vault under")
    _same(file_store)


def test_short_queries_scan_and_quotes_are_safe(store: MemoryStore) -> None:
    store.write_api().create_node(type="character_sheet", title='He said "hi" 艾')
    read = store.read_api()
    assert read.search_text("艾") == read.search_text("艾", use_index=False) != ()
    assert read.search_text('"hi"') == read.search_text('"hi"', use_index=False) != ()
