"""Membrane's retrieval at 50k records (run on demand, not in CI).

    .venv/bin/python -m tests.benchmarks.bench_membrane_retrieval [--records 50000] [--repeat 9]

Builds a Membrane-shaped store in a temporary folder, seeded and deterministic: entities (10%),
semantic facts about them (32%: ``subject_entity``, ``mentions_entity``), episodes (32%:
``mentions_entity``), working threads (8%: ``mentions_entity``), competences (9%: ``supports``
facts) and plans (9%: ``depends_on`` competences); sensitivities spread public 20% / low 30%
/ medium 25% / high 15% / hyper 10%, 40% unscoped and the rest in eight project scopes. Written
as record nodes and relation edges in one transaction, closed and opened again (fields unparsed,
as after a launch). Then times, warm medians (wall and CPU):

- ``retrieveGraph`` (a task descriptor, root_limit 10, max_hops 2) for a few callers and
  descriptors (an entity's exact name, a phrase, none) (bar 20 ms);
- ``retrieveByID`` (bar 1 ms);
- and once: the first ``retrieveGraph`` after opening (builds the candidate index).

The alternative, measured in the same run: a plain Python scan over all records (parsed once,
held as dicts), answering the same call with no index: every record's tier, a sort of the
candidates by salience, the selector over every competence / plan, the entity names compared one
by one, then the same re-ranking and expansion over a dict of records; ``retrieveByID`` as a
scan for the id. Its answers are checked equal to ours.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.membrane.model import LAYER_ORDER, record_node, relation_edges
from memgraph_gui.core.membrane.trust import LEVEL, redact

BAR_GRAPH, BAR_ID = 0.020, 0.001
LEVELS = ["public"] * 20 + ["low"] * 30 + ["medium"] * 25 + ["high"] * 15 + ["hyper"] * 10
SCOPES = [""] * 40 + [f"project-{i}" for i in range(8) for _ in range(60 // 8)]
WORDS = (
    "auth build deploy cache schema orchid falcon ledger atlas beacon cobalt delta ember "
    "harbor indigo juniper kestrel lumen meridian nimbus onyx prism quartz raven sierra"
).split()
NOW = "2026-11-20T12:00:00Z"
TASKS = [("phrase", "fix auth build error"), ("no descriptor", "")]
"""The descriptors timed, with an existing entity's exact name (``entity_task``) first."""
TRUSTS = [
    ("medium, no scopes", {"max_sensitivity": "medium"}),
    ("low, 2 scopes", {"max_sensitivity": "low", "scopes": ["project-1", "project-2"]}),
]


def _stamp(rng: random.Random) -> str:
    day = rng.randrange(1, 28)
    return f"2026-{rng.randrange(1, 11):02d}-{day:02d}T{rng.randrange(24):02d}:00:00Z"


