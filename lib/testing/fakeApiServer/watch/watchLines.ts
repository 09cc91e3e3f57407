import type { Status } from '../../../errors.js';
import type { Change } from '../storage/history.js';
import type { ResourceType } from '../resources.js';
import type { StoredObject } from '../storage/storedObject.js';

/** One watch event line; `object` is JSON already serialised, so it is never re-stringified. */
export const eventLine = (type: string, objectJson: string): string => `{"type":"${type}","object":${objectJson}}\n`;

const cache = new WeakMap<Change, { [t: string]: string }>();

/**
 * The line of `change` as `type` (ADDED/MODIFIED/DELETED), built once and shared by every watcher.
 * A DELETED caused by a label change carries the old state with the change's resourceVersion.
 */
export function changeLine(change: Change, type: 'ADDED' | 'MODIFIED' | 'DELETED'): string {
  let lines = cache.get(change);
  if (!lines) cache.set(change, (lines = {}));
  let line = lines[type];
  if (line === undefined) {
    if (type === 'DELETED' && change.type !== 'DELETED') {
      const old = JSON.parse((change.prev as StoredObject).json) as { metadata: { resourceVersion?: string } };
      old.metadata.resourceVersion = String(change.rv);
      line = eventLine('DELETED', JSON.stringify(old));
    } else line = eventLine(type, change.obj.json);
    lines[type] = line;
  }
  return line;
}

/** A BOOKMARK: an empty object of the watched kind with only `metadata.resourceVersion` (and the end-of-initial-events annotation). */
export function bookmarkLine(type: ResourceType, rv: number, initialEventsEnd: boolean): string {
  const annotations = initialEventsEnd ? ',"annotations":{"k8s.io/initial-events-end":"true"}' : '';
  return eventLine('BOOKMARK', `{"kind":"${type.kind}","apiVersion":"${type.apiVersion}","metadata":{"resourceVersion":"${rv}"${annotations}}}`);
}

/** An ERROR event carrying a Status. */
export const errorLine = (status: Status): string => eventLine('ERROR', JSON.stringify(status));
