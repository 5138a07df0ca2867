"""The JSON boundary answers hostile input with one strict JSON error line and writes nothing."""

from __future__ import annotations

import inspect
import json
import math
from pathlib import Path
from typing import Any

import pytest
from boundary_helpers import error_of, make_db, run, snapshot, strict

from memgraph_gui.core import jsonapi
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.luker.read_api import ReadApi
from memgraph_gui.core.luker.write_api import WriteApi
from memgraph_gui.core.memory import MemoryStore

SURROGATE = "\ud800x"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_db(tmp_path)


# -- 1. NaN / Infinity never cross the boundary ---------------------------------------------------
NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e400", "-1E400"]


@pytest.mark.parametrize("token", NON_FINITE)
def test_args_json_with_nan_tokens_is_bad_args(db: Path, token: str) -> None:
    before = snapshot(db)
    ops = f'[{{"ops":[{{"op":"bogus","summary":{token}}}]}}]'
    error_of(*run(db, "call", "applyExtractionBatch", ops))
    assert snapshot(db) == before


@pytest.mark.parametrize("token", NON_FINITE)
def test_call_lines_with_nan_tokens_are_bad_args(db: Path, token: str) -> None:
    lines = f'{{"call":"getNode","args":[{token}]}}\n{{"call":"getNode","args":["n_1"]}}\n'
    code, out = run(db, "call", "-", stdin=lines.encode())
    assert code == 1
    assert out[0]["error"]["code"] == "BAD_ARGS"
    assert out[1]["result"]["id"] == "n_1"


def test_python_nan_is_rejected_and_its_echo_is_written_as_null(db: Path) -> None:
    nan = float("nan")
    with MemoryStore.open(db) as store:
        result = store.write_api().apply_extraction_batch(
            ops=[
                {"op": "bogus", "summary": nan},
                {"op": "create", "type": "event", "fields": {"summary": nan}},
                {"op": "create", "type": "event", "fields": {"summary": "fine"}, "w": -math.inf},
            ]
        )
    rejected = result["rejected"]
    assert [r["error"]["code"] for r in rejected] == ["BAD_ARGS", "SCHEMA_VIOLATION"]
    written = strict(jsonapi.dumps({"result": result.to_json()}))["result"]
    assert written["rejected"][0]["op"] == {"op": "bogus", "summary": None}
    assert written["rejected"][1]["op"]["fields"] == {"summary": None}
    assert written["applied"][0]["w"] is None


def test_dumps_writes_strict_json_or_raises_internal_error() -> None:
    data = {"a": [float("inf"), 1.5], "b": "\ud800 ok", "c": {float("nan"): 1}}
    assert strict(jsonapi.dumps(data)) == {"a": [None, 1.5], "b": "\ufffd ok", "c": {"NaN": 1}}
    assert jsonapi.dumps({"x": "é"}) == '{"x":"é"}'
    with pytest.raises(MemgraphError) as exc:
        jsonapi.dumps({"x": object()})
    assert exc.value.code == "INTERNAL_ERROR"


# -- 2. lone surrogates: BAD_ARGS naming the place, nothing written --------------------------------
SURROGATE_CALLS = [
    ("createNode", '[{"type":"character_sheet","title":"\\ud800x"}]', "args[0].title"),
    ("createNode", '[{"type":"event","fields":{"summary":"a\\udfffb"}}]', "args[0].fields.summary"),
    ("createNode", '[{"type":"event","fields":{"\\ud800":"s"}}]', "args[0].fields"),
    ("editNode", '[{"id":"n_1","setFields":{"note":["x","\\ud83d"]}}]', "setFields.note[1]"),
    (
        "applyExtractionBatch",
        '[{"ops":[{"op":"create","type":"event","fields":{"summary":"ok"}},'
        '{"op":"link_upsert","sourceNodeId":"n_1","links":[{"targetNodeId":"n_2",'
        '"relation":"kn\\udc00ows"}]}]}]',
        "args[0].ops[1].links[0].relation",
    ),
    ("upsertLinks", '[{"source":{"id":"n_\\ud8001"},"links":[]}]', "args[0].source.id"),
    ("compactNodes", '[{"type":"event","childIds":["n_3"],"summary":"\\ud800"}]', "summary"),
    ("setInjectionState", '[{"visibleIds":["n_1","\\udbff"]}]', "args[0].visibleIds[1]"),
    ("getNode", '["\\ud800"]', "args[0]"),
]


