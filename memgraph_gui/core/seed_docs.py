"""What each method of ``jsonapi.METHODS`` does, in the seeds' words: the ``memgraph mcp`` tools' text.

Pure data. ``TOOLS[name]`` is a tool's description: the seed's signature line in the seed's own
notation where it has one, then its contract condensed (what it returns, ordering, defaults,
refusals with their error codes, when to use it). Methods that are ours, not the seeds', say so.
``PARAMS[name]`` describes each argument of the tool as the server names it (a Read / Write API
options object flattened into camelCase arguments; the external API's ``options`` kept whole;
a Nuggets call's nugget name first; Membrane's snake_case names); a tool without arguments has
an empty dict. ``TITLES[name]`` is a short human title. Sources: /work/shared/seeds/*.txt (the
contract), nuggets-readings.md and membrane-readings.md where the seeds are silent, and our code
for our own methods.
"""

TOOLS: dict[str, str] = {
    # -- Luker Read API, layer A: data access ------------------------------------------------------
    "listNodes": (
        "listNodes(filter?: { types?: string[], levels?: Array<'episodic' | 'semantic'>, "
        "activeOnly?: boolean, seqRange?: { from?: number, to?: number } }): "
        "ReadonlyArray<NodeView>\n"
        "Every node matching the filter, as NodeView objects (id, type, level, title, fields, "
        "seqTo, parentId, childrenIds, archived, semanticRollup, semanticDepth). Default "
        "activeOnly: true excludes archived nodes and recall-diagnostic nodes. Sorted by timeline "
        "(seqTo ascending, id tiebreak), unlike listVisibleCandidates' recency order. When to "
        "use: offline scanning of the full store (debugging, statistics, exhaustive iteration); "
        "to replicate recall use listVisibleCandidates instead. Cost grows with the node count."
    ),
    "getNode": (
        "getNode(id: string): NodeView | null\n"
        "The NodeView for the given id, or null if the id does not exist in the store. Does not "
        "filter on archived: archived nodes are returned with archived: true. Whitespace-only / "
        "empty ids return null. When to use: dereferencing an id obtained from another call (a "
        "child id, a neighbour id, an injection state id)."
    ),
    "listEdges": (
        "listEdges(filter?: { from?: string, to?: string, types?: string[], "
        "excludeInternal?: boolean }): ReadonlyArray<EdgeView>\n"
        "Raw storage-side edges { from, to, type }, not projected: no weight field, no rollup "
        "substitution. excludeInternal: true strips the hierarchical bookkeeping edges contains "
        "and semantic_contains, leaving the semantic relations. When to use: offline edge "
        "inspection or building a custom topology index; for recall input prefer projectEdges or "
        "getEdgeSummary. Cost grows with the edge count."
    ),
    "getSchema": (
        "getSchema(): SchemaView\n"
        "The active node-type schema: { types: SchemaSpecView[] } in the schema's definition "
        "order, each with type, tableName, tableColumns, requiredColumns, primaryKeyColumns, "
        "forceUpdate, alwaysInject, editable, compressionMode. The source data for the "
        "schema_overview block of the recall LLM input. When to use: building a schema_overview "
        "prompt block, or finding which columns are primary-key or required (e.g. before "
        "createNode)."
    ),
    # -- layer B: topology navigation ----------------------------------------------------------------
    "getNeighbors": (
        "getNeighbors(id: string, options?: { edgeTypes?: string[], direction?: 'in' | 'out' | "
        "'both', projectTo?: 'raw' | 'visible' | string[] }): ReadonlyArray<NeighborView>\n"
        "Each neighbour as { node, edgeType, direction }; direction is relative to id ('out': "
        "an edge id -> neighbour, 'in': neighbour -> id). Defaults: direction 'both', projectTo "
        "'raw' (neighbours as stored). projectTo 'visible' rolls each neighbour up to its nearest "
        "ancestor in the current visibleIds, a string[] to that set; neighbours that do not roll "
        "up are dropped. Archived neighbours are always filtered; deduplicated by (neighborId, "
        "edgeType, direction). When to use: a neighbour ring around a focus node for a prompt "
        "block; projectTo 'visible' aligns with what the route LLM sees."
    ),
    "getAncestor": (
        "getAncestor(id: string, options?: { activeOnly?: boolean, predicate?: (node: NodeView) "
        "=> boolean }): NodeView | null\n"
        "Walks parentId upward strictly above id (the node itself is never a result). Without "
        "predicate returns the direct parent (if any); with it, the first ancestor it matches. "
        "JSON cannot carry a function, so here predicate is an object of NodeView fields matched "
        'by equality, e.g. {"level": "semantic", "type": "character_sheet"}. Default '
        "activeOnly: true: meeting an archived ancestor returns null. Cycle-safe. When to use: "
        "finding the nearest ancestor of a given level / type, e.g. the character_sheet rollup "
        "above an event."
    ),
    "getDescendants": (
        "getDescendants(id: string, options?: { activeOnly?: boolean, maxDepth?: number }): "
        "ReadonlyArray<NodeView>\n"
        "BFS over childrenIds: descendants in BFS order (level 1 first, then level 2, ...), "
        "excluding the root node itself. Default activeOnly: true filters archived children; "
        "default maxDepth: Infinity (leave it out). An unknown id gives []. When to use: "
        "enumerating the contents of a rollup, or every event chained under a character_sheet."
    ),
    "getNearestVisibleAncestor": (
        "getNearestVisibleAncestor(id: string, options: { visibleNodeIds: Iterable<string> }): "
        "NodeView | null\n"
        "Walks upward from id and returns the first node whose id is in visibleNodeIds; the "
        "input node is eligible as its own ancestor. Returns null if an archived ancestor is met "
        "before a match, or if no node on the way is in the set. visibleNodeIds is required "
        "(missing or null reads as the empty set, as Luker's code does). When to use: rolling a "
        "leaf id (e.g. an event) up to the visible rollup that represents it; the primitive "
        "projectEdges uses."
    ),
    "projectEdges": (
        "projectEdges(options: { visibleNodeIds: Iterable<string>, edgeTypes?: string[], "
        "excludeInternal?: boolean }): ReadonlyArray<EdgeView>\n"
        "For every raw edge both endpoints are rolled up to their nearest visible ancestor; edges "
        "whose endpoint does not roll up into visibleNodeIds are dropped. Edges with the same "
        "(from, to, type) after projection are collapsed; weight is the count of underlying raw "
        "edges. Default excludeInternal: true (strips contains / semantic_contains, unlike "
        "expandFromSeeds). visibleNodeIds is required (missing reads as empty: no edges). When "
        "to use: a graph snapshot for a recall LLM that respects the candidate pool; pair with "
        "listVisibleCandidates for the (nodes, edges) pair the route LLM sees."
    ),
    # -- layer C: recall primitives ------------------------------------------------------------------
    "listVisibleCandidates": (
        "listVisibleCandidates(options?: { seqWindow?: { from?: number, to?: number }, types?: "
        "string[], excludeRecentMessages?: number }): ReadonlyArray<NodeView>\n"
        "The candidate pool the native recall LLM sees (collectRootCandidates). "
        "excludeRecentMessages (default 0) filters nodes within the last N user messages; "
        "seqWindow and types narrow the pool after it is built. Sorted by recency (seqTo desc, "
        "semanticDepth desc, id), the order the route LLM sees, unlike listNodes. When to use: "
        "the hot-path entry point for a custom recall; pair with getNodeBrief per id to build a "
        "candidateRows block."
    ),
    "getNodeExposure": (
        "getNodeExposure(id: string): 'high_only' | 'full' | null\n"
        "How much of a node's field payload recall shows: 'high_only' for nodes of a type with "
        "hierarchical compression (their fields are gated to high importance only; every node "
        "of such a type, as Luker's code does), 'full' for any other active node, null if the "
        "node does not exist or is archived. Recomputed per call. When to use: deciding how much "
        "of a node's fields to render in a custom prompt; mirrors what the native router gates."
    ),
    "getEdgeSummary": (
        "getEdgeSummary(id: string, options?: { visibleNodeIds?: Iterable<string>, edgeTypes?: "
        "string[], limit?: number }): EdgeSummaryView\n"
        "The compact edge view the recall LLM sees per candidate: { degree, relations: "
        "[{ relation, direction, count }] (per relation and direction), sample_neighbors: "
        "[{ id, type, title, to_seq }] } (snake_case, as in the native prompt). Default limit: 8 "
        "sample neighbours. Default visibleNodeIds: the recorded visibleIds (the candidate pool "
        "while none are recorded); pass an explicit set for a deterministic answer. Missing / "
        "unknown nodes get a zero-degree summary, never null. When to use: a compact edge view "
        "for a candidate row without a full topology traversal."
    ),
    "getNodeBrief": (
        "getNodeBrief(id: string, options?: { visibleNodeIds?: Iterable<string>, "
        "includeEdgeSummary?: boolean, edgeSummaryLimit?: number }): NodeBriefView | null\n"
        "One row of the route LLM's candidateRows block: id, level, type, tableName, title, "
        "summary, keyValues (primary-key columns), rowValues (the other columns), toSeq, "
        "childCount (active children), exposure, edgeSummary, alwaysInject. null if the node "
        "does not exist or is archived. Defaults: includeEdgeSummary true, edgeSummaryLimit 8, "
        "visibleNodeIds the recorded visibleIds (the candidate pool while none are recorded). "
        "When to use: the canonical building block for a custom recall LLM input, one call per "
        "candidate id."
    ),
    "expandFromSeeds": (
        "expandFromSeeds(seedIds: Iterable<string>, options?: { hops?: number, edgeTypes?: "
        "string[], projectTo?: 'raw' | 'visible' | string[], includeChildren?: boolean, "
        "excludeInternal?: boolean }): ReadonlyArray<NodeView>\n"
        "The BFS drill expansion the route LLM triggers to dig deeper into a seed. Defaults: "
        "hops 1, includeChildren true, projectTo 'visible', excludeInternal false (contains / "
        "semantic_contains take part). 'visible' expands inside the current visibleIds pool (the "
        "seed is always admitted), a string[] inside that set, 'raw' across the full store. "
        "Answer: the pool, then each seed and what its hops reach, in order of first insertion. "
        "When to use: expanding a seed (e.g. a character_sheet) to its children and one-hop "
        "semantic neighbours."
    ),
    "keywordSearch": (
        "keywordSearch(options: { query: string, types?: string[], k?: number }): "
        "ReadonlyArray<NodeView & { score: number, scoreMode: 'keyword' }>\n"
        "Case-insensitive token-intersection search over each node's title and schema-projected "
        "fields. score = matches / query token count; sorted by score descending, capped at k "
        "(default 20). An empty / whitespace-only query returns [] (no error). Always "
        "available: no embedding profile, no recency fallback. When to use: the safe default for "
        "a query-prefiltered shortlist, and the fallback when vectorSearch fails with "
        "NO_EMBEDDING_PROFILE."
    ),
    "vectorSearch": (
        "vectorSearch(options: { query: string, types?: string[], k?: number }): "
        "Promise<ReadonlyArray<NodeView & { score: number, scoreMode: 'vector' }>>\n"
        "Semantic vector search with the store's embedding profile. score is the vector-index "
        "similarity; sorted by score descending, capped at k (default 20). Fails with "
        "NO_EMBEDDING_PROFILE when no embedding profile is configured: it never falls back "
        "silently, the caller picks its own fallback (typically keywordSearch). An empty / "
        "whitespace-only query gives []. When to use: when you want the semantic ranking and "
        "can handle the no-profile case."
    ),
    "findByName": (
        "findByName(options: { query: string, types?: string[] }): "
        "{ matches: ReadonlyArray<NodeView> }\n"
        "Case-insensitive substring match against each node's title and primary-key columns "
        "(which typically include aliases). { matches } with no score, sorted by timeline "
        "(seqTo ascending). An empty / whitespace-only query returns { matches: [] }. When to "
        "use: the entity-identity probe; call it before creating a character_sheet or "
        "location_state, and edit the node you find instead of duplicating it."
    ),
    "compactionCandidates": (
        "compactionCandidates(options: { type: string, depth?: number }): { groups: "
        "ReadonlyArray<{ depth: number, childIds: ReadonlyArray<string>, fanIn: number }> }\n"
        "A pure structural query (no LLM): the node groups currently eligible for hierarchical "
        "compaction of type at depth (default 0). fanIn is the group size, depth the rollup tier "
        "that would be produced. { groups: [] } when the type is not in the schema, its "
        "compression mode is not 'hierarchical', fewer candidates than its threshold remain "
        "(after keepRecentLeaves), or depth is at or above its maxDepth. When to use: an "
        "agent-side compaction: summarise each group with your own LLM, then call compactNodes "
        "with the same type and childIds."
    ),
    # -- layer D: injection observation ----------------------------------------------------------
    "getInjectionState": (
        "getInjectionState(): InjectionState\n"
        "The current { alwaysInjectIds, recallSelectedIds, visibleIds }: nodes pinned by their "
        "type's alwaysInject flag, nodes the route LLM picked for the last turn, and the "
        "candidate pool it saw. visibleIds is empty until recall has run (or a bridge recorded "
        "it), so calls defaulting to it see an empty set; call listVisibleCandidates or pass an "
        "explicit visibleNodeIds for a guaranteed pool. When to use: checking what is injected "
        "now, e.g. for a 'currently injected' badge. (onInjectionChanged has no tool: subscribe "
        "to the injection-state resource instead.)"
    ),
    "searchText": (
        "searchText(query: string): string[]  (ours, not the seeds')\n"
        "The desk window's find: the ids, in timeline order and archived nodes included, of the "
        "nodes whose id, title or a field's scalar value contains query, case-folded, in any "
        "script (one-character and CJK queries work). The same matches as the window's Find box "
        "and timeline filter. An empty query finds nothing. When to use: to find nodes by any "
        "text they hold; keywordSearch and findByName are the seeds' ranked and name searches."
    ),
    # -- Luker Write API ---------------------------------------------------------------------------
    "applyExtractionBatch": (
        "applyExtractionBatch(options: { ops: ExtractionOp[], maxSeq?: number }): { applied: "
        "ExtractionOp[], rejected: Array<{ op: ExtractionOp, error: { code: string, message: "
        "string } }> }\n"
        "The recommended entry for multi-op intents (e.g. create + link): one rollback / persist "
        "boundary and one undo step, same-batch refs resolved within the call, failures reported "
        "in rejected rather than thrown midway. ExtractionOp: { op: 'create', type, title?, "
        "fields, links?, ref? } | { op: 'edit', nodeId, setFields?, clearFields?, title? } | "
        "{ op: 'delete', nodeId } | { op: 'link_upsert', sourceNodeId? | sourceRef?, links: "
        "[{ targetNodeId? | targetRef?, relation, direction? }] } | { op: 'link_delete', "
        "sourceNodeId, targetNodeId, relation, direction? }. Default maxSeq: the store's "
        "seqCounter. ops not an array: BAD_ARGS."
    ),
    "createNode": (
        "createNode(options: { type: string, title?: string, fields?: Record<string, unknown>, "
        "links?: LinkSpec[], ref?: string }): { id: string, ref?: string }\n"
        "Creates a node and returns its id; a given ref is echoed back. A missing type: "
        "BAD_ARGS. When the batch rejects the op (e.g. a schema validation failure such as a "
        "required column missing): OP_FAILED carrying rejected, nothing written. As Luker's code "
        "does, a same-type node with the same title takes the create. One undo step. When to "
        "use: a one-shot node creation; for create-plus-link prefer applyExtractionBatch. Call "
        "findByName first to avoid duplicates."
    ),
    "editNode": (
        "editNode(options: { id: string, setFields?: Record<string, unknown>, clearFields?: "
        "string[], title?: string }): { ok: boolean }\n"
        "setFields patches columns, clearFields resets the listed columns, title renames. "
        "{ ok: true, changed: true } after a change; { ok: true, changed: false, note: 'values "
        "already match' } when nothing would change (nothing written); { ok: false, error } when "
        "the node is missing, archived or the patch is refused (no throw). Missing id: BAD_ARGS. "
        "Always check ok. Ours, beyond the seed: expected (what the edit was based on) refuses "
        "with { ok: false, error: { code: 'EDIT_CONFLICT', ... } } when the node moved on "
        "meanwhile; keepSeq keeps seqTo unchanged. One undo step."
    ),
    "deleteNode": (
        "deleteNode(options: { id: string }): { ok: boolean }\n"
        "Archives the node (soft-delete, as the session facade says): links, parent and children "
        "stay, so restoreNode brings it back exactly. ok: true when the node existed and was "
        "deleted; otherwise { ok: false, error }. Missing id: BAD_ARGS. One undo step. When to "
        "use: removing a node no longer relevant or created in error; to point it at a "
        "replacement use archiveNode."
    ),
    "archiveNode": (
        "archiveNode(options: { id: string, replacementId?: string }): { ok: boolean }  (Luker's "
        "Write API code has it; the seeds do not document it)\n"
        "Archives the node. With a replacement other than itself, its supersededBy becomes the "
        "end of the replacement's supersededBy chain, and every edge starting or ending at the "
        "node moves there (self-loops dropped, duplicates kept once); parent and children are "
        "not touched. Answers { ok: true, changed: true }; { ok: true, changed: false, note: "
        "'node already archived' }; { ok: false, error: { code: 'NODE_NOT_FOUND' } } for an "
        "unknown node or replacement. Missing id: BAD_ARGS. One undo step."
    ),
    "upsertLinks": (
        "upsertLinks(options: { source: { id?: string, ref?: string }, links: Array<{ target: "
        "{ id?: string, ref?: string }, relation: string, direction?: 'outgoing' | 'incoming' | "
        "'bidirectional' }> }): { applied: number }\n"
        "Adds relation edges from source to each target; direction defaults to 'bidirectional'. "
        "Address nodes by live id (refs resolve only inside applyExtractionBatch). Several edges "
        "between the same pair with different relations are allowed. applied is the number of "
        "ops the pipeline accepted (a refusal adds error). source or links missing: BAD_ARGS. "
        "One undo step. When to use: attaching relation edges to existing nodes; for "
        "create-plus-link prefer applyExtractionBatch."
    ),
    "deleteLinks": (
        "deleteLinks(options: { source: { id: string }, target: { id: string }, relation: "
        "string, direction?: 'outgoing' | 'incoming' | 'bidirectional' }): { removed: number }\n"
        "Removes the relation edge(s) between source and target; relation is lower-cased before "
        "lookup. direction defaults to 'bidirectional' (both stored directions); 'outgoing' "
        "removes only source -> target, 'incoming' only target -> source. removed is the count "
        "of edges that disappeared. source, target or relation missing: BAD_ARGS. One undo step. "
        "When to use: retracting a relation edge an agent or the extractor added."
    ),
    "compactNodes": (
        "compactNodes(options: { type: string, childIds: string[], summary: string, fields?: "
        "Record<string, unknown> }): { rollupNodeId: string }\n"
        "Creates a higher-tier rollup node of type, reparents childIds to it and adds the "
        "semantic_contains (and contains) edges; the same rollup shape as the native compression "
        "loop. Refusals: BAD_ARGS when type is missing or unknown, childIds is empty or summary "
        "is empty; CHILD_NOT_FOUND when a child is not in the store; CHILD_HAS_PARENT when a "
        "child already has a rollup parent of the same type. One undo step. When to use: after "
        "compactionCandidates, with a summary per group from your own LLM."
    ),
    "dissolveRollup": (
        "dissolveRollup(options: { id: string }): { ok, childIds, parentId }  (ours, not the "
        "seeds')\n"
        "Undoes a compaction by hand: each child of the rollup goes back to the parent it had "
        "before it was rolled up (from the change log) when that parent is still live, else to "
        "the rollup's own parent in the rollup's place; the rollup is archived. Answers "
        "{ ok: true, childIds: the moved children, parentId: the rollup's parent }. Refusals: "
        "NODE_NOT_FOUND for an unknown id, BAD_ARGS when the node is not a rollup. One undo step."
    ),
    "restoreNode": (
        "restoreNode(options: { id: string }): { ok: boolean }  (ours, not the seeds')\n"
        "Un-archives a node (the desk's Restore), clearing its supersededBy; a live node is left "
        "as it is. Answers { ok: true }; an unknown id: NODE_NOT_FOUND. One undo step. When to "
        "use: bringing back a node deleteNode or archiveNode archived."
    ),
    "setInjectionState": (
        "setInjectionState(state: { alwaysInjectIds?: string[], recallSelectedIds?: string[], "
        "visibleIds?: string[] }): InjectionState  (ours, not the seeds')\n"
        "Records the injection state, as a chat bridge reports what it injected: each given key "
        "replaces its ids, omitted keys stay; visibleIds keeps the order given. Returns the new "
        "state. Recorded but not an undo step (undo does not revert it). Refusals: BAD_ARGS for "
        "an unknown key, NODE_NOT_FOUND for unknown node ids (nothing written). The recorded "
        "visibleIds become the default pool of getEdgeSummary, getNodeBrief, getNeighbors and "
        "expandFromSeeds."
    ),
    "setPins": (
        "setPins(pins: Record<string, [number, number] | null>)  (ours, not the seeds')\n"
        "Pins nodes at positions in the desk window's graph view: { nodeId: [x, y] } pins, null "
        "unpins; other pins stay. Pins override saved layout positions; they change no memory "
        "content. Returns { pins: every pin now }. Refusals: BAD_ARGS (not a non-empty object, "
        "coordinates not two finite numbers), NODE_NOT_FOUND (nothing written). One undo step."
    ),
    # -- undo / redo / history (ours) --------------------------------------------------------------
    "undo": (
        "undo(): { done: boolean, label: string | null }  (ours, not the seeds')\n"
        "Reverts the newest undoable step made by this MCP client (its own origin) only: never "
        "the person's edits in the desk window, nor another process's. done: false (label "
        "null) when this client has nothing to undo; label names the step undone. Refused with "
        "UNDO_CONFLICT, nothing written, when rows the step would restore changed since. The "
        "undo is itself not an undo step; redo re-applies it."
    ),
    "redo": (
        "redo(): { done: boolean, label: string | null }  (ours, not the seeds')\n"
        "Re-applies the oldest step this MCP client (its own origin) undid, only this client's "
        "steps, never the person's edits in the desk window. done: false (label null) when "
        "there is nothing to redo; a new write by this client ends its redo chain. Refused with "
        "UNDO_CONFLICT, nothing written, when rows it would change changed since."
    ),
    "history": (
        "history(): Step[]  (ours, not the seeds')\n"
        "The undo history, newest first (at most 200 steps): each { batchId, label, op, origin, "
        "ts, undone, skipped? }. origin names who made the step (this client, the desk window, "
        "the CLI, another agent); ts is a Unix time in seconds; undone: true marks a step that "
        "is undone (redoable); skipped marks a step left in place, not undone. undo and redo act "
        "only on this client's own steps."
    ),
    # -- Luker external API ----------------------------------------------------------------------
    "searchNodesLexical": (
        "searchNodesLexical(store, query, options?)  -> { nodes: [{ id, preview, type?, time? }] }\n"
        "Read-only, case-insensitive substring lexical search; needs no vector configuration. "
        "It matches a node's title plus fields title, name, summary, state, traits, constraint, "
        "key_sentences and aliases; preview is that text cut to 300 characters, time the node's "
        "seqTo. Archived nodes are skipped. Default limit 5. An empty query gives { nodes: [] } "
        "(never an error). The store is this server's; pass query and options. When to use: an "
        "agent's memory search; pass the ids getCurrentlyInjectedNodeIds returns as excludeIds "
        "so it never restates what the main context already has."
    ),
    "listRecentNodes": (
        "listRecentNodes(store, options?)  -> { nodes: [{ id, preview, time?, type? }] }\n"
        "Read-only: nodes in reverse chronological order (newest first by timeline), archived "
        "ones skipped, each with a preview of at most 300 characters. Default limit 10. The "
        "store is this server's; pass options only. When to use: browse the timeline and pick a "
        "node, e.g. a loop agent wanting to know what happened recently."
    ),
    "getNodeById": (
        "getNodeById(store, id, options?)  -> { node, neighbors: [{ id, edgeType, relation? }] } "
        "| null\n"
        "Read-only: the node by id (as stored, archived ones too) with its adjacent neighbours "
        "as references only, not inlined nodes; call getNodeById again for one you need. "
        "includeNeighbors defaults to true. null when the id does not exist (never an error). "
        "The store is this server's; pass id and options."
    ),
    "getCurrentlyInjectedNodeIds": (
        "getCurrentlyInjectedNodeIds(context)  -> { alwaysInjectIds, recallSelectedIds }\n"
        "Read-only: the node ids already injected into the main context for the current turn: "
        "alwaysInjectIds (nodes flagged alwaysInject) and recallSelectedIds (selected by this "
        "turn's recall), as two id arrays. No arguments here: the context is this server's "
        "store. When to use: take the union as excludeIds for searchNodesLexical or "
        "listRecentNodes, so results never repeat what the main model already received."
    ),
    # -- Nuggets ---------------------------------------------------------------------------------
    "remember": (
        "remember(key: string, value: string, meta?: GraphNoteMetaInput): void  (Nuggets)\n"
        "Mirrors the fact key = value into its fact note (id fact-<nugget>-<8 hex>, kind "
        "'fact'), found by sourceKey in any case, hidden ones too: a new fact is created, an "
        "existing one gets the new content and becomes visible again, keeping its id, links "
        "and metadata (bar fields given in meta). Metadata not given is inferred from the key; "
        "a key prefix user:, self:, shared:, project: or session: sets the scope. Key or value "
        "empty after trimming: nothing. Returns null. Undoable."
    ),
    "createNote": (
        "createNote(title: string, content: string, tags?: string[], meta?: GraphNoteMetaInput): "
        "MemoryNote  (Nuggets)\n"
        "A new free-form note (id note-<nugget>-<8 hex>, kind 'note') in the nugget. Content "
        "whitespace is normalised; tags are lower-cased and hyphenated, and always include the "
        "nugget name, scope:<scope> and type:<type>. Metadata (subject, scope, type, source, "
        "confidence, stability) not given in meta is inferred from the title, content and tags. "
        "Returns the note. Undoable."
    ),
    "editNote": (
        "editNote(id: string, content: string, updates?: { tags?, title?, hidden?, "
        "rewrittenAt?, noteMeta? }): MemoryNote | null  (Nuggets)\n"
        "Replaces the note's content; updates may set title (when non-empty), tags, hidden "
        "(false restores a soft-deleted note), rewrittenAt (stored as lastRewrittenAt) and "
        "noteMeta (metadata fields). Never re-infers metadata. Returns the note, or null when "
        "the id is missing (not an error). Undoable."
    ),
    "updateNote": (
        "updateNote(id: string, partial: Partial<MemoryNote>): MemoryNote | null  (Nuggets)\n"
        "Sets each given field of the right type (a field of another type is left alone), "
        "except id, nuggetName, createdAt, updatedAt and vector. Returns the note, or null when "
        "the id is missing (not an error). Undoable."
    ),
    "deleteNote": (
        "deleteNote(id: string, hard?: boolean): boolean  (Nuggets)\n"
        "Soft by default: the note becomes hidden (archivedAt = now, links kept), excluded from "
        "search and listNotes unless includeHidden; true again if already hidden; editNote or "
        "updateNote with hidden: false restores it. hard: true removes it, and every note drops "
        "its links to missing notes. false when the note is missing (not an error). Undoable."
    ),
    "addLink": (
        "addLink(a: string, b: string, reason: string): boolean  (Nuggets)\n"
        "A link { to, reason, createdAt } stored on both notes. Each of a and b is a note id, "
        "else a title (trimmed, any case, hidden notes too; of equal titles the oldest). Links "
        "are unique by target and lower-cased reason: a duplicate keeps the old link and "
        "answers true. false for one note twice or a missing one (not an error). Undoable."
    ),
    "mergeNotes": (
        "mergeNotes(target: string, source: string, reason: string): MemoryNote | null  "
        "(Nuggets)\n"
        "Folds source into target (each an id, else a title as for addLink): the target gets "
        "the unique content lines of both, both notes' tags and links, and the hits added; the "
        "source is hidden with one link to the target, and the nugget's links to the source then "
        "point to the target. Returns the target, or null when target is source or one is "
        "missing (not an error). Undoable."
    ),
    "recordHit": (
        "recordHit(id: string, session?: string): void  (Nuggets)\n"
        "Counts a recall of the note: hits + 1 unless session (non-empty) is already the last "
        "hit's session, so hits count distinct sessions; lastHitSession = session; "
        "lastAccessedAt and updatedAt = now. An unknown id: nothing. Returns null. Undoable."
    ),
    "getNote": (
        "getNote(id: string): MemoryNote | null  (Nuggets)\n"
        "The note by id, hidden ones included, or null (also for another nugget's note). "
        "Writes nothing."
    ),
    "listNotes": (
        "listNotes(filter?: NoteFilterOptions): MemoryNote[]  (Nuggets)\n"
        "The nugget's notes, oldest updatedAt first (ties in storage order). Hidden "
        "(soft-deleted) notes only with includeHidden: true; subject, scope and type filter by "
        "exact match (empty: no filter). Writes nothing."
    ),
    "searchNotes": (
        "searchNotes(query: string, limit?: number, filter?: NoteFilterOptions): "
        "SearchNotesResult[]  (Nuggets)\n"
        "[{ note, score, vectorScore, textScore }] sorted by score descending, the first limit "
        "(default 5). vectorScore is the FHRR vector's cosine similarity normalised to [0, 1] "
        "(42% of the score), textScore the exact-phrase and token overlap against title, "
        "content, tags, subject, scope and type (48%); score is the combined relevance after "
        "softmax re-ranking, in [0, 1]. Candidates are listNotes(filter). Writes nothing."
    ),
    # -- Membrane --------------------------------------------------------------------------------
    "retrieveGraph": (
        "rpc RetrieveGraph(RetrieveGraphRequest) returns (RetrieveGraphResponse);  (Membrane)\n"
        "Ranked root records for a task descriptor, then a bounded graph neighbourhood around "
        "them: { nodes: [{ record, root, hop }], edges, root_ids, selection? }. trust is "
        "required: a record at or below trust.max_sensitivity comes in full, one level above "
        "redacted (payload, provenance, relations and audit log stripped), two or more above "
        "omitted; non-empty trust.scopes hide scoped records of other scopes. Without "
        "memory_types the layer order is working, entity, semantic, competence, plan_graph, "
        "episodic. Bad arguments: INVALID_ARGUMENT. When to use: the preferred retrieval for "
        "prompts."
    ),
    "retrieveByID": (
        "rpc RetrieveByID(RetrieveByIDRequest) returns (MemoryRecordResponse);  (Membrane)\n"
        "The single record id in full, with its relations, if trust allows it; never redacted. "
        "Errors: RECORD_NOT_FOUND when the record does not exist; ACCESS_DENIED when trust "
        "denies it (any level above trust.max_sensitivity, or a scope not in trust.scopes); "
        "INVALID_ARGUMENT for a missing id or trust."
    ),
}

