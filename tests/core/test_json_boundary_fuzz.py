"""Property: ``memgraph call -`` answers any input with one strict JSON line per request line.

Request lines are generated as raw text (so NaN / Infinity tokens, lone-surrogate escapes, huge
integers, deep nesting, 10 MB strings and invalid UTF-8 bytes can all be injected), mixing real
method names with garbage and sensible writes (so the store actually changes). After each run the
store's invariants must hold.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from boundary_helpers import ROOT, strict
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from memgraph_gui.cli import main
from memgraph_gui.core import jsonapi
from memgraph_gui.core.memory import MemoryStore

IDS = [*(f"n_{i}" for i in range(1, 15)), "", " n_2 ", "nope"]
TYPES = ["event", "character_sheet", "location_state", "thread", "EVENT", "bogus"]
RELATIONS = ["knows", "related", "contains", "semantic_contains", "ally_of", ""]
KEYS = [
    *("type", "title", "fields", "summary", "name", "status", "note", "ops", "op", "nodeId"),
    *("ref", "links", "target", "targetNodeId", "targetRef", "relation", "direction", "source"),
    *("sourceNodeId", "sourceRef", "id", "setFields", "clearFields", "childIds", "maxSeq"),
    *("label", "query", "types", "levels", "k", "hops", "limit", "seqRange", "from", "to"),
    *("visibleNodeIds", "edgeTypes", "activeOnly", "excludeInternal", "alwaysInjectIds"),
    *("recallSelectedIds", "visibleIds", "depth", "maxDepth", "predicate", "includeChildren"),
]
TOKENS = [
    *("null", "true", "false", "0", "1", "-1", "2", "7", "1.5", "-0.0", "1e-400", "1e300"),
    *("NaN", "Infinity", "-Infinity", "1e400", "-1E400", str(2**53), str(-(2**63))),
    *("1" + "0" * 400, "9" * 5000, '"\\ud800"', '"x\\udfff"', '"\\ud83d"', '"\\ud83d\\ude00"'),
]
SPECIAL_LINES = [
    b"[" * 100_000 + b"]" * 100_000,
    b'{"call":"createNode","args":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    b'{"call":"getNode","args":["n_1' + b"\xff" + b'"]}',
    b"\xed\xa0\x80",
    b"\xc3(",
    b"{",
    b"not json",
    b'{"call":5}',
    b'{"call":"history","args":null}',
    b'"just a string"',
]
BIG = b"<the 10 MB line>"
BIG_LINE = json.dumps(
    {"call": "createNode", "args": [{"type": "event", "fields": {"summary": "x" * 10_000_000}}]}
).encode()


def raw_text() -> st.SearchStrategy[str]:
    """Strings that may hold lone surrogates (Python str can; UTF-8 cannot)."""
    char = st.one_of(st.characters(), st.integers(0xD800, 0xDFFF).map(chr))
    return st.one_of(
        st.sampled_from(IDS + TYPES + RELATIONS), st.lists(char, max_size=8).map("".join)
    )


@st.composite
def string_token(draw: st.DrawFn) -> str:
    """A JSON string token; raw surrogates stay raw unless escaped (then the line is bad UTF-8)."""
    return json.dumps(draw(raw_text()), ensure_ascii=draw(st.booleans()))


def values() -> st.SearchStrategy[str]:
    """JSON-ish value text: scalars, hostile tokens, arrays and objects of them."""
    scalar = st.one_of(
        st.sampled_from(TOKENS), st.integers(-20, 20).map(str), string_token(), string_token()
    )

    def extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        key = st.one_of(st.sampled_from(KEYS).map(json.dumps), string_token())
        pair = st.tuples(key, children).map(lambda kv: f"{kv[0]}:{kv[1]}")
        return st.one_of(
            st.lists(children, max_size=4).map(lambda xs: "[" + ",".join(xs) + "]"),
            st.lists(pair, max_size=5).map(lambda xs: "{" + ",".join(xs) + "}"),
        )

    return st.recursive(scalar, extend, max_leaves=12)


def method_names() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(jsonapi.METHODS).map(json.dumps),
        st.sampled_from(["onInjectionChanged", "nope", "", "GETNODE", "__init__"]).map(json.dumps),
        string_token(),
        st.sampled_from(TOKENS),
    )


@st.composite
def random_line(draw: st.DrawFn) -> bytes:
    """A request line: usually ``{"call": M, "args": A}``, sometimes anything else."""
    method, arguments = draw(method_names()), draw(values())
    if draw(st.integers(0, 4)) == 0:
        arguments = draw(st.lists(values(), max_size=3).map(lambda xs: "[" + ",".join(xs) + "]"))
    text = draw(
        st.sampled_from(
            [
                f'{{"call":{method},"args":{arguments}}}',
                f'{{"call":{method},"args":[{arguments}]}}',
                f'{{"args":[{arguments}],"call":{method}}}',
                f'{{"call":{method}}}',
                arguments,
            ]
        )
    )
    return text.encode("utf-8", "surrogatepass")


def sensible_call() -> st.SearchStrategy[dict[str, Any]]:
    """Well-formed writes and reads over a handful of ids, so the store really changes."""
    node_id, kind = st.sampled_from(IDS), st.sampled_from(TYPES)
    title = st.sampled_from(["Ann", "Bob", "Cat", "", "ann"])
    fields = st.fixed_dictionaries({"summary": title, "status": title, "note": title})
    link = st.fixed_dictionaries(
        {"target": st.fixed_dictionaries({"id": node_id}), "relation": st.sampled_from(RELATIONS)}
    )
    events = st.lists(st.sampled_from(IDS[:12]), min_size=1, max_size=4)
    return st.one_of(
        _call("createNode", type=kind, title=title, fields=fields),
        _call("compactNodes", type=kind, childIds=st.lists(node_id, max_size=4), summary=title),
        _call("compactNodes", type=st.just("event"), childIds=events, summary=st.just("s")),
        _call("compactNodes", type=st.just("event"), childIds=events, summary=st.just("s")),
        _call("dissolveRollup", id=node_id),
        _call("deleteNode", id=node_id),
        _call("restoreNode", id=node_id),
        _call(
            "upsertLinks", source=node_id.map(lambda i: {"id": i}), links=st.lists(link, max_size=3)
        ),
        _call(
            "deleteLinks",
            source=link.map(lambda ln: ln["target"]),
            target=link.map(lambda ln: ln["target"]),
            relation=st.sampled_from(RELATIONS),
        ),
        _call("editNode", id=node_id, setFields=fields),
        _call("applyExtractionBatch", ops=st.tuples(kind, title).map(_batch_ops)),
        _call("setInjectionState", visibleIds=st.lists(node_id, max_size=2)),
        st.sampled_from([{"call": "undo"}, {"call": "redo"}, {"call": "history"}]),
    )


def _call(method: str, **options: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``{"call": method, "args": [options]}`` with each option drawn from its strategy."""
    return st.fixed_dictionaries(options).map(lambda drawn: {"call": method, "args": [drawn]})


