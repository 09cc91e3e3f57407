// rxkube's informer with one handler and stripManagedFields, over fetchTransport (see rxkube-fetch.mjs).
import { rx, rxkubeClient } from './rxkubeClient.mjs';
export default await rxkubeClient({ handlers: 1, transform: rx.stripManagedFields, transport: 'fetch' });
