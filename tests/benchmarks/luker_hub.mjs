// Luker's calls on one node restated in JavaScript, timed under node on a Luker export document
// (run by bench_hubs.py; not part of the app). Written from the seed's contract
// (luker-memory-graph-extension-api.txt: getNeighbors, listEdges, expandFromSeeds;
// luker-memory-graph-external-api: getNodeById) and luker-store-format.md (the drill: the whole
// store projected onto the candidate set each hop, every projected edge scanned per frontier node;
// tests/core/luker_reference.py is the same in Python), the way Luker answers them: every call
// scans the store's edge array, and each answer row is a fresh frozen object.
//
//     node luker_hub.mjs EXPORT.json HUB VISIBLE.json REPEAT
//
// VISIBLE.json: named id lists, {"candidates": [...], ...}; each is timed as a projectTo.
// Prints one JSON object: per call, the warm median in seconds and the answer's size.

import { readFileSync } from 'node:fs';

const [docPath, hub, visiblePath, repeatText] = process.argv.slice(2);
const store = JSON.parse(readFileSync(docPath, 'utf8'));
const visible = JSON.parse(readFileSync(visiblePath, 'utf8'));
const repeat = Number(repeatText) || 20;

function nodeOf(id) {
    return Object.prototype.hasOwnProperty.call(store.nodes, id) ? store.nodes[id] : null;
}

function idSet(values) {
    const out = new Set();
    for (const value of values) {
        if (value === null || value === undefined) continue;
        const id = String(value).trim();
        if (id) out.add(id);
    }
    return out;
}

function nodeView(node) {
    return Object.freeze({
        id: String(node.id || ''),
        type: String(node.type || ''),
        level: node.level === 'semantic' ? 'semantic' : 'episodic',
        title: String(node.title || ''),
        fields: Object.freeze({ ...(node.fields || {}) }),
        seqTo: Number.isFinite(Number(node.seqTo)) ? Number(node.seqTo) : -1,
        parentId: String(node.parentId || ''),
        childrenIds: Object.freeze((node.childrenIds || []).map(String).filter(Boolean)),
        archived: Boolean(node.archived),
        semanticRollup: Boolean(node.semanticRollup),
        semanticDepth: Number(node.semanticDepth) || 0,
    });
}

function nearestVisible(id, visibleSet) {
    let current = String(id || '').trim();
    const seen = new Set();
    while (current && !seen.has(current)) {
        seen.add(current);
        const node = nodeOf(current);
        if (!node || node.archived) return '';
        if (visibleSet.has(current)) return current;
        current = String(node.parentId || '').trim();
    }
    return '';
}

const DEFAULT_RELATIONS = new Set([
    'related', 'involved_in', 'mentions', 'evidence', 'contains', 'updates', 'advances',
    'occurred_at',
]);
const SYMMETRIC = new Set(['allied_with', 'hostile_to', 'family_of', 'partner_of']);

function norm(text) {
    return String(text || '').replace(/\s+/g, ' ').trim().toLowerCase();
}

function listEdges(from, to) {
    const out = [];
    for (const edge of store.edges) {
        if (from !== null && edge.from !== from) continue;
        if (to !== null && edge.to !== to) continue;
        out.push(Object.freeze({ from: edge.from, to: edge.to, type: edge.type }));
    }
    return Object.freeze(out);
}

function projectEdges(visibleSet, relationSet) {
    const merged = new Map();
    for (const edge of store.edges) {
        const kind = norm(edge.type) || 'related';
        if (relationSet && !relationSet.has(kind)) continue;
        let a = nearestVisible(edge.from, visibleSet);
        let b = nearestVisible(edge.to, visibleSet);
        if (!a || !b || a === b) continue;
        if (SYMMETRIC.has(kind) && a > b) [a, b] = [b, a];
        const key = `${a}\u0000${b}\u0000${kind}`;
        const found = merged.get(key);
        if (found) found.weight += 1;
        else merged.set(key, { from: a, to: b, type: kind, weight: 1 });
    }
    return [...merged.values()];
}

