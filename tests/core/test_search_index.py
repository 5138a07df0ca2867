"""The in-memory search indexes give exactly a plain scan's answers, after loads, writes and undo."""

from __future__ import annotations

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import load_demo
from memgraph_gui.core.domain.text import find_needle, node_finds

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


def _scan(store: MemoryStore, query: str) -> tuple[str, ...]:
    """``search_text``'s answer by a plain pass over the timeline, node by node."""
    needle = find_needle(query)
    with store.reading() as graph:
        return tuple(i for i in graph.timeline_ids() if node_finds(graph.nodes[i], needle))


def _same(store: MemoryStore) -> None:
    read = store.read_api()
    for query in QUERIES:
        assert read.search_text(query) == _scan(store, query)


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


def test_short_queries_and_quotes_find_what_a_scan_finds(store: MemoryStore) -> None:
    store.write_api().create_node(type="character_sheet", title='He said "hi" 艾')
    read = store.read_api()
    assert read.search_text("艾") == _scan(store, "艾") != ()
    assert read.search_text('"hi"') == _scan(store, '"hi"') != ()


def test_incremental_keyword_index_matches_a_fresh_one(file_store: MemoryStore) -> None:
    load_demo(file_store, 400, seed=9)
    read, write = file_store.read_api(), file_store.write_api()
    queries = ["Eileen sword", "secret deal betrayal", "银月城", "event", "艾琳 Kain"]
    before = [read.keyword_search(query=q) for q in queries]  # builds the index
    first = read.list_nodes(types=["character_sheet"])[0].id
    write.edit_node(id=first, set_fields={"traits": "swordmaster betrayal"})
    write.delete_node(id=read.list_nodes(types=["location_state"])[0].id)
    write.create_node(type="character_sheet", title="Kain Sword", fields={"aliases": "凯恩"})
    events = [n.id for n in read.list_nodes(types=["event"]) if not n.parent_id][:3]
    write.compact_nodes(type="event", child_ids=events, summary="a secret deal at 银月城")
    file_store.history.undo()
    after = [read.keyword_search(query=q, types=t) for q in queries for t in (None, ["event"])]
    fresh = MemoryStore.open(file_store.path)
    try:
        expected = [
            fresh.read_api().keyword_search(query=q, types=t)
            for q in queries
            for t in (None, ["event"])
        ]
    finally:
        fresh.close()
    assert [[r.to_json() for r in hits] for hits in after] == [
        [r.to_json() for r in hits] for hits in expected
    ]
    assert before != after[::2]


def test_incremental_candidate_pool_matches_a_fresh_one(file_store: MemoryStore) -> None:
    load_demo(file_store, 400, seed=4)
    read, write = file_store.read_api(), file_store.write_api()
    read.list_visible_candidates()  # builds the pool index

    def same() -> None:
        fresh = MemoryStore.open(file_store.path)
        try:
            assert [n.id for n in read.list_visible_candidates()] == [
                n.id for n in fresh.read_api().list_visible_candidates()
            ]
        finally:
            fresh.close()

    leaf = write.apply_extraction_batch(
        ops=[{"op": "create", "type": "event", "fields": {"summary": "a new turn"}}]
    )
    assert leaf["applied"][0]["nodeId"] in {n.id for n in read.list_visible_candidates()}
    same()
    person = write.create_node(type="character_sheet", title="Newcomer")["id"]
    write.edit_node(id=person, set_fields={"goal": "stay"})
    same()
    roots = [n.id for n in read.list_nodes(types=["event"]) if not n.parent_id][:3]
    rollup = write.compact_nodes(type="event", child_ids=roots, summary="three turns")
    assert rollup["rollupNodeId"] in {n.id for n in read.list_visible_candidates()}
    same()
    write.delete_node(id=person)
    write.dissolve_rollup(id=rollup["rollupNodeId"])
    same()
    file_store.history.undo()
    file_store.history.undo()
    same()


def _fresh_answers(store: MemoryStore, queries: list[str]) -> list[list[str]]:
    """keywordSearch answered by a freshly built index (a reopened copy of the store)."""
    with MemoryStore.open(store.path, create=False) as fresh:
        read = fresh.read_api()
        return [[n.node.id for n in read.keyword_search(query=q, k=50)] for q in queries]


def test_keyword_index_stays_exact_through_lazy_removals(
    file_store: MemoryStore, monkeypatch
) -> None:
    from memgraph_gui.core.graph import keyword_index

    load_demo(file_store, 300, seed=7)
    read, write = file_store.read_api(), file_store.write_api()
    queries = ["dawn sword", "secret deal", "inn", "ledger", "银月城", "event"]
    read.keyword_search(query="warm the index")
    events = [n.id for n in read.list_nodes(types=["event"])][:60]
    for i, node_id in enumerate(events):  # drop the old tokens, some come back later
        text = "secret ledger at dawn" if i % 3 else "a quiet inn"
        write.edit_node(id=node_id, set_fields={"summary": text})
    for node_id in events[:20]:
        write.edit_node(id=node_id, set_fields={"summary": "the inn again"})
    file_store.history.undo()
    file_store.history.undo()
    ours = [[n.node.id for n in read.keyword_search(query=q, k=50)] for q in queries]
    assert ours == _fresh_answers(file_store, queries)
    monkeypatch.setattr(keyword_index, "PENDING_LIMIT", 3)  # flush every pending removal at once
    for node_id in events[20:40]:
        write.edit_node(id=node_id, set_fields={"summary": "dawn sword duel"})
    ours = [[n.node.id for n in read.keyword_search(query=q, k=50)] for q in queries]
    assert ours == _fresh_answers(file_store, queries)


def test_a_token_searched_before_any_node_had_it_is_found_once_one_does(
    store: MemoryStore,
) -> None:
    """A query for a token no node has yet must not leave it cached empty: the node written
    next with that token is found (the Recall lab asks, then the memory is edited)."""
    read, write = store.read_api(), store.write_api()
    write.create_node(type="character_sheet", title="Eileen")
    assert read.keyword_search(query="lighthouse") == ()
    created = write.create_node(type="character_sheet", title="Lighthouse keeper")
    assert [r.node.id for r in read.keyword_search(query="lighthouse")] == [created["id"]]
