// Whether a recorded DELETED is a deletion. A stream watched with a label or field selector gets
// DELETED when an object stops matching (kube sends the old content with the change's
// resourceVersion); the object lives on. So such a DELETED (or such a stream's relist leaving an
// object out) deletes only when no later entry of any stream shows the object (same uid) and no other
// stream of its type shows it at that point. A stream without selectors sees every change of the
// objects in its scope: its DELETED is a deletion.
import type { RecordedObject, RecordedStream, RecordedTraffic } from './recording.js';

/**
 * An object of a recording: its type's id, `namespace/name`, and its uid (`''` when not recorded).
 *
 * @example
 * ```ts
 * const ref: RecordedRef = { typeId: 'pods', key: 'shop/web-0', uid: '5f1c...' };
 * ```
 */
export interface RecordedRef {
  readonly typeId: string;
  readonly key: string;
  readonly uid: string;
}

const meta = (o: RecordedObject): { namespace?: unknown; name?: unknown; uid?: unknown } => (o.metadata ?? {}) as { namespace?: unknown; name?: unknown; uid?: unknown };

/**
 * The reference of a recorded object of type `typeId`.
 *
 * @example
 * ```ts
 * refOf('pods', { metadata: { namespace: 'shop', name: 'a', uid: 'u1' } }); // { typeId: 'pods', key: 'shop/a', uid: 'u1' }
 * ```
 */
export function refOf(typeId: string, o: RecordedObject): RecordedRef {
  const m = meta(o);
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return { typeId, key: `${str(m.namespace)}/${str(m.name)}`, uid: str(m.uid) };
}

const id = (r: RecordedRef): string => `${r.typeId}|${r.key}|${r.uid}`;

/** The objects a list or a watch event shows alive. */
const alive = (e: RecordedTraffic): ReadonlyArray<RecordedObject> =>
  e.type === 'list' ? e.items : e.event.type === 'ADDED' || e.event.type === 'MODIFIED' ? [e.event.object] : [];

/**
 * Whether a stream was watched with a selector (so its DELETED may only mean "no longer matches").
 *
 * @example
 * ```ts
 * hasSelector({ resource: pods, labelSelector: 'app=web' }); // true
 * ```
 */
export const hasSelector = (s: RecordedStream): boolean => Boolean(s.labelSelector) || Boolean(s.fieldSelector);

/**
 * What a replay needs to decide deletions: where each object is last shown alive in the recording,
 * and what each stream shows as the replay goes (moved by {@link Liveness.show} and
 * {@link Liveness.hide}).
 *
 * @example
 * ```ts
 * const live = new Liveness(recording.entries, (stream) => types[stream].id, recording.streams);
 * if (live.isDeletion(1, 42, ref)) storage.remove(...);
 * ```
 */
export class Liveness {
  private readonly lastAlive = new Map<string, number>();
  private readonly shown: Array<Map<string, string>>;

  constructor(
    entries: ReadonlyArray<RecordedTraffic>,
    private readonly typeIdOf: (stream: number) => string,
    private readonly streams: ReadonlyArray<RecordedStream>,
  ) {
    entries.forEach((e, i) => {
      for (const o of alive(e)) this.lastAlive.set(id(refOf(typeIdOf(e.stream), o)), i);
    });
    this.shown = streams.map(() => new Map());
  }

  /** Stream `stream` now shows the object. */
  show(stream: number, ref: RecordedRef): void {
    this.shown[stream].set(ref.key, ref.uid);
  }

  /** Stream `stream` no longer shows the object. */
  hide(stream: number, ref: RecordedRef): void {
    this.shown[stream].delete(ref.key);
  }

  /**
   * Whether stream `stream` dropping the object at entry `index` (a DELETED, or a relist without
   * it) is a deletion: always for a stream without selectors; for one with, only when no later
   * entry shows the object and no other stream of its type shows it now.
   */
  isDeletion(stream: number, index: number, ref: RecordedRef): boolean {
    if (!hasSelector(this.streams[stream])) return true;
    if ((this.lastAlive.get(id(ref)) ?? -1) > index) return false;
    return !this.shown.some((view, other) => other !== stream && this.typeIdOf(other) === ref.typeId && view.has(ref.key) && view.get(ref.key) === ref.uid);
  }
}
