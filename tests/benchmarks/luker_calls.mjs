// Luker's read, session and external calls restated in JavaScript, timed under node on a Luker
// export document (run by bench_luker_js.py; not part of the app). Written from the seeds
// (luker-memory-graph-extension-api.txt, luker-memory-graph-external-api.en.txt) and
// luker-store-format.md, step for step as tests/benchmarks/plain.py and
// tests/core/luker_reference.py restate them in Python: every call works on the export document
// as it stands (no index, no cache kept between calls), scans the nodes or the edges where Luker
// scans them, and answers with fresh frozen views (deep-frozen NodeViews, frozen edge rows).
// getNodeById, getNeighbors and expandFromSeeds are in luker_hub.mjs.
//
//     node luker_calls.mjs EXPORT.json SCHEMA.json CALLS.json [MIN_SAMPLE_MS]
//
// SCHEMA.json: the schema's node types (Luker's schema array). CALLS.json:
// {"sets": {name: [ids]}, "alwaysInjectIds": [...], "calls": [{name, call, args}]}; an argument
// (or an option's value) "$name" is replaced by the id array sets[name]. Each call is run warm,
// then timed in samples of enough calls to last MIN_SAMPLE_MS (default 5). Prints one JSON object:
// per name, the median seconds of one call, the answer's size and a short signature of it.

import { readFileSync } from 'node:fs';

const [docPath, schemaPath, callsPath, minSampleText] = process.argv.slice(2);
const store = JSON.parse(readFileSync(docPath, 'utf8'));
const schemaTypes = JSON.parse(readFileSync(schemaPath, 'utf8'));
const plan = JSON.parse(readFileSync(callsPath, 'utf8'));
const minSample = (Number(minSampleText) || 5) / 1000;

const SYMMETRIC = new Set(['allied_with', 'hostile_to', 'family_of', 'partner_of']);
const INTERNAL = new Set(['contains', 'semantic_contains']);
const LEXICAL_FIELDS = [
    'title', 'name', 'summary', 'state', 'traits', 'constraint', 'key_sentences', 'aliases',
];
const TOKEN_SPLIT = /[^a-z0-9\u4e00-\u9fff]+/;

// -- the store and the schema, read per call as Luker reads them --------------------------------

function nodeOf(id) {
    return Object.prototype.hasOwnProperty.call(store.nodes, id) ? store.nodes[id] : null;
}

function allNodes() {
    return Object.values(store.nodes);
}

function effectiveSchema() {
    // getEffectiveNodeTypeSchema: the schema (with any character override) by type id
    const byType = new Map();
    for (const spec of schemaTypes) byType.set(String(spec.id || '').toLowerCase(), spec);
    return byType;
}

function text(value) {
    return value === null || value === undefined ? '' : String(value);
}

function normalize(value) {
    return text(value).replace(/\s+/g, ' ').trim();
}

function idOf(value) {
    return text(value).trim();
}

function toIdSet(values) {
    const out = new Set();
    if (!values) return out;
    for (const value of values) {
        const id = idOf(value);
        if (id) out.add(id);
    }
    return out;
}

function lowerSet(values) {
    if (!Array.isArray(values) || !values.length) return null;
    return new Set(values.map(v => normalize(v).toLowerCase()).filter(Boolean));
}

function isDiagnostic(node) {
    const kind = text(node.type).trim().toLowerCase();
    return kind === 'recall' || kind.startsWith('recall_');
}

function seqOf(node) {
    const seq = Number(node.seqTo);
    return Number.isFinite(seq) ? seq : Infinity;
}

function compareNodesByTimeline(a, b) {
    return seqOf(a) - seqOf(b) || String(a.id).localeCompare(String(b.id));
}

function compareNodesByRecency(a, b) {
    return (Number(b.seqTo) || 0) - (Number(a.seqTo) || 0)
        || (Number(b.semanticDepth) || 0) - (Number(a.semanticDepth) || 0)
        || String(a.id).localeCompare(String(b.id));
}