_IDS = "An array of node ids."
_VISIBLE = (
    "The visible set to roll ids up to: an array of node ids. Default: the recorded visibleIds "
    "(the candidate pool while none are recorded)."
)
_NUGGET = (
    "The nugget's name, verbatim (a call sees only that nugget's notes; an unknown nugget is "
    "empty)."
)
_META = (
    "Optional GraphNoteMetaInput { subject?, scope?, type?, source?, confidence?, stability? }; "
    "any field left out is inferred. confidence is clamped to [0, 1]."
)
_FILTER = (
    "Optional NoteFilterOptions { includeHidden? (default false), subject?, scope?, type? }: "
    "subject, scope and type match exactly."
)
_TRUST = (
    "Required TrustContext { max_sensitivity (public, low, medium, high or hyper; required), "
    "authenticated?, actor_id?, scopes? (empty: no scope filtering) }."
)
_EXT_OPTIONS = "Optional { limit?: number, excludeIds?: string[] } (ids left out of the answer)."

PARAMS: dict[str, dict[str, str]] = {
    "listNodes": {
        "types": "Only nodes of these types (e.g. ['event']).",
        "levels": "Only nodes of these levels: 'episodic' and/or 'semantic'.",
        "activeOnly": "Default true: exclude archived and recall-diagnostic nodes.",
        "seqRange": "{ from?, to? }: only nodes whose seqTo lies in this range (inclusive).",
    },
    "getNode": {"id": "The node id."},
    "listEdges": {
        "from": "Only edges starting at this node id.",
        "to": "Only edges ending at this node id.",
        "types": "Only edges of these types (relations).",
        "excludeInternal": "true strips contains / semantic_contains edges. Default false.",
    },
    "getSchema": {},
    "getNeighbors": {
        "id": "The focus node id.",
        "edgeTypes": "Only edges of these types.",
        "direction": "'in', 'out' or 'both' (default), relative to id.",
        "projectTo": "'raw' (default: as stored), 'visible' (the current visibleIds) or an "
        "array of ids to roll neighbours up to.",
    },
    "getAncestor": {
        "id": "The node id to start above.",
        "activeOnly": "Default true: an archived ancestor ends the walk with null.",
        "predicate": "An object of NodeView fields the ancestor must equal, e.g. "
        '{"type": "character_sheet"}. Default: the direct parent.',
    },
    "getDescendants": {
        "id": "The root node id.",
        "activeOnly": "Default true: archived children are filtered.",
        "maxDepth": "How many levels down to go. Default: no limit.",
    },
    "getNearestVisibleAncestor": {
        "id": "The node id to roll up (eligible itself).",
        "visibleNodeIds": "Required: an array of node ids, the visible set.",
    },
    "projectEdges": {
        "visibleNodeIds": "Required: an array of node ids, the visible set to project onto.",
        "edgeTypes": "Only raw edges of these types.",
        "excludeInternal": "Default true: strip contains / semantic_contains edges.",
    },
    "listVisibleCandidates": {
        "seqWindow": "{ from?, to? }: only candidates whose seqTo lies in this range.",
        "types": "Only candidates of these types.",
        "excludeRecentMessages": "Leave out nodes within the last N user messages. Default 0.",
    },
    "getNodeExposure": {"id": "The node id."},
    "getEdgeSummary": {
        "id": "The node id.",
        "visibleNodeIds": _VISIBLE,
        "edgeTypes": "Only edges of these types.",
        "limit": "How many sample neighbours. Default 8.",
    },
    "getNodeBrief": {
        "id": "The node id.",
        "visibleNodeIds": _VISIBLE,
        "includeEdgeSummary": "Default true: attach the edgeSummary.",
        "edgeSummaryLimit": "Sample neighbours in the edge summary. Default 8.",
    },
    "expandFromSeeds": {
        "seedIds": "The seed node ids to expand from (an array).",
        "hops": "Relation hops per seed. Default 1.",
        "edgeTypes": "Relations the hops follow. Default: related, involved_in, mentions, "
        "evidence, contains, updates, advances, occurred_at.",
        "projectTo": "'visible' (default: inside the current visibleIds), 'raw' (the full "
        "store) or an array of ids to expand inside.",
        "includeChildren": "Default true: pull in each reached node's children.",
        "excludeInternal": "Default false; true keeps contains / semantic_contains out.",
    },
    "keywordSearch": {
        "query": "The search text; empty gives [].",
        "types": "Only nodes of these types.",
        "k": "At most this many results. Default 20.",
    },
    "vectorSearch": {
        "query": "The search text; empty gives [].",
        "types": "Only nodes of these types.",
        "k": "At most this many results. Default 20.",
    },
    "findByName": {
        "query": "A name or alias (substring, any case); empty gives { matches: [] }.",
        "types": "Only nodes of these types (e.g. ['character_sheet']).",
    },
    "compactionCandidates": {
        "type": "Required: the node type to compact (e.g. 'event').",
        "depth": "The tier to compact at. Default 0.",
    },
    "getInjectionState": {},
    "searchText": {"query": "The text to find (case-folded substring, any script)."},
    "applyExtractionBatch": {
        "ops": "Required: the ExtractionOp array (create, edit, delete, link_upsert, link_delete).",
        "maxSeq": "The seq stamped on created / edited nodes. Default: the store's seqCounter.",
        "label": "Ours: the undo step's label. Default 'Apply N ops'.",
    },
    "createNode": {
        "type": "Required: the node type (a schema type id).",
        "title": "The node title.",
        "fields": "The row payload: { column: value } for the type's tableColumns.",
        "links": "LinkSpec[]: [{ target: { id }, relation, direction? }] edges from the new node.",
        "ref": "A batch-local reference, echoed back.",
    },
    "editNode": {
        "id": "Required: the node id.",
        "setFields": "{ column: value } patches to apply.",
        "clearFields": "Column names to reset.",
        "title": "A new title.",
        "expected": "Ours: { title?, fields?: { column: value | null } } the edit was based on; "
        "EDIT_CONFLICT when the stored values moved on.",
        "keepSeq": "Ours: true keeps the node's seqTo as it is. Default false (stamped with the "
        "current seq, as Luker does).",
    },
    "deleteNode": {"id": "Required: the node id to archive."},
    "archiveNode": {
        "id": "Required: the node id to archive.",
        "replacementId": "The node that supersedes it; its links move there. Default none.",
    },
    "upsertLinks": {
        "source": "Required: { id } of the source node.",
        "links": "Required: [{ target: { id }, relation, direction? }]; direction "
        "'outgoing', 'incoming' or 'bidirectional' (default).",
    },
    "deleteLinks": {
        "source": "Required: { id } of the source node.",
        "target": "Required: { id } of the target node.",
        "relation": "Required: the relation (lower-cased before lookup).",
        "direction": "'outgoing', 'incoming' or 'bidirectional' (default).",
    },
    "compactNodes": {
        "type": "Required: the rollup's node type.",
        "childIds": "Required: the non-empty array of child node ids to roll up.",
        "summary": "Required: the rollup's summary text.",
        "fields": "Extra row payload for the rollup.",
    },
    "dissolveRollup": {"id": "Required: the rollup node id."},
    "restoreNode": {"id": "Required: the archived node id."},
    "setInjectionState": {
        "state": "{ alwaysInjectIds?, recallSelectedIds?, visibleIds? }: arrays of node ids; "
        "omitted keys stay as they are.",
    },
    "setPins": {
        "pins": "Required: { nodeId: [x, y] } to pin, { nodeId: null } to unpin.",
    },
    "undo": {},
    "redo": {},
    "history": {},
    "searchNodesLexical": {
        "query": "The text to find (case-insensitive substring); empty gives no nodes.",
        "options": _EXT_OPTIONS + " Default limit 5.",
    },
    "listRecentNodes": {"options": _EXT_OPTIONS + " Default limit 10."},
    "getNodeById": {
        "id": "The node id.",
        "options": "Optional { includeNeighbors?: boolean } (default true).",
    },
    "getCurrentlyInjectedNodeIds": {},
    "remember": {
        "nugget": _NUGGET,
        "key": "The fact key (its note's title); a prefix user:, self:, shared:, project: or "
        "session: sets the scope.",
        "value": "The fact value (the note's content).",
        "meta": _META,
    },
    "createNote": {
        "nugget": _NUGGET,
        "title": "The note title.",
        "content": "The note body.",
        "tags": "Optional tags (lower-cased, hyphenated on write).",
        "meta": _META,
    },
    "editNote": {
        "nugget": _NUGGET,
        "id": "The note id.",
        "content": "The new content.",
        "updates": "Optional { tags?, title?, hidden?, rewrittenAt?, noteMeta? }.",
    },
    "updateNote": {
        "nugget": _NUGGET,
        "id": "The note id.",
        "partial": "The MemoryNote fields to set (not id, nuggetName, createdAt, updatedAt, "
        "vector).",
    },
    "deleteNote": {
        "nugget": _NUGGET,
        "id": "The note id.",
        "hard": "true removes the note; default false hides it (soft delete).",
    },
    "addLink": {
        "nugget": _NUGGET,
        "a": "One note: an id, else a title.",
        "b": "The other note: an id, else a title.",
        "reason": "Human-readable description of the relationship.",
    },
    "mergeNotes": {
        "nugget": _NUGGET,
        "target": "The note that stays: an id, else a title.",
        "source": "The note folded in and hidden: an id, else a title.",
        "reason": "The reason of the source's link to the target.",
    },
    "recordHit": {
        "nugget": _NUGGET,
        "id": "The note id.",
        "session": "The session id of this recall. Default '' (always counts).",
    },
    "getNote": {"nugget": _NUGGET, "id": "The note id."},
    "listNotes": {"nugget": _NUGGET, "filter": _FILTER},
    "searchNotes": {
        "nugget": _NUGGET,
        "query": "The search text.",
        "limit": "How many results. Default 5.",
        "filter": _FILTER,
    },
    "retrieveGraph": {
        "task_descriptor": "Natural-language description of the current task; drives ranking.",
        "trust": _TRUST,
        "memory_types": "Optional filter: episodic, working, semantic, competence, plan_graph, "
        "entity.",
        "min_salience": "Records below this salience are excluded before expansion. Default 0.",
        "root_limit": "Maximum ranked root records. Default 10.",
        "node_limit": "Maximum graph nodes, roots included. Default 25.",
        "edge_limit": "Maximum graph edges. Default 100.",
        "max_hops": "Relation hops from each root; 0 returns only roots. Default 1.",
    },
    "retrieveByID": {"id": "Required: the record's id.", "trust": _TRUST},
}

