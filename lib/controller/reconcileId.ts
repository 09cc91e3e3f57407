// A reconcile ID (controller-runtime's `reconcileID`): a random UUID per reconcile, so that the log
// lines, errors and metrics of one reconcile can be told from those of the next.

let fallbackCounter = 0;

/**
 * A new reconcile ID: an RFC 4122 version 4 UUID from `crypto.randomUUID` (Node 19+, browsers),
 * else one built from `Math.random` and a counter (unique within the process).
 *
 * @example
 * ```ts
 * newReconcileId(); // '0b0f9a6e-3c1d-4f5a-9b7e-2d4c8e1f6a3b'
 * ```
 */
export function newReconcileId(): string {
  const uuid = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID;
  if (typeof uuid === 'function') return uuid.call(globalThis.crypto);
  const hex = (n: number, width: number) => Math.floor(n).toString(16).padStart(width, '0').slice(-width);
  const count = hex(++fallbackCounter, 8);
  const r = () => Math.random() * 0x10000;
  return `${hex(r(), 4)}${hex(r(), 4)}-${hex(r(), 4)}-4${hex(r(), 3)}-${hex(0x8000 + (r() % 0x4000), 4)}-${hex(r(), 4)}${count}`;
}
