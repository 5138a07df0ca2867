// Luker's hub calls restated in JavaScript, timed under node on a Luker export document (run by
// bench_lookups.py / bench_hubs.py; not part of the app). Written from the seed's contract
// (luker-memory-graph-extension-api.txt, getNeighbors; luker-memory-graph-external-api, getNodeById)
// the way Luker answers them: every call scans the store's edge array, and each answer row is a
// fresh frozen object (a NodeView per neighbour).
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
    for (let i = 0; i < 3; i++) fn();
    const times = [];
    let answer;
    for (let i = 0; i < repeat; i++) {
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
const result = {};
for (const [name, fn] of Object.entries(calls)) {
    const { seconds, answer } = timed(fn);
    const size = name === 'getNodeById' ? answer.neighbors.length : answer.length;
    result[name] = { seconds, size };
}
console.log(JSON.stringify(result));
