import { asyncScheduler, concatMap, from, tap, timer, type SchedulerLike } from 'rxjs';
import { RxkubeError } from '../../errors.js';
import type { ServerContext } from '../fakeApiServer/context.js';
import type { JsonObject, ResourceType } from '../fakeApiServer/resources.js';
import { objectKey } from '../fakeApiServer/storage/storedObject.js';
import { now } from '../fakeApiServer/registry/writeRequest.js';
import { Liveness, refOf } from './liveness.js';
import type { RecordedObject, RecordedStream, RecordedTraffic, Recording } from './recording.js';

/**
 * Options of `api.replay` (and of `startFakeApiServer({ replay })`).
 *
 * @example
 * ```ts
 * const options: ServerReplayOptions = { scheduler: testScheduler };
 * ```
 */
export interface ServerReplayOptions {
  /** The clock the recorded times are played on. Default the server's scheduler. */
  readonly scheduler?: SchedulerLike;
}

/**
 * A replay running into a fake API server.
 *
 * @example
 * ```ts
 * const replay: ServerReplay = api.replay(recording);
 * await replay.done;
 * ```
 */
export interface ServerReplay {
  /** Resolves once the last recorded entry has been played (or the replay was cancelled); rejects if a write failed. */
  readonly done: Promise<void>;
  /** Stops playing; what was played stays. */
  cancel(): void;
}

function typeFor(ctx: ServerContext, stream: RecordedStream, entries: ReadonlyArray<RecordedTraffic>): ResourceType {
  const r = stream.resource;
  const known = ctx.types.find(r.group, r.version, r.plural);
  if (known) return known;
  const kind = r.kind ?? entries.flatMap((e) => (e.type === 'list' ? e.items : e.event.type === 'MALFORMED' ? [] : [e.event.object])).map((o) => o['kind']).find((k) => typeof k === 'string');
  if (typeof kind !== 'string') throw new RxkubeError('RecordingFormatError', `replay: the recording names no kind for ${r.plural}${r.group ? `.${r.group}` : ''}; cannot serve it`);
  return ctx.types.register({ ...r, kind });
}

/** An entry of the recording and its index there (deletions are decided by what comes later). */
interface Indexed {
  readonly e: RecordedTraffic;
  readonly index: number;
}

const nameOf = (o: RecordedObject): { namespace: string; name: string } => {
  const meta = (o['metadata'] ?? {}) as { namespace?: unknown; name?: unknown };
  return { namespace: typeof meta.namespace === 'string' ? meta.namespace : '', name: typeof meta.name === 'string' ? meta.name : '' };
};

/**
 * Plays a recording into a fake API server: each stream's first list is written at once (the
 * objects as recorded, uids, timestamps, status and finalizers included; the server gives them
 * its own resourceVersions), then every event at its recorded time after the first list, in
 * order: ADDED and MODIFIED write the object, DELETED removes it; a later list (a relist) makes
 * the stream's objects what it lists. A stream watched with a selector gets DELETED (and relists
 * without an object) when the object only stops matching: there it removes the object only when
 * no later entry and no other stream shows it (see liveness.ts). Resource types the server lacks
 * are registered from the recorded descriptors. Informers against the server see what the
 * recorded cluster showed.
 */
export function replayIntoServer(ctx: ServerContext, recording: Recording, options: ServerReplayOptions = {}): ServerReplay {
  const scheduler = options.scheduler ?? ctx.scheduler ?? asyncScheduler;
  const types = recording.streams.map((s, i) => typeFor(ctx, s, recording.entries.filter((e) => e.stream === i)));
  const placed = recording.streams.map(() => new Set<string>());
  const live = new Liveness(recording.entries, (stream) => types[stream].id, recording.streams);
  const storageKey = (type: ResourceType, o: RecordedObject): string => objectKey(type.namespaced ? nameOf(o).namespace : '', nameOf(o).name);

  const put = (stream: number, o: RecordedObject): void => {
    const type = types[stream];
    const { namespace, name } = nameOf(o);
    if (!name) return;
    const obj = structuredClone(o) as JsonObject;
    const meta = (obj['metadata'] ??= {}) as JsonObject;
    delete meta['resourceVersion'];
    obj['apiVersion'] ??= type.apiVersion;
    obj['kind'] ??= type.kind;
    const nsType = ctx.types.find('', 'v1', 'namespaces');
    if (type.namespaced && nsType && !ctx.storage.get(nsType, namespace)) now(ctx.registry.create(nsType, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, { sync: true }));
    ctx.storage.put(type, obj);
    placed[stream].add(storageKey(type, o));
    live.show(stream, refOf(type.id, o));
  };
  // The stream no longer shows `o` (a DELETED at entry `index`, or a relist without it).
  const drop = (stream: number, index: number, o: RecordedObject): void => {
    const type = types[stream];
    const key = storageKey(type, o);
    const ref = refOf(type.id, o);
    placed[stream].delete(key);
    live.hide(stream, ref);
    const current = ctx.storage.get(type, key);
    if (current && live.isDeletion(stream, index, ref)) ctx.storage.remove(type, key, JSON.parse(current.json) as JsonObject);
  };
  const relist = (stream: number, index: number, items: ReadonlyArray<RecordedObject>): void => {
    const type = types[stream];
    const keep = new Set(items.map((o) => storageKey(type, o)));
    for (const key of [...placed[stream]]) {
      const current = ctx.storage.get(type, key);
      if (keep.has(key)) continue;
      if (current) drop(stream, index, JSON.parse(current.json) as RecordedObject);
      else placed[stream].delete(key);
    }
    for (const o of items) put(stream, o);
  };
  const apply = ({ e, index }: Indexed): void => {
    if (e.type === 'list') relist(e.stream, index, e.items);
    else if (e.event.type === 'ADDED' || e.event.type === 'MODIFIED') put(e.stream, e.event.object);
    else if (e.event.type === 'DELETED') drop(e.stream, index, e.event.object);
  };

  // The first list of each stream is the seed, written now; the rest is the timeline.
  const indexed: Indexed[] = recording.entries.map((e, index) => ({ e, index }));
  const seeds = new Set<Indexed>();
  for (let i = 0; i < recording.streams.length; i++) {
    const first = indexed.find(({ e }) => e.stream === i && e.type === 'list');
    if (first) seeds.add(first);
  }
  for (const s of seeds) apply(s);
  const t0 = Math.min(...[...seeds].map((s) => s.e.t), Number.POSITIVE_INFINITY);
  const origin = scheduler.now();
  const timeline = indexed.filter((x) => !seeds.has(x));
  let resolveDone!: () => void;
  let rejectDone!: (e: unknown) => void;
  const done = new Promise<void>((resolve, reject) => ((resolveDone = resolve), (rejectDone = reject)));
  done.catch(() => undefined); // a replay nobody awaits must not end the process with an unhandled rejection
  const sub = from(timeline)
    .pipe(concatMap((x) => timer(Math.max(0, origin + (x.e.t - (Number.isFinite(t0) ? t0 : 0)) - scheduler.now()), scheduler).pipe(tap(() => apply(x)))))
    .subscribe({ complete: resolveDone, error: rejectDone });
  sub.add(() => resolveDone());
  return { done, cancel: () => sub.unsubscribe() };
}
