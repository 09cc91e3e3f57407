#!/usr/bin/env node
// What a heap snapshot holds, by kind: self sizes per node type (strings by representation:
// sequential, sliced, concatenated), the largest constructors, and the objects that carry a given
// property (e.g. `manager`, one per managedFields entry) with what retains them.
//   BENCH_HEAP_SNAPSHOT=/tmp/a.heapsnapshot node --expose-gc ../shared/bench/run.mjs bench/clients/rxkube.mjs 10000 2000 real
//   node bench/heapSummary.mjs /tmp/a.heapsnapshot [--property manager] [--top 15]
import { readFileSync } from 'node:fs';
import { benchArgs } from './args.mjs';

const args = benchArgs(process.argv.slice(2));
const property = args.option('property', '');
const TOP = Number(args.option('top', '15'));
const [file] = args.rest;
if (!file) throw new Error('usage: node bench/heapSummary.mjs FILE.heapsnapshot [--property NAME] [--top N]');
const snap = JSON.parse(readFileSync(file, 'utf8'));
const { node_fields: nf, edge_fields: ef, node_types: nt, edge_types: et } = snap.snapshot.meta;
const NF = nf.length;
const EF = ef.length;
const [typeAt, nameAt, sizeAt, edgesAt] = ['type', 'name', 'self_size', 'edge_count'].map((f) => nf.indexOf(f));
const [eTypeAt, eNameAt, eToAt] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f));
const nodeTypes = nt[typeAt];
const edgeTypes = et[eTypeAt];
const { nodes, edges, strings } = snap;
const count = nodes.length / NF;
const MB = (b) => (b / 2 ** 20).toFixed(1);

const byType = new Map();
const byName = new Map();
let total = 0;
for (let i = 0; i < count; i++) {
  const type = nodeTypes[nodes[i * NF + typeAt]];
  const size = nodes[i * NF + sizeAt];
  total += size;
  byType.set(type, (byType.get(type) ?? 0) + size);
  if (type === 'object' || type === 'closure' || type === 'array' || type === 'code' || type === 'hidden') {
    const key = `${type} ${strings[nodes[i * NF + nameAt]]}`.slice(0, 80);
    const e = byName.get(key) ?? { size: 0, n: 0 };
    e.size += size;
    e.n++;
    byName.set(key, e);
  }
}
console.log(`${file}: ${count} nodes, ${MB(total)} MB self size`);
for (const [type, size] of [...byType].sort((a, b) => b[1] - a[1])) console.log(`  ${type.padEnd(22)} ${MB(size).padStart(7)} MB`);
// The largest strings, and how many strings of each length band (a page's text held whole shows here).
const bigStrings = [];
for (let i = 0; i < count; i++) {
  const type = nodeTypes[nodes[i * NF + typeAt]];
  if (type === 'string' || type === 'concatenated string' || type === 'sliced string') {
    const size = nodes[i * NF + sizeAt];
    if (size > 64 * 1024) bigStrings.push([size, type, strings[nodes[i * NF + nameAt]].slice(0, 60)]);
  }
}
bigStrings.sort((a, b) => b[0] - a[0]);
console.log(`strings over 64 KB: ${bigStrings.length}, ${MB(bigStrings.reduce((n, s) => n + s[0], 0))} MB`);
for (const [size, type, text] of bigStrings.slice(0, 5)) console.log(`  ${MB(size).padStart(7)} MB ${type} ${JSON.stringify(text)}`);
console.log(`largest by constructor (top ${TOP}):`);
for (const [key, e] of [...byName].sort((a, b) => b[1].size - a[1].size).slice(0, TOP)) console.log(`  ${MB(e.size).padStart(7)} MB ${String(e.n).padStart(8)}x ${key}`);

if (property) {
  // First edge index of each node, then the nodes with an own property edge named `property`.
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += nodes[i * NF + edgesAt] * EF;
    firstEdge[i + 1] = e;
  }
  const holders = new Set();
  for (let i = 0; i < count; i++) {
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += EF) {
      if (edgeTypes[edges[e + eTypeAt]] === 'property' && strings[edges[e + eNameAt]] === property) holders.add(i);
    }
  }
  console.log(`objects with a property ${JSON.stringify(property)}: ${holders.size}`);
  // What retains them, two levels up, by edge and holder name (a sample of 2,000).
  const retainers = new Map();
  const sample = new Set([...holders].slice(0, 2000));
  const up = new Map();
  for (let i = 0; i < count; i++) {
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += EF) {
      const to = edges[e + eToAt] / NF;
      if (!sample.has(to) && !up.has(to)) continue;
      const edgeType = edgeTypes[edges[e + eTypeAt]];
      if (edgeType === 'weak') continue;
      const name = edgeType === 'element' || edgeType === 'hidden' ? `[${edgeType}]` : strings[edges[e + eNameAt]];
      const key = `${strings[nodes[i * NF + nameAt]]}.${name}`.slice(0, 100);
      retainers.set(key, (retainers.get(key) ?? 0) + 1);
    }
  }
  for (const [key, n] of [...retainers].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${String(n).padStart(7)}x retained by ${key}`);
  // One holder's chain of retainers up to a root (the first strong retainer at each step).
  const retainerOf = new Map();
  for (let i = 0; i < count; i++) {
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += EF) {
      const edgeType = edgeTypes[edges[e + eTypeAt]];
      if (edgeType === 'weak' || edgeType === 'shortcut') continue;
      const to = edges[e + eToAt] / NF;
      if (retainerOf.has(to)) continue;
      const name = edgeType === 'element' || edgeType === 'hidden' ? `[${edges[e + eNameAt]}]` : strings[edges[e + eNameAt]];
      retainerOf.set(to, [i, name]);
    }
  }
  let at = [...holders][Math.floor(holders.size / 2)];
  const seen = new Set();
  console.log('a chain of retainers (holder first):');
  for (let step = 0; step < 25 && at !== undefined && !seen.has(at); step++) {
    seen.add(at);
    const r = retainerOf.get(at);
    if (!r) break;
    console.log(`  ${nodeTypes[nodes[r[0] * NF + typeAt]]} ${strings[nodes[r[0] * NF + nameAt]].slice(0, 60)} .${String(r[1]).slice(0, 40)}`);
    at = r[0];
  }
}
