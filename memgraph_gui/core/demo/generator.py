"""``memgraph demo``: a deterministic, realistic chat memory of any size.

Characters (English and Chinese names and aliases), locations, threads and one event per turn;
events rolled up under rollups several levels deep, as Luker's compressor leaves them; relation
edges (about three edges per node in all); a few archived, superseded nodes; an injection state.

Two shapes (``SHAPES``):

- ``story`` (the default) grows like a long role-play: the protagonist is in about a third of
  all events and the user's own character in about a sixth; every other character, place and
  thread is active in an arc of time (its events and mentions fall inside it), and their
  popularity follows Zipf's law (a few are everywhere, most appear a handful of times); the
  newest turns wait for the next compaction pass, so the wizard has groups to roll up.
- ``uniform`` (the earlier demo, kept so that shape stays measurable) links events to characters,
  places and threads uniformly at random, with no protagonist and no time locality.
"""

from __future__ import annotations

import random
from collections import Counter
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
    cast: dict[str, tuple[Counter[str], Counter[str]]] = field(default_factory=dict)
    """Story shape: per event and rollup, who and where it is about (for rollup summaries)."""

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


SHAPES = ("story", "uniform")
PENDING_SHARE = 50  # story shape: the newest 1/50 of the turns (at least 12) are not rolled up


