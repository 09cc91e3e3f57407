// Logs with context: a reconcile's own lines (pino, through ctx.logContext) and the controller's
// error line (the Logger's context) carry the reconcile ID and the trace and span IDs of the
// reconcile's span, the same as the span says.
import { afterEach, describe, expect, it } from '@jest/globals';
import { SpanStatusCode } from '@opentelemetry/api';
import { pino } from 'pino';
import { of, throwError } from 'rxjs';
import { controller } from '../../lib/controller/controller.js';
import { TerminalError } from '../../lib/controller/terminalError.js';
import type { Logger } from '../../lib/logging/errorLogger.js';
import { dep, scriptedInformer, testScheduler } from '../controller/support.js';
import { epochScheduler, inMemoryTracing, type InMemoryTracing } from './support.js';

let traced: InMemoryTracing | undefined;

afterEach(async () => {
  await traced?.shutdown();
  traced = undefined;
});

/** A pino logger writing JSON lines into `lines` (synchronously: a destination of our own). */
function capturingPino(lines: Array<Record<string, unknown>>) {
  return pino({ base: undefined, timestamp: false }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
}

describe('logs with context', () => {
  it("hands pino the reconcile ID and its span's trace and span IDs, in the reconcile and in the controller's error line", () => {
    traced = inMemoryTracing();
    const { tracing } = traced;
    const lines: Array<Record<string, unknown>> = [];
    const log = capturingPino(lines);
    // The adapter docs/observability.md shows: rxkube's Logger onto pino.
    const logger: Logger = { error: (message, err, context) => log.error({ err, ...context }, message) };
    const ts = testScheduler();
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('web', '1'), dep('db', '1')]);
      const ctl = controller({
        name: 'deps',
        for: deps,
        tracing,
        logger,
        scheduler: epochScheduler(ts),
        reconcile: (key, ctx) => {
          log.child(ctx.logContext).info('reconciling');
          return key === 'ns/db' ? throwError(() => new TerminalError('no quota')) : of(undefined);
        },
      });
      ctl.start();
      ts.schedule(() => {
        void ctl.stop();
        void deps.stop();
      }, 20);
    });
    const spans = traced.spans();
    const spanOf = (key: string) => spans.find((s) => s.attributes['rxkube.reconcile.key'] === key)!;
    const ids = (key: string) => ({
      reconcileID: spanOf(key).attributes['rxkube.reconcile.id'],
      trace_id: spanOf(key).spanContext().traceId,
      span_id: spanOf(key).spanContext().spanId,
      trace_flags: '01',
    });
    expect(lines.filter((l) => l['msg'] === 'reconciling')).toEqual([
      { level: 30, msg: 'reconciling', controller: 'deps', namespace: 'ns', name: 'web', ...ids('ns/web') },
      { level: 30, msg: 'reconciling', controller: 'deps', namespace: 'ns', name: 'db', ...ids('ns/db') },
    ]);
    expect(spanOf('ns/db').status.code).toBe(SpanStatusCode.ERROR);
    expect(spanOf('ns/db').attributes).toMatchObject({ 'rxkube.reconcile.result': 'error', 'rxkube.reconcile.terminal': true });
    const failed = lines.filter((l) => l['level'] === 50);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ key: 'ns/db', ...ids('ns/db') });
    expect(String(failed[0]['msg'])).toContain('reconcile of "ns/db" failed: no quota');
    expect(String(failed[0]['msg'])).toContain(`[reconcileID ${String(ids('ns/db').reconcileID)}]`);
  });

  it('without tracing: the reconcile ID and key, no trace fields', () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = capturingPino(lines);
    const ts = testScheduler();
    let id = '';
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('web', '1')]);
      const ctl = controller({
        for: deps,
        scheduler: ts,
        logger: false,
        reconcile: (_key, ctx) => {
          id = ctx.reconcileId;
          log.child(ctx.logContext).info('reconciling');
        },
      });
      ctl.start();
      ts.schedule(() => {
        void ctl.stop();
        void deps.stop();
      }, 20);
    });
    expect(lines).toEqual([{ level: 30, msg: 'reconciling', controller: 'controller', namespace: 'ns', name: 'web', reconcileID: id }]);
  });
});
