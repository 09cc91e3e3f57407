// Proves the built package loads both ways: `import` (ESM) and `require` (CJS), for every entry point
// of package.json's exports (scripts/entryPoints.mjs), each exporting something.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { entryPoints } from './entryPoints.mjs';
const require = createRequire(import.meta.url);
for (const { specifier } of entryPoints(require('../package.json')).specifiers) {
  const esmEntry = await import(specifier);
  const cjsEntry = require(specifier);
  if (Object.keys(esmEntry).length === 0 || Object.keys(cjsEntry).length === 0) throw new Error(`${specifier} exports nothing (ESM ${Object.keys(esmEntry).length}, CJS ${Object.keys(cjsEntry).length})`);
}
const esm = await import('rxkube');
const cjs = require('rxkube');
const esmTesting = await import('rxkube/testing');
const cjsTesting = require('rxkube/testing');
for (const [name, mod] of Object.entries({ esm, cjs, esmTesting, cjsTesting })) {
  if (Object.keys(mod).length === 0) throw new Error(`${name} exports nothing`);
}
if (typeof esm.metaNamespaceKeyFunc !== 'function' || typeof cjs.metaNamespaceKeyFunc !== 'function') {
  throw new Error('metaNamespaceKeyFunc missing from the build');
}
const esmPrometheus = await import('rxkube/prometheus');
const cjsPrometheus = require('rxkube/prometheus');
if (typeof esmPrometheus.prometheusMetrics !== 'function' || typeof cjsPrometheus.prometheusMetrics !== 'function') {
  throw new Error('prometheusMetrics missing from rxkube/prometheus');
}
const esmWebhooks = await import('rxkube/webhooks');
const cjsWebhooks = require('rxkube/webhooks');
for (const name of ['validatingWebhook', 'mutatingWebhook', 'conversionWebhook', 'webhookServer', 'generateCertificates']) {
  if (typeof esmWebhooks[name] !== 'function' || typeof cjsWebhooks[name] !== 'function') throw new Error(`${name} missing from rxkube/webhooks`);
}
// rxkube/webhooks is Node-only: the core entry must not pull it in.
const core = readFileSync(new URL('../dist/esm/index.js', import.meta.url), 'utf8');
if (/webhookServer|node:https/.test(core)) throw new Error('dist/esm/index.js pulls in rxkube/webhooks (Node-only)');
const esmCrd = await import('rxkube/crd');
const cjsCrd = require('rxkube/crd');
if (typeof esmCrd.defineCustomResource !== 'function' || typeof cjsCrd.defineCustomResource !== 'function') {
  throw new Error('defineCustomResource missing from rxkube/crd');
}
console.log(`dist ok: ${Object.keys(esm).length} exports (ESM), ${Object.keys(cjs).length} (CJS)`);

// Source maps must work from the package alone: lib/ is not published, so every map carries the
// content of every source it names.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
const mapFiles = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) walk(join(dir, e.name));
    else if (e.name.endsWith('.map')) mapFiles.push(join(dir, e.name));
  }
};
walk('dist');
if (mapFiles.length === 0) throw new Error('no source maps in dist/');
for (const file of mapFiles) {
  const map = JSON.parse(readFileSync(file, 'utf8'));
  const missing = map.sources.filter((_, i) => typeof map.sourcesContent?.[i] !== 'string');
  if (missing.length > 0) {
    throw new Error(`${file}: no sourcesContent for ${missing.length} of ${map.sources.length} sources (e.g. ${missing[0]}); set inlineSources`);
  }
}
console.log(`source maps ok: ${mapFiles.length} maps, every source's content included`);
