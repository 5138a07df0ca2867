"""``memgraph demo``: a deterministic, realistic chat memory of any size.

Characters (English and Chinese names and aliases), locations, threads and one event per turn;
events rolled up under rollups several levels deep, as Luker's compressor leaves them; relation
edges (about three edges per node in all); a few archived, superseded nodes; an injection state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from memgraph_gui.core.demo.text import (
    ACTIONS,
    CHARACTERS,
    DISTRICTS,
    GOALS,
    ITEMS,
    LOCATIONS,
    OUTCOMES,
    RELATIONS_DIRECTED,
    RELATIONS_SYMMETRIC,
    STATES,
    SURNAMES,
    THREADS,
    TRAITS,
)
from memgraph_gui.core.domain.default_schema import default_schema
from memgraph_gui.core.domain.freeze import freeze
from memgraph_gui.core.domain.model import Edge, Node, evolve
from memgraph_gui.core.graph.topology import js_string_gt
from memgraph_gui.core.memory import MemoryStore


@dataclass
class _Builder:
    rng: random.Random
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: dict[tuple[str, str, str], Edge] = field(default_factory=dict)
    touched: dict[str, int] = field(default_factory=dict)
    parents: dict[str, str] = field(default_factory=dict)

    def add(self, node: Node) -> Node:
        self.nodes[node.id] = node
        return node

    def next_id(self) -> str:
        return f"n_{len(self.nodes) + 1}"

    def link(self, source: str, target: str, relation: str, seq: int | None = None) -> None:
        if source == target:
            return
        if relation in RELATIONS_SYMMETRIC and js_string_gt(source, target):
            source, target = target, source
        self.edges.setdefault((source, relation, target), Edge(source, target, relation, seq))


def generate(nodes: int, seed: int = 1) -> tuple[list[Node], list[Edge], dict[str, Any]]:
    """Build a demo memory of about ``nodes`` nodes and ``3 * nodes`` edges; same seed, same data."""
    b = _Builder(random.Random(seed))
    total = max(12, nodes)
    chars = _characters(b, max(4, total // 100))
    places = _locations(b, max(3, total // 200))
    threads = _threads(b, max(2, total // 250))
    leaves = _events(b, _leaf_count(total - len(b.nodes)), chars, places, threads)
    _compact(b, leaves)
    while len(b.nodes) < total:
        chars.append(_characters(b, 1, offset=len(chars))[0])
    _settle(b)
    _relations(b, chars, places, threads, leaves, target=3 * total)
    _archive_some(b, chars + places, leaves)
    last_turn = max(n.seq_to for n in b.nodes.values())
    meta = {
        "schema": default_schema(),
        "nodeSeq": len(b.nodes),
        "seqCounter": last_turn,
        "appliedSeqTo": last_turn,
        "loggedSeqTo": last_turn,
        "sourceMessageCount": 2 * last_turn,
        "lastRecallTrace": [],
        "lastRecallProjection": None,
    }
    return list(b.nodes.values()), list(b.edges.values()), meta


def _leaf_count(budget: int) -> int:
    """The most leaves whose events plus rollups fit in ``budget`` nodes."""
    low, high = 1, max(1, budget)
    while low < high:
        mid = (low + high + 1) // 2
        if mid + _rollup_count(mid) <= budget:
            low = mid
        else:
            high = mid - 1
    return low


def _rollup_count(
    leaves: int, threshold: int = 5, fan_in: int = 3, keep_recent: int = 3, max_depth: int = 10
) -> int:
    tier, total = max(0, leaves - keep_recent), 0
    for _ in range(max_depth):
        rolled = 0
        while tier >= threshold:
            tier -= fan_in
            rolled += 1
        if not rolled:
            break
        total, tier = total + rolled, rolled
    return total


def _characters(b: _Builder, count: int, offset: int = 0) -> list[str]:
    ids = []
    for i in range(offset, offset + count):
        en, zh, epithet_en, epithet_zh = CHARACTERS[i % len(CHARACTERS)]
        sur_en, sur_zh = SURNAMES[(i // len(CHARACTERS)) % len(SURNAMES)]
        generation = i // (len(CHARACTERS) * len(SURNAMES))
        suffix = f" {generation + 1}" if generation else ""
        title = (f"{zh}{sur_zh}" if i % 3 == 1 else f"{en} {sur_en}".strip()) + suffix
        other = f"{en} {sur_en}".strip() if i % 3 == 1 else f"{zh}{sur_zh}"
        fields = {
            "aliases": f"{other}{suffix}, {epithet_zh}, {epithet_en}",
            "traits": ", ".join(b.rng.sample(TRAITS, 2)),
            "identity": f"{epithet_en} of {LOCATIONS[i % len(LOCATIONS)][1]}",
            "goal": b.rng.choice(GOALS),
            "inventory": b.rng.choice(ITEMS),
        }
        ids.append(
            b.add(Node(b.next_id(), "character_sheet", title=title, fields=freeze(fields))).id
        )
    return ids


def _locations(b: _Builder, count: int) -> list[str]:
    ids = []
    for i in range(count):
        zh, en = LOCATIONS[i % len(LOCATIONS)]
        if i >= len(LOCATIONS):
            d_zh, d_en = DISTRICTS[(i // len(LOCATIONS) - 1) % len(DISTRICTS)]
            zh, en = (
                f"{zh}{d_zh}{i // 72 or ''}",
                f"{en} {d_en}{' ' + str(i // 72) if i >= 72 else ''}",
            )
        fields = {
            "aliases": en,
            "controller": b.rng.choice(CHARACTERS)[0],
            "danger": b.rng.choice(["low", "moderate", "high", "极高"]),
            "state": b.rng.choice(STATES),
        }
        ids.append(b.add(Node(b.next_id(), "location_state", title=zh, fields=freeze(fields))).id)
    return ids


def _threads(b: _Builder, count: int) -> list[str]:
    ids = []
    for i in range(count):
        zh, en = THREADS[i % len(THREADS)]
        title = zh if i < len(THREADS) else f"{zh}{i // len(THREADS) + 1}"
        fields = {
            "status": b.rng.choice(["active", "active", "resolved", "abandoned"]),
            "note": f"About {en}; involves {b.rng.choice(CHARACTERS)[0]}.",
        }
        ids.append(b.add(Node(b.next_id(), "thread", title=title, fields=freeze(fields))).id)
    return ids


def _events(
    b: _Builder, count: int, chars: list[str], places: list[str], threads: list[str]
) -> list[str]:
    """One leaf event per turn, involving one or two characters, often at a location."""
    ids = []
    for turn in range(1, count + 1):
        pair = b.rng.sample(chars, 2)
        who = pair if b.rng.random() < 0.3 else pair[:1]
        where = b.rng.choice(places)
        names = [b.nodes[c].title for c in pair]
        act_en, act_zh = b.rng.choice(ACTIONS)
        place = b.nodes[where].title
        summary = (
            f"时间：第{turn // 4 + 1}天；地点：{place}。{names[0]} {act_en} {names[-1]}"
            f"（{act_zh}）。{b.rng.choice(OUTCOMES)}"
        )
        node = b.add(
            Node(
                b.next_id(),
                "event",
                title=f"Summary {turn}",
                seq_to=turn,
                fields=freeze({"summary": summary}),
                floor_range=(2 * turn - 1, 2 * turn),
            )
        )
        ids.append(node.id)
        for cid in who:
            b.link(node.id, cid, "involved_in", turn)
            _touch(b, cid, turn)
        if b.rng.random() < 0.2:
            b.link(node.id, where, "occurred_at", turn)
            _touch(b, where, turn)
        if threads and b.rng.random() < 0.1:
            thread = b.rng.choice(threads)
            b.link(node.id, thread, "advances", turn)
            _touch(b, thread, turn)
    return ids


def _touch(b: _Builder, node_id: str, turn: int) -> None:
    b.touched[node_id] = max(turn, b.touched.get(node_id, 0))


def _settle(b: _Builder) -> None:
    """Apply the recorded last-touched turns and parents to the nodes."""
    for node_id, turn in b.touched.items():
        b.nodes[node_id] = evolve(b.nodes[node_id], seq_to=turn)
    for node_id, parent in b.parents.items():
        b.nodes[node_id] = evolve(b.nodes[node_id], parent_id=parent)


def _compact(
    b: _Builder,
    leaves: list[str],
    threshold: int = 5,
    fan_in: int = 3,
    keep_recent: int = 3,
    max_depth: int = 10,
) -> None:
    """Roll events up the way Luker's compressor leaves a long chat (oldest first, per depth)."""
    tier = leaves[:-keep_recent]
    for depth in range(1, max_depth + 1):
        rolled: list[str] = []
        start = 0
        while len(tier) - start >= threshold:
            rolled.append(_rollup(b, tier[start : start + fan_in], depth, len(rolled) + 1))
            start += fan_in
        if not rolled:
            break
        tier = rolled


