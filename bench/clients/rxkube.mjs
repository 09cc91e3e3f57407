// rxkube's informer with one handler, as a client module of ../shared/bench (see rxkubeClient.mjs):
//   node --expose-gc ../shared/bench/run.mjs bench/clients/rxkube.mjs 10000 50000 real
import { rxkubeClient } from './rxkubeClient.mjs';
export default await rxkubeClient({ handlers: 1 });
