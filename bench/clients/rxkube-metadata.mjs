// rxkube's metadata-only informer (metadataListWatch: PartialObjectMetadata lists and watches) with
// one handler, as a client module of ../shared/bench; the server must answer metadata-only:
//   BENCH_METADATA=1 node --expose-gc ../shared/bench/run.mjs bench/clients/rxkube-metadata.mjs 10000 50000 real
import { rxkubeClient } from './rxkubeClient.mjs';
export default await rxkubeClient({ handlers: 1, metadataOnly: true });
