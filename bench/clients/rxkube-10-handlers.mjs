// rxkube's informer with ten handlers, each counting every add and update (see rxkubeClient.mjs).
import { rxkubeClient } from './rxkubeClient.mjs';
export default await rxkubeClient({ handlers: 10 });
