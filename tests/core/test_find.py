"""One find (``search.find_nodes``): what ``search_text`` matches, against the definition written
out here (case folding, list and structured fields, CJK), and the store without the FTS5 index
it once carried (new stores never make it, a version-3 file loses it when opened)."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.text import node_finds
from memgraph_gui.core.storage import migrations
from tests.core.processes import run_python

# -- the definition ---------------------------------------------------------------------------


def rendered(value: Any) -> list[str]:
    """Every scalar inside a field value as JavaScript writes it; names, keys, brackets and
    quotes are no text."""
    if value is None:
        return []
    if isinstance(value, bool):
        return ["true" if value else "false"]
    if isinstance(value, float) and value.is_integer():
        return [str(int(value))]
    if isinstance(value, (int, float, str)):
        return [str(value)]
    if isinstance(value, list):
        return [text for item in value for text in rendered(item)]
    return [text for item in value.values() for text in rendered(item)]


def expected(store: MemoryStore, query: str) -> list[str]:
    """The ids, in timeline order, of the nodes whose id, title or one rendered scalar contains
    the trimmed, case-folded query."""
    needle = query.strip().casefold()
    if not needle:
        return []
    with store.reading() as graph:
        nodes = [graph.nodes[i] for i in graph.timeline_ids()]
    found = []
    for node in nodes:
        parts = [node.id, node.title, *rendered(node.to_json()["fields"])]
        if any(needle in part.casefold() for part in parts):
            found.append(node.id)
    return found


def test_case_folding_lists_structured_fields_and_cjk(store: MemoryStore) -> None:
    write = store.write_api()
    street = write.create_node(type="location_state", title="Hauptstraße 5")["id"]
    plain = write.create_node(type="location_state", title="Hauptstrasse 7")["id"]
    calm = write.create_node(
        type="character_sheet",
        title="Eileen",
        fields={"traits": ["calm", "brave"], "mood": {"now": "wary", "level": 3.0, "ok": True}},
    )["id"]
    cjk = write.create_node(type="location_state", title="银月城", fields={"aliases": ["月港"]})[
        "id"
    ]
    read = store.read_api()
    assert read.search_text("strasse") == read.search_text("STRASSE") == (street, plain)
    assert read.search_text("straße") == read.search_text("STRAẞE") == (street, plain)
    assert read.search_text("calm") == read.search_text(" Brave ") == (calm,)
    for syntax in ("'calm'", '"calm"', "[", "calm, brave", "calm,brave", "{", "mood", "now"):
        assert read.search_text(syntax) == (), syntax
    assert read.search_text("wary") == read.search_text("true") == (calm,)
    assert read.search_text("3") == (calm,)  # 3.0 is written as JavaScript writes it
    assert read.search_text("月") == (cjk,) and read.search_text("月港") == (cjk,)
    assert read.search_text(cjk) == (cjk,)  # the id is found too
    assert read.search_text("") == read.search_text("   ") == ()


def test_a_query_with_the_separator_matches_only_inside_one_part(store: MemoryStore) -> None:
    write = store.write_api()
    joined = write.create_node(type="location_state", title="north", fields={"note": "south"})
    inside = write.create_node(type="location_state", title="a\x00b")["id"]
    read = store.read_api()
    assert read.search_text("north\x00south") == ()
    assert joined["id"] in read.search_text("south")
    assert read.search_text("a\x00b") == read.search_text("A\x00B") == (inside,)


# -- random nodes, random queries -------------------------------------------------------------

PIECES = [
    "Straße",
    "STRASSE",
    "strasse",
    "ẞ",
    "Σίσυφος",
    "ΣΊΣΥΦΟΣ",
    "İstanbul",
    "ﬁre",
    "FIRE",
    "银月城",
    "艾琳",
    "月",
    "時間",
    "calm",
    "Brave",
    "'",
    '"',
    "[",
    "]",
    ",",
    " ",
    "\n",
    "Ǆ",
    "ǆ",
    "x",
]
TEXT = st.lists(st.sampled_from(PIECES), max_size=4).map("".join)
SCALAR = st.one_of(
    TEXT,
    st.integers(-50, 50),
    st.floats(-100, 100, allow_nan=False).map(lambda f: round(f, 2)),
    st.booleans(),
    st.none(),
)
VALUE = st.recursive(
    SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from("abc"), inner, max_size=3)
    ),
    max_leaves=6,
)
NODE = st.tuples(TEXT, st.dictionaries(st.sampled_from(["traits", "goal", "mood"]), VALUE))


def mixed_case(text: str, flips: list[bool]) -> str:
    return "".join(
        (ch.upper() if flip else ch.lower())
        for ch, flip in zip(text, flips + [False] * len(text), strict=False)
    )


@st.composite
def query_for(draw: st.DrawFn, parts: list[str]) -> str:
    """A random substring of one of ``parts``, case mixed, ß and ss swapped, maybe padded; or
    a random text."""
    if not parts or draw(st.integers(0, 4)) == 0:
        return draw(TEXT)
    part = draw(st.sampled_from(parts))
    start = draw(st.integers(0, max(0, len(part) - 1)))
    end = draw(st.integers(start, min(len(part), start + 6)))
    query = mixed_case(part[start:end], draw(st.lists(st.booleans(), max_size=8)))
    if draw(st.booleans()):
        query = query.replace("ß", "ss") if "ß" in query else query.replace("ss", "ß")
    return draw(st.sampled_from(["", " ", "\t"])) + query + draw(st.sampled_from(["", " "]))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(NODE, min_size=1, max_size=6), st.data())
def test_search_text_finds_what_the_definition_finds(
    nodes: list[tuple[str, dict[str, Any]]], data: st.DataObject
) -> None:
    with MemoryStore.open(":memory:") as store:
        write = store.write_api()
        for title, fields in nodes:
            write.create_node(type="character_sheet", title=title or "x", fields=fields)
        with store.reading() as graph:
            every = list(graph.nodes.values())
        parts = [p for n in every for p in [n.id, n.title, *rendered(n.to_json()["fields"])]]
        read = store.read_api()
        for _ in range(6):
            query = data.draw(query_for(parts))
            assert list(read.search_text(query)) == expected(store, query), repr(query)
            needle = query.strip().casefold()
            if needle:
                assert {n.id for n in every if node_finds(n, needle)} == set(expected(store, query))


# -- no FTS5 index in the file ----------------------------------------------------------------

# What a version-3 store held for the trigram index (the DDL of migrations.py before version 4).
OLD_FTS = [
    "CREATE VIRTUAL TABLE nodes_fts USING fts5(search_text, tokenize='trigram', detail=none)",
    "INSERT INTO nodes_fts(nodes_fts, rank) VALUES ('automerge', 4)",
    "CREATE TABLE fts_pending (ord INTEGER PRIMARY KEY)",
    "CREATE TRIGGER nodes_fts_ai AFTER INSERT ON nodes BEGIN INSERT INTO fts_pending(ord) "
    "SELECT new.ord WHERE NOT EXISTS (SELECT 1 FROM fts_pending WHERE ord = new.ord); END",
    "CREATE TRIGGER nodes_fts_au AFTER UPDATE OF search_text ON nodes BEGIN INSERT INTO "
    "fts_pending(ord) SELECT new.ord WHERE NOT EXISTS (SELECT 1 FROM fts_pending WHERE ord = "
    "new.ord); END",
    "CREATE TRIGGER nodes_fts_ad AFTER DELETE ON nodes BEGIN INSERT INTO fts_pending(ord) "
    "SELECT old.ord WHERE NOT EXISTS (SELECT 1 FROM fts_pending WHERE ord = old.ord); END",
]


def search_objects(path: Path | str) -> tuple[list[str], list[str], int]:
    """The file's FTS objects (names), the ``nodes`` columns and ``user_version``."""
    with sqlite3.connect(path) as raw:
        names = [
            r[0]
            for r in raw.execute(
                "SELECT name FROM sqlite_master WHERE name LIKE '%fts%' ORDER BY name"
            )
        ]
        columns = [r[1] for r in raw.execute("PRAGMA table_info(nodes)")]
        version = raw.execute("PRAGMA user_version").fetchone()[0]
    raw.close()
    return names, columns, version


