"""``memgraph demo --membrane``: a deterministic Membrane memory, as a coding and assistant agent
would have left it after ten weeks of sessions.

Records in Membrane's JSON (``pkg/schema``, keys in Go's field order), made session by session:
- entities (people, projects, repositories, services, tools, files, issues, concepts) with
  aliases, types and identifiers; a few dozen named ones get most mentions, the rest are the
  long tail of files and issues a project accumulates;
- episodic records of sessions (a timeline, tool calls, an outcome) mentioning entities;
- semantic facts ``subject predicate object`` about entities (``subject_entity`` /
  ``object_entity``), supported by the episodes they were learnt in (``derived_from``,
  ``supports``), a few contested or superseded;
- competences (triggers, a recipe, performance stats) derived from episodes and depending on
  tools; plan graphs (nodes, edges, metrics) depending on competences;
- working records of open threads (state, next actions) about projects and plans.
Sensitivities over all five levels (credentials and personal matters high or hyper), scopes per
project or person plus unscoped records, salience and confidence spread, created / updated
stamps and audit logs. Same arguments, same records. Written through the importer
(``records_file.install_records``): one transaction, one undo step.
"""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.membrane.records_file import check_document, install_records
from memgraph_gui.core.storage.store import Store

START = datetime(2026, 9, 14, 7, 0, tzinfo=UTC)
DAYS = 70
SCOPES = ("project-auth", "project-webshop", "team-infra", "personal")
UNSCOPED_SHARE = 0.3
SHARES = (  # memory type, share of the records after the named entities
    ("episodic", 0.34),
    ("semantic", 0.30),
    ("entity", 0.10),
    ("working", 0.12),
    ("competence", 0.08),
    ("plan_graph", 0.06),
)
SENSITIVITY_WEIGHTS = {"public": 14, "low": 34, "medium": 30, "high": 16, "hyper": 6}

