import { RxkubeError } from '../../../errors.js';
import type { JsonObject } from '../resources.js';
import { failure, StatusError } from '../status.js';
import { andThen, isPromise, type AdmissionAttributes, type AdmissionOperation, type AdmissionPlugin, type AdmissionResponse, type MaybePromise } from './attributes.js';

// kube-apiserver's admission chain (AS admission/chain.go, kube's plugin order: ADMISSION.md §1):
// every mutating plugin's `admit` in order, then (after the store's defaulting, strategy and
// validation) every validating plugin's `validate`; the first denial wins. The places, in kube's
// order: the built-in plugins (NamespaceLifecycle first), then mutating admission policies, then
// mutating webhooks; validating: built-ins, validating admission policies, validating webhooks.

/**
 * Where a plugin sits in the chain: `builtIn` (kube's compiled-in plugins), `policy`
 * (Mutating/ValidatingAdmissionPolicy) or `webhook` (admission webhooks).
 *
 * @example
 * ```ts
 * api.admission.register(plugin, { stage: 'policy' });
 * ```
 */
export type AdmissionStage = 'builtIn' | 'policy' | 'webhook';

const STAGES: ReadonlyArray<AdmissionStage> = ['builtIn', 'policy', 'webhook'];
const OPERATIONS: ReadonlyArray<AdmissionOperation> = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

const applies = (plugin: AdmissionPlugin, a: AdmissionAttributes): boolean =>
  (plugin.operations === undefined || plugin.operations.includes(a.operation)) && (!plugin.handles || plugin.handles(a));

/**
 * An admission plugin answered with a Promise where the caller cannot wait: the in-process
 * data-plane helpers (`api.create`, ...) are synchronous. Write over HTTP (any client), or make the
 * plugin answer at once.
 *
 * @example
 * ```ts
 * try { api.create('configmaps', cm); } catch (e) { if (e instanceof AsyncAdmissionError) console.log(e.plugin); }
 * ```
 */
export class AsyncAdmissionError extends RxkubeError {
  readonly plugin: string;
  constructor(plugin: string) {
    super(
      'AsyncAdmissionError',
      `admission plugin "${plugin}" answered asynchronously, and this write was made in process (api.create, api.update, ...), which cannot wait: nothing was written; write over HTTP (client-node, kubectl) or make the plugin answer synchronously`,
    );
    this.plugin = plugin;
  }
}

/**
 * How one phase runs: `sync` refuses Promises (data-plane writes), `warnings` collects the plugins'
 * warnings, `redefault` re-applies the type's defaults after a plugin changed the object (kube
 * defaults again after every webhook patch).
 *
 * @example
 * ```ts
 * const ctx: AdmissionContext = { sync: false, warnings: [], redefault: (obj) => rules.defaults?.(obj) };
 * ```
 */
export interface AdmissionContext {
  readonly sync: boolean;
  readonly warnings?: string[];
  readonly redefault?: (obj: JsonObject) => void;
}

interface Registered {
  readonly plugin: AdmissionPlugin;
  readonly stage: AdmissionStage;
  /** Built-ins are trusted not to need change tracking (they change nothing or say so). */
  readonly tracked: boolean;
}

const deniedBy = (plugin: AdmissionPlugin, response: Extract<AdmissionResponse, { allowed: false }>): StatusError => {
  const s = response.status ?? {};
  return new StatusError(failure(s.code ?? 403, s.reason ?? 'Forbidden', s.message ?? `admission plugin "${plugin.name}" denied the request`, s.details));
};

const failedIn = (plugin: AdmissionPlugin, e: unknown): StatusError => {
  if (e instanceof StatusError) return e;
  const why = `admission plugin "${plugin.name}" failed: ${e instanceof Error ? e.message : String(e)}`;
  return new StatusError(failure(500, 'InternalError', `Internal error occurred: ${why}`, { causes: [{ message: why }] }));
};

/**
 * The server's admission chain: the built-in plugins it starts with, and the places users register
 * theirs (`api.admission.register`).
 *
 * @example
 * ```ts
 * const chain = new AdmissionChain([namespaceLifecycle(lookup)]);
 * const off = chain.register(myPlugin, 'webhook');
 * ```
 */
export class AdmissionChain {
  private registered: Registered[] = [];
  /** Which phases have a plugin for which operations (the store builds no attributes for a phase nobody looks at). */
  private wanted = new Set<string>();
  private userPlugins = false;

  constructor(builtIns: ReadonlyArray<AdmissionPlugin>) {
    this.update(builtIns.map((plugin) => ({ plugin, stage: 'builtIn', tracked: false })));
  }

  private update(registered: Registered[]): void {
    this.registered = registered.sort((a, b) => STAGES.indexOf(a.stage) - STAGES.indexOf(b.stage));
    this.wanted = new Set();
    for (const { plugin } of registered) {
      for (const op of plugin.operations ?? OPERATIONS) {
        if (plugin.admit) this.wanted.add(`admit/${op}`);
        if (plugin.validate) this.wanted.add(`validate/${op}`);
      }
    }
    this.userPlugins = registered.some((r) => r.tracked);
  }

