// Writes observability/: the Grafana dashboard and the alerting rules (a Prometheus rules file and a
// prometheus-operator PrometheusRule), from rxkube/prometheus's generators. `npm run observability`;
// spec/prometheus/observabilityFiles.spec.ts fails when the files and the generators differ.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { observabilityFiles } from '../lib/prometheus/observabilityFiles.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'observability');
for (const [name, text] of Object.entries(observabilityFiles())) {
  writeFileSync(join(dir, name), text);
  console.log(`wrote observability/${name}`);
}
