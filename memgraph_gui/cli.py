"""``memgraph``: the store's JSON command line (on core only; no Qt)."""

from __future__ import annotations

import argparse
import gc
import io
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TextIO

from memgraph_gui import embed_cli, layout_cli, mcp_cli
from memgraph_gui.core.domain.errors import MemgraphError, as_memgraph_error, bad_args
from memgraph_gui.core.domain.strict_json import dumps

if TYPE_CHECKING:  # the API layers are imported by the commands that use them (start-up time)
    from memgraph_gui.core.memory import MemoryStore
    from memgraph_gui.core.storage.store import Store

MAX_LINE = 32 * 2**20  # bytes (characters for a text stream) in one ``call -`` request line


def _parser() -> argparse.ArgumentParser:
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", default=argparse.SUPPRESS, help="the .memgraph store file")
    parser = argparse.ArgumentParser(
        prog="memgraph",
        description="Read and write a memgraph store; speaks Luker's memory-graph API as JSON.",
    )
    parser.add_argument("--db", default=None, help="the .memgraph store file")
    sub = parser.add_subparsers(dest="command", required=True)
    call = sub.add_parser("call", parents=[db], help="run one API method (or JSON lines from -)")
    call.add_argument("method", help="a seed method name (camelCase), or - to read JSON lines")
    call.add_argument("args", nargs="?", default="[]", help="JSON array of positional arguments")
    call.add_argument("--create", action="store_true", help="create the store if it is missing")
    imp = sub.add_parser("import-luker", parents=[db], help="import a Luker memory-graph export")
    imp.add_argument("file")
    imp.add_argument("--schema", help="a Luker schema export (or a bare JSON array)")
    imp.add_argument("--replace", action="store_true", help="replace a store that has nodes")
    imp.add_argument(
        "--check", action="store_true", help="show the report only: write nothing, create nothing"
    )
    imp.add_argument("--text", action="store_true", help="the report as plain text, for a person")
    rep = sub.add_parser(
        "import-report", parents=[db], help="the report of the import that made the store"
    )
    rep.add_argument("--text", action="store_true", help="as plain text, for a person")
    exp = sub.add_parser("export-luker", parents=[db], help="write a Luker memory-graph export")
    exp.add_argument("out")
    nimp = sub.add_parser(
        "import-nuggets",
        parents=[db],
        help="import a Nuggets graph.json: its notes replace the store's (one undo step)",
    )
    nimp.add_argument("file")
    nexp = sub.add_parser(
        "export-nuggets", parents=[db], help="write the store's notes as a Nuggets graph.json"
    )
    nexp.add_argument("out")
    nexp.add_argument(
        "--force",
        action="store_true",
        help="overwrite a graph.json that changed on disk since it was imported into the store",
    )
    _membrane_parsers(sub, db)
    mcp_cli.add_parser(sub, db)
    schema = sub.add_parser("schema", parents=[db], help="export or import the node-type schema")
    schema.add_argument("action", choices=["export", "import"])
    schema.add_argument("file")
    schema.add_argument("--character", default="", help="export as a character-scoped schema")
    _demo_parser(sub, db)
    layout_cli.add_parser(sub, db)
    embed_cli.add_parser(sub, db)
    keep = sub.add_parser("retention", parents=[db], help="show or set the change-log limits")
    keep.add_argument("--steps", type=int, help="keep at most this many undo steps (0: no limit)")
    keep.add_argument("--days", type=float, help="keep no step older than this (0: no limit)")
    for name, text in (
        ("undo", "undo the newest step"),
        ("redo", "redo the last undone step"),
        ("history", "list the undo history"),
        ("info", "counts and counters"),
        ("watch", "print each change (ours or others') as a JSON line"),
    ):
        sub.add_parser(name, parents=[db], help=text)
    return parser