function deepFreeze(value) {
    if (Array.isArray(value)) return Object.freeze(value.map(deepFreeze));
    if (value && typeof value === 'object') {
        const out = {};
        for (const [key, inner] of Object.entries(value)) out[key] = deepFreeze(inner);
        return Object.freeze(out);
    }
    return value;
}

function nodeView(node) {
    return Object.freeze({
        id: text(node.id),
        type: text(node.type),
        level: node.level === 'semantic' ? 'semantic' : 'episodic',
        title: text(node.title),
        fields: deepFreeze(node.fields || {}),
        seqTo: Number.isFinite(Number(node.seqTo)) ? Number(node.seqTo) : -1,
        parentId: text(node.parentId),
        childrenIds: Object.freeze((node.childrenIds || []).map(String).filter(Boolean)),
        archived: Boolean(node.archived),
        semanticRollup: Boolean(node.semanticRollup),
        semanticDepth: Number(node.semanticDepth) || 0,
    });
}

function relationOf(edge) {
    return normalize(edge.type).toLowerCase() || 'related';
}

function edgeSeq(edge) {
    const own = Number(edge.seqTo);
    if (edge.seqTo !== undefined && edge.seqTo !== null && Number.isFinite(own)) {
        return Math.max(0, Math.floor(own));
    }
    let best = 0;
    for (const end of [edge.from, edge.to]) {
        const node = nodeOf(end);
        if (node) best = Math.max(best, Number(node.seqTo) || 0);
    }
    return best;
}

function jsString(value) {
    if (value === null || value === undefined) return '';
    return String(value);
}

// -- layer A ------------------------------------------------------------------------------------

function listNodes(filter = {}) {
    const types = lowerSet(filter.types);
    const levels = lowerSet(filter.levels);
    const active = filter.activeOnly !== false;
    const range = filter.seqRange || {};
    const out = [];
    for (const node of allNodes()) {
        if (active && (node.archived || isDiagnostic(node))) continue;
        if (types && !types.has(text(node.type).toLowerCase())) continue;
        if (levels && !levels.has(node.level === 'semantic' ? 'semantic' : 'episodic')) continue;
        if (range.from !== undefined && node.seqTo < range.from) continue;
        if (range.to !== undefined && node.seqTo > range.to) continue;
        out.push(node);
    }
    out.sort(compareNodesByTimeline);
    return Object.freeze(out.map(nodeView));
}

function getNode(id) {
    const key = idOf(id);
    const node = key ? nodeOf(key) : null;
    return node ? nodeView(node) : null;
}

function listEdges(filter = {}) {
    const from = filter.from === undefined ? null : idOf(filter.from);
    const to = filter.to === undefined ? null : idOf(filter.to);
    const types = lowerSet(filter.types);
    const out = [];
    for (const edge of store.edges) {
        if (from !== null && edge.from !== from) continue;
        if (to !== null && edge.to !== to) continue;
        const kind = text(edge.type).toLowerCase();
        if (types && !types.has(kind)) continue;
        if (filter.excludeInternal && INTERNAL.has(kind)) continue;
        out.push(Object.freeze({ from: edge.from, to: edge.to, type: edge.type }));
    }
    return Object.freeze(out);
}

function getSchema() {
    const types = schemaTypes.map(spec => Object.freeze({
        type: text(spec.id),
        tableName: text(spec.tableName),
        tableColumns: Object.freeze([...(spec.tableColumns || [])]),
        requiredColumns: Object.freeze([...(spec.requiredColumns || [])]),
        primaryKeyColumns: Object.freeze([...(spec.primaryKeyColumns || [])]),
        forceUpdate: Boolean(spec.forceUpdate),
        alwaysInject: Boolean(spec.alwaysInject),
        editable: Boolean(spec.editable),
        compressionMode: text((spec.compression || {}).mode || 'none'),
    }));
    return Object.freeze({ types: Object.freeze(types) });
}