def _batch_ops(kind_title: tuple[str, str]) -> list[dict[str, Any]]:
    kind, title = kind_title
    create = {"op": "create", "type": kind, "title": title, "ref": "r"}
    create["links"] = [{"targetRef": "r"}, {"targetNodeId": "n_7", "relation": "knows"}]
    upsert = {"op": "link_upsert", "sourceRef": "r", "links": [{"targetNodeId": "n_1"}]}
    return [create, upsert, {"op": "delete", "nodeId": "n_8"}]


def lines(*, big: bool) -> st.SearchStrategy[list[bytes]]:
    """A whole stdin: sensible calls, random lines, special lines and blank lines mixed.

    With ``big``: longer, plus ``BIG`` placeholders where the test puts the 10 MB line (so a
    failing example's report stays readable)."""
    line = st.one_of(
        sensible_call().map(lambda c: json.dumps(c).encode()),
        sensible_call().map(lambda c: json.dumps(c).encode()),
        random_line(),
        random_line(),
        st.sampled_from(SPECIAL_LINES),
        st.sampled_from([b"", b"   ", b"\t\r"]),
    )
    if not big:
        return st.lists(line, min_size=5, max_size=60)
    return st.lists(line, min_size=20, max_size=120).flatmap(
        lambda xs: st.integers(0, len(xs)).map(lambda at: [*xs[:at], BIG, *xs[at:]])
    )


def check_answers(stdin: list[bytes], output: str) -> None:
    """Exactly one strict JSON object line per non-blank input line, each a result or an error."""
    expected = sum(1 for line in stdin if line.strip())
    answers = output.splitlines()
    assert len(answers) == expected, (len(answers), expected)
    for answer in answers:
        data = strict(answer)
        assert isinstance(data, dict) and len(data) == 1 and ("result" in data or "error" in data)
        if "error" in data:
            assert data["error"]["code"] != "INTERNAL_ERROR", data


def check_store(path: Path) -> None:
    """Every edge's ends exist; parent and children lists agree both ways."""
    with MemoryStore.open(path, create=False) as store, store.reading() as graph:
        nodes = graph.nodes
        for edge in graph.edges.values():
            assert edge.from_id in nodes and edge.to_id in nodes, edge
        for node in nodes.values():
            if node.parent_id:
                assert node.parent_id in nodes, node
                assert node.id in nodes[node.parent_id].children_ids, node
            for child in node.children_ids:
                assert child in nodes and nodes[child].parent_id == node.id, (node, child)


def new_store(folder: str) -> Path:
    """Six events (n_1..n_6, so compactions can succeed) and two characters (n_7, n_8)."""
    path = Path(folder) / "fuzz.memgraph"
    with MemoryStore.open(path) as store:
        write = store.write_api()
        for i in range(6):
            write.create_node(type="event", fields={"summary": f"event {i}"})
        for name in ("Ann", "Bob"):
            write.create_node(type="character_sheet", title=name)
    return path


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(stdin=lines(big=False))
def test_call_stream_in_process_answers_every_line(stdin: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = new_store(folder)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(
                ["--db", str(path), "call", "-"], stdin=io.BytesIO(b"\n".join(stdin)), stdout=out
            )
        assert code in (0, 1)
        assert err.getvalue() == ""
        check_answers(stdin, out.getvalue())
        check_store(path)


# Each example is a real process fed a 10 MB line: no shrinking (the in-process test shrinks).
@settings(
    max_examples=6,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(stdin=lines(big=True))
def test_call_stream_subprocess_answers_every_line(stdin: list[bytes]) -> None:
    stdin = [BIG_LINE if line == BIG else line for line in stdin]
    with tempfile.TemporaryDirectory() as folder:
        path = new_store(folder)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-m", "memgraph_gui.cli", "--db", str(path), "call", "-"],
            input=b"\n".join(stdin) + b"\n",
            capture_output=True,
            env=env,
            timeout=120,
        )
        assert done.returncode in (0, 1)
        assert b"Traceback" not in done.stderr and done.stderr == b"", done.stderr[-2000:]
        check_answers(stdin, done.stdout.decode("utf-8"))
        check_store(path)