def generate(
    nodes: int, seed: int = 1, shape: str = "story"
) -> tuple[list[Node], list[Edge], dict[str, Any]]:
    """Build a demo memory of about ``nodes`` nodes and ``3 * nodes`` edges shaped as ``shape``
    (one of ``SHAPES``); same arguments, same data. ``ValueError`` for an unknown shape."""
    if shape not in SHAPES:
        raise ValueError(f"unknown demo shape {shape!r}: choose one of {', '.join(SHAPES)}")
    b = _Builder(random.Random(seed))
    total = max(12, nodes)
    chars = _characters(b, max(4, total // 100))
    places = _locations(b, max(3, total // 200))
    threads = _threads(b, max(2, total // 250))
    if shape == "uniform":
        leaves = _events(b, _leaf_count(total - len(b.nodes)), chars, places, threads)
        _compact(b, leaves)
    else:
        count = _leaf_count(total - len(b.nodes))
        story = _Story.cast(b.rng, chars, places, threads, count)
        leaves = _story_events(b, count, story)
        pending = min(len(leaves), max(12, len(leaves) // PENDING_SHARE))
        _compact(b, leaves[: len(leaves) - pending])
    chars_cast = list(chars)
    while len(b.nodes) < total:
        chars.append(_characters(b, 1, offset=len(chars))[0])
    _settle(b)
    if shape == "uniform":
        _relations(b, chars, places, threads, leaves, target=3 * total)
    else:
        _story_relations(b, story, chars[len(chars_cast) :])
    lead = 2 if shape == "story" else 0  # the protagonist and the user's character stay
    _archive_some(b, chars[lead:] + places, leaves, at_least_one=shape == "story")
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
        node = _event(b, turn, names, b.nodes[where].title)
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


PROTAGONIST_SHARE = 1 / 3  # of all events (a 50k Luker memory's protagonist: 18k edges)
USER_SHARE = 1 / 6  # the user's own character
ACTIVE_AT_ONCE = 24  # characters in play at any turn, on average (places and threads: fewer)
ZIPF = 1.1


@dataclass
class _Cast:
    """One kind of entity in a story: each with an arc of turns and a popularity."""

    ids: list[str]
    starts: list[int]
    ends: list[int]
    weights: list[float]

    @classmethod
    def of(cls, rng: random.Random, ids: list[str], turns: int, at_once: float) -> _Cast:
        """Zipf popularity by a shuffled rank; arcs as long as ``at_once`` of them overlap on
        average, popular ones longer (some span the whole chat, most a short stretch)."""
        order = list(ids)
        rng.shuffle(order)
        weights = [1.0 / (rank + 1) ** ZIPF for rank in range(len(order))]
        mean = sum(weights) / len(weights)
        base = at_once * turns / max(1, len(order))
        starts, ends = [], []
        for weight in weights:
            length = base * (weight / mean) ** 0.5 * rng.lognormvariate(0.0, 0.6)
            length = max(4.0, min(float(turns), length))
            start = rng.uniform(1.0 - length * 0.3, turns - length * 0.7)
            starts.append(max(1, int(start)))
            ends.append(min(turns, max(int(start + length), 1)))
        return cls(order, starts, ends, weights)


class _Sweep:
    """The active members of a ``_Cast`` as turns advance (each arc entered and left once)."""

    def __init__(self, cast: _Cast) -> None:
        self._cast = cast
        self._order = sorted(range(len(cast.ids)), key=cast.starts.__getitem__)
        self._next = 0
        self._active: dict[int, None] = {}
        self.turn = 0

    def at(self, turn: int) -> tuple[list[str], list[float]]:
        """Entities active at ``turn`` (turns must not go back) with their weights."""
        cast = self._cast
        while self._next < len(self._order) and cast.starts[self._order[self._next]] <= turn:
            self._active[self._order[self._next]] = None
            self._next += 1
        for gone in [i for i in self._active if cast.ends[i] < turn]:
            del self._active[gone]
        rows = list(self._active)
        return [cast.ids[i] for i in rows], [cast.weights[i] for i in rows]


@dataclass
class _Story:
    """Who is in the story, and when (the protagonist and the user's character: throughout)."""

    protagonist: str
    user: str
    characters: _Cast
    places: _Cast
    threads: _Cast

    @classmethod
    def cast(
        cls,
        rng: random.Random,
        chars: list[str],
        places: list[str],
        threads: list[str],
        turns: int,
    ) -> _Story:
        others = chars[2:] or chars
        return cls(
            chars[0],
            chars[1],
            _Cast.of(rng, others, turns, ACTIVE_AT_ONCE),
            _Cast.of(rng, places, turns, ACTIVE_AT_ONCE / 3),
            _Cast.of(rng, threads, turns, ACTIVE_AT_ONCE / 4),
        )


def _pick(
    rng: random.Random, active: tuple[list[str], list[float]], cast: _Cast, k: int = 1
) -> list[str]:
    """``k`` distinct entities by popularity among the active ones (among all when none is)."""
    ids, weights = active if active[0] else (cast.ids, cast.weights)
    if len(ids) <= k:
        return list(ids)
    chosen: list[str] = []
    while len(chosen) < k:
        pick = rng.choices(ids, weights)[0]
        if pick not in chosen:
            chosen.append(pick)
    return chosen


def _story_events(b: _Builder, count: int, story: _Story) -> list[str]:
    """One leaf event per turn: the protagonist in a third, the user's character in a sixth,
    and one or two characters in play at that turn, often at a place in play, now and then
    advancing a thread in play."""
    ids = []
    rng = b.rng
    people, spots, plots = _Sweep(story.characters), _Sweep(story.places), _Sweep(story.threads)
    for turn in range(1, count + 1):
        lead, user = rng.random() < PROTAGONIST_SHARE, rng.random() < USER_SHARE
        others = rng.choices((0, 1, 2), (0.35, 0.5, 0.15))[0] if lead or user else 1
        cast = _pick(rng, people.at(turn), story.characters, others) if others else []
        who = ([story.protagonist] if lead else []) + cast[:1] + ([story.user] if user else [])
        mentioned = cast[1:]  # a second character is only mentioned in passing
        where = _pick(rng, spots.at(turn), story.places)[0]
        names = [b.nodes[c].title for c in who + mentioned]
        place = b.nodes[where].title
        node = _event(b, turn, names, place)
        ids.append(node.id)
        b.cast[node.id] = (Counter(names), Counter([place]))
        for cid in dict.fromkeys(who):
            b.link(node.id, cid, "involved_in", turn)
            _touch(b, cid, turn)
        for cid in mentioned:
            b.link(node.id, cid, "mentions", turn)
            _touch(b, cid, turn)
        if rng.random() < 0.35:
            b.link(node.id, where, "occurred_at", turn)
            _touch(b, where, turn)
        if rng.random() < 0.1:
            thread = _pick(rng, plots.at(turn), story.threads)[0]
            b.link(node.id, thread, "advances", turn)
            _touch(b, thread, turn)
    return ids


def _story_relations(b: _Builder, story: _Story, walk_ons: list[str]) -> None:
    """Each character related to two of those it shares events with, and half the places to
    someone who goes there (the events' own links already make ~3 edges per node); the
    ``walk_ons`` (characters in no event: they fill a memory up to its size) each known to a
    character of the cast and tied to a place."""
    rng = b.rng
    for cid in walk_ons:
        friend = _pick(rng, ([], []), story.characters)[0]
        b.link(cid, friend, rng.choice(RELATIONS_SYMMETRIC + RELATIONS_DIRECTED), 0)
        b.link(cid, _pick(rng, ([], []), story.places)[0], "related", 0)
    partners: dict[str, dict[str, None]] = {}
    people: dict[str, list[str]] = {}
    for source, relation, target in b.edges:
        if relation == "involved_in":
            people.setdefault(source, []).append(target)
    for group in people.values():
        for a in group:
            partners.setdefault(a, {}).update(dict.fromkeys(o for o in group if o != a))
    for cid in [story.protagonist, story.user, *story.characters.ids]:
        known = list(partners.get(cid, {}))
        for other in rng.sample(known, min(2, len(known))):
            relation = rng.choice(RELATIONS_SYMMETRIC + RELATIONS_DIRECTED)
            b.link(cid, other, relation, b.touched.get(cid, 0))
    for pid in story.places.ids[: max(1, len(story.places.ids) // 2)]:
        who = story.protagonist if rng.random() < 0.3 else rng.choice(story.characters.ids)
        b.link(who, pid, "related", b.touched.get(pid, 0))


def _event(b: _Builder, turn: int, names: list[str], place: str) -> Node:
    """The leaf event of ``turn``: ``names[0]`` does something to ``names[-1]`` at ``place``
    (an action, then an outcome, drawn from ``b.rng`` in that order)."""
    act_en, act_zh = b.rng.choice(ACTIONS)
    summary = (
        f"时间：第{turn // 4 + 1}天；地点：{place}。{names[0]} {act_en} {names[-1]}"
        f"（{act_zh}）。{b.rng.choice(OUTCOMES)}"
    )
    return b.add(
        Node(
            b.next_id(),
            "event",
            title=f"Summary {turn}",
            seq_to=turn,
            fields=freeze({"summary": summary}),
            floor_range=(2 * turn - 1, 2 * turn),
        )
    )


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
    turns = f"{children[0].seq_to}-{children[-1].seq_to}"
    summary = f"L{depth} recap of turns {turns}: " + str(first)[:120]
    casts = [b.cast[c] for c in group if c in b.cast]
    if len(casts) == len(group):  # story shape: say who and where, as a recap would
        people, places = Counter[str](), Counter[str]()
        for who, where in casts:
            people.update(who)
            places.update(where)
        names = ", ".join(name for name, _ in people.most_common(3))
        summary = f"Turns {turns}: {names} at {places.most_common(1)[0][0]}"
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
    if casts and len(casts) == len(group):
        b.cast[rollup.id] = (people, places)
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


def _archive_some(
    b: _Builder, entity_ids: list[str], leaves: list[str], *, at_least_one: bool = False
) -> None:
    """Archive ~4% of entities as superseded by another of the same type (``at_least_one``:
    one at least, so a small memory shows it too), and ~0.5% of events."""
    for node_id in leaves:
        if b.rng.random() < 0.005:
            b.nodes[node_id] = evolve(b.nodes[node_id], archived=True)
    superseded = 0
    for node_id in entity_ids:
        if b.rng.random() < 0.04:
            superseded += _supersede(b, entity_ids, node_id)
    if at_least_one and not superseded and len(entity_ids) > 3:
        _supersede(b, entity_ids, entity_ids[-1])  # the last place: never the protagonist


def _supersede(b: _Builder, entity_ids: list[str], node_id: str) -> int:
    """Archive ``node_id`` as superseded by a peer of its type (if any); returns 1."""
    node = b.nodes[node_id]
    peers = [i for i in entity_ids if b.nodes[i].type == node.type and i != node_id]
    b.nodes[node_id] = replace(
        node, archived=True, superseded_by=b.rng.choice(peers) if peers else None
    )
    return 1


def load_demo(store: MemoryStore, nodes: int, seed: int = 1, shape: str = "story") -> None:
    """Replace ``store``'s content with a generated demo (see ``generate``) and record an
    injection state: always-inject nodes, a dozen recent recall picks and the candidate pool as
    visible."""
    from memgraph_gui.core.graph.recall import always_inject_nodes, candidate_pool

    generated = generate(nodes, seed, shape)
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
