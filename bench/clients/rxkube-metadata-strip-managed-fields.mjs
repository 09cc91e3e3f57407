// rxkube's metadata-only informer that also drops managedFields (transform: stripManagedFields),
// as a client module of ../shared/bench; the server must answer metadata-only:
//   BENCH_METADATA=1 node --expose-gc ../shared/bench/run.mjs bench/clients/rxkube-metadata-strip-managed-fields.mjs 10000 50000 real
import { rx, rxkubeClient } from './rxkubeClient.mjs';
export default await rxkubeClient({ handlers: 1, metadataOnly: true, transform: rx.stripManagedFields });
