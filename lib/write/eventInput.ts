import type { ObjectReference } from './objectReference.js';

/**
 * What a controller reports (kube-rs's `events::Event`, client-go's `Eventf` arguments).
 *
 * @example
 * ```ts
 * const e: EventInput = { type: 'Warning', reason: 'PatchFailed', action: 'Patch', note: '409 Conflict', regarding: { kind: 'Deployment', namespace: 'shop', name: 'web' } };
 * ```
 */
export interface EventInput {
  readonly type: 'Normal' | 'Warning';
  /** Why, in UpperCamelCase (`Scaled`, `FailedCreate`). */
  readonly reason: string;
  /** What the controller did or failed to do (`Patch`, `Create`). */
  readonly action: string;
  /** Human-readable; cut to 1 kB (1024 UTF-8 bytes, whole characters), the API server's limit. */
  readonly note?: string;
  readonly regarding: ObjectReference;
  readonly related?: ObjectReference;
}