def make_version_3(path: Path) -> list[str]:
    """A store as memgraph wrote it before version 4 (search column, trigram index, triggers);
    returns its node ids."""
    with MemoryStore.open(path) as s:
        write = s.write_api()
        ids = [
            write.create_node(type="location_state", title=t)["id"]
            for t in ("Hauptstraße", "银月城", "Old Harbour")
        ]
    with sqlite3.connect(path) as raw:
        raw.execute("ALTER TABLE nodes ADD COLUMN search_text TEXT")
        raw.execute("UPDATE nodes SET search_text = lower(title)")
        for sql in OLD_FTS:
            raw.execute(sql)
        raw.execute("INSERT INTO nodes_fts(rowid, search_text) SELECT ord, search_text FROM nodes")
        raw.execute("PRAGMA user_version = 3")
    raw.close()
    return ids


def test_a_new_store_has_no_fts_index(tmp_path: Path) -> None:
    MemoryStore.open(tmp_path / "new.memgraph").close()
    names, columns, version = search_objects(tmp_path / "new.memgraph")
    assert names == [] and "search_text" not in columns
    assert version == migrations.SCHEMA_VERSION == 6


OPEN_AND_WRITE = """
import sys, time, json
from memgraph_gui.core import MemoryStore
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))
with MemoryStore.open(sys.argv[1], create=False) as s:
    made = s.write_api().create_node(type="location_state", title=sys.argv[3])["id"]
    print(json.dumps([made, list(s.read_api().search_text("straße"))]))
"""