function liveChildren(id) {
    const node = nodeOf(id) || {};
    return (node.childrenIds || []).filter(child => nodeOf(child));
}

function expandFromSeeds(seeds, pool, hops) {
    const found = new Map();
    for (const id of idSet(pool)) {
        const node = nodeOf(id);
        if (node && !node.archived) found.set(id, true);
    }
    for (const seed of idSet(seeds)) {
        if (!nodeOf(seed)) continue;
        if (!found.has(seed)) found.set(seed, true);
        const seen = new Set([seed]);
        let frontier = [seed];
        for (let hop = 0; hop < hops && frontier.length; hop++) {
            const projected = projectEdges(new Set(found.keys()), DEFAULT_RELATIONS);
            const next = [];
            for (const current of frontier) {
                if (nodeOf(current).archived) continue;
                const reached = liveChildren(current);
                for (const edge of projected) {
                    if (edge.from === current) reached.push(edge.to);
                    else if (edge.to === current) reached.push(edge.from);
                }
                for (const other of reached) {
                    const node = nodeOf(other);
                    if (seen.has(other) || !node || node.archived) continue;
                    seen.add(other);
                    if (!found.has(other)) found.set(other, true);
                    next.push(other);
                }
            }
            frontier = next;
        }
    }
    return Object.freeze([...found.keys()].map(id => nodeView(nodeOf(id))));
}

function getNodeById(id) {
    const key = String(id || '').trim();
    const node = nodeOf(key);
    if (!node) return null;
    const neighbors = [];
    for (const edge of store.edges) {
        if (edge.from === key) neighbors.push({ id: edge.to, edgeType: edge.type });
        else if (edge.to === key) neighbors.push({ id: edge.from, edgeType: edge.type });
    }
    return { node: JSON.parse(JSON.stringify(node)), neighbors };
}

function getNeighbors(id, projectTo) {
    const source = String(id || '').trim();
    const visibleSet = Array.isArray(projectTo) ? idSet(projectTo) : null;
    const out = [];
    const seen = new Set();
    for (const edge of store.edges) {
        const edgeType = String(edge.type || '').toLowerCase();
        let other;
        let direction;
        if (edge.from === source) {
            other = edge.to;
            direction = 'out';
        } else if (edge.to === source) {
            other = edge.from;
            direction = 'in';
        } else {
            continue;
        }
        if (visibleSet) {
            other = nearestVisible(other, visibleSet);
            if (!other) continue;
        }
        const node = nodeOf(other);
        if (!node || node.archived) continue;
        const key = `${other}::${edgeType}::${direction}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(Object.freeze({ node: nodeView(node), edgeType, direction }));
    }
    return Object.freeze(out);
}

function median(values) {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function timed(fn) {
    const first = process.hrtime.bigint();
    fn();
    const slow = Number(process.hrtime.bigint() - first) / 1e9 > 0.1;
    for (let i = 0; i < (slow ? 1 : 3); i++) fn();
    const times = [];
    let answer;
    for (let i = 0; i < (slow ? 5 : repeat); i++) {
        const start = process.hrtime.bigint();
        answer = fn();
        times.push(Number(process.hrtime.bigint() - start) / 1e9);
    }
    return { seconds: median(times), answer };
}

const calls = {
    getNodeById: () => getNodeById(hub),
    getNeighbors: () => getNeighbors(hub, 'raw'),
};
for (const [name, ids] of Object.entries(visible)) {
    calls[`getNeighbors:${name}`] = () => getNeighbors(hub, ids);
}
calls['listEdges:to'] = () => listEdges(null, hub);
calls['expandFromSeeds:candidates:1'] = () => expandFromSeeds([hub], visible.candidates, 1);
calls['expandFromSeeds:candidates:2'] = () => expandFromSeeds([hub], visible.candidates, 2);
const result = {};
for (const [name, fn] of Object.entries(calls)) {
    const { seconds, answer } = timed(fn);
    const size = name === 'getNodeById' ? answer.neighbors.length : answer.length;
    result[name] = { seconds, size };
}
console.log(JSON.stringify(result));
