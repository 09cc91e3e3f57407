import type { KubeObjectLike } from '../meta/kubeObject.js';
import type { TraceContext } from './traceContext.js';
import type { ReconcileSpan, ReconcileSpanEnd, Tracing, WriteSpan, WriteSpanStart } from './tracing.js';

// The write spans of one Tracing by the object version they stored (namespace/name@resourceVersion):
// when the watch event of that version reaches a controller traced by the same Tracing, its
// reconcile links to the write that caused it, whether or not the write carried KEP-5915's
// annotation. Bounded, oldest forgotten first: events arrive within moments of their write.

const MAX_CAUSES = 4096;

const keyOf = (namespace: string | undefined, name: string, resourceVersion: string) => `${namespace ?? ''}/${name}@${resourceVersion}`;

/**
 * The write spans of one {@link Tracing}, by the object version each stored.
 *
 * @internal
 * @example
 * ```ts
 * const causes = writeCausesOf(tracing);
 * causes.remember('ns', 'a', '42', writeSpan.context);
 * causes.causeOf('ns', 'a', '42'); // writeSpan.context
 * ```
 */
export class WriteCauses {
  private readonly causes = new Map<string, TraceContext>();

  remember(namespace: string | undefined, name: string | undefined, resourceVersion: string | undefined, context: TraceContext): void {
    if (name === undefined || resourceVersion === undefined || resourceVersion === '') return;
    if (this.causes.size >= MAX_CAUSES) this.causes.delete(this.causes.keys().next().value as string);
    this.causes.set(keyOf(namespace, name, resourceVersion), context);
  }

  causeOf(namespace: string | undefined, name: string | undefined, resourceVersion: string | undefined): TraceContext | undefined {
    if (this.causes.size === 0 || name === undefined || resourceVersion === undefined) return undefined;
    return this.causes.get(keyOf(namespace, name, resourceVersion));
  }
}

const byTracing = new WeakMap<Tracing, WriteCauses>();

/**
 * The write causes shared by every controller traced by `tracing`.
 *
 * @internal
 * @example
 * ```ts
 * const causes = writeCausesOf(options.tracing);
 * ```
 */
export function writeCausesOf(tracing: Tracing): WriteCauses {
  let causes = byTracing.get(tracing);
  if (causes === undefined) byTracing.set(tracing, (causes = new WriteCauses()));
  return causes;
}

/**
 * A reconcile's span whose write spans remember, as they end, the object version they stored.
 *
 * @internal
 * @example
 * ```ts
 * const span = new CausalReconcileSpan(tracing.startReconcile(start), writeCausesOf(tracing));
 * ```
 */
export class CausalReconcileSpan implements ReconcileSpan {
  readonly context: TraceContext | undefined;
  readonly propagation: boolean;

  constructor(
    private readonly span: ReconcileSpan,
    private readonly causes: WriteCauses,
  ) {
    this.context = span.context;
    this.propagation = span.propagation;
  }

  run<A, R>(fn: (arg: A) => R, arg: A): R {
    return this.span.run(fn, arg);
  }

  ownWritesWait(startTime: number, endTime: number): void {
    this.span.ownWritesWait(startTime, endTime);
  }

  startWrite(start: WriteSpanStart): WriteSpan {
    const write = this.span.startWrite(start);
    const { causes } = this;
    return {
      context: write.context,
      end(result: { readonly status?: number; readonly object?: KubeObjectLike; readonly error?: unknown }) {
        const meta = result.object?.metadata;
        if (write.context !== undefined && meta !== undefined) causes.remember(meta.namespace, meta.name, meta.resourceVersion, write.context);
        write.end(result);
      },
    };
  }

  end(end: ReconcileSpanEnd): void {
    this.span.end(end);
  }
}