TITLES: dict[str, str] = {
    "listNodes": "List nodes",
    "getNode": "Get a node",
    "listEdges": "List edges",
    "getSchema": "Get the schema",
    "getNeighbors": "Get neighbours",
    "getAncestor": "Get an ancestor",
    "getDescendants": "Get descendants",
    "getNearestVisibleAncestor": "Nearest visible ancestor",
    "projectEdges": "Project edges",
    "listVisibleCandidates": "List recall candidates",
    "getNodeExposure": "Get node exposure",
    "getEdgeSummary": "Edge summary",
    "getNodeBrief": "Node brief",
    "expandFromSeeds": "Expand from seeds",
    "keywordSearch": "Keyword search",
    "vectorSearch": "Vector search",
    "findByName": "Find by name",
    "compactionCandidates": "Compaction candidates",
    "getInjectionState": "Get injection state",
    "searchText": "Find text",
    "applyExtractionBatch": "Apply extraction batch",
    "createNode": "Create a node",
    "editNode": "Edit a node",
    "deleteNode": "Delete (archive) a node",
    "archiveNode": "Archive a node",
    "upsertLinks": "Add or update links",
    "deleteLinks": "Delete links",
    "compactNodes": "Compact nodes into a rollup",
    "dissolveRollup": "Dissolve a rollup",
    "restoreNode": "Restore a node",
    "setInjectionState": "Set injection state",
    "setPins": "Pin nodes",
    "undo": "Undo",
    "redo": "Redo",
    "history": "Undo history",
    "searchNodesLexical": "Lexical search",
    "listRecentNodes": "List recent nodes",
    "getNodeById": "Get a node with neighbours",
    "getCurrentlyInjectedNodeIds": "Currently injected ids",
    "remember": "Remember a fact",
    "createNote": "Create a note",
    "editNote": "Edit a note",
    "updateNote": "Update a note",
    "deleteNote": "Delete a note",
    "addLink": "Link two notes",
    "mergeNotes": "Merge notes",
    "recordHit": "Record a hit",
    "getNote": "Get a note",
    "listNotes": "List notes",
    "searchNotes": "Search notes",
    "retrieveGraph": "Retrieve a graph",
    "retrieveByID": "Retrieve a record",
}