# (canonical name, primary type, aliases, scope, sensitivity)
NAMED: tuple[tuple[str, str, tuple[str, ...], str, str], ...] = (
    ("Maya Chen", "Person", ("Maya", "mchen"), "", "low"),
    ("Jonas Weber", "Person", ("Jonas", "jweber"), "", "low"),
    ("Priya Raman", "Person", ("Priya", "praman"), "project-webshop", "low"),
    ("Tomás Ortega", "Person", ("Tomas", "tortega"), "team-infra", "low"),
    ("Alex Kim", "Person", ("the user", "Alex"), "personal", "medium"),
    ("Dr. Sato", "Person", ("Alex's doctor",), "personal", "hyper"),
    ("auth-service", "Project", ("auth", "the auth service"), "project-auth", "public"),
    ("webshop", "Project", ("shop", "the storefront"), "project-webshop", "public"),
    ("infra", "Project", ("infrastructure", "platform"), "team-infra", "public"),
    ("acme/auth-service", "Repository", ("auth repo",), "project-auth", "public"),
    ("acme/webshop", "Repository", ("shop repo",), "project-webshop", "public"),
    ("token-issuer", "Service", ("issuer", "JWT issuer"), "project-auth", "low"),
    ("checkout-api", "Service", ("checkout",), "project-webshop", "low"),
    ("payments-gateway", "Service", ("payments", "Stripe bridge"), "project-webshop", "medium"),
    ("postgres-main", "Database", ("main db", "pg"), "team-infra", "medium"),
    ("redis-cache", "Database", ("redis", "cache"), "team-infra", "low"),
    ("pytest", "Tool", ("py.test",), "", "public"),
    ("docker", "Tool", ("docker compose",), "", "public"),
    ("terraform", "Tool", ("tf",), "team-infra", "public"),
    ("kubectl", "Tool", ("k8s cli",), "team-infra", "public"),
    ("pnpm", "Tool", ("pnpm install",), "project-webshop", "public"),
    ("go", "Runtime", ("golang",), "", "public"),
    ("node 22", "Runtime", ("node",), "project-webshop", "public"),
    ("staging", "Environment", ("stage", "staging cluster"), "team-infra", "low"),
    ("production", "Environment", ("prod",), "team-infra", "medium"),
    ("prod database password", "Concept", ("db password",), "team-infra", "hyper"),
    ("signing key rotation", "Concept", ("key rotation",), "project-auth", "high"),
    ("rate limiting", "Concept", ("throttling",), "", "public"),
    ("OAuth2", "Concept", ("oauth",), "project-auth", "public"),
    ("flaky tests", "Concept", ("flakes",), "", "public"),
    ("Alex's health", "Concept", ("medical",), "personal", "hyper"),
    ("Alex's schedule", "Concept", ("calendar",), "personal", "medium"),
)
_KIND = {  # primary type -> Membrane's interpretation entity kind
    "Person": "person",
    "Tool": "tool",
    "Runtime": "tool",
    "Project": "project",
    "Repository": "project",
    "File": "file",
}
_FILE_DIRS = ("src/auth", "src/shop", "src/checkout", "infra/modules", "tests", "cmd/issuer")
_FILE_NAMES = ("token", "handler", "session", "cart", "models", "routes", "config", "client")
_PREDICATES = (
    ("owns", "Person", "Project"),
    ("maintains", "Person", "Service"),
    ("uses", "Project", "Tool"),
    ("depends_on", "Service", "Database"),
    ("deploys_to", "Service", "Environment"),
    ("lives_in", "File", "Repository"),
    ("tested_with", "Project", "Tool"),
    ("prefers", "Person", "Tool"),
    ("affects", "Issue", "Service"),
    ("runs_on", "Project", "Runtime"),
)
_EVENTS = (
    ("user_message", "asked to {verb} {a}"),
    ("tool_call", "ran {tool} on {a}"),
    ("observation", "{a} {state} after the change"),
    ("tool_call", "edited {a}"),
    ("outcome", "{verb} {a}: {result}"),
)
_VERBS = ("fix", "review", "deploy", "refactor", "debug", "document", "upgrade", "profile")
_STATES = ("passes", "fails", "is slower", "is green", "times out", "builds")
_RESULTS = ("done", "blocked on review", "partly done", "rolled back", "merged")
_SKILLS = (
    ("fix a failing build", ("build fails", "CI red")),
    ("rotate signing keys", ("key expires", "rotation due")),
    ("deploy to staging", ("merge to main", "release cut")),
    ("bisect a flaky test", ("test flakes", "intermittent failure")),
    ("migrate a database schema", ("schema change", "new column")),
    ("triage an incident", ("pager alert", "error spike")),
    ("update dependencies", ("security advisory", "outdated lockfile")),
    ("write a summary for Alex", ("end of day", "weekly review")),
)
_INTENTS = (
    "ship the checkout redesign",
    "rotate the token issuer's keys",
    "move the cache to a managed redis",
    "cut the weekly release",
    "reduce flaky tests below 1%",
    "plan Alex's week",
)
_TASK_STATES = ("planning", "executing", "blocked", "waiting", "done")


def _stamp(at: datetime) -> str:
    """``at`` as Go's ``time.Time`` marshals a UTC instant (RFC 3339, ``Z``)."""
    return at.isoformat(timespec="seconds")[:19] + "Z"


