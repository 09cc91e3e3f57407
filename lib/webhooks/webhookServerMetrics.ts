/**
 * What a webhook server reports on its `metrics$`, for `rxkube/prometheus` (controller-runtime's
 * webhook metrics) or your own: each request served on a webhook path (its HTTP code and
 * seconds), each handler that threw (controller-runtime's panics), each certificate read.
 *
 * @example
 * ```ts
 * server.metrics$.subscribe((m) => { if (m.type === 'request') console.log(m.webhook, m.code, m.seconds); });
 * ```
 */
export type WebhookServerMetric =
  | { readonly type: 'request'; readonly webhook: string; readonly code: number; readonly seconds: number }
  | { readonly type: 'panic'; readonly webhookType: 'admission' | 'conversion' }
  | { readonly type: 'certificateRead'; readonly failed: boolean };

/**
 * A server's counters at a moment: requests being served per webhook path.
 *
 * @example
 * ```ts
 * server.stats().inFlight.get('/validate-example-com-v1-backup'); // 0
 * ```
 */
export interface WebhookServerStats {
  readonly inFlight: ReadonlyMap<string, number>;
  /** The webhook paths served (each has a series even before its first request). */
  readonly paths: ReadonlyArray<string>;
}