// -- layer B ------------------------------------------------------------------------------------

function getAncestor(id, options = {}) {
    const active = options.activeOnly !== false;
    const seen = new Set([idOf(id)]);
    let node = nodeOf(idOf(id));
    while (node && node.parentId && !seen.has(node.parentId)) {
        seen.add(node.parentId);
        node = nodeOf(node.parentId);
        if (!node) return null;
        if (active && node.archived) return null;
        const view = nodeView(node);
        if (!options.predicate || options.predicate(view)) return view;
    }
    return null;
}

function getDescendants(id, options = {}) {
    const active = options.activeOnly !== false;
    const maxDepth = options.maxDepth === undefined ? Infinity : Number(options.maxDepth);
    const root = nodeOf(idOf(id));
    if (!root) return Object.freeze([]);
    const out = [];
    const seen = new Set([root.id]);
    let frontier = [root];
    for (let depth = 0; frontier.length && depth < maxDepth; depth++) {
        const next = [];
        for (const node of frontier) {
            for (const childId of node.childrenIds || []) {
                const child = nodeOf(childId);
                if (!child || seen.has(childId) || (active && child.archived)) continue;
                seen.add(childId);
                out.push(nodeView(child));
                next.push(child);
            }
        }
        frontier = next;
    }
    return Object.freeze(out);
}

function nearestVisibleId(id, visible) {
    // getNearestVisibleAncestorId
    let current = idOf(id);
    const seen = new Set();
    while (current && !seen.has(current)) {
        seen.add(current);
        const node = nodeOf(current);
        if (!node || node.archived) return '';
        if (visible.has(current)) return current;
        current = idOf(node.parentId);
    }
    return '';
}

function getNearestVisibleAncestor(id, options = {}) {
    const found = nearestVisibleId(id, toIdSet(options.visibleNodeIds));
    return found ? nodeView(nodeOf(found)) : null;
}

function buildProjectedEdges(visible, relations, excludeInternal) {
    const merged = new Map();
    for (const edge of store.edges) {
        const kind = relationOf(edge);
        if (excludeInternal && INTERNAL.has(kind)) continue;
        if (relations && !relations.has(kind)) continue;
        let a = nearestVisibleId(edge.from, visible);
        let b = nearestVisibleId(edge.to, visible);
        if (!a || !b || a === b) continue;
        if (SYMMETRIC.has(kind) && a > b) [a, b] = [b, a];
        const key = `${a}\u0000${b}\u0000${kind}`;
        const seq = edgeSeq(edge);
        const found = merged.get(key);
        if (found) {
            found.weight += 1;
            found.seq = Math.max(found.seq, seq);
        } else {
            merged.set(key, { from: a, to: b, type: kind, weight: 1, seq });
        }
    }
    return [...merged.values()];
}

function projectEdges(options = {}) {
    const visible = toIdSet(options.visibleNodeIds);
    const projected = buildProjectedEdges(
        visible, lowerSet(options.edgeTypes), options.excludeInternal !== false,
    );
    return Object.freeze(projected.map(e => Object.freeze({
        from: e.from, to: e.to, type: e.type, weight: e.weight,
    })));
}

// -- layer C ------------------------------------------------------------------------------------

function collectRootCandidates(schema) {
    const pool = new Map();
    for (const node of allNodes()) {
        if (node.archived || node.level !== 'semantic' || isDiagnostic(node)) continue;
        const spec = schema.get(text(node.type).toLowerCase());
        if (!spec || (spec.compression || {}).mode !== 'hierarchical') {
            pool.set(node.id, node);
            continue;
        }
        const hasLiveChild = (node.childrenIds || []).some(childId => {
            const child = nodeOf(childId);
            return child && !child.archived && child.type === node.type;
        });
        if (hasLiveChild) continue;
        let top = node;
        const seen = new Set([top.id]);
        for (;;) {
            const parent = nodeOf(top.parentId);
            if (!parent || parent.archived || parent.type !== node.type || seen.has(parent.id)) break;
            seen.add(parent.id);
            top = parent;
        }
        pool.set(top.id, top);
    }
    return [...pool.values()].sort(compareNodesByRecency);
}

