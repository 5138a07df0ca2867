"""What an import would change, shown before it changes anything, and kept with the store after.

``ImportReport`` names every repair the reading of a Luker file made (nodes dropped, nodes whose key
differs from their ``id``, links dropped or moved with both ends, parent links repaired) and, once
compared with the store it goes into (``ImportPlan``), what is new: node types the schema does not
know, and how many nodes and links are added or replace the current ones. The contract, pinned by
tests: every node and every link of the file is either imported as it was or named here.

Pure data: built on any thread, frozen, ``to_json``/``from_json`` round-trip, ``text_lines`` for the
CLI and the window (plain text; titles are never markup).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def count(n: int, one: str, many: str) -> str:
    """``"1 node"``, ``"2,000 nodes"``."""
    return f"{n:,} {one if n == 1 else many}"


REPORT_META_KEY = "importReport"
"""The store meta key the last import's report is kept under (written with the import's rows)."""


@dataclass(frozen=True)
class NodeRef:
    """A node as the report names it: its id, and its title when the file has such a node."""

    id: str
    title: str = ""

    def text(self) -> str:
        """``"Title" (id)``; the id alone when the node has no title of its own; ``id (no such
        node)`` when the file has no node by that id."""
        if not self.id:
            return "(blank)"
        if not self.title:
            return f"{self.id} (no such node)"
        return self.id if self.title == self.id else f"“{self.title}” ({self.id})"

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "title": self.title}


@dataclass(frozen=True)
class LinkIssue:
    """A link of the file (``index`` in its ``edges``) that was dropped, or moved to ``moved_to``."""

    index: int
    relation: str
    source: NodeRef
    target: NodeRef
    reason: str
    moved_to: tuple[NodeRef, NodeRef] | None = None

    def text(self) -> str:
        link = f"edges[{self.index}] {self.source.text()} —{self.relation}→ {self.target.text()}"
        if self.moved_to is None:
            return f"{link}: {self.reason}"
        source, target = self.moved_to
        return f"{link} now {source.text()} → {target.text()}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        out = {
            "index": self.index,
            "relation": self.relation,
            "from": self.source.to_json(),
            "to": self.target.to_json(),
            "reason": self.reason,
        }
        if self.moved_to is not None:
            out["movedTo"] = {"from": self.moved_to[0].to_json(), "to": self.moved_to[1].to_json()}
        return out


@dataclass(frozen=True)
class NodeIssue:
    """A repair about one node: ``what`` was done, ``detail`` about which other node."""

    node: NodeRef
    what: str
    detail: str = ""

    def text(self) -> str:
        return f"{self.node.text()}: {self.what}" + (f" ({self.detail})" if self.detail else "")

    def to_json(self) -> dict[str, Any]:
        return {"node": self.node.to_json(), "what": self.what, "detail": self.detail}


@dataclass(frozen=True)
class ImportPlan:
    """What writing the import does to one store, as seen when it was checked."""

    replace: bool
    """True when the store holds nodes: they are all replaced (the old file kept as ``.bak``)."""
    current_nodes: int
    current_links: int
    types: tuple[tuple[str, int], ...]
    """Every node type of the import with its node count, most nodes first."""
    unknown_types: tuple[str, ...]
    """Types the schema the store will have does not define (drawn with a default look)."""
    schema_replaced: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "replace": self.replace,
            "currentNodes": self.current_nodes,
            "currentLinks": self.current_links,
            "types": [{"type": t, "nodes": n} for t, n in self.types],
            "unknownTypes": list(self.unknown_types),
            "schemaReplaced": self.schema_replaced,
        }


@dataclass(frozen=True)
class ImportReport:
    """Every repair made while reading a Luker file, and (with ``plan``) what importing it adds."""

    source: str
    file_nodes: int
    """Nodes in the file (after replaying an operation log, when it is one)."""
    file_links: int
    nodes: int
    """Nodes that will be imported."""
    links: int
    dropped_nodes: tuple[NodeIssue, ...] = ()
    key_mismatches: tuple[NodeIssue, ...] = ()
    dropped_links: tuple[LinkIssue, ...] = ()
    moved_links: tuple[LinkIssue, ...] = ()
    parent_repairs: tuple[NodeIssue, ...] = ()
    notes: tuple[str, ...] = ()
    plan: ImportPlan | None = field(default=None)

    @property
    def repairs(self) -> int:
        """How many individual repairs the file needed (0: imported exactly as written)."""
        return (
            len(self.dropped_nodes)
            + len(self.key_mismatches)
            + len(self.dropped_links)
            + len(self.moved_links)
            + len(self.parent_repairs)
        )

    def summary_lines(self) -> list[str]:
        """The counts: what is added or replaced, and how much was repaired (the dialog's top)."""
        out = []
        plan = self.plan
        adding = f"{count(self.nodes, 'node', 'nodes')} and {count(self.links, 'link', 'links')}"
        if plan is not None and plan.replace:
            out.append(
                f"Replaces this memory's {count(plan.current_nodes, 'node', 'nodes')} and "
                f"{count(plan.current_links, 'link', 'links')} with {adding}."
            )
        else:
            out.append(f"Adds {adding}.")
        out.append(
            f"The file holds {count(self.file_nodes, 'node', 'nodes')} and "
            f"{count(self.file_links, 'link', 'links')}."
        )
        if plan is not None:
            out.append(
                count(len(plan.types), "node type", "node types")
                + (f", {len(plan.unknown_types):,} not in the schema" if plan.unknown_types else "")
                + (" (the file's schema replaces this memory's)" if plan.schema_replaced else "")
                + "."
            )
        if self.repairs:
            parts = [
                count(len(self.dropped_nodes), "node dropped", "nodes dropped"),
                count(
                    len(self.key_mismatches),
                    "key differing from its id",
                    "keys differing from their id",
                ),
                count(len(self.dropped_links), "link dropped", "links dropped"),
                count(len(self.moved_links), "link moved", "links moved"),
                count(len(self.parent_repairs), "parent link repaired", "parent links repaired"),
            ]
            out.append("Repairs: " + ", ".join(p for p in parts if not p.startswith("0 ")) + ".")
        else:
            out.append("No repairs: everything is imported as the file has it.")
        return out

    def detail_lines(self) -> list[str]:
        """Every repair and everything new, one line each, under a heading per kind."""
        out: list[str] = []

        def section(title: str, lines: list[str]) -> None:
            if lines:
                out.append(f"{title} ({len(lines):,}):")
                out.extend(f"  {line}" for line in lines)

        plan = self.plan
        if plan is not None:
            unknown = set(plan.unknown_types)
            new = "  (new: not in the schema)"
            section(
                "Node types",
                [
                    f"{t}: {count(n, 'node', 'nodes')}" + (new if t in unknown else "")
                    for t, n in plan.types
                ],
            )
        section("Notes", list(self.notes))
        section("Nodes not imported", [i.text() for i in self.dropped_nodes])
        section("Node keys that differ from the node's id", [i.text() for i in self.key_mismatches])
        section("Links not imported", [i.text() for i in self.dropped_links])
        section("Links moved to other ends", [i.text() for i in self.moved_links])
        section("Parent links repaired", [i.text() for i in self.parent_repairs])
        return out

    def text_lines(self) -> list[str]:
        """The whole report as plain text (``summary_lines``, a blank line, ``detail_lines``)."""
        details = self.detail_lines()
        head = [f"Import of {self.source}" if self.source else "Import", *self.summary_lines()]
        return [*head, "", *details] if details else head

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "fileNodes": self.file_nodes,
            "fileLinks": self.file_links,
            "nodes": self.nodes,
            "links": self.links,
            "repairs": self.repairs,
            "droppedNodes": [i.to_json() for i in self.dropped_nodes],
            "keyMismatches": [i.to_json() for i in self.key_mismatches],
            "droppedLinks": [i.to_json() for i in self.dropped_links],
            "movedLinks": [i.to_json() for i in self.moved_links],
            "parentRepairs": [i.to_json() for i in self.parent_repairs],
            "notes": list(self.notes),
            "plan": None if self.plan is None else self.plan.to_json(),
        }

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> ImportReport:
        """The report ``to_json`` wrote (as kept in the store). ``KeyError``/``TypeError`` when
        ``doc`` is not one."""

        def ref(item: Mapping[str, Any]) -> NodeRef:
            return NodeRef(str(item["id"]), str(item.get("title", "")))

        def node(item: Mapping[str, Any]) -> NodeIssue:
            return NodeIssue(ref(item["node"]), str(item["what"]), str(item.get("detail", "")))

        def link(item: Mapping[str, Any]) -> LinkIssue:
            moved = item.get("movedTo")
            return LinkIssue(
                int(item["index"]),
                str(item["relation"]),
                ref(item["from"]),
                ref(item["to"]),
                str(item["reason"]),
                None if moved is None else (ref(moved["from"]), ref(moved["to"])),
            )

        raw_plan = doc.get("plan")
        plan = None
        if raw_plan is not None:
            plan = ImportPlan(
                bool(raw_plan["replace"]),
                int(raw_plan["currentNodes"]),
                int(raw_plan["currentLinks"]),
                tuple((str(t["type"]), int(t["nodes"])) for t in raw_plan["types"]),
                tuple(str(t) for t in raw_plan["unknownTypes"]),
                bool(raw_plan.get("schemaReplaced")),
            )
        return ImportReport(
            source=str(doc["source"]),
            file_nodes=int(doc["fileNodes"]),
            file_links=int(doc["fileLinks"]),
            nodes=int(doc["nodes"]),
            links=int(doc["links"]),
            dropped_nodes=tuple(node(i) for i in doc["droppedNodes"]),
            key_mismatches=tuple(node(i) for i in doc["keyMismatches"]),
            dropped_links=tuple(link(i) for i in doc["droppedLinks"]),
            moved_links=tuple(link(i) for i in doc["movedLinks"]),
            parent_repairs=tuple(node(i) for i in doc["parentRepairs"]),
            notes=tuple(str(n) for n in doc["notes"]),
            plan=plan,
        )