class _Maker:
    """The random source and what the records made so far hold (deterministic per seed)."""

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)
        self.records: list[dict[str, Any]] = []
        self.named: list[dict[str, Any]] = []  # the named entities (most mentions)
        self.tail: list[dict[str, Any]] = []  # long-tail entities (files, issues, ...)
        self.episodes: list[dict[str, Any]] = []
        self.competences: list[dict[str, Any]] = []
        self.plans: list[dict[str, Any]] = []
        self.facts: list[dict[str, Any]] = []
        self._weights: list[float] | None = None
        self._surfaces: dict[str, list[str]] = {}

    def surfaces(self, entity: dict[str, Any]) -> list[str]:
        """The names an entity is mentioned by: its canonical name and aliases."""
        found = self._surfaces.get(entity["id"])
        if found is None:
            payload = entity["payload"]
            found = self._surfaces[entity["id"]] = [payload["canonical_name"], *payload["aliases"]]
        return found

    def uuid(self) -> str:
        return str(uuid.UUID(int=self.rnd.getrandbits(128), version=4))

    def sensitivity(self, floor: str = "public") -> str:
        levels = list(SENSITIVITY_WEIGHTS)
        allowed = levels[levels.index(floor) :]
        return self.rnd.choices(allowed, [SENSITIVITY_WEIGHTS[s] for s in allowed])[0]

    def scope(self, hint: str = "") -> str:
        if hint and self.rnd.random() < 0.7:
            return hint
        return "" if self.rnd.random() < UNSCOPED_SHARE else self.rnd.choice(SCOPES)

    def entity(self) -> dict[str, Any]:
        """A mentioned entity: a named one four times in five (the first ones most)."""
        if self.tail and self.rnd.random() < 0.2:
            return self.rnd.choice(self.tail)
        if self._weights is None or len(self._weights) != len(self.named):
            total, cumulative = 0.0, []
            for rank in range(len(self.named)):
                total += 1 / (rank + 3)
                cumulative.append(total)
            self._weights = cumulative
        return self.rnd.choices(self.named, cum_weights=self._weights)[0]

    def base(
        self,
        type_: str,
        at: datetime,
        sensitivity: str,
        scope: str,
        tags: list[str],
        *,
        salience: float | None = None,
        confidence: float | None = None,
        session: str = "",
    ) -> dict[str, Any]:
        rnd = self.rnd
        updated = at + timedelta(minutes=rnd.randint(0, 60 * 24 * 5)) if rnd.random() < 0.3 else at
        record: dict[str, Any] = {
            "id": self.uuid(),
            "type": type_,
            "sensitivity": sensitivity,
            "confidence": round(confidence if confidence is not None else rnd.uniform(0.5, 1), 3),
            "salience": round(salience if salience is not None else rnd.betavariate(2, 3), 3),
        }
        if scope:
            record["scope"] = scope
        if tags:
            record["tags"] = tags
        record["created_at"] = _stamp(at)
        record["updated_at"] = _stamp(updated)
        reinforced = updated + timedelta(hours=rnd.randint(0, 24 * 10))
        record["lifecycle"] = {
            "decay": {
                "curve": "exponential",
                "half_life_seconds": rnd.choice((86_400, 604_800, 2_592_000)),
            },
            "last_reinforced_at": _stamp(reinforced),
            **({"pinned": True} if rnd.random() < 0.03 else {}),
            "deletion_policy": rnd.choice(("auto_prune", "auto_prune", "manual_only", "never")),
        }
        sources = [
            {
                "kind": rnd.choice(("event", "tool_call", "observation", "artifact")),
                "ref": session or f"import:{rnd.getrandbits(32):08x}",
                "created_by": "agent:build-bot" if scope != "personal" else "agent:astra",
                "timestamp": _stamp(at),
            }
        ]
        record["provenance"] = {"sources": sources, "created_by": sources[0]["created_by"]}
        return record

    def finish(
        self,
        record: dict[str, Any],
        relations: list[tuple[str, dict[str, Any]]],
        payload: dict[str, Any],
        mentions: list[dict[str, Any]],
        at: datetime,
    ) -> dict[str, Any]:
        rnd = self.rnd
        seen: set[tuple[str, str]] = set()
        out = []
        for predicate, target in relations:
            key = (predicate, target["id"])
            if key in seen or target["id"] == record["id"]:
                continue
            seen.add(key)
            relation: dict[str, Any] = {"predicate": predicate, "target_id": target["id"]}
            if rnd.random() < 0.6:
                relation["weight"] = round(rnd.uniform(0.3, 1), 2)
            relation["created_at"] = record["created_at"]
            out.append(relation)
        if out:
            record["relations"] = out
        record["payload"] = payload
        if mentions:
            record["interpretation"] = {
                "status": "resolved",
                "mentions": [
                    {
                        "surface": rnd.choice(self.surfaces(m)),
                        "entity_kind": _KIND.get(m["payload"]["primary_type"], "other"),
                        "canonical_entity_id": m["id"],
                        "confidence": round(rnd.uniform(0.6, 1), 2),
                    }
                    for m in mentions
                ],
                "extraction_confidence": round(rnd.uniform(0.5, 1), 2),
            }
        audit = [
            {
                "action": "create",
                "actor": record["provenance"]["created_by"],
                "timestamp": record["created_at"],
                "rationale": "Initial creation",
            }
        ]
        if record["updated_at"] != record["created_at"]:
            audit.append(
                {
                    "action": rnd.choice(("revise", "reinforce", "reinforce", "merge")),
                    "actor": rnd.choice(("agent:build-bot", "user:alex", "system")),
                    "timestamp": record["updated_at"],
                    "rationale": rnd.choice(
                        ("seen again in a later session", "corrected by the user", "merged")
                    ),
                }
            )
        record["audit_log"] = audit
        self.records.append(record)
        return record

    # -- the record kinds ------------------------------------------------------------------------
    def named_entity(self, spec: tuple[str, str, tuple[str, ...], str, str]) -> None:
        name, primary, aliases, scope, sensitivity = spec
        at = START + timedelta(minutes=len(self.records))
        record = self.base(
            "entity", at, sensitivity, scope, [primary.lower()], salience=self.rnd.uniform(0.6, 1)
        )
        payload = {
            "kind": "entity",
            "canonical_name": name,
            "primary_type": primary,
            "types": [primary],
            "aliases": list(aliases),
            "identifiers": [{"namespace": "membrane", "value": name.lower().replace(" ", "-")}],
            "summary": f"{primary} {name}, known since the first week",
        }
        self.named.append(self.finish(record, [], payload, [], at))

    def tail_entity(self, at: datetime) -> None:
        rnd = self.rnd
        if rnd.random() < 0.6:
            name = f"{rnd.choice(_FILE_DIRS)}/{rnd.choice(_FILE_NAMES)}_{len(self.tail)}.py"
            primary, aliases = "File", [name.rsplit("/", 1)[1]]
            relations = [("lives_in", self.named[9 + rnd.randrange(2)])]
        else:
            number = 1000 + len(self.tail)
            name, primary, aliases = f"ISSUE-{number}", "Issue", [f"#{number}"]
            relations = [("affects", self.named[11 + rnd.randrange(3)])]
        scope = self.scope(relations[0][1].get("scope", ""))
        record = self.base("entity", at, self.sensitivity(), scope, [primary.lower()])
        payload = {
            "kind": "entity",
            "canonical_name": name,
            "primary_type": primary,
            "aliases": aliases,
            "summary": f"{primary} seen in session work",
        }
        self.tail.append(self.finish(record, relations, payload, [], at))

    def episode(self, at: datetime, session: str) -> None:
        rnd = self.rnd
        about = [self.entity() for _ in range(rnd.randint(1, 4))]
        scope = self.scope(about[0].get("scope", ""))
        floor = "medium" if scope == "personal" else "public"
        record = self.base(
            "episodic", at, self.sensitivity(floor), scope, ["session"], session=session
        )
        timeline = []
        tools = []
        for step, (kind, text) in enumerate(_EVENTS[: rnd.randint(2, len(_EVENTS))]):
            target = rnd.choice(about)["payload"]["canonical_name"]
            tool = rnd.choice(self.named[16:21])["payload"]["canonical_name"]
            summary = text.format(
                verb=rnd.choice(_VERBS),
                a=target,
                tool=tool,
                state=rnd.choice(_STATES),
                result=rnd.choice(_RESULTS),
            )
            t = at + timedelta(minutes=3 * step)
            timeline.append(
                {"t": _stamp(t), "event_kind": kind, "ref": f"{session}#{step}", "summary": summary}
            )
            if kind == "tool_call":
                tools.append(
                    {
                        "id": f"call-{step}",
                        "tool": tool,
                        "args": {"target": target},
                        "timestamp": _stamp(t),
                    }
                )
        payload: dict[str, Any] = {"kind": "episodic", "timeline": timeline}
        if tools:
            payload["tool_graph"] = tools
        payload["outcome"] = rnd.choice(("success", "success", "partial", "failure"))
        relations = [("mentions_entity", e) for e in about]
        if self.episodes and rnd.random() < 0.3:
            relations.append(("follows", self.episodes[-1]))
        self.episodes.append(self.finish(record, relations, payload, about, at))

    def fact(self, at: datetime, session: str) -> None:
        rnd = self.rnd
        predicate, _s, _o = rnd.choice(_PREDICATES)
        subject, obj = self.entity(), self.entity()
        scope = self.scope(subject.get("scope", ""))
        personal = scope == "personal" or "personal" in (subject.get("scope"), obj.get("scope"))
        record = self.base(
            "semantic",
            at,
            self.sensitivity("medium" if personal else "public"),
            scope,
            ["fact", predicate],
            session=session,
        )
        payload: dict[str, Any] = {
            "kind": "semantic",
            "subject": subject["payload"]["canonical_name"],
            "predicate": predicate,
            "object": obj["payload"]["canonical_name"],
            "validity": {"mode": rnd.choice(("global", "global", "conditional", "timeboxed"))},
        }
        relations = [("subject_entity", subject), ("object_entity", obj)]
        if self.episodes:
            source = self.episodes[-rnd.randint(1, min(20, len(self.episodes)))]
            relations.append(("derived_from", source))
            payload["evidence"] = [
                {"source_type": "episodic", "source_id": source["id"], "timestamp": _stamp(at)}
            ]
            if rnd.random() < 0.4:
                relations.append(("supports", source))
        if self.facts and rnd.random() < 0.05:
            older = rnd.choice(self.facts[-200:])
            payload["revision"] = {"supersedes": older["id"], "status": "active"}
            relations.append(("supersedes", older))
        self.facts.append(self.finish(record, relations, payload, [subject, obj], at))

    def competence(self, at: datetime, session: str) -> None:
        rnd = self.rnd
        skill, signals = rnd.choice(_SKILLS)
        tools = rnd.sample(self.named[16:21], rnd.randint(1, 3))
        personal = skill.endswith("Alex")
        scope = "personal" if personal else self.scope()
        record = self.base(
            "competence",
            at,
            self.sensitivity("medium" if personal else "public"),
            scope,
            ["skill"],
            confidence=rnd.uniform(0.4, 1),
            session=session,
        )
        successes, failures = rnd.randint(0, 40), rnd.randint(0, 12)
        performance: dict[str, Any] = {}
        if successes:
            performance["success_count"] = successes
        if failures:
            performance["failure_count"] = failures
        if successes + failures:
            performance["success_rate"] = round(successes / (successes + failures), 3)
        performance["avg_latency_ms"] = round(rnd.uniform(200, 90_000), 1)
        performance["last_used_at"] = record["updated_at"]
        payload = {
            "kind": "competence",
            "skill_name": f"{skill} #{len(self.competences)}",
            "triggers": [{"signal": s} for s in signals],
            "recipe": [
                {"step": f"step {i + 1} of {skill}", "tool": t["payload"]["canonical_name"]}
                for i, t in enumerate(tools)
            ],
            "required_tools": [t["payload"]["canonical_name"] for t in tools],
            "failure_modes": ["timeout"] if rnd.random() < 0.5 else [],
            "performance": performance,
            "version": f"1.{rnd.randint(0, 9)}",
        }
        if not payload["failure_modes"]:
            del payload["failure_modes"]
        relations = [("depends_on", t) for t in tools]
        if self.episodes:
            relations.append(("derived_from", rnd.choice(self.episodes[-50:])))
        self.competences.append(self.finish(record, relations, payload, tools, at))

    def plan(self, at: datetime, session: str) -> None:
        rnd = self.rnd
        intent = rnd.choice(_INTENTS)
        personal = intent.endswith("week")
        scope = "personal" if personal else self.scope()
        record = self.base(
            "plan_graph",
            at,
            self.sensitivity("medium" if personal else "public"),
            scope,
            ["plan"],
            session=session,
        )
        steps = rnd.randint(2, 6)
        metrics: dict[str, Any] = {}
        executions = rnd.randint(0, 30)
        if executions:
            metrics = {
                "avg_latency_ms": round(rnd.uniform(1_000, 600_000), 1),
                "failure_rate": round(rnd.uniform(0, 0.5), 3),
                "execution_count": executions,
                "last_executed_at": record["updated_at"],
            }
        payload: dict[str, Any] = {
            "kind": "plan_graph",
            "plan_id": f"plan-{len(self.plans)}",
            "version": "1",
            "intent": intent,
            "nodes": [{"id": f"n{i}", "op": rnd.choice(_VERBS)} for i in range(steps)],
            "edges": [
                {"from": f"n{i}", "to": f"n{i + 1}", "kind": rnd.choice(("data", "control"))}
                for i in range(steps - 1)
            ],
        }
        if metrics:
            payload["metrics"] = metrics
        relations = []
        for competence in rnd.sample(self.competences[-30:], min(2, len(self.competences))):
            relations.append(("depends_on", competence))
        about = [self.entity()]
        relations.append(("mentions_entity", about[0]))
        self.plans.append(self.finish(record, relations, payload, about, at))

    def working(self, at: datetime, session: str) -> None:
        rnd = self.rnd
        about = [self.entity() for _ in range(rnd.randint(1, 2))]
        scope = self.scope(about[0].get("scope", ""))
        record = self.base(
            "working",
            at,
            self.sensitivity("medium" if scope == "personal" else "public"),
            scope,
            ["thread"],
            salience=rnd.uniform(0.3, 1),
            session=session,
        )
        name = about[0]["payload"]["canonical_name"]
        payload: dict[str, Any] = {
            "kind": "working",
            "thread_id": f"thread-{session}",
            "state": rnd.choice(_TASK_STATES),
            "next_actions": [f"{rnd.choice(_VERBS)} {name}"],
            "open_questions": [f"who owns {name}?"] if rnd.random() < 0.3 else [],
            "context_summary": f"{rnd.choice(_VERBS).capitalize()} {name} ({session})",
        }
        if not payload["open_questions"]:
            del payload["open_questions"]
        relations = [("mentions_entity", e) for e in about]
        if self.plans and rnd.random() < 0.4:
            relations.append(("depends_on", rnd.choice(self.plans[-20:])))
        if self.episodes:
            relations.append(("derived_from", self.episodes[-1]))
        self.finish(record, relations, payload, about, at)