def make_records(count: int, seed: int = 22) -> list[dict[str, Any]]:
    """``count`` Membrane records (see the module docstring), in a fixed order."""
    rng = random.Random(seed)
    kinds = (
        ["entity"] * 10
        + ["semantic"] * 32
        + ["episodic"] * 32
        + ["working"] * 8
        + ["competence"] * 9
        + ["plan_graph"] * 9
    )
    plan = [kinds[i * len(kinds) // count] for i in range(count)]
    ids = [f"{kind[:3]}-{i:06d}" for i, kind in enumerate(plan)]
    entities = [i for i, kind in enumerate(plan) if kind == "entity"]
    facts = [i for i, kind in enumerate(plan) if kind == "semantic"]
    skills = [i for i, kind in enumerate(plan) if kind == "competence"]
    records = []
    for i, kind in enumerate(plan):
        created = _stamp(rng)
        record: dict[str, Any] = {
            "id": ids[i],
            "type": kind,
            "sensitivity": rng.choice(LEVELS),
            "confidence": round(rng.uniform(0.4, 1.0), 3),
            "salience": round(rng.random(), 4),
        }
        scope = rng.choice(SCOPES)
        if scope:
            record["scope"] = scope
        record["tags"] = rng.sample(WORDS, 2)
        record["created_at"] = created
        record["updated_at"] = created
        reinforced = _stamp(rng) if rng.random() < 0.7 else "0001-01-01T00:00:00Z"
        record["lifecycle"] = {
            "decay": {"curve": "exponential", "half_life_seconds": 86400},
            "last_reinforced_at": reinforced,
            "deletion_policy": "auto_prune",
        }
        record["provenance"] = {
            "sources": [{"kind": "event", "ref": f"evt-{i}", "timestamp": created}]
        }
        name = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {i % 100}"
        mentioned = [ids[rng.choice(entities)] for _ in range(rng.randrange(1, 4))]
        links = {"facts": facts, "skills": skills, "ids": ids}
        payload, relations = _payload(rng, kind, i, name, created, mentioned, links)
        if relations:
            record["relations"] = relations
        record["payload"] = payload
        record["audit_log"] = [
            {"action": "create", "actor": "bench", "timestamp": created, "rationale": "made"}
        ]
        records.append(record)
    return records


def _payload(
    rng: random.Random,
    kind: str,
    i: int,
    name: str,
    created: str,
    mentioned: list[str],
    links: dict[str, list[Any]],
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A record's payload and relations by its kind."""
    ids, facts, skills = links["ids"], links["facts"], links["skills"]
    mentions = [{"predicate": "mentions_entity", "target_id": m} for m in mentioned]
    if kind == "entity":
        primary = rng.choice(["Project", "Service", "Person", "Tool"])
        payload = {"kind": "entity", "canonical_name": name, "primary_type": primary}
        payload.update(aliases=[name.replace(" ", "-")], summary=f"the {name}")
        return payload, []
    if kind == "semantic":
        predicate = rng.choice(["uses", "owns", "depends on"])
        payload = {"kind": "semantic", "subject": mentioned[0], "predicate": predicate}
        payload.update(object=name, validity={"mode": "global"})
        subject = {"predicate": "subject_entity", "target_id": mentioned[0], "weight": 1}
        return payload, [subject, *mentions[1:]]
    if kind == "episodic":
        event = {"t": created, "event_kind": "tool", "ref": f"r{i}", "summary": f"ran {name}"}
        outcome = rng.choice(["success", "failure"])
        return {"kind": "episodic", "timeline": [event], "outcome": outcome}, mentions
    if kind == "working":
        payload = {"kind": "working", "thread_id": f"t{i}", "state": "executing"}
        payload["context_summary"] = f"working on {name}"
        return payload, mentions
    if kind == "competence":
        stats = {"success_count": rng.randrange(10), "failure_count": rng.randrange(5)}
        payload = {"kind": "competence", "skill_name": f"fix {name}"}
        payload.update(triggers=[{"signal": "build error"}], recipe=[{"step": "run the build"}])
        payload["performance"] = stats
        return payload, [{"predicate": "supports", "target_id": ids[rng.choice(facts)]}]
    metrics = {"execution_count": rng.randrange(4), "failure_rate": rng.random()}
    payload = {"kind": "plan_graph", "plan_id": f"p{i}", "version": "1", "intent": f"ship {name}"}
    payload.update(nodes=[], edges=[], metrics=metrics)
    return payload, [{"predicate": "depends_on", "target_id": ids[rng.choice(skills)]}]


def entity_task(records: list[dict[str, Any]]) -> tuple[str, str]:
    """An entity's exact name as a descriptor (in capitals: the lookup is case-blind)."""
    entities = [r for r in records if r["type"] == "entity"]
    name = entities[len(entities) // 2]["payload"]["canonical_name"]
    return ("an entity's name", name.upper())


def build(path: Path, records: list[dict[str, Any]]) -> None:
    with MemoryStore.open(path) as store:
        ids = {r["id"] for r in records}
        with store.storage.transaction(OpKind.BATCH, "Import records") as tx:
            for seq, record in enumerate(records, start=1):
                tx.put_node(record_node(record, seq))
            for record in records:
                for edge in relation_edges(record, ids):
                    tx.put_edge(edge)


# -- the plain scan -------------------------------------------------------------------------------
def _tier(record: dict[str, Any], trust: dict[str, Any]) -> str:
    scopes = trust.get("scopes") or []
    if scopes and record.get("scope") and record["scope"] not in scopes:
        return "omitted"
    above = LEVEL[record["sensitivity"]] - LEVEL[trust["max_sensitivity"]]
    return "full" if above <= 0 else "redacted" if above == 1 else "omitted"


def _match(value: Any, query: str) -> bool:
    v = value.strip().lower() if isinstance(value, str) else ""
    return bool(v) and bool(query) and (v == query or v in query or query in v)


def _epoch(value: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(value).timestamp()


def plain_retrieve_graph(
    records: list[dict[str, Any]], task: str, trust: dict[str, Any], now: float
) -> dict[str, Any]:
    """retrieveGraph with root_limit 10, node_limit 25, edge_limit 100, max_hops 2, by a scan."""
    by_id = {r["id"]: r for r in records}
    layer_of = {t: i for i, t in enumerate(LAYER_ORDER)}
    visible = []
    for r in records:
        tier = _tier(r, trust)
        if tier != "omitted":
            key = (layer_of[r["type"]], -r["salience"], -_epoch(r["created_at"]), r["id"])
            visible.append((key, r, tier))
    visible.sort(key=lambda c: c[0])  # reading order: layer, then ListByType's order
    ranked = _plain_select([(r, t) for _, r, t in visible], now) if task else []
    chosen = {r["id"] for r, _ in ranked}
    skip = ("competence", "plan_graph") if ranked else ()
    rest = [(r, t) for _, r, t in visible if r["id"] not in chosen and r["type"] not in skip]
    rest.sort(key=lambda c: -c[0]["salience"])  # stable: the reading order for ties
    base = (ranked + rest)[:30]
    term = task.strip().lower()
    if term:
        present = {r["id"] for r, _ in base}
        for r in _plain_entities(records, term, trust):
            tier = _tier(r, trust)
            if tier != "omitted" and r["id"] not in present:
                present.add(r["id"])
                base.append((r, tier))
        scores = [
            len(base) - i + _plain_boost(r, t, term, by_id, trust) for i, (r, t) in enumerate(base)
        ]
        order = sorted(range(len(base)), key=lambda i: -scores[i])
        base = [base[i] for i in order]
    return _plain_expand(base[:10], by_id, trust)


def _plain_select(visible: list[tuple[dict[str, Any], str]], now: float) -> list[Any]:
    scored = []
    for r, tier in visible:
        if r["type"] not in ("competence", "plan_graph"):
            continue
        score = 0.5
        if tier == "full":
            p, success = r["payload"], 0.5
            if p["kind"] == "competence":
                total = p["performance"]["success_count"] + p["performance"]["failure_count"]
                success = p["performance"]["success_count"] / total if total else 0.5
            elif p["metrics"]["execution_count"] > 0:
                success = 1 - p["metrics"]["failure_rate"]
            at = r["lifecycle"]["last_reinforced_at"]
            recency = 0.5
            if not at.startswith("0001"):
                age = now - _epoch(at)
                recency = 1.0 if age <= 0 else 2 ** (-age / (30 * 86400))
            score = (r["confidence"] + success + recency) / 3
        scored.append((score, r, tier))
    order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
    return [(scored[i][1], scored[i][2]) for i in order]


def _plain_entities(
    records: list[dict[str, Any]], term: str, trust: dict[str, Any]
) -> list[dict[str, Any]]:
    names = []
    for r in records:
        if r["type"] != "entity":
            continue
        p = r["payload"]
        terms = {p["canonical_name"].strip().lower(), *(a.strip().lower() for a in p["aliases"])}
        if term in terms:
            names.append(r)
    out = []
    for scope in trust.get("scopes") or [None]:
        if scope is None:
            group = sorted(names, key=lambda r: (bool(r.get("scope")), r["id"]))
        else:
            group = [r for r in names if r.get("scope", "") in (scope, "")]
            group.sort(key=lambda r, s=scope: (r.get("scope", "") != s, r["id"]))
        out.extend(group[:10])
    return out


def _plain_boost(
    r: dict[str, Any], tier: str, query: str, by_id: dict[str, Any], trust: dict[str, Any]
) -> float:
    if tier != "full":
        return 0.0
    boost = 0.0
    p = r["payload"]
    if p["kind"] == "entity":
        boost += 100 if _match(p["canonical_name"], query) else 0
        boost += 75 if any(_match(a, query) for a in p["aliases"]) else 0
        boost += 15 if _match(p["primary_type"], query) else 0
    bonuses = {"mentions_entity": 20, "subject_entity": 25, "supports": 10, "depends_on": 10}
    for rel in r.get("relations", []):
        t = by_id.get(rel["target_id"])
        if t is None or _tier(t, trust) != "full" or t["payload"]["kind"] != "entity":
            continue
        bonus = bonuses.get(rel["predicate"], 0)
        if _match(t["payload"]["canonical_name"], query):
            boost += 60 + bonus
        if any(_match(a, query) for a in t["payload"]["aliases"]):
            boost += 45 + bonus
    return boost


def _plain_expand(roots: list[Any], by_id: dict[str, Any], trust: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, tuple[dict[str, Any], str, bool, int]] = {}
    for r, tier in roots:
        found[r["id"]] = (r, tier, True, 0)
    queue, edges = list(found), []
    for node_id in queue:
        r, tier, _, hop = found[node_id]
        if hop >= 2 or tier != "full":
            continue
        for rel in r.get("relations", []):
            if len(edges) >= 100:
                break
            target = rel["target_id"]
            if target not in found:
                t = by_id.get(target)
                t_tier = _tier(t, trust) if t is not None else "omitted"
                if t_tier == "omitted" or len(found) >= 25:
                    continue
                found[target] = (t, t_tier, False, hop + 1)
                queue.append(target)
            edges.append((node_id, rel["predicate"], target))
    ordered = sorted(found.values(), key=lambda f: (not f[2], f[3], -f[0]["salience"]))
    nodes = [(f[0]["id"], f[2], f[3], f[0] if f[1] == "full" else redact(f[0])) for f in ordered]
    return {"nodes": nodes, "edges": edges, "roots": [r["id"] for r, _ in roots]}


def plain_retrieve_by_id(
    records: list[dict[str, Any]], record_id: str, trust: dict[str, Any]
) -> dict[str, Any] | None:
    for r in records:
        if r["id"] == record_id:
            return r if _tier(r, trust) == "full" else None
    return None


# -- timing ---------------------------------------------------------------------------------------
def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Warm medians of ``fn()``: (wall seconds, CPU seconds)."""
    fn()
    walls, cpus = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        cpus.append(time.process_time() - c)
        walls.append(time.perf_counter() - w)
    return statistics.median(walls), statistics.median(cpus)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=9)
    options = parser.parse_args(argv)
    records = make_records(options.records)
    now = _epoch(NOW)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "membrane.memgraph"
        started = time.perf_counter()
        build(path, records)
        print(f"store of {len(records)} records built in {time.perf_counter() - started:.1f} s")
        with MemoryStore.open(path, create=False) as store:
            api = store.membrane()
            started = time.perf_counter()
            api.retrieve_graph("warm", {"max_sensitivity": "low"}, None, None, 10, None, None, 2)
            first = time.perf_counter() - started
            rows = [("first retrieveGraph after opening (builds the index)", first, first, None)]
            from memgraph_gui.core.membrane import retrieval

            for trust_name, trust in TRUSTS:
                for task_name, task in [entity_task(records), *TASKS]:

                    def ours(task: str = task, trust: dict[str, Any] = trust) -> Any:
                        with store.reading() as graph:
                            return retrieval.retrieve_graph(
                                graph, task, trust, None, None, 10, None, None, 2, now=now
                            )

                    def plain(task: str = task, trust: dict[str, Any] = trust) -> Any:
                        return plain_retrieve_graph(records, task, trust, now)

                    check(ours(), plain())
                    wall, cpu = timed(ours, options.repeat)
                    p_wall, _ = timed(plain, max(1, options.repeat // 3))
                    rows.append((f"retrieveGraph {task_name}; {trust_name}", wall, cpu, p_wall))
            target = records[len(records) // 2]["id"]
            full = {"max_sensitivity": "hyper"}
            assert api.retrieve_by_id(target, full) == plain_retrieve_by_id(records, target, full)
            wall, cpu = timed(lambda: api.retrieve_by_id(target, full), options.repeat * 20)
            p_wall, _ = timed(lambda: plain_retrieve_by_id(records, target, full), options.repeat)
            rows.append(("retrieveByID", wall, cpu, p_wall))
    print(f"\n{'measure':<62} {'ours ms':>8} {'cpu ms':>8} {'plain ms':>9} {'ratio':>7}")
    for name, wall, cpu, p_wall in rows:
        plain_ms = f"{p_wall * 1e3:9.1f}" if p_wall is not None else f"{'':>9}"
        ratio = f"{p_wall / wall:6.0f}x" if p_wall is not None else f"{'':>7}"
        print(f"{name:<62} {wall * 1e3:8.2f} {cpu * 1e3:8.2f} {plain_ms} {ratio}")
    graphs = [r for r in rows[1:] if r[0].startswith("retrieveGraph")]
    worst = max(r[1] for r in graphs)
    print(
        f"\nretrieveGraph worst median {worst * 1e3:.2f} ms (bar {BAR_GRAPH * 1e3:.0f} ms); "
        f"retrieveByID {rows[-1][1] * 1e3:.3f} ms (bar {BAR_ID * 1e3:.0f} ms)"
    )


def check(ours: dict[str, Any], plain: dict[str, Any]) -> None:
    """The plain scan's answer is ours: the same roots, nodes (id, root, hop, record) and
    edges."""
    assert ours["root_ids"] == plain["roots"], (ours["root_ids"], plain["roots"])
    got = [(n["record"]["id"], n["root"], n["hop"], n["record"]) for n in ours["nodes"]]
    assert got == plain["nodes"]
    assert [(e["source_id"], e["predicate"], e["target_id"]) for e in ours["edges"]] == plain[
        "edges"
    ]


if __name__ == "__main__":
    main()
