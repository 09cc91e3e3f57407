// Shared times for the printer specs: every object is created five minutes before NOW.
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';

export const NOW = Date.parse('2026-05-01T12:00:00Z');
export const FIVE_MINUTES_AGO = '2026-05-01T11:55:00Z';
/** `minutes` before NOW, as the API writes times. */
export const minutesAgo = (minutes: number): string => new Date(NOW - minutes * 60_000).toISOString().replace('.000Z', 'Z');

/** An object named `name`, created five minutes ago, with `fields` merged in. */
export const object = (name: string, fields: JsonObject = {}, meta: JsonObject = {}): JsonObject => ({
  metadata: { name, namespace: 'shop', creationTimestamp: FIVE_MINUTES_AGO, resourceVersion: '7', uid: `uid-${name}`, ...meta },
  ...fields,
});