@pytest.mark.parametrize(("method", "arguments", "where"), SURROGATE_CALLS)
def test_lone_surrogates_are_bad_args_and_write_nothing(
    db: Path, method: str, arguments: str, where: str
) -> None:
    before = snapshot(db)
    message = error_of(*run(db, "call", method, arguments))
    assert where in message and "surrogate" in message
    request = json.dumps({"call": method, "args": "ARGS"}).replace('"ARGS"', arguments)
    code, out = run(db, "call", "-", stdin=(request + "\n").encode())
    assert where in error_of(code, out)
    assert snapshot(db) == before


def test_a_refused_call_does_not_even_create_the_store(tmp_path: Path) -> None:
    path = tmp_path / "new.memgraph"
    error_of(*run(path, "call", "--create", "createNode", '[{"type":"event","title":"\\ud800"}]'))
    assert not path.exists()


def test_raw_surrogates_in_a_text_stream_are_bad_args(db: Path) -> None:
    before = snapshot(db)
    line = json.dumps({"call": "createNode", "args": [{"type": "event", "title": SURROGATE}]})
    code, out = run(db, "call", "-", stdin=line.replace("\\ud800", "\ud800") + "\n")
    assert "args[0].title" in error_of(code, out)
    assert snapshot(db) == before


WRITE_CALLS_WITH_SURROGATES = [
    ("title", lambda w: w.create_node(type="character_sheet", title=SURROGATE)),
    ("type", lambda w: w.create_node(type=SURROGATE)),
    ("fields.name", lambda w: w.create_node(type="character_sheet", fields={"name": SURROGATE})),
    ("ref", lambda w: w.create_node(type="character_sheet", title="C", ref=SURROGATE)),
    (
        "links[0].relation",
        lambda w: w.create_node(
            type="character_sheet",
            title="C",
            links=[{"target": {"id": "n_1"}, "relation": SURROGATE}],
        ),
    ),
    ("ops[1].title", lambda w: w.apply_extraction_batch(ops=[{}, {"title": SURROGATE}])),
    ("ops[0].fields", lambda w: w.apply_extraction_batch(ops=[{"fields": {SURROGATE: 1}}])),
    ("label", lambda w: w.apply_extraction_batch(ops=[], label=SURROGATE)),
    ("id", lambda w: w.edit_node(id=SURROGATE, title="x")),
    ("setFields.note", lambda w: w.edit_node(id="n_1", set_fields={"note": SURROGATE})),
    ("clearFields[0]", lambda w: w.edit_node(id="n_1", clear_fields=[SURROGATE])),
    ("id", lambda w: w.delete_node(id=SURROGATE)),
    (
        "links[0].relation",
        lambda w: w.upsert_links(source={"id": "n_1"}, links=[{"relation": SURROGATE}]),
    ),
    (
        "relation",
        lambda w: w.delete_links(source={"id": "n_1"}, target={"id": "n_2"}, relation=SURROGATE),
    ),
    ("childIds[0]", lambda w: w.compact_nodes(type="event", child_ids=[SURROGATE], summary="s")),
    ("summary", lambda w: w.compact_nodes(type="event", child_ids=["n_3"], summary=SURROGATE)),
    ("id", lambda w: w.dissolve_rollup(id=SURROGATE)),
    ("id", lambda w: w.restore_node(id=SURROGATE)),
    ("state.visibleIds[0]", lambda w: w.set_injection_state({"visibleIds": [SURROGATE]})),
]


@pytest.mark.parametrize(("where", "write"), WRITE_CALLS_WITH_SURROGATES)
def test_write_api_refuses_lone_surrogates_up_front(db: Path, where: str, write: Any) -> None:
    before = snapshot(db)
    with MemoryStore.open(db) as store, pytest.raises(MemgraphError) as exc:
        write(store.write_api())
    assert exc.value.code == "BAD_ARGS"
    assert where in exc.value.message and "surrogate" in exc.value.message
    assert snapshot(db) == before


def test_write_api_refuses_cyclic_arguments(db: Path) -> None:
    fields: dict[str, Any] = {}
    fields["self"] = fields
    with MemoryStore.open(db) as store, pytest.raises(MemgraphError) as exc:
        store.write_api().create_node(type="event", fields=fields)
    assert exc.value.code == "BAD_ARGS" and "nested deeper" in exc.value.message


# -- 3. other hostile input ------------------------------------------------------------------------
HUGE = [str(2**53), str(-(2**53)), "1" + "0" * 400, "-" + "9" * 5000, "9" * 100_000]