def _demo_parser(sub: Any, db: argparse.ArgumentParser) -> None:
    """``demo``."""
    demo = sub.add_parser("demo", parents=[db], help="write a generated demo memory")
    demo.add_argument(
        "--nodes", type=int, default=None, help="how many (default 2000; 3000 notes with --nuggets)"
    )
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument(
        "--shape",
        choices=("story", "uniform"),
        default="story",
        help="story: a protagonist, arcs of time and popular characters, as a long role-play "
        "grows (default); uniform: links at random, the earlier demo",
    )
    demo.add_argument(
        "--nuggets",
        action="store_true",
        help="a Nuggets memory instead: two nuggets (astra, webshop) of facts and notes with "
        "links, in English and Chinese, written into an empty store",
    )
    demo.add_argument(
        "--membrane",
        action="store_true",
        help="Membrane records instead (default 2000): an agent's entities, facts, sessions, "
        "skills, plans and open threads, added beside what the store holds",
    )


def _membrane_parsers(sub: Any, db: argparse.ArgumentParser) -> None:
    """``import-membrane`` and ``export-membrane``."""
    mimp = sub.add_parser(
        "import-membrane",
        parents=[db],
        help="add the Membrane records of a JSON list to the store (one undo step)",
    )
    mimp.add_argument("file")
    mexp = sub.add_parser(
        "export-membrane", parents=[db], help="write the store's Membrane records as a JSON list"
    )
    mexp.add_argument("out")


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: IO[bytes] | IO[str] | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 API error, 2 usage error, 130 interrupted).

    Usage errors go to stderr (argparse exits 2). Every other failure is answered as one JSON
    error line on ``stdout``, never a traceback. ``stdin`` feeds ``call -``: a binary stream (as
    ``sys.stdin.buffer`` is read) is decoded line by line, so an undecodable line gets an error
    answer and the stream goes on; a text stream is read as is.
    """
    out = stdout or _utf8_stdout()
    options = _parser().parse_args(argv)
    if not options.db:
        print("memgraph: --db FILE is required", file=sys.stderr)
        return 2
    try:
        return _run(options, stdin, out)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away: nobody is left to answer
        _silence(out)
        return 1
    except Exception as exc:  # the JSON boundary answers every failure in JSON
        if options.command in FILE_COMMANDS:  # and a person reads these on stderr too
            print(f"memgraph {options.command}: {as_memgraph_error(exc).message}", file=sys.stderr)
        return _fail(out, exc)


def _fail(out: TextIO, exc: BaseException) -> int:
    try:
        _emit(out, {"error": as_memgraph_error(exc).to_json()})
    except Exception:  # stdout itself failed; there is nowhere left to answer
        _silence(out)
    return 1


def _utf8_stdout() -> TextIO:
    """``sys.stdout``, writing UTF-8 (JSON's encoding) whatever the locale says."""
    out = sys.stdout
    encoding = (getattr(out, "encoding", None) or "").lower().replace("-", "")
    if isinstance(out, io.TextIOWrapper) and encoding != "utf8":
        out.reconfigure(encoding="utf-8")
    return out


def _silence(out: TextIO) -> None:
    """Point a dead ``sys.stdout`` at devnull so the exit-time flush prints no traceback."""
    if out is not sys.stdout:
        return
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _run(options: argparse.Namespace, stdin: IO[bytes] | IO[str] | None, out: TextIO) -> int:
    from memgraph_gui.core.luker import interop

    command = options.command
    if command == "call":
        return _call(options, stdin, out)
    if command == "demo":
        return _demo(options, out)
    if command in ("layout", "picture", "embed", "mcp"):
        runs = {
            "layout": layout_cli.run,
            "picture": layout_cli.run_picture,
            "embed": embed_cli.run,
            "mcp": mcp_cli.run,
        }
        return runs[command](options, out)
    if command == "import-luker":
        return _import(options, out)
    if command == "import-report":
        return _import_report(options, out)
    if command in NUGGETS_FILE_COMMANDS:
        return _nuggets_file(options, out)
    if command in MEMBRANE_FILE_COMMANDS:
        return _membrane_file(options, out)
    from memgraph_gui.core.memory import MemoryStore

    create = command == "schema" and options.action == "import"
    with MemoryStore.open(options.db, create=create) as store:
        if command == "export-luker":
            interop.export_luker_file(store.storage, options.out)
            _emit(out, {"written": str(Path(options.out).resolve())})
        elif command == "schema":
            _schema(store, options, out)
        elif command == "watch":
            return _watch(store, out)
        elif command == "retention":
            _retention(store, options, out)
        else:
            _simple(store, command, out)
    return 0


def _import(options: argparse.Namespace, out: TextIO) -> int:
    """``import-luker``: the whole input read and checked, its report printed in full (one JSON
    line, like every command, or plain text with ``--text``), then written unless ``--check``.
    The store is neither touched nor created before the check passed. Needs only the storage
    layer, not the API layers ``MemoryStore`` brings in."""
    from memgraph_gui.core.luker import interop
    from memgraph_gui.core.storage.store import Store

    # This one-shot command owns its process: the cyclic collector stays off while the import's
    # ~10^6 objects (no cycles) are made; collections would rescan them (0.3 s at 200k nodes).
    gc.disable()
    try:
        prepared = interop.prepare_import_files(options.file, options.schema)
        if options.check:
            exists = Path(options.db).exists()
            with Store.open(options.db if exists else ":memory:", create=False) as target:
                report = interop.check_import(target, prepared).report
            _show_report(out, report, not options.text, {"written": False})
            return 0
        with Store.open(options.db, create=True) as store:
            checked = interop.check_import(store, prepared)
            interop.install_import(store, checked, replace=options.replace)
            extra = {**_info(store), "warnings": checked.parsed.warnings}
            _show_report(out, checked.report, not options.text, extra)
    finally:
        gc.enable()
    return 0


NUGGETS_FILE_COMMANDS = ("import-nuggets", "export-nuggets")
PROGRESS_FROM = 5 * 2**20
"""Files of this many bytes and more get progress lines on stderr."""


def _nuggets_file(options: argparse.Namespace, out: TextIO) -> int:
    """``import-nuggets``: the whole file read and checked before the store is opened (a bad
    file creates nothing), then its notes replace the store's in one undoable transaction.
    ``export-nuggets``: every note as graph.json (refused over a file changed on disk since it
    was imported, unless ``--force``). Progress on stderr for big files."""
    from memgraph_gui.core.nuggets import note_files
    from memgraph_gui.core.storage.store import Store

    gc.disable()  # a one-shot process: the ~10^6 objects of a 50k file hold no cycles
    try:
        if options.command == "import-nuggets":
            big = _size(options.file) >= PROGRESS_FROM
            progress = _Progress("import-nuggets", options.file) if big else None
            loaded = note_files.read_for_import(options.file, progress=progress)
            with Store.open(options.db, create=True) as store:
                result = note_files.install_notes(store, loaded, progress=progress)
                _emit(out, result.to_json())
            return 0
        if not Path(options.db).exists():
            raise MemgraphError("MEMORY_STORE_MISSING", f"no memory store at {options.db}")
        big = _size(options.db) >= PROGRESS_FROM
        with Store.open(options.db, create=False) as store:
            exported = note_files.export_graph_file(
                store,
                options.out,
                force=options.force,
                progress=_Progress("export-nuggets", options.out, "writing") if big else None,
            )
            _emit(out, exported.to_json())
        return 0
    finally:
        gc.enable()


MEMBRANE_FILE_COMMANDS = ("import-membrane", "export-membrane")
FILE_COMMANDS = NUGGETS_FILE_COMMANDS + MEMBRANE_FILE_COMMANDS


def _membrane_file(options: argparse.Namespace, out: TextIO) -> int:
    """``import-membrane``: the whole file read and checked before the store is opened (a bad
    file creates nothing), then checked against the store and added in one undoable
    transaction. ``export-membrane``: every record as a JSON list."""
    from memgraph_gui.core.membrane import records_file
    from memgraph_gui.core.storage.store import Store

    gc.disable()  # a one-shot process: the ~10^6 objects of a 50k file hold no cycles
    try:
        if options.command == "import-membrane":
            loaded = records_file.read_records_file(options.file)
            with Store.open(options.db, create=True) as store:
                _emit(out, records_file.install_records(store, loaded).to_json())
            return 0
        if not Path(options.db).exists():
            raise MemgraphError("MEMORY_STORE_MISSING", f"no memory store at {options.db}")
        with Store.open(options.db, create=False) as store:
            _emit(out, records_file.export_records_file(store, options.out).to_json())
        return 0
    finally:
        gc.enable()


def _size(path: str) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0  # the read reports it


class _Progress:
    """``progress(done, total)`` as ``memgraph import-nuggets: 40%`` lines on stderr (each ten
    percent once)."""

    def __init__(self, command: str, path: str, doing: str = "reading") -> None:
        self._command, self._last = command, -1
        print(f"memgraph {command}: {doing} {path}…", file=sys.stderr, flush=True)

    def __call__(self, done: int, total: int) -> None:
        tenth = 10 * done // max(total, 1)
        if tenth != self._last:
            self._last = tenth
            print(f"memgraph {self._command}: {10 * tenth}%", file=sys.stderr, flush=True)


def _import_report(options: argparse.Namespace, out: TextIO) -> int:
    """``import-report``: the report kept by the import that made the store's contents."""
    from memgraph_gui.core.luker import interop
    from memgraph_gui.core.storage.store import Store

    if not Path(options.db).exists():
        raise MemgraphError("MEMORY_STORE_MISSING", f"no memory store at {options.db}")
    with Store.open(options.db, create=False) as store:
        report = interop.kept_report(store)
    if report is None:
        raise MemgraphError(
            "NO_IMPORT_REPORT", f"{options.db} keeps no import report (it was not made by one)"
        )
    _show_report(out, report, not options.text, {})
    return 0


def _show_report(out: TextIO, report: Any, as_json: bool, extra: dict[str, Any]) -> None:
    """The report in full: plain text lines (then ``extra``'s outcome), or one JSON line."""
    if as_json:
        _emit(out, {**extra, "report": report.to_json()})
        return
    lines = list(report.text_lines())
    if extra.get("written") is False:
        lines += ["", "Checked only (--check): nothing was written."]
    elif "nodes" in extra:
        lines += [
            "",
            f"Imported into {extra['db']}: it now holds {extra['nodes']:,} nodes and "
            f"{extra['edges']:,} links.",
        ]
    out.write("\n".join(lines) + "\n")
    out.flush()


def _simple(store: MemoryStore, command: str, out: TextIO) -> None:
    from memgraph_gui.core import jsonapi

    if command == "info":
        _emit(out, _info(store.storage))
    else:
        _emit(out, jsonapi.call(store, command, []))


def _schema(store: MemoryStore, options: argparse.Namespace, out: TextIO) -> None:
    from memgraph_gui.core.luker import interop
    from memgraph_gui.core.storage.safe_io import write_json_atomic

    if options.action == "export":
        write_json_atomic(
            options.file, interop.schema_document(store.storage, character=options.character)
        )
        _emit(out, {"written": str(Path(options.file).resolve())})
    else:
        interop.import_schema_file(store.storage, options.file)
        _emit(out, {"types": [t["type"] for t in store.read_api().get_schema().to_json()["types"]]})


def _retention(store: MemoryStore, options: argparse.Namespace, out: TextIO) -> None:
    if options.steps is not None or options.days is not None:
        current = store.history_retention()
        store.set_history_retention(
            current.max_steps if options.steps is None else options.steps,
            current.max_days if options.days is None else options.days,
        )
    _emit(out, {**store.history_retention().to_json(), "undo": store.history.depth()[0]})


def _demo(options: argparse.Namespace, out: TextIO) -> int:
    from memgraph_gui.core.demo.generator import load_demo
    from memgraph_gui.core.memory import MemoryStore

    if options.nodes is not None and options.nodes < 1:
        raise MemgraphError("BAD_ARGS", "--nodes must be at least 1")
    if options.nuggets and options.membrane:
        raise MemgraphError("BAD_ARGS", "--nuggets and --membrane: one demo at a time")
    if options.nuggets:
        from memgraph_gui.core.demo.nuggets import load_nuggets_demo

        with MemoryStore.open(options.db) as store:
            load_nuggets_demo(store, options.nodes or 3000, options.seed)
            _emit(out, _info(store.storage))
        return 0
    if options.membrane:
        from memgraph_gui.core.demo.membrane import load_membrane_demo

        gc.disable()  # a one-shot process: the records hold no cycles
        try:
            with MemoryStore.open(options.db) as store:
                load_membrane_demo(store.storage, options.nodes or 2000, options.seed)
                _emit(out, _info(store.storage))
        finally:
            gc.enable()
        return 0
    options.nodes = options.nodes or 2000
    with MemoryStore.open(options.db) as store:
        load_demo(store, options.nodes, options.seed, options.shape)
        _emit(out, _info(store.storage))
    return 0


def _info(store: Store) -> dict[str, Any]:
    from memgraph_gui.core.storage.history import History

    with store.reading() as graph:
        return {
            "db": store.path,
            "nodes": len(graph.nodes),
            "edges": len(graph.edges),
            "archived": sum(1 for n in graph.nodes.values() if n.archived),
            **{k: graph.meta.get(k, 0) for k in ("nodeSeq", "seqCounter")},
            "undo": History(store).depth()[0],
        }


def _call(options: argparse.Namespace, stdin: IO[bytes] | IO[str] | None, out: TextIO) -> int:
    from memgraph_gui.core import jsonapi
    from memgraph_gui.core.vectors.keeper import Keeper

    if options.method == "-":
        return _call_stream(options, stdin, out)
    # Checked before the store is opened, so a refused call never even creates it.
    nuggets = options.method in jsonapi.NUGGETS  # their arguments may hold NaN / Infinity
    text = jsonapi.loads(options.args, "ARGS_JSON", non_finite=nuggets)
    arguments = jsonapi.check_call(options.method, text)
    store = _open_for_call(options.db, options.create)
    keeper = None if store is None else Keeper(store.storage)
    try:
        _emit(out, {"result": jsonapi.call(store, options.method, arguments)})
        return 0
    finally:
        if keeper is not None and store is not None:
            keeper.flush()  # the vectors of what the call wrote (an offline profile only)
            keeper.close()
        if store is not None:
            store.close()


def _call_stream(
    options: argparse.Namespace, stdin: IO[bytes] | IO[str] | None, out: TextIO
) -> int:
    """``call -``: one answer line per non-blank request line; 1 when any line failed."""
    from memgraph_gui.core.vectors.keeper import Keeper

    store: MemoryStore | None = None
    failure: MemgraphError | None = None
    try:
        store = _open_for_call(options.db, options.create)
        if store is not None:
            store.warm_up()  # a stream serves many calls: none of them builds an index
            gc.freeze()  # this process's one long-lived heap: full collections skip it (a
            # rescan costs ~30 ms at 50k nodes, now and then, in whichever call set it off)
    except Exception as exc:  # answer every request with it, so readers never wait
        failure = as_memgraph_error(exc)
    status = 0
    keeper = None if store is None else Keeper(store.storage)
    try:
        for line in _request_lines(sys.stdin if stdin is None else stdin):
            if line is None or line.strip():
                status |= _call_line(store, failure, line, out)
                if keeper is not None:
                    keeper.flush()  # each answer's writes have their vectors before the next
    finally:
        if keeper is not None:
            keeper.close()
        if store is not None:
            store.close()
        gc.unfreeze()
    return status


def _open_for_call(path: str, create: bool) -> MemoryStore | None:
    from memgraph_gui.core.memory import MemoryStore

    try:
        return MemoryStore.open(path, create=create)
    except MemgraphError as exc:
        if exc.code == "MEMORY_STORE_MISSING":
            return None
        raise


def _request_lines(stream: IO[bytes] | IO[str]) -> Iterator[bytes | str | None]:
    """The stream's lines, as bytes when it is binary (a text stream's raw ``buffer`` is read);
    None stands for a line over ``MAX_LINE``, whose rest is skipped."""
    raw: IO[Any] = getattr(stream, "buffer", stream)
    while line := raw.readline(MAX_LINE + 1):
        if len(line) <= MAX_LINE or line.endswith(b"\n" if isinstance(line, bytes) else "\n"):
            yield line
            continue
        while (rest := raw.readline(MAX_LINE)) and not rest.endswith(
            b"\n" if isinstance(rest, bytes) else "\n"
        ):
            pass
        yield None


def _call_line(
    store: MemoryStore | None, failure: MemgraphError | None, line: bytes | str | None, out: TextIO
) -> int:
    """Answer one request line (with ``failure`` when the store could not be opened)."""
    from memgraph_gui.core import jsonapi

    try:
        request = _request(line)
        if failure is not None:
            raise MemgraphError(failure.code, failure.message)
        _emit(out, {"result": jsonapi.call(store, request["call"], request.get("args", []))})
        return 0
    except BrokenPipeError:
        raise
    except Exception as exc:  # one bad line must not stop the stream
        error = as_memgraph_error(exc)
        _emit(out, {"error": {"code": error.code, "message": error.message}})
        return 1


def _request(line: bytes | str | None) -> dict[str, Any]:
    """One ``{"call": METHOD, "args": [...]}`` request; BAD_ARGS / TOO_LARGE when it is not one."""
    from memgraph_gui.core import jsonapi

    if line is None:
        raise MemgraphError("TOO_LARGE", f"the request line is longer than {MAX_LINE:,} bytes")
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            where = f"byte 0x{line[exc.start]:02x} at offset {exc.start}"
            raise bad_args(f"the request is not valid UTF-8 ({where})") from exc
    request = jsonapi.loads_request(line.removeprefix("\ufeff"))
    if not isinstance(request, dict) or not isinstance(request.get("call"), str):
        raise bad_args('each line must be {"call": METHOD, "args": [...]}')
    return request


def _watch(store: MemoryStore, out: TextIO) -> int:
    """``watch``: one JSON line per change until interrupted, or until the reader goes away
    (``memgraph watch | head -1``): then 0 at once, without a traceback."""
    import threading

    from memgraph_gui.core.domain.results import to_jsonable

    gone = threading.Event()

    def show(changes: Any) -> None:
        if gone.is_set():
            return
        try:
            _emit(
                out,
                {
                    "op": str(changes.op),
                    "label": changes.label,
                    "origin": changes.origin,
                    "nodes": sorted(
                        changes.nodes_added | changes.nodes_updated | changes.nodes_removed
                    ),
                    "edges": len(changes.edges_changed),
                    "injection": changes.injection_changed,
                    "state": to_jsonable(store.graph.injection)
                    if changes.injection_changed
                    else None,
                },
            )
        except BrokenPipeError:  # the reader went away: the watch is over
            gone.set()

    store.subscribe(show)
    store.start_watcher()
    try:
        while not gone.wait(0.1) and not _reader_gone(out):
            pass
    except KeyboardInterrupt:
        return 0
    store.stop_watcher()
    _silence(out)
    return 0


def _reader_gone(out: TextIO) -> bool:
    """True when ``out`` is a pipe whose reading end was closed (seen without writing to it)."""
    import select

    if not hasattr(select, "poll"):
        return False  # Windows: the next write tells
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    poller = select.poll()
    poller.register(fd, 0)  # no events asked: only POLLERR / POLLHUP / POLLNVAL come back
    return any(event & (select.POLLERR | select.POLLHUP) for _, event in poller.poll(0))


def _emit(out: TextIO, data: Any) -> None:
    """Write ``data`` as one strict JSON line (see ``strict_json.dumps``) and flush it."""
    out.write(dumps(data) + "\n")
    out.flush()


if __name__ == "__main__":
    raise SystemExit(main())
