// rxkube's informer with one handler and `freeze: true` (opt-in mutation detection: every object
// deep-frozen on the way in), to report what freezing costs (see rxkubeClient.mjs).
import { rxkubeClient } from './rxkubeClient.mjs';
export default await rxkubeClient({ handlers: 1, freeze: true });
