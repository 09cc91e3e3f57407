/**
 * The shortest handler resync period (ms): shorter non-zero periods are raised to it, as client-go's
 * `minimumResyncPeriod` (1 s).
 *
 * @example
 * ```ts
 * informer.addEventHandler(h, { resyncPeriod: 200 }); // resyncs every 1000 ms
 * ```
 */
export const minimumResyncPeriod = 1000;

/**
 * client-go's `determineResyncPeriod`: the period a handler actually resyncs at, given the period it
 * asked for and the informer's resync check period (both ms). 0 never resyncs; a handler cannot
 * resync more often than the informer checks; an informer that never checks never resyncs.
 *
 * @example
 * ```ts
 * determineResyncPeriod(0, 1000);    // 0
 * determineResyncPeriod(500, 1000);  // 1000
 * determineResyncPeriod(3000, 1000); // 3000
 * determineResyncPeriod(3000, 0);    // 0
 * ```
 */
export function determineResyncPeriod(desired: number, check: number): number {
  if (desired === 0) return 0;
  if (check === 0) return 0;
  return desired < check ? check : desired;
}

/**
 * The period a handler asked for, cleaned up: negative, NaN or infinite become 0 (never), and non-zero
 * periods under {@link minimumResyncPeriod} become it.
 *
 * @example
 * ```ts
 * normalizeResyncPeriod(10);   // 1000
 * normalizeResyncPeriod(0);    // 0
 * ```
 */
export function normalizeResyncPeriod(period: number | undefined): number {
  if (period === undefined || !Number.isFinite(period) || period <= 0) return 0;
  return period < minimumResyncPeriod ? minimumResyncPeriod : period;
}
