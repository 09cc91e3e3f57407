// rxkube's informer with one handler over rxkube's fetchTransport: @kubernetes/client-node is not
// loaded, so heapAfterSync is the informer's own memory (see rxkubeClient.mjs).
import { rxkubeClient } from './rxkubeClient.mjs';
export default await rxkubeClient({ handlers: 1, transport: 'fetch' });