def test_two_processes_opening_a_version_3_store_drop_the_index_and_keep_every_node(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.memgraph"
    ids = make_version_3(path)
    start = time.time() + 1.5
    procs = [run_python(OPEN_AND_WRITE, str(path), str(start), t) for t in ("Quay", "Dock")]
    results = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _out, err in results]
    answers = [json.loads(out) for out, _err in results]
    assert [found for _made, found in answers] == [[ids[0]], [ids[0]]]
    names, columns, version = search_objects(path)
    assert names == [] and "search_text" not in columns and version == migrations.SCHEMA_VERSION
    with MemoryStore.open(path, create=False) as s:
        read = s.read_api()
        assert {n.id for n in read.list_nodes()} == {*ids, *(made for made, _f in answers)}
        assert read.search_text("quay") and read.search_text("银月") == (ids[1],)
        s.write_api().edit_node(id=ids[2], title="New Harbour")
        assert read.search_text("new harb") == (ids[2],)


class NoDropColumn:
    """A connection of an SQLite without ``ALTER TABLE ... DROP COLUMN`` (before 3.35)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, *args: Any) -> Any:
        if "DROP COLUMN" in sql:
            raise sqlite3.OperationalError('near "DROP": syntax error')
        return self.conn.execute(sql, *args)


def test_without_drop_column_the_old_column_is_emptied_and_writes_work(tmp_path: Path) -> None:
    path = tmp_path / "old.memgraph"
    ids = make_version_3(path)
    with sqlite3.connect(path, isolation_level=None) as raw:
        raw.execute("BEGIN IMMEDIATE")
        migrations.MIGRATIONS[4](NoDropColumn(raw))  # type: ignore[arg-type]
        raw.execute("PRAGMA user_version = 4")
        raw.execute("COMMIT")
        assert raw.execute("SELECT count(search_text) FROM nodes").fetchone() == (0,)
    raw.close()
    names, columns, _version = search_objects(path)
    assert names == [] and "search_text" in columns
    with MemoryStore.open(path, create=False) as s:
        made = s.write_api().create_node(type="location_state", title="Quay")["id"]
        assert s.read_api().search_text("quay") == (made,)
        assert s.read_api().search_text("STRASSE") == (ids[0],)


# -- ranked for stepping (the graph's Find: Enter / Shift+Enter) -------------------------------


def test_find_ranked_puts_title_and_alias_matches_first_and_finds_the_same(
    store: MemoryStore,
) -> None:
    from memgraph_gui.core.graph.search import find_ranked

    write = store.write_api()
    event = write.create_node(
        type="event", title="A walk", fields={"summary": "Mirela and Tom walk home"}
    )["id"]
    alias = write.create_node(
        type="character_sheet", title="The baker", fields={"aliases": ["Mirela B."]}
    )["id"]
    titled = write.create_node(type="character_sheet", title="Mirela")["id"]
    listed = write.create_node(
        type="thread", title="Errands", fields={"status": "open", "note": ["mirela's list"]}
    )["id"]
    ranked = find_ranked(store.graph, "mirela")
    assert sorted(ranked) == sorted(expected(store, "mirela"))  # the same matches
    assert set(ranked[:2]) == {alias, titled} and set(ranked[2:]) == {event, listed}
    in_order = [i for i in expected(store, "mirela") if i in (alias, titled)]
    assert ranked[:2] == in_order  # each group in timeline order
    assert find_ranked(store.graph, " ") == []