function coveredSeq() {
    let best = Math.max(0, Number(store.appliedSeqTo) || 0, Number(store.loggedSeqTo) || 0);
    for (const node of allNodes()) {
        if (node.level === 'semantic' && !node.archived) best = Math.max(best, Number(node.seqTo) || 0);
    }
    return best;
}

function listVisibleCandidates(options = {}) {
    const types = lowerSet(options.types);
    const window = options.seqWindow || {};
    const exclude = Number(options.excludeRecentMessages) || 0;
    const latest = exclude > 0 ? coveredSeq() : -1;
    const out = [];
    for (const node of collectRootCandidates(effectiveSchema())) {
        if (exclude > 0 && latest >= 0 && node.seqTo >= latest - exclude + 1) continue;
        if (types && !types.has(text(node.type).toLowerCase())) continue;
        if (window.from !== undefined && node.seqTo < window.from) continue;
        if (window.to !== undefined && node.seqTo > window.to) continue;
        out.push(nodeView(node));
    }
    return Object.freeze(out);
}

function exposureOf(schema, node) {
    // getNodeRecallExposure
    if (node.level !== 'semantic') return 'high_only';
    const spec = schema.get(text(node.type).toLowerCase());
    return spec && (spec.compression || {}).mode === 'hierarchical' ? 'high_only' : 'full';
}

function getNodeExposure(id) {
    const node = nodeOf(idOf(id));
    if (!node || node.archived) return null;
    return exposureOf(effectiveSchema(), node);
}

function buildEdgeSummary(id, visible, relations, limit) {
    const node = nodeOf(id);
    if (!node || node.archived || !visible.has(id)) {
        return { degree: 0, relations: [], samples: [] };
    }
    let degree = 0;
    const byRelation = new Map();
    const neighborSeq = new Map();
    for (const pe of buildProjectedEdges(visible, relations, false)) {
        let other;
        let direction;
        if (pe.from === id) {
            other = pe.to;
            direction = 'out';
        } else if (pe.to === id) {
            other = pe.from;
            direction = SYMMETRIC.has(pe.type) ? 'out' : 'in';
        } else {
            continue;
        }
        const neighbor = nodeOf(other);
        if (!neighbor || neighbor.archived) continue;
        degree += pe.weight;
        neighborSeq.set(other, Math.max(neighborSeq.get(other) ?? pe.seq, pe.seq));
        const key = `${pe.type}\u0000${direction}`;
        byRelation.set(key, (byRelation.get(key) || 0) + pe.weight);
    }
    const rels = [...byRelation.entries()].sort((a, b) => b[1] - a[1]);
    const samples = [...neighborSeq.entries()]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, Math.max(1, limit));
    return { degree, relations: rels, samples };
}

function edgeSummaryView(summary) {
    return Object.freeze({
        degree: summary.degree,
        relations: Object.freeze(summary.relations.map(([key, count]) => {
            const [relation, direction] = key.split('\u0000');
            return Object.freeze({ relation, direction, count });
        })),
        sample_neighbors: Object.freeze(summary.samples.map(([id, seq]) => {
            const node = nodeOf(id);
            return Object.freeze({
                id, type: text(node.type), title: text(node.title), to_seq: Math.max(0, seq),
            });
        })),
    });
}

function getEdgeSummary(id, options = {}) {
    const visible = toIdSet(options.visibleNodeIds || plan.visibleIds || []);
    const limit = options.limit === undefined ? 8 : Number(options.limit);
    return edgeSummaryView(buildEdgeSummary(idOf(id), visible, lowerSet(options.edgeTypes), limit));
}

