// Proves the built package loads both ways: `import` (ESM) and `require` (CJS), for both entry points.
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
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
console.log(`dist ok: ${Object.keys(esm).length} exports (ESM), ${Object.keys(cjs).length} (CJS)`);
