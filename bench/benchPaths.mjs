// Where the bench scripts find things: the repo, the reference workload (../shared/bench, or
// SHARED_BENCH), and the clients by name. Shared by run.mjs, pipeline.mjs,
// profile.mjs and gc.mjs.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The repository root. */
export const repo = resolve(here, '..');

/** The reference workload's directory (its run.mjs, server.mjs, pods.mjs). */
export const shared = resolve(process.env.SHARED_BENCH ?? resolve(repo, '../shared/bench'));

/** Client name -> what ../shared/bench/run.mjs takes as CLIENT (a built-in name or a module path). */
export const CLIENTS = {
  rxkube: resolve(here, 'clients/rxkube.mjs'),
  'rxkube-10-handlers': resolve(here, 'clients/rxkube-10-handlers.mjs'),
  'rxkube-strip-managed-fields': resolve(here, 'clients/rxkube-strip-managed-fields.mjs'),
  'rxkube-fetch': resolve(here, 'clients/rxkube-fetch.mjs'),
  'rxkube-fetch-strip-managed-fields': resolve(here, 'clients/rxkube-fetch-strip-managed-fields.mjs'),
  'rxkube-freeze': resolve(here, 'clients/rxkube-freeze.mjs'),
  'rxkube-metadata': resolve(here, 'clients/rxkube-metadata.mjs'),
  'rxkube-baseline': resolve(here, 'clients/rxkube-baseline.mjs'),
  'rxkube-metadata-strip-managed-fields': resolve(here, 'clients/rxkube-metadata-strip-managed-fields.mjs'),
  'client-node': 'client-node',
  'http-floor': 'http-floor',
};

/** The CLIENT argument for a client given by name (above, or `parse-only`) or by path. */
export function clientArg(name) {
  return CLIENTS[name] ?? (name === 'parse-only' ? name : resolve(name));
}
