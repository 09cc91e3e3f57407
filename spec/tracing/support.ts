// An OpenTelemetry SDK of the test's own (not registered globally): spans kept in memory.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { openTelemetryTracing } from '../../lib/tracing/openTelemetryTracing.js';
import type { SchedulerLike } from 'rxjs';
import type { Tracing } from '../../lib/tracing/tracing.js';

export interface InMemoryTracing {
  readonly tracing: Tracing;
  readonly exporter: InMemorySpanExporter;
  spans(): ReadableSpan[];
  shutdown(): Promise<void>;
}

export function inMemoryTracing(propagation = false): InMemoryTracing {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return {
    tracing: openTelemetryTracing({ tracer: provider.getTracer('test'), propagation }),
    exporter,
    spans: () => exporter.getFinishedSpans(),
    shutdown: () => provider.shutdown(),
  };
}

// The SDK takes a span time below performance.now() as one from the process's time origin (and
// adds an offset of its own, per span): the controller's clock in the tests starts at EPOCH
// instead of 0, so that span times are exact epoch milliseconds.
export const EPOCH = Date.UTC(2026, 0, 1);

/** The TestScheduler, its clock moved to EPOCH (delays unchanged): the controller's clock in the tests. */
export function epochScheduler(ts: SchedulerLike): SchedulerLike {
  return { now: () => EPOCH + ts.now(), schedule: ts.schedule.bind(ts) as SchedulerLike['schedule'] };
}

/** A span's time in ms on the TestScheduler's clock. */
export const ms = (t: [number, number]): number => t[0] * 1000 + t[1] / 1e6 - EPOCH;

/** A link as the test reads it: `source TYPE kind name@rv` (and `<- cause` when the link has one). */
export function linkText(link: ReadableSpan['links'][number]): string {
  const a = link.attributes ?? {};
  const cause = a['rxkube.change.cause'] === undefined ? '' : ` <- ${String(a['rxkube.change.cause'])}`;
  return `${String(a['rxkube.change.source'])} ${String(a['rxkube.change.type'])} ${String(a['rxkube.object.kind'])} ${String(a['rxkube.object.name'])}@${String(a['rxkube.object.resource_version'])}${cause}`;
}
