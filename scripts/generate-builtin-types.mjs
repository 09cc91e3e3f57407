#!/usr/bin/env node
// The built-in resource types the fake API server serves, derived from @kubernetes/client-node's
// generated API classes (issue 33: every group and version client-node's models know, from the
// models, not from a hand-kept list). Each request factory method names its path and HTTP method;
// each response processor names the model it answers with. From those:
//   - group, version, plural and scope come from the paths (`/apis/{g}/{v}/namespaces/{namespace}/{plural}`),
//   - kind from the model a read (or a create) answers with (`V1CronJob` -> CronJob),
//   - verbs from the methods on the collection and item paths (GET collection: list and watch,
//     POST: create, DELETE collection: deletecollection, GET/PUT/PATCH/DELETE item: get, update,
//     patch, delete), subresources from `/{name}/{sub}` paths with their verbs and model.
// The table is the union over the client-node versions it was generated from; `--check` fails
// (exit 1) when the installed client-node knows a resource the table lacks or describes
// differently (spec/testing/builtInTypes.spec.ts runs it).
//
//   node scripts/generate-builtin-types.mjs [--from <client-node package dir>]... [--check]
// Without --from: the installed node_modules/@kubernetes/client-node. Writes
// lib/testing/fakeApiServer/registry/builtInTypes.generated.ts (merged with what it holds).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const TABLE = join(ROOT, 'lib/testing/fakeApiServer/registry/builtInTypes.generated.ts');

const METHOD = /\n {4}async (\w+)\(([^)]*)\) \{[\s\S]*?localVarPath = '([^']+)'[\s\S]*?makeRequestContext\(localVarPath, HttpMethod\.(\w+)\)/g;
const ANSWER = /(\w+)WithHttpInfo\(response: ResponseContext\): Promise<HttpInfo<(\w+)>>/g;

/** `V1CronJob` -> `CronJob`, `CoreV1Event` -> `Event`, `EventsV1Event` -> `Event`. */
const kindOf = (model) => /^(?:[A-Z][a-z]+)?V\d+(?:(?:alpha|beta)\d+)?([A-Z]\w*)$/.exec(model)?.[1];

/** One path parsed: group, version, scope, plural, whether it names an item, and its subresource. */
function parsePath(path) {
  const parts = path.split('/').filter(Boolean);
  let group = '';
  let rest;
  let version;
  if (parts[0] === 'api') [version, rest] = [parts[1], parts.slice(2)];
  else if (parts[0] === 'apis') [group, version, rest] = [parts[1], parts[2], parts.slice(3)];
  else return undefined;
  if (!version || rest.length === 0 || rest[0] === 'watch') return undefined;
  let namespaced = false;
  if (rest[0] === 'namespaces' && rest[1] === '{namespace}') [namespaced, rest] = [true, rest.slice(2)];
  const [plural, name, subresource, extra] = rest;
  if (!plural || plural.includes('{') || (name !== undefined && name !== '{name}') || extra !== undefined) return undefined;
  return { group, version, namespaced, plural, item: name !== undefined, subresource };
}

const COLLECTION_VERBS = { GET: ['list', 'watch'], POST: ['create'], DELETE: ['deletecollection'] };
const ITEM_VERBS = { GET: ['get'], PUT: ['update'], PATCH: ['patch'], DELETE: ['delete'], POST: ['create'] };
const VERB_ORDER = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const sortVerbs = (verbs) => [...new Set(verbs)].sort((a, b) => VERB_ORDER.indexOf(a) - VERB_ORDER.indexOf(b));

/** The resources of one client-node package directory. */
export function resourcesOf(packageDir) {
  const apis = join(packageDir, 'dist/gen/apis');
  const byKey = new Map();
  for (const file of readdirSync(apis).filter((f) => /V\d+\w*Api\.js$/.test(f))) {
    const js = readFileSync(join(apis, file), 'utf8');
    const dts = readFileSync(join(apis, file.replace(/\.js$/, '.d.ts')), 'utf8');
    const answers = new Map([...dts.matchAll(ANSWER)].map((m) => [m[1], m[2]]));
    for (const [, method, , path, http] of js.matchAll(METHOD)) {
      const p = parsePath(path);
      if (!p || method.startsWith('connect')) continue;
      const key = `${p.group}/${p.version}/${p.plural}`;
      const r = byKey.get(key) ?? { group: p.group, version: p.version, plural: p.plural, namespaced: false, kind: undefined, model: undefined, verbs: [], subresources: {} };
      byKey.set(key, r);
      // A cluster-wide list of a namespaced type (`/api/v1/pods`) says nothing about its scope.
      if (p.namespaced) r.namespaced = true;
      const model = answers.get(method);
      if (p.subresource) {
        const s = (r.subresources[p.subresource] ??= { verbs: [], model: undefined });
        s.verbs = sortVerbs([...s.verbs, ...(ITEM_VERBS[http] ?? [])]);
        if (model && kindOf(model)) s.model ??= model;
        continue;
      }
      r.verbs = sortVerbs([...r.verbs, ...((p.item ? ITEM_VERBS : COLLECTION_VERBS)[http] ?? [])]);
      // The kind is the model a read answers with, else a create's (reviews: create only).
      if (model && kindOf(model) && !/List$|^V1Status$/.test(model) && (p.item || http === 'POST')) {
        if (p.item && http === 'GET') r.model = model;
        else r.model ??= model;
      }
    }
  }
  const out = [];
  for (const r of byKey.values()) {
    if (!r.model) continue;
    out.push({ ...r, kind: kindOf(r.model), subresources: Object.fromEntries(Object.entries(r.subresources).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, { verbs: v.verbs, ...(v.model ? { kind: kindOf(v.model), model: v.model } : {}) }])) });
  }
  return out;
}