function displayScalar(value) {
    // toDisplayScalar
    if (value === null || value === undefined) return '';
    if (Array.isArray(value)) {
        return value.map(v => normalize(typeof v === 'string' ? v : JSON.stringify(v)))
            .filter(Boolean).join(', ');
    }
    if (typeof value === 'object') return normalize(JSON.stringify(value));
    return normalize(String(value));
}

function formatNodeBrief(schema, node) {
    const spec = schema.get(text(node.type).toLowerCase()) || {};
    const keys = spec.primaryKeyColumns || [];
    const fields = node.fields || {};
    const keyValues = {};
    const rowValues = {};
    for (const column of keys) {
        if (fields[column] !== undefined && fields[column] !== null) {
            keyValues[column] = displayScalar(fields[column]);
        }
    }
    for (const column of spec.tableColumns || []) {
        if (fields[column] !== undefined && fields[column] !== null) {
            rowValues[column] = displayScalar(fields[column]);
        }
    }
    const childCount = (node.childrenIds || []).filter(c => {
        const child = nodeOf(c);
        return child && !child.archived;
    }).length;
    return {
        id: node.id,
        level: node.level === 'semantic' ? 'semantic' : 'episodic',
        type: text(node.type),
        tableName: text(spec.tableName || node.type).trim(),
        title: text(node.title),
        summary: displayScalar(fields.summary),
        keyValues: Object.freeze(keyValues),
        rowValues: Object.freeze(rowValues),
        toSeq: Number(node.seqTo) || 0,
        childCount,
    };
}

const alwaysInjectIds = new Set(plan.alwaysInjectIds || []);

function getNodeBrief(id, options = {}) {
    const key = idOf(id);
    const node = nodeOf(key);
    if (!node || node.archived) return null;
    const schema = effectiveSchema();
    const brief = formatNodeBrief(schema, node);
    let edgeSummary = null;
    if (options.includeEdgeSummary !== false) {
        const visible = toIdSet(options.visibleNodeIds || plan.visibleIds || []);
        const limit = options.edgeSummaryLimit === undefined ? 8 : Number(options.edgeSummaryLimit);
        edgeSummary = edgeSummaryView(buildEdgeSummary(key, visible, null, limit));
    }
    return Object.freeze({
        ...brief,
        exposure: exposureOf(schema, node),
        edgeSummary,
        alwaysInject: alwaysInjectIds.has(key),
    });
}

function longTokens(value) {
    return value.toLowerCase().split(TOKEN_SPLIT).filter(t => t.length >= 2);
}

function keywordSearch(options = {}) {
    const query = text(options.query);
    if (!query.trim()) return Object.freeze([]);
    const types = lowerSet(options.types);
    const k = options.k === undefined ? 20 : Number(options.k);
    const queryTokens = longTokens(query);
    const wanted = new Set(queryTokens);
    const denominator = Math.max(1, queryTokens.length);
    const schema = effectiveSchema();
    const hits = [];
    for (const node of allNodes()) {
        if (node.archived || isDiagnostic(node)) continue;
        if (types && !types.has(text(node.type).toLowerCase())) continue;
        const spec = schema.get(text(node.type).toLowerCase());
        const fields = node.fields || {};
        const frags = node.title ? [node.title] : [];
        const keywords = spec ? (spec.keywords || []).filter(Boolean) : [];
        if (spec) {
            for (const column of spec.tableColumns || []) {
                if (fields[column] !== undefined && fields[column] !== null) {
                    frags.push(jsString(fields[column]));
                }
            }
        }
        if (frags.length + keywords.length <= 1) {
            for (const value of Object.values(fields)) {
                if (value !== null && value !== undefined) frags.push(jsString(value));
            }
        }
        frags.push(...keywords);
        const tokens = new Set(longTokens(frags.join(' ')));
        let matched = 0;
        for (const token of wanted) if (tokens.has(token)) matched += 1;
        if (matched > 0) hits.push({ node, score: matched / denominator });
    }
    hits.sort((a, b) => b.score - a.score);
    return Object.freeze(hits.slice(0, k).map(({ node, score }) => Object.freeze({
        ...nodeView(node), score, scoreMode: 'keyword',
    })));
}