def _rollup(b: _Builder, group: list[str], depth: int, ordinal: int) -> str:
    children = [b.nodes[c] for c in group]
    first = children[0].fields.get("summary", "")
    summary = (
        f"L{depth} recap of turns {children[0].seq_to}-{children[-1].seq_to}: " + str(first)[:120]
    )
    ranges = [c.floor_range for c in children if c.floor_range]
    rollup = b.add(
        Node(
            b.next_id(),
            "event",
            title=f"event Summary L{depth} #{ordinal}",
            seq_to=max(c.seq_to for c in children),
            fields=freeze({"summary": summary}),
            children_ids=tuple(group),
            semantic_rollup=True,
            semantic_depth=depth,
            floor_range=(min(r[0] for r in ranges), max(r[1] for r in ranges)) if ranges else None,
        )
    )
    for child in children:
        b.parents[child.id] = rollup.id
        b.link(rollup.id, child.id, "contains")
        b.link(rollup.id, child.id, "semantic_contains")
    return rollup.id


def _relations(
    b: _Builder,
    chars: list[str],
    places: list[str],
    threads: list[str],
    leaves: list[str],
    *,
    target: int,
) -> None:
    for cid in chars:
        for _ in range(2):
            other = b.rng.choice(chars)
            relation = b.rng.choice(RELATIONS_SYMMETRIC + RELATIONS_DIRECTED)
            b.link(cid, other, relation, b.touched.get(cid, 0))
        b.link(cid, b.rng.choice(places), "related", b.touched.get(cid, 0))
    pools = [chars, places, threads or chars]
    attempts = 0
    while len(b.edges) < target and attempts < 4 * target:
        attempts += 1
        event = b.rng.choice(leaves)
        other = b.rng.choice(b.rng.choice(pools))
        b.link(event, other, "mentions", b.nodes[event].seq_to)


