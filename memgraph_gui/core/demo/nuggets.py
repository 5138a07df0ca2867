"""``memgraph demo --nuggets``: a deterministic Nuggets memory, as two agents would have left it.

Two nuggets share the store: ``astra``, a personal assistant's memory of its user (facts about
him and his people, preferences, its own persona and style, reflections, a Chinese journal,
session scratch), and ``webshop``, a coding agent's memory of a project (tool observations of
files read and edited, project facts, decisions, bugs, meeting notes in Chinese, tasks, retros).
Their notes are made session by session over ten weeks, with Nuggets' own rules
(``core.nuggets``): ids ``fact-`` / ``note-<nugget>-<8 hex>``, keys with scope prefixes, tags in
Nuggets' order with title tags, inferred and merged metadata, normalised text, vector specs.
Then, as an agent's later calls would: links with reasons on both ends (clusters by topic, a few
hubs every topic points at), re-remembered facts, hits across sessions, a few soft-deleted and a
few merged notes. Same arguments, same notes; written in one transaction by ``stage_note``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from memgraph_gui.core.demo import nuggets_text as T
from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.memory import MemoryStore
from memgraph_gui.core.nuggets.api import fact_meta_key
from memgraph_gui.core.nuggets.metadata import infer_metadata, merge_metadata
from memgraph_gui.core.nuggets.model import stage_note
from memgraph_gui.core.nuggets.text import (
    normalise_tag,
    normalise_tags,
    normalise_whitespace,
    title_tags,
    unique,
)
from memgraph_gui.core.nuggets.vector_spec import vector_spec

NUGGETS = ("astra", "webshop")
START = datetime(2026, 9, 14, 7, 0, tzinfo=UTC)
WEEKS = 10
ASTRA_SHARE = 0.45  # of the notes; the rest are the project's
HIDDEN_SHARE = 0.03
MERGED_SHARE = 0.01
Spec = tuple[str, str, str, list[str], dict[str, Any] | None, str]
"""(kind, key or title, content, tags, given metadata, topic): one remember / createNote."""


def stamp(at: datetime) -> str:
    """``at`` as Nuggets writes it: ``2026-09-14T07:00:00.000Z``."""
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"


@dataclass
class _Session:
    id: str
    at: datetime


@dataclass
class _Nugget:
    """One nugget's notes while they are made (each note a dict in Nuggets' key order)."""

    name: str
    rng: random.Random
    notes: list[dict[str, Any]] = field(default_factory=list)
    topic: dict[str, str] = field(default_factory=dict)
    at: dict[str, datetime] = field(default_factory=dict)
    facts: dict[str, dict[str, Any]] = field(default_factory=dict)  # by lower-cased key
    ids: set[str] = field(default_factory=set)
    used: dict[str, int] = field(default_factory=dict)  # how far each fixed pool is used

    def new_id(self, kind: str) -> str:
        while True:
            note_id = f"{kind}-{self.name}-{self.rng.getrandbits(32):08x}"
            if note_id not in self.ids:
                self.ids.add(note_id)
                return note_id

    def remember(
        self, key: str, value: str, at: datetime, meta: dict[str, Any] | None, topic: str
    ) -> dict[str, Any]:
        """``remember(key, value, meta)`` at ``at``: a new fact, or the known one rewritten."""
        key = key.strip()
        old = self.facts.get(key.lower())
        when = stamp(at)
        inferred = infer_metadata(
            kind="fact", title=key, content=value, tags=old["tags"] if old else [], source_key=key
        )
        metadata = merge_metadata(inferred, old, meta)
        system = [self.name, f"scope:{metadata['scope']}", f"type:{metadata['type']}"]
        if old is not None:  # keeps id, createdAt, links, hits; new content, visible again
            # (the demo makes its calls phase by phase: a rewrite never goes back in time)
            last = datetime.fromisoformat(old["updatedAt"]) + timedelta(seconds=1)
            when = stamp(max(at, last))
            old.update(title=key, content=normalise_whitespace(value), hidden=False)
            old.update(sourceKey=key, updatedAt=when, **metadata)
            old["tags"] = normalise_tags([*old["tags"], *system, *title_tags(key)])
            old.pop("archivedAt", None)
            return old
        note: dict[str, Any] = {"id": self.new_id("fact"), "nuggetName": self.name}
        note.update(title=key, content=normalise_whitespace(value))
        note.update(tags=normalise_tags([*system, *title_tags(key)]), links=[])
        note.update(vector={"seed": 0, "basis": []}, hidden=False, kind="fact", sourceKey=key)
        note.update(hits=0, lastHitSession="", createdAt=when, updatedAt=when)
        note.update(lastAccessedAt=when, **metadata)
        self.facts[key.lower()] = note
        return self._add(note, topic, at)

    def create_note(
        self,
        title: str,
        content: str,
        tags: list[str],
        at: datetime,
        meta: dict[str, Any] | None,
        topic: str,
    ) -> dict[str, Any]:
        """``createNote(title, content, tags, meta)`` at ``at``."""
        title = title.strip()
        given = unique([*title_tags(title), *(normalise_tag(t) for t in tags)])
        given = [t for t in given if t]
        body = normalise_whitespace(content)
        inferred = infer_metadata(
            kind="note", title=title, content=body, tags=given, source_key=None
        )
        metadata = merge_metadata(inferred, None, meta)
        when = stamp(at)
        note: dict[str, Any] = {"id": self.new_id("note"), "nuggetName": self.name}
        note.update(title=title, content=body)
        note["tags"] = normalise_tags(
            [self.name, *given, f"scope:{metadata['scope']}", f"type:{metadata['type']}"]
        )
        note.update(links=[], vector={"seed": 0, "basis": []}, hidden=False, kind="note")
        note.update(hits=0, lastHitSession="", createdAt=when, updatedAt=when)
        note.update(lastAccessedAt=when, **metadata)
        return self._add(note, topic, at)

    def _add(self, note: dict[str, Any], topic: str, at: datetime) -> dict[str, Any]:
        self.notes.append(note)
        self.topic[note["id"]] = topic
        self.at[note["id"]] = at
        return note


def _touch(note: dict[str, Any], at: datetime, *, accessed: bool = False) -> None:
    """``updatedAt`` (and ``lastAccessedAt``) moved on to ``at`` when that is later."""
    when = stamp(at)
    note["updatedAt"] = max(note["updatedAt"], when)
    if accessed and when > note["lastAccessedAt"]:
        note["lastAccessedAt"] = when


def _sessions(rng: random.Random, name: str, count: int) -> list[_Session]:
    """``count`` working sessions spread over ``WEEKS`` weeks, in time order."""
    span = WEEKS * 7 * 24 * 3600
    times = sorted(START + timedelta(seconds=rng.uniform(0, span)) for _ in range(count))
    return [_Session(f"{name}-{t:%Y%m%d-%H%M}-{rng.getrandbits(16):04x}", t) for t in times]


Maker = Callable[["_Nugget", str], Spec | None]
"""One kind of memory: ``maker(nugget, day)`` makes one spec (None: none left of that kind)."""


def _next(nugget: _Nugget, pool: str, items: list[tuple[str, str]]) -> tuple[str, str] | None:
    """The next unused item of a fixed pool (facts said once: a name, a stack)."""
    used = nugget.used.get(pool, 0)
    nugget.used[pool] = used + 1
    return items[used] if used < len(items) else None


def _profile(n: _Nugget, day: str) -> Spec | None:
    item = _next(n, "user", T.USER_FACTS)
    return None if item is None else ("fact", item[0], item[1], [], None, "profile")


def _persona(n: _Nugget, day: str) -> Spec | None:
    item = _next(n, "self", T.SELF_FACTS)
    return None if item is None else ("fact", item[0], item[1], [], None, "persona")


def _pref(n: _Nugget, day: str) -> Spec:
    rng = n.rng
    domain = rng.choice(sorted(T.PREF_DOMAINS))
    value = rng.choice(T.PREF_DOMAINS[domain])
    key = f"user:pref:{domain}{rng.choice(T.PREF_CONTEXTS)}"
    if rng.random() < 0.25:  # inferred from behaviour, not said: a lower confidence
        meta = {"source": "inferred", "confidence": round(rng.uniform(0.45, 0.8), 2)}
        return ("fact", key, f"{value} (seems so, {day})", [], meta, domain)
    return ("fact", key, value, [], None, domain)


def _person(n: _Nugget, day: str) -> Spec:
    rng = n.rng
    slug, name, about = rng.choice(T.PEOPLE)
    attr, values = rng.choice(T.PERSON_ATTRS)
    value = f"{name}: {rng.choice(values)}" if rng.random() < 0.7 else f"{name}, {about}"
    return ("fact", f"user:friend:{slug}:{attr}", value, [], None, slug)


def _plan(n: _Nugget, day: str) -> Spec:
    rng = n.rng
    slot = rng.choice(("morning", "afternoon", "evening"))
    what = rng.choice(T.PLANS).format(person=rng.choice(T.PEOPLE)[1])
    topic = rng.choice(("calendar", "calendar", "sport", "family"))
    return ("fact", f"user:plan:{day}:{slot}", what, [], None, topic)


def _order(n: _Nugget, day: str) -> Spec:
    rng = n.rng
    number = 1000 + n.used.get("orders", 0)
    n.used["orders"] = number - 999
    item = rng.choice(T.SHOP_ITEMS)
    text = f"{rng.randint(1, 4)} × {item}, {rng.choice(T.SHIPPING)}"
    return ("fact", f"shared:order:HV-{number}", text, [], None, "shop")


def _astra_session(n: _Nugget, day: str) -> Spec:
    rng = n.rng
    what = rng.choice(("topic", "mood", "goal"))
    value = rng.choice(T.MOODS if what == "mood" else T.SESSION_TOPICS)
    return ("fact", f"session:{day}:{what}", value, [], None, "session")


def _astra_scratch(n: _Nugget, day: str) -> Spec:
    item = _next(n, "tmp", T.TMP_ASTRA)
    if item is None:
        return ("fact", f"_tmp:reminder-{day}", n.rng.choice(T.SESSION_TOPICS), [], None, "tmp")
    return ("fact", item[0], item[1], [], None, "tmp")


def _reflection(n: _Nugget, day: str) -> Spec:
    rng = n.rng
    text, tags = rng.choice(T.REFLECTIONS_ASTRA)
    body = f"{text}.\n{rng.choice(T.ADJUSTMENTS)}"
    return ("note", f"reflect: {day} {tags[0]}", body, tags, None, tags[0])


def _journal(n: _Nugget, day: str) -> Spec:
    rng = n.rng
    title, text = rng.choice(T.JOURNAL_ZH)
    body = f"{text}{rng.choice(T.JOURNAL_TAILS_ZH)}"
    return ("note", f"{title} · {day}", body, ["journal", "中文"], None, "journal")


def _learning(n: _Nugget, day: str) -> Spec:
    title, tags = n.rng.choice(T.LEARNINGS)
    return ("note", title, f"{title.split(': ', 1)[1]} (noted {day})", tags, None, tags[0])


def _summary(n: _Nugget, day: str) -> Spec:
    rng = n.rng
    topic = rng.choice(T.SESSION_TOPICS)
    body = f"Talked about {topic}. {rng.choice(T.OUTCOMES)}"
    return ("note", f"chat {day}: {topic}", body, ["summary"], None, "calendar")


ASTRA_KINDS: list[tuple[float, Maker]] = [
    (0.9, _profile),
    (0.5, _persona),
    (1.6, _pref),
    (1.2, _person),
    (1.2, _plan),
    (1.0, _order),
    (1.4, _astra_session),
    (0.4, _astra_scratch),
    (0.8, _reflection),
    (0.7, _journal),
    (0.3, _learning),
    (0.8, _summary),
]


def _path(n: _Nugget) -> tuple[str, str]:
    directory = n.rng.choice(T.DIRS)
    return f"{directory}/{n.rng.choice(T.MODULES)}", _web_topic(directory.split("/")[-1])


def _read(n: _Nugget, day: str) -> Spec:
    rng = n.rng
    file, topic = _path(n)
    text = rng.choice(T.FILE_NOTES).format(
        name=topic.capitalize() + "State",
        other="use" + topic.capitalize(),
        lines=rng.randint(20, 640),
        line=rng.randint(10, 300),
        dir=rng.choice(T.DIRS),
    )
    return ("fact", f"file:{file}", text, [], None, topic)


def _edited(n: _Nugget, day: str) -> Spec:
    file, topic = _path(n)
    text = n.rng.choice(T.EDITS).format(name="calcTotal", other="computeTotals")
    return ("fact", f"edited:{file}", f"{text} ({day})", [], None, topic)


def _project(n: _Nugget, day: str) -> Spec:
    rng = n.rng
    item = _next(n, "project", T.PROJECT_FACTS)
    if item is not None:
        return ("fact", item[0], item[1], [], None, "deploy")
    if rng.random() < 0.5:
        env = rng.choice(T.PROJECT_ENV)
        return (
            "fact",
            f"project:env:{env}",
            f"set in Vercel and .env.local ({day})",
            [],
            None,
            "deploy",
        )
    package, version = rng.choice(T.PACKAGES)
    return ("fact", f"project:dep:{package}", version, [], None, "deploy")


def _decision(n: _Nugget, day: str) -> Spec:
    rng = n.rng
    text = rng.choice(T.DECISIONS)
    topic = rng.choice(T.TOPICS_WEB)
    body = f"Decision: {text}.\nWhy: agreed with Esteban on {day}; {rng.choice(T.WHYS)}"
    return ("note", f"project: ADR {text}", body, ["adr", topic], None, topic)


def _bug(n: _Nugget, day: str) -> Spec:
    rng = n.rng
    text = rng.choice(T.BUGS)
    topic = next((t for t in T.TOPICS_WEB if t in text), rng.choice(T.TOPICS_WEB))
    body = f"Seen {day}: {text}.\n{rng.choice(T.BUG_STATES)}"
    return ("note", f"project:bug: {text}", body, ["bug", topic], None, topic)


def _meeting(n: _Nugget, day: str) -> Spec:
    title, text = n.rng.choice(T.MEETINGS_ZH)
    meta = {"scope": "project"}
    return ("note", f"{title}（{day}）", text, ["meeting", "中文"], meta, "checkout")


def _style(n: _Nugget, day: str) -> Spec:
    title, text = n.rng.choice(T.STYLE_WEB)
    return ("note", title, text, ["conventions"], {"scope": "project"}, "style")


def _task(n: _Nugget, day: str) -> Spec:
    text = n.rng.choice(T.TASKS)
    return ("note", f"task: {text}", f"Opened {day}. {text}.", ["todo"], None, "orders")


def _retro(n: _Nugget, day: str) -> Spec:
    text = n.rng.choice(T.RETROS)
    return ("note", f"reflect: sprint retro {day}", text, ["retro"], None, "deploy")


def _web_session(n: _Nugget, day: str) -> Spec:
    rng = n.rng
    what = rng.choice(("branch", "goal", "failing-test"))
    value = {
        "branch": f"feat/{rng.choice(T.TOPICS_WEB)}-{rng.randint(100, 999)}",
        "goal": rng.choice(T.TASKS),
        "failing-test": f"tests/e2e/{rng.choice(T.TOPICS_WEB)}.spec.ts",
    }[what]
    return ("fact", f"session:{day}:{what}", value, [], None, "session")


def _web_scratch(n: _Nugget, day: str) -> Spec:
    key = f"_tmp:{n.rng.choice(('stacktrace', 'query-plan', 'diff'))}-{day}"
    return ("fact", key, "kept for this session only", [], None, "tmp")


WEBSHOP_KINDS: list[tuple[float, Maker]] = [
    (3.0, _read),
    (2.2, _edited),
    (0.8, _project),
    (0.4, _decision),
    (0.7, _bug),
    (0.4, _meeting),
    (0.15, _style),
    (0.4, _task),
    (0.25, _retro),
    (1.0, _web_session),
    (0.4, _web_scratch),
]


def _web_topic(directory: str) -> str:
    return (
        directory
        if directory in T.TOPICS_WEB
        else {"api": "orders", "jobs": "orders"}.get(directory, "deploy")
    )


HUBS: dict[str, list[tuple[str, str, list[str], dict[str, Any] | None]]] = {
    "astra": [
        (
            "Esteban — who he is",
            "Owner of Hoja Verde 绿叶茶铺 in Valencia; partner Lucía; cat Mochi.\n"
            "Learning Mandarin; climbs twice a week.",
            ["profile"],
            None,
        ),
        (
            "Astra — how I work with him",
            "Answer first, then details. Confirm before sending "
            "anything. Keep Spanish and Mandarin apart.",
            ["persona"],
            {"scope": "self"},
        ),
        (
            "People around Esteban",
            "Lucía, Carmen (mother), Ana (sister), Denis, Pablo, Wang Wei "
            "王伟, suppliers Jordi and Li Mei 李梅.",
            ["people"],
            None,
        ),
    ],
    "webshop": [
        (
            "project: architecture overview",
            "Next.js 15 front end, tRPC API, Postgres 16, Redis "
            "sessions, Stripe and Alipay 支付宝. Jobs run on a worker.",
            ["architecture"],
            None,
        ),
        (
            "project: deploy runbook",
            "pnpm deploy --prod from main; migrations first; watch "
            "Sentry for 15 minutes; roll back with the previous tag.",
            ["deploy"],
            None,
        ),
        (
            "project: checkout v2",
            "New checkout behind the flag new-checkout. 结账流程改版。",
            ["checkout"],
            None,
        ),
    ],
}


def generate_nuggets(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """About ``count`` notes (at least 40) of the nuggets ``NUGGETS``, in creation order; same
    arguments, same notes."""
    rng = random.Random(seed)
    count = max(40, count)
    built: list[_Nugget] = []
    for name in NUGGETS:
        quota = round(count * ASTRA_SHARE) if name == "astra" else count - len(built[0].notes)
        nugget = _Nugget(name, rng)
        _fill(nugget, quota)
        _link(nugget)
        _rewrite_and_hit(nugget)
        _hide_and_merge(nugget)
        built.append(nugget)
    notes = [note for nugget in built for note in nugget.notes]
    notes.sort(key=lambda note: note["createdAt"])  # creation order (stable: ties as made)
    for note in notes:
        note["vector"] = vector_spec(note)
    return notes


def _fill(nugget: _Nugget, quota: int) -> None:
    """The nugget's hubs, then ``quota`` notes in all, made session by session."""
    rng = nugget.rng
    sessions = _sessions(rng, nugget.name, max(6, quota // 24))
    first = sessions[0].at
    for offset, (title, content, tags, meta) in enumerate(HUBS[nugget.name]):
        nugget.create_note(title, content, tags, first + timedelta(minutes=offset), meta, "hub")
    per = max(1, (quota - len(nugget.notes)) // len(sessions))
    kinds = ASTRA_KINDS if nugget.name == "astra" else WEBSHOP_KINDS
    weights = [w for w, _ in kinds]
    for number, session in enumerate(sessions):
        last = number == len(sessions) - 1
        want = quota - len(nugget.notes) if last else rng.randint(max(1, per // 2), per * 3 // 2)
        day = f"{session.at:%Y-%m-%d}"
        at = session.at + timedelta(minutes=5)
        made = 0
        while made < want and len(nugget.notes) < quota:
            spec = rng.choices(kinds, weights)[0][1](nugget, day)
            if spec is None:
                continue
            kind, key, content, tags, meta, topic = spec
            at += timedelta(seconds=rng.randint(20, 900), milliseconds=rng.randint(0, 999))
            if kind == "fact":
                before = len(nugget.notes)
                nugget.remember(key, content, at, meta, topic)
                made += len(nugget.notes) - before  # a known key rewrites its fact
            else:
                nugget.create_note(key, content, tags, at, meta, topic)
                made += 1


def _link(nugget: _Nugget) -> None:
    """``addLink`` as the agent would: each note to a few earlier ones of its topic (clusters),
    some to a hub; both ends, ``updatedAt`` moved on."""
    rng = nugget.rng
    hubs = [n for n in nugget.notes if nugget.topic[n["id"]] == "hub"]
    by_topic: dict[str, list[dict[str, Any]]] = {}
    for note in nugget.notes:
        topic = nugget.topic[note["id"]]
        if topic in ("session", "tmp", "hub"):
            continue
        earlier = by_topic.setdefault(topic, [])
        if earlier and rng.random() < 0.45:
            for other in rng.sample(earlier[-12:], min(len(earlier[-12:]), rng.randint(1, 2))):
                _add_link(nugget, note, other, rng.choice(T.REASONS["cluster"]))
        if hubs and rng.random() < 0.12:
            _add_link(nugget, note, rng.choice(hubs), rng.choice(T.REASONS["hub"]))
        if note["kind"] == "note" and topic in T.TOPICS_WEB and rng.random() < 0.3:
            files = [f for f in earlier if f["kind"] == "fact" and f is not note]
            if files:
                _add_link(nugget, note, rng.choice(files), rng.choice(T.REASONS["file"]))
        earlier.append(note)


def _add_link(nugget: _Nugget, a: dict[str, Any], b: dict[str, Any], reason: str) -> None:
    if a is b:
        return
    at = max(nugget.at[a["id"]], nugget.at[b["id"]]) + timedelta(
        seconds=nugget.rng.randint(1, 3600)
    )
    text = normalise_whitespace(reason)
    for one, other in ((a, b), (b, a)):
        seen = {(link["to"], link["reason"].lower()) for link in one["links"]}
        if (other["id"], text.lower()) not in seen:
            one["links"].append({"to": other["id"], "reason": text, "createdAt": stamp(at)})
        _touch(one, at)


def _rewrite_and_hit(nugget: _Nugget) -> None:
    """Later sessions: some durable facts remembered again with new values (same id), and
    ``recordHit`` on the notes recall brings back (a few often, most never)."""
    rng = nugget.rng
    end = START + timedelta(weeks=WEEKS)
    sessions = _sessions(rng, nugget.name, 40)
    for note in nugget.notes:
        born = nugget.at[note["id"]]
        later = [s for s in sessions if s.at > born]
        if not later:
            continue
        if note["kind"] == "fact" and note["stability"] == "durable" and rng.random() < 0.08:
            at = born + (end - born) * rng.uniform(0.2, 0.9)
            value = note["content"] if "(" in note["content"] else f"{note['content']} (confirmed)"
            nugget.remember(note["sourceKey"], value, at, None, nugget.topic[note["id"]])
        if note["stability"] == "temporary" or rng.random() < 0.55:
            continue
        hits = min(len(later), int(rng.paretovariate(1.3)))
        for session in sorted(rng.sample(later, hits), key=lambda s: s.at):
            note["hits"] += 1
            note["lastHitSession"] = session.id
            _touch(note, session.at + timedelta(minutes=1), accessed=True)


def _hide_and_merge(nugget: _Nugget) -> None:
    """``deleteNote`` (soft) on some stale notes, and ``mergeNotes`` of a few duplicates into
    an earlier note of their topic (only notes nobody links, so no link needs moving)."""
    rng = nugget.rng
    end = START + timedelta(weeks=WEEKS)
    plain = [n for n in nugget.notes if nugget.topic[n["id"]] != "hub"]
    for note in rng.sample(plain, max(1, round(len(plain) * HIDDEN_SHARE))):
        at = datetime.fromisoformat(note["updatedAt"]) + (end - START) * rng.uniform(0.01, 0.1)
        note["hidden"] = True
        note["updatedAt"] = note["archivedAt"] = stamp(at)
    linked = {link["to"] for n in nugget.notes for link in n["links"]}
    free = [n for n in plain if n["kind"] == "note" and not n["hidden"] and n["id"] not in linked]
    for source in rng.sample(free, min(len(free), max(1, round(len(plain) * MERGED_SHARE)))):
        topic = nugget.topic[source["id"]]
        targets = [
            n
            for n in nugget.notes
            if nugget.topic[n["id"]] == topic
            and n is not source
            and n["kind"] == "note"
            and not n["hidden"]
            and nugget.at[n["id"]] < nugget.at[source["id"]]
        ]
        if targets and not source["hidden"]:
            target = rng.choice(targets)
            last = max(target["updatedAt"], source["updatedAt"])  # after every earlier write
            at = datetime.fromisoformat(last) + timedelta(hours=rng.uniform(1, 48))
            _merge(target, source, at)


def _merge(target: dict[str, Any], source: dict[str, Any], at: datetime) -> None:
    when = stamp(at)
    lines = [*target["content"].split("\n"), *source["content"].split("\n")]
    target["content"] = "\n".join(unique(line for line in lines if line))
    target["tags"] = unique([*target["tags"], *source["tags"]])
    target["links"] += [
        link for link in source["links"] if link["to"] not in (target["id"], source["id"])
    ]
    target["hits"] += source["hits"]
    target["updatedAt"] = max(target["updatedAt"], when)
    target["lastRewrittenAt"] = target["updatedAt"]
    source["hidden"] = True
    source["updatedAt"] = source["archivedAt"] = when
    source["links"] = [link for link in source["links"] if link["to"] != target["id"]]
    source["links"].append({"to": target["id"], "reason": "merged duplicate", "createdAt": when})


def load_nuggets_demo(store: MemoryStore, count: int, seed: int = 1) -> ChangeSet:
    """Write the demo's notes (``generate_nuggets``) into ``store`` in one transaction (one
    ChangeSet, one undo step), with the counters ``remember`` keeps per fact (its hits come
    from ``recordHit``, which never feeds them). ``BAD_ARGS`` when the store already holds
    nodes (nothing is written then)."""
    with store.reading() as graph:
        held = len(graph.nodes)
    if held:
        raise MemgraphError(
            "BAD_ARGS",
            f"the store already holds {held} nodes; write the Nuggets demo into a new store",
        )
    notes = generate_nuggets(count, seed)
    with store.storage.transaction(OpKind.BATCH, "Nuggets demo") as tx:
        if tx.graph.nodes:
            raise MemgraphError("BAD_ARGS", "the store filled meanwhile; nothing was written")
        for note in notes:
            stage_note(tx, note)
        for note in notes:  # links to notes made later: their edges now that every note is in
            if note["links"]:
                stage_note(tx, note)
            if note["kind"] == "fact":  # Nuggets' own fact list, as remember leaves it
                key = note["sourceKey"]
                counters = {"key": key, "hits": 0, "lastHitSession": ""}
                tx.set_meta(fact_meta_key(note["nuggetName"], key), counters)
    assert tx.changeset is not None
    return tx.changeset