  /** Whether some plugin runs in `phase` for `operation`. */
  wants(phase: 'admit' | 'validate', operation: AdmissionOperation): boolean {
    return this.wanted.has(`${phase}/${operation}`);
  }

  /** Adds a plugin at the end of its stage; returns the function that removes it. */
  register(plugin: AdmissionPlugin, stage: AdmissionStage = 'webhook'): () => void {
    const entry: Registered = { plugin, stage, tracked: true };
    this.update([...this.registered, entry]);
    return () => this.update(this.registered.filter((r) => r !== entry));
  }

  /** Whether a plugin other than the built-ins is registered (the store's fast paths skip admission only then). */
  get hasUserPlugins(): boolean {
    return this.userPlugins;
  }

  /** The plugins in chain order, with their stage. */
  plugins(): ReadonlyArray<{ readonly plugin: AdmissionPlugin; readonly stage: AdmissionStage }> {
    return this.registered.map(({ plugin, stage }) => ({ plugin, stage }));
  }

  /** The mutating phase: each `admit` in order, then one reinvocation round where asked for. */
  admit(a: AdmissionAttributes, ctx: AdmissionContext): MaybePromise<void> {
    const steps = this.registered.filter((r) => r.plugin.admit && applies(r.plugin, a));
    if (steps.length === 0) return;
    const changedAfter = new Array<boolean>(steps.length).fill(false);
    const first = this.runMutating(a, ctx, steps, 0, (i) => {
      for (let j = 0; j < i; j++) changedAfter[j] = true;
    });
    return andThen(first, () => {
      const again = steps.filter((r, i) => r.plugin.reinvocationPolicy === 'IfNeeded' && (changedAfter[i] || r.plugin.wantsReinvocation?.(a) === true));
      return again.length === 0 ? undefined : this.runMutating(a, ctx, again, 0, () => undefined);
    });
  }

  private runMutating(a: AdmissionAttributes, ctx: AdmissionContext, steps: ReadonlyArray<Registered>, i: number, changed: (i: number) => void): MaybePromise<void> {
    for (; i < steps.length; i++) {
      const { plugin, tracked } = steps[i];
      const before = tracked && a.object ? JSON.stringify(a.object) : undefined;
      const answer = this.call(plugin, () => plugin.admit!(a, { redefault: ctx.redefault }), ctx);
      const after = (response: AdmissionResponse | void): void => {
        this.settle(plugin, a, response, ctx);
        if (before !== undefined && a.object && JSON.stringify(a.object) !== before) {
          ctx.redefault?.(a.object);
          changed(i);
        }
      };
      if (isPromise(answer)) {
        const next = i + 1;
        return answer.then((r) => {
          after(r);
          return this.runMutating(a, ctx, steps, next, changed);
        });
      }
      after(answer);
    }
  }

  /** The validating phase: each `validate` in order, on a copy of the finished object. */
  validate(a: AdmissionAttributes, ctx: AdmissionContext): MaybePromise<void> {
    const steps = this.registered.filter((r) => r.plugin.validate && applies(r.plugin, a));
    if (steps.length === 0) return;
    const seen: AdmissionAttributes = { ...a, object: a.object && (JSON.parse(JSON.stringify(a.object)) as JsonObject) };
    const run = (i: number): MaybePromise<void> => {
      for (; i < steps.length; i++) {
        const { plugin } = steps[i];
        const answer = this.call(plugin, () => plugin.validate!(seen), ctx);
        if (isPromise(answer)) {
          const next = i + 1;
          return answer.then((r) => {
            this.settle(plugin, seen, r, ctx, true);
            return run(next);
          });
        }
        this.settle(plugin, seen, answer, ctx, true);
      }
    };
    return run(0);
  }

  /** Calls a plugin: a throw is a 500 naming it; a Promise where none may be is refused. */
  private call(plugin: AdmissionPlugin, f: () => MaybePromise<AdmissionResponse | void>, ctx: AdmissionContext): MaybePromise<AdmissionResponse | void> {
    let answer: MaybePromise<AdmissionResponse | void>;
    try {
      answer = f();
    } catch (e) {
      throw failedIn(plugin, e);
    }
    if (!isPromise(answer)) return answer;
    if (ctx.sync) {
      answer.catch(() => undefined); // its outcome no longer matters: nothing is written
      throw new AsyncAdmissionError(plugin.name);
    }
    return answer.catch((e: unknown) => {
      throw failedIn(plugin, e);
    });
  }

  /** Applies an answer: warnings kept, a denial thrown, a returned object taken (mutating only). */
  private settle(plugin: AdmissionPlugin, a: AdmissionAttributes, response: AdmissionResponse | void, ctx: AdmissionContext, validating = false): void {
    if (!response) return;
    if (response.warnings) ctx.warnings?.push(...response.warnings);
    if (!response.allowed) throw deniedBy(plugin, response);
    if (response.object && !validating) a.object = response.object;
  }
}