function findByName(options = {}) {
    const query = text(options.query).trim().toLowerCase();
    if (!query) return Object.freeze({ matches: Object.freeze([]) });
    const types = lowerSet(options.types);
    const schema = effectiveSchema();
    const out = [];
    for (const node of allNodes()) {
        if (node.archived || isDiagnostic(node)) continue;
        if (types && !types.has(text(node.type).toLowerCase())) continue;
        const keys = (schema.get(text(node.type).toLowerCase()) || {}).primaryKeyColumns || [];
        const fields = node.fields || {};
        if (text(node.title).toLowerCase().includes(query)
            || keys.some(c => fields[c] && jsString(fields[c]).toLowerCase().includes(query))) {
            out.push(node);
        }
    }
    out.sort(compareNodesByTimeline);
    return Object.freeze({ matches: Object.freeze(out.map(nodeView)) });
}

function compactionCandidates(options = {}) {
    const kind = text(options.type).trim().toLowerCase();
    const depth = Number(options.depth) || 0;
    const spec = kind ? effectiveSchema().get(kind) : null;
    const cfg = spec ? spec.compression || {} : {};
    const none = Object.freeze({ groups: Object.freeze([]) });
    if (!spec || cfg.mode !== 'hierarchical' || depth >= Number(cfg.maxDepth)) return none;
    let candidates = allNodes().filter(n => n.level === 'semantic' && !n.archived
        && text(n.type).toLowerCase() === kind && (Number(n.semanticDepth) || 0) === depth
        && !text(n.parentId).trim());
    candidates.sort(compareNodesByTimeline);
    const keep = Number(cfg.keepRecentLeaves) || 0;
    if (depth === 0 && keep > 0 && candidates.length > keep) {
        candidates = candidates.slice(0, candidates.length - keep);
    }
    if (candidates.length < Number(cfg.threshold)) return none;
    const fanIn = Number(cfg.fanIn);
    const groups = [];
    for (let i = 0; i + fanIn <= candidates.length; i += fanIn) {
        const childIds = Object.freeze(candidates.slice(i, i + fanIn).map(n => n.id));
        groups.push(Object.freeze({ depth: depth + 1, childIds, fanIn: childIds.length }));
    }
    return Object.freeze({ groups: Object.freeze(groups) });
}

// -- the external API ---------------------------------------------------------------------------

function lexicalText(node) {
    const fields = node.fields || {};
    const parts = [text(node.title)];
    for (const name of LEXICAL_FIELDS) {
        if (fields[name] !== undefined && fields[name] !== null) parts.push(jsString(fields[name]));
    }
    return parts.filter(Boolean).join(' ');
}

function item(node, body) {
    return { id: node.id, preview: body.slice(0, 300), type: node.type, time: node.seqTo };
}

function searchNodesLexical(query, options = {}) {
    const needle = text(query).toLowerCase();
    if (!text(query).trim()) return { nodes: [] };
    const limit = Number(options.limit) > 0 ? Number(options.limit) : 5;
    const exclude = toIdSet(options.excludeIds);
    const out = [];
    for (const node of allNodes()) {
        if (node.archived || exclude.has(node.id)) continue;
        const body = lexicalText(node);
        if (body.toLowerCase().includes(needle)) {
            out.push(item(node, body));
            if (out.length >= limit) break;
        }
    }
    return { nodes: out };
}

function listRecentNodes(options = {}) {
    const limit = Number(options.limit) > 0 ? Number(options.limit) : 10;
    const exclude = toIdSet(options.excludeIds);
    const ordered = allNodes().filter(n => !n.archived && !exclude.has(n.id));
    ordered.sort(compareNodesByTimeline);
    const out = [];
    for (let i = ordered.length - 1; i >= 0 && out.length < limit; i--) {
        out.push(item(ordered[i], lexicalText(ordered[i])));
    }
    return { nodes: out };
}