def _archive_some(b: _Builder, entity_ids: list[str], leaves: list[str]) -> None:
    """Archive ~4% of entities as superseded by another of the same type, and ~0.5% of events."""
    for node_id in leaves:
        if b.rng.random() < 0.005:
            b.nodes[node_id] = evolve(b.nodes[node_id], archived=True)
    for node_id in entity_ids:
        node = b.nodes[node_id]
        if b.rng.random() < 0.04:
            peers = [i for i in entity_ids if b.nodes[i].type == node.type and i != node_id]
            b.nodes[node_id] = replace(
                node, archived=True, superseded_by=b.rng.choice(peers) if peers else None
            )


def load_demo(store: MemoryStore, nodes: int, seed: int = 1) -> None:
    """Replace ``store``'s content with a generated demo and record an injection state:
    always-inject nodes, a dozen recent recall picks and the candidate pool as visible."""
    from memgraph_gui.core.graph.recall import always_inject_nodes, candidate_pool

    generated = generate(nodes, seed)
    store.storage.replace_all(*generated)
    with store.reading() as graph:
        always = [n.id for n in always_inject_nodes(graph)]
        pool = [n.id for n in candidate_pool(graph)]
    rng = random.Random(seed)
    recent = [i for i in pool[: max(40, len(pool) // 10)] if i not in set(always)]
    picked = rng.sample(recent, min(12, len(recent)))
    store.write_api().set_injection_state(
        {"alwaysInjectIds": always, "recallSelectedIds": picked, "visibleIds": pool}
    )