@pytest.mark.parametrize("number", HUGE, ids=lambda n: f"{len(n)}-digits")
def test_huge_integers_are_bad_args(db: Path, number: str) -> None:
    before = snapshot(db)
    for method, arguments in [
        ("applyExtractionBatch", f'[{{"ops":[],"maxSeq":{number}}}]'),
        ("createNode", f'[{{"type":"event","fields":{{"summary":"s","n":{number}}}}}]'),
        ("getNode", f"[{number}]"),
        ("listRecentNodes", f'[{{"limit":{number}}}]'),
        ("setInjectionState", f'[{{"visibleIds":[{number}]}}]'),
    ]:
        error_of(*run(db, "call", method, arguments))
        line = f'{{"call":"{method}","args":{arguments}}}\n'
        error_of(*run(db, "call", "-", stdin=line.encode()))
    assert snapshot(db) == before


def test_python_huge_integers_are_refused_by_the_write_api(db: Path) -> None:
    with MemoryStore.open(db) as store:
        write = store.write_api()
        result = write.apply_extraction_batch(
            ops=[{"op": "create", "type": "event", "fields": {"summary": "s", "n": 10**5000}}]
        )
        assert result["rejected"][0]["error"]["code"] == "SCHEMA_VIOLATION"
        with pytest.raises(MemgraphError) as exc:
            write.apply_extraction_batch(ops=[], max_seq=10**400)
        assert exc.value.code == "BAD_ARGS"


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "arguments",
    [
        DEEP,
        f'[{{"ops":{DEEP}}}]',
        "[" * 70 + "]" * 70,
        f'[{{"type":"event","fields":{{"a":{"[" * 500}1{"]" * 500}}}}}]',
    ],
    ids=["100k", "100k-inside", "70", "500-in-fields"],
)
def test_deep_nesting_is_bad_args(db: Path, arguments: str) -> None:
    before = snapshot(db)
    error_of(*run(db, "call", "createNode", arguments))
    line = f'{{"call":"createNode","args":{arguments}}}\n'
    error_of(*run(db, "call", "-", stdin=line.encode()))
    assert snapshot(db) == before


def test_ten_megabyte_strings_are_too_large(db: Path) -> None:
    before = snapshot(db)
    big = "x" * 10_000_000
    for arguments in (
        [{"type": "event", "fields": {"summary": big}}],
        [{"type": "character_sheet", "title": big}],
    ):
        text = json.dumps(arguments)
        assert "args[0]" in error_of(*run(db, "call", "createNode", text), expected="TOO_LARGE")
    line = json.dumps({"call": big, "args": []})
    message = error_of(*run(db, "call", "-", stdin=line.encode() + b"\n"))
    assert len(message) < 2_000  # the method name is cut, not echoed whole
    assert snapshot(db) == before


WRONG_VALUES: list[Any] = [True, 1.5, -3, "x", [1], [[]], {"zz": 1}, {}]


def camel(name: str) -> str:
    head, *rest = {"from_id": "from", "to_id": "to"}.get(name, name).split("_")
    return head + "".join(part.title() for part in rest)


def wrong_calls() -> list[tuple[str, list[Any]]]:
    """Every method with a wrong value at each position, and each option set to wrong types."""
    calls: list[tuple[str, list[Any]]] = []
    for method in jsonapi.METHODS:
        shape = {**jsonapi.READ, **jsonapi.WRITE}.get(method, ("", ["id", "opts"]))[1]
        for position in range(len(shape) + 1):
            calls += [(method, [None] * position + [v]) for v in WRONG_VALUES]
    for table, api in ((jsonapi.READ, ReadApi), (jsonapi.WRITE, WriteApi)):
        for method, (name, shape) in table.items():
            if "opts" not in shape:
                continue
            for param in inspect.signature(getattr(api, name)).parameters.values():
                if param.kind is inspect.Parameter.KEYWORD_ONLY:
                    prefix = [None] * shape.index("opts")
                    calls += [(method, [*prefix, {camel(param.name): v}]) for v in WRONG_VALUES]
    return calls


def test_wrong_types_for_every_argument_answer_cleanly(db: Path) -> None:
    calls = wrong_calls()
    lines = "".join(json.dumps({"call": m, "args": a}) + "\n" for m, a in calls)
    code, out = run(db, "call", "-", stdin=lines.encode())
    assert code == 1
    assert len(out) == len(calls)
    internal = [(c, o) for c, o in zip(calls, out, strict=True) if "error" in o]
    assert not [(c, o) for c, o in internal if o["error"]["code"] == "INTERNAL_ERROR"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b'{"call":"noSuchMethod","args":[]}', "unknown method"),
        (b'{"call":"getNode","args":"n_1"}', "must be a JSON array"),
        (b'{"call":"getNode","args":{"0":"n_1"}}', "must be a JSON array"),
        (b'{"call":"history","args":[1]}', "takes no arguments"),
        (b'{"call":5,"args":[]}', "each line"),
        (b"[1,2]", "each line"),
        (b"null", "each line"),
        (b"not json", "not valid JSON"),
        (b'{"call":"getNode","args":["n_1\xff"]}', "not valid UTF-8"),
        (b'{"call":"getNode","args":["\xed\xa0\x80"]}', "not valid UTF-8"),
        (b"\xc3(", "not valid UTF-8"),
    ],
)
def test_bad_request_lines_get_one_error_line_and_the_stream_goes_on(
    db: Path, line: bytes, expected: str
) -> None:
    good = b'{"call":"getNode","args":["n_2"]}'
    code, out = run(db, "call", "-", stdin=b"\n".join([good, line, b"  ", good]) + b"\n")
    assert code == 1
    assert len(out) == 3
    assert out[0]["result"]["id"] == out[2]["result"]["id"] == "n_2"
    assert expected in out[1]["error"]["message"]


