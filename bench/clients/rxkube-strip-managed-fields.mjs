// rxkube's informer with one handler and the stripManagedFields transform (see rxkubeClient.mjs).
import { rx, rxkubeClient } from './rxkubeClient.mjs';
export default await rxkubeClient({ handlers: 1, transform: rx.stripManagedFields });
