/**
 * Where a relist's deletions of objects that only the store knows belong in a batch's pops. The
 * FIFO does not read the store: it knows what is queued, not what is stored. A `replace` leaves this
 * mark instead; the store write (lib/informer/processDeltas.ts), which holds the old state, deletes
 * there every stored key that is neither `listed` nor the key of a pop before `at`, with a
 * `DeletedFinalStateUnknown` tombstone (client-go's DeltaFIFO finds the same keys through
 * `knownObjects`, because its queue has a consumer thread; rxkube's FIFO hands on every burst at once).
 *
 * - `at`: the index in the batch's pops before which the deletions go (after the listed items in
 *   coalescing mode, before them in ordered mode, as client-go's two FIFOs order them).
 * - `listed`: the keys the list had.
 *
 * @example
 * ```ts
 * const mark: RelistMark = { at: 2, listed: new Set(['ns/a', 'ns/b']) };
 * ```
 */
export interface RelistMark {
  readonly at: number;
  readonly listed: ReadonlySet<string>;
}