def generate_membrane(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """``count`` records (at least the named entities: ``len(NAMED)``), deterministic per
    ``seed``, in creation order (every relation's target comes earlier). Pure."""
    maker = _Maker(seed)
    for spec in NAMED:
        maker.named_entity(spec)
    rest = max(0, count - len(NAMED))
    kinds = [kind for kind, _share in SHARES]
    weights = [share for _kind, share in SHARES]
    makers = {
        "episodic": maker.episode,
        "semantic": maker.fact,
        "working": maker.working,
        "competence": maker.competence,
        "plan_graph": maker.plan,
    }
    rnd = maker.rnd
    span = timedelta(days=DAYS).total_seconds()
    session, per_session = "s0", 0
    for index in range(rest):
        at = START + timedelta(seconds=int(span * (index + 1) / (rest + 1)))
        if per_session <= 0:
            session, per_session = f"s{index}", rnd.randint(4, 30)
        per_session -= 1
        kind = rnd.choices(kinds, weights)[0]
        if kind != "episodic" and not maker.episodes:
            kind = "episodic"
        if kind == "entity":
            maker.tail_entity(at)
        else:
            makers[kind](at, session)
    return maker.records[:count] if count < len(NAMED) else maker.records


def load_membrane_demo(store: Store, count: int, seed: int = 1) -> ChangeSet | None:
    """Write ``generate_membrane(count, seed)`` into ``store`` beside what it holds, through
    the importer: one transaction, one undo step ``Membrane demo (N records)``.
    ``BAD_IMPORT`` when a record's id is already a node of the store (the demo was written
    before): nothing is written then."""
    records = generate_membrane(count, seed)
    loaded = check_document(records)
    label = f"Membrane demo ({len(records):,} records)"
    return install_records(store, loaded, label=label).changes