def test_a_document_parsed_in_pieces_is_the_same_with_the_same_errors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``loads_in_pieces`` (a large import read on a worker thread) equals ``loads``: values,
    key order, repeated keys, and every error; a valid document given in pieces is read without
    ever being joined and parsed whole (the fallback that gives the errors)."""
    from memgraph_gui.core.domain import strict_json

    big = {
        "nodes": {
            f"n_{i}": {"id": f"n_{i}", "fields": {"x": [i, 1.5, None, True]}} for i in range(300)
        },
        "edges": [[f"n_{i}", "rel", f"n_{i + 1}"] for i in range(300)],
        "meta": {"schema": [], "nodeSeq": 300},
    }
    texts = [
        json.dumps(big),
        json.dumps(big, indent=2),
        '{"a":1,"a":2,"b":{"c":1,"c":[2]}}',
        " [ ] ",
        "{}",
        '"s"',
        "3",
        '{"a" : { "b" : [ 1 , 2 ] } }',
        '{"a": NaN}',
        '{"a": {"b": [1e999]}}',
        '{"a": [12345, -0.5e-3, 1.5E+10, true, false, null], "b": "x\\u00e9\\"y\\\\", "c": 7}',
        '{"a": {"k": 1234}}',
        '{"a": Infinity}',
        '{"a": {"b": tru}}',
        '[1, {"b": -Infinity}]',
        '{"a": [1, 2,]}',
        '{"a": 1} x',
        '{"a": {"b": }}',
        '{"a" 1}',
        "[",
        "",
        '{"a": [1 2]}',
        "{1: 2}",
    ]

    def outcome(parse: Any, text: Any) -> tuple[Any, ...]:
        try:
            value = parse(text)
            return ("ok", value, list(value) if isinstance(value, dict) else None)
        except Exception as exc:  # the same exception, type and message
            return (type(exc).__name__, str(exc), None)

    def whole(text: str) -> Any:
        raise AssertionError("parsed whole")

    for text in texts:
        expected = outcome(strict_json.loads, text)
        assert outcome(strict_json.loads_in_pieces, text) == expected, text
        # given as consecutive pieces (a file decoded a slice at a time), cut anywhere: inside
        # numbers, literals, strings, keys, escapes and whitespace
        with monkeypatch.context() as patch:
            if expected[0] == "ok":
                patch.setattr(strict_json, "loads", whole)
            for size in (1, 2, 3, 5, 64):
                pieces = [text[i : i + size] for i in range(0, len(text), size)]
                assert outcome(strict_json.loads_in_pieces, pieces) == expected, (text, size)


def test_a_large_file_read_on_a_worker_thread_gives_the_same_document_and_errors(
    tmp_path,
) -> None:
    """A worker thread decodes and parses a large file in pieces: the same result and messages."""
    import threading

    from memgraph_gui.core.domain.errors import ImportFormatError
    from memgraph_gui.core.storage.safe_io import PIECES_FROM, read_json

    doc = {"nodes": {f"n_{i}": {"title": "Hauptstraße 银月城 " * 3, "i": i} for i in range(20_000)}}
    good = tmp_path / "good.json"
    good.write_bytes(b"\xef\xbb\xbf" + json.dumps(doc, ensure_ascii=False).encode())
    bad = tmp_path / "bad.json"
    bad.write_bytes(
        good.read_bytes()[: PIECES_FROM + 7] + b"\xff" + good.read_bytes()[PIECES_FROM + 7 :]
    )
    assert good.stat().st_size > 2 * PIECES_FROM

    def outcome(path) -> object:
        try:
            value = read_json(path)
            return ("ok", value, list(value["nodes"])[:3])
        except ImportFormatError as exc:
            return ("error", str(exc))

    here = [outcome(good), outcome(bad)]
    there: list[object] = []
    worker = threading.Thread(target=lambda: there.extend([outcome(good), outcome(bad)]))
    worker.start()
    worker.join()
    assert there == here and here[0][1] == doc and here[1][0] == "error"