// -- the run ------------------------------------------------------------------------------------

const CALLS = {
    listNodes, getNode, listEdges, getSchema, getAncestor, getDescendants,
    getNearestVisibleAncestor, projectEdges, listVisibleCandidates, getNodeExposure,
    getEdgeSummary, getNodeBrief, keywordSearch, findByName, compactionCandidates,
    searchNodesLexical, listRecentNodes,
};

function resolve(value) {
    if (typeof value === 'string' && value.startsWith('$')) return plan.sets[value.slice(1)];
    if (value && typeof value === 'object' && !Array.isArray(value)) {
        const out = {};
        for (const [key, inner] of Object.entries(value)) out[key] = resolve(inner);
        return out;
    }
    return value;
}

function ids(list) {
    return list.slice(0, 20).map(n => n.id);
}

function signature(call, answer) {
    // [size, a few ids or values] — bench_luker_js.py builds the same from our answer
    switch (call) {
        case 'getNode': case 'getAncestor': case 'getNearestVisibleAncestor':
            return answer ? [1, [answer.id]] : [0, []];
        case 'getNodeExposure': return [answer ? 1 : 0, [answer]];
        case 'getSchema': return [answer.types.length, answer.types.map(t => t.type)];
        case 'listEdges':
            return [answer.length, answer.slice(0, 20).map(e => `${e.from}>${e.type}>${e.to}`)];
        case 'projectEdges':
            return [answer.length, answer.slice(0, 20).map(e => `${e.from}>${e.type}>${e.to}:${e.weight}`)];
        case 'getEdgeSummary': return summarySignature(answer);
        case 'getNodeBrief':
            return answer ? [answer.edgeSummary ? answer.edgeSummary.degree : 0,
                [answer.id, answer.exposure, String(answer.childCount), String(answer.alwaysInject),
                    ...summarySignature(answer.edgeSummary)[1]]] : [0, []];
        case 'keywordSearch': return [answer.length, answer.slice(0, 20).map(h => `${h.id}:${h.score.toFixed(4)}`)];
        case 'findByName': return [answer.matches.length, ids(answer.matches)];
        case 'compactionCandidates':
            return [answer.groups.length, answer.groups.slice(0, 5).map(g => g.childIds.join(','))];
        case 'searchNodesLexical': case 'listRecentNodes':
            return [answer.nodes.length, ids(answer.nodes)];
        default: return [answer.length, ids(answer)];
    }
}

function summarySignature(summary) {
    if (!summary) return [0, []];
    return [summary.degree, [
        ...summary.relations.map(r => `${r.relation}/${r.direction}:${r.count}`),
        ...summary.sample_neighbors.map(s => `${s.id}@${s.to_seq}`),
    ]];
}

function median(values) {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function seconds(start) {
    return Number(process.hrtime.bigint() - start) / 1e9;
}

function timed(fn) {
    let start = process.hrtime.bigint();
    fn(); // warm: compiled, and the first call's allocations made
    const first = seconds(start);
    const slow = first > 0.1;
    for (let i = 0; i < (slow ? 1 : 3); i++) fn();
    const loops = Math.max(1, Math.ceil(minSample / Math.max(first, 1e-7)));
    const samples = [];
    for (let s = 0; s < (slow ? 5 : 15); s++) {
        start = process.hrtime.bigint();
        for (let i = 0; i < loops; i++) fn();
        samples.push(seconds(start) / loops);
    }
    return median(samples);
}

const result = {};
for (const spec of plan.calls) {
    const fn = CALLS[spec.call];
    const args = spec.args.map(resolve);
    const answer = fn(...args);
    const [size, head] = signature(spec.call, answer);
    result[spec.name] = { seconds: timed(() => fn(...args)), size, head };
}
console.log(JSON.stringify(result));