const keyOf = (r) => `${r.group}/${r.version}/${r.plural}`;
const order = (a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0);
const versionOf = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;

/** The table's entries and sources, read back from the generated file. */
export function readTable(file = TABLE) {
  const text = readFileSync(file, 'utf8');
  const json = /\/\* table \*\/ ([\s\S]*?) \/\* end \*\//.exec(text)?.[1];
  const sources = JSON.parse(/GENERATED_FROM: ReadonlyArray<string> = (\[[^\]]*\])/.exec(text)?.[1] ?? '[]');
  return { resources: json ? JSON.parse(json.replace(/,\s*\]$/, ']')) : [], sources };
}

/** Whether table entry `t` says everything `r` says: same kind, model and scope, its verbs and subresources included. */
function covers(t, r) {
  if (t.kind !== r.kind || t.model !== r.model || t.namespaced !== r.namespaced) return false;
  if (!r.verbs.every((v) => t.verbs.includes(v))) return false;
  return Object.entries(r.subresources).every(([name, s]) => {
    const ts = t.subresources[name];
    return ts !== undefined && ts.kind === s.kind && ts.model === s.model && s.verbs.every((v) => ts.verbs.includes(v));
  });
}

/** Two client-node versions' entries of one resource as one: the newer's identity, the union of verbs and subresources. */
function union(a, b) {
  const subresources = { ...a.subresources };
  for (const [name, s] of Object.entries(b.subresources)) subresources[name] = { ...s, verbs: sortVerbs([...(subresources[name]?.verbs ?? []), ...s.verbs]) };
  const sorted = Object.fromEntries(Object.entries(subresources).sort(([x], [y]) => (x < y ? -1 : 1)));
  return { ...b, verbs: sortVerbs([...a.verbs, ...b.verbs]), subresources: sorted };
}

/** What the table lacks or says differently from `resources` (one client-node's): one line each. */
export function staleness(table, resources) {
  const byKey = new Map(table.map((r) => [keyOf(r), r]));
  const out = [];
  for (const r of resources) {
    const t = byKey.get(keyOf(r));
    if (!t) out.push(`missing: ${keyOf(r)} (${r.kind})`);
    else if (!covers(t, r)) out.push(`differs: ${keyOf(r)}: table ${JSON.stringify(t)}, client-node ${JSON.stringify(r)}`);
  }
  return out;
}

function render(resources, sources) {
  const rows = resources.map((r) => `  ${JSON.stringify(r)}`).join(',\n');
  return `// Generated by scripts/generate-builtin-types.mjs from @kubernetes/client-node's API classes; do not
// edit (run \`node scripts/generate-builtin-types.mjs\`; spec/testing/builtInTypes.spec.ts checks it
// against the installed client-node). One entry per group, version and plural: scope, kind (and
// the model class), verbs and subresources as client-node's request paths and answers give them.
import type { BuiltInResource } from './builtInResource.js';

/** The client-node versions this table is the union of. */
export const GENERATED_FROM: ReadonlyArray<string> = ${JSON.stringify(sources)};

/**
 * Every resource client-node's API classes know, by group, version and plural.
 *
 * @example
 * \`\`\`ts
 * builtInResourceTable.find((r) => r.plural === 'cronjobs')?.kind; // 'CronJob'
 * \`\`\`
 */
export const builtInResourceTable: ReadonlyArray<BuiltInResource> = /* table */ [
${rows},
] /* end */;
`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dirs = args.flatMap((a, i) => (args[i - 1] === '--from' ? [resolve(a)] : []));
  if (dirs.length === 0) dirs.push(join(ROOT, 'node_modules/@kubernetes/client-node'));
  if (args.includes('--check')) {
    const { resources } = readTable();
    const problems = dirs.flatMap((d) => staleness(resources, resourcesOf(d)).map((p) => `${versionOf(d)}: ${p}`));
    for (const p of problems) console.log(p);
    if (problems.length === 0) console.log(`builtInTypes.generated.ts is current for client-node ${dirs.map(versionOf).join(', ')}`);
    process.exitCode = problems.length > 0 ? 1 : 0;
  } else {
    let existing = { resources: [], sources: [] };
    try {
      existing = readTable();
    } catch (e) {
      if (e?.code !== 'ENOENT') throw e; // no table yet
    }
    const merged = new Map(existing.resources.map((r) => [keyOf(r), r]));
    for (const d of dirs) for (const r of resourcesOf(d)) merged.set(keyOf(r), merged.has(keyOf(r)) ? union(merged.get(keyOf(r)), r) : r);
    const sources = [...new Set([...existing.sources, ...dirs.map(versionOf)])].sort();
    writeFileSync(TABLE, render([...merged.values()].sort(order), sources));
    console.log(`wrote ${merged.size} resources from client-node ${sources.join(', ')}`);
  }
}
