import { declareParts } from '../rbac/permission.js';
import { ConfigError } from '../configError.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { checkControllerOptions } from './checkControllerOptions.js';
import type { Controller, ControllerOptions } from './controllerOptions.js';
import { ControllerRun } from './controllerRun.js';
import { owned, type TriggerSource } from './triggerSource.js';

// The options and the interface live in controllerOptions.ts; exported from here too.
export type { Controller, ControllerError, ControllerOptions, ForInformer } from './controllerOptions.js';

export { DEFAULT_READ_YOUR_WRITES_TIMEOUT_MS } from './controllerRun.js';

/**
 * A controller (controller-runtime's `Controller`, kube-rs' `Controller`): changes of the primary
 * (`for`), of owned objects (`owns`) and of watched objects (`watches`) enqueue keys in a
 * {@link workQueue}; `concurrency` workers reconcile them, never one key in two workers at once.
 * A throw requeues the key with the rate limiter, a {@link TerminalError} does not, `{ requeueAfter }`
 * reconciles again later. Items from the initial list and unchanged resyncs go at low priority.
 *
 * ```text
 * for:        --a---a'--------b--      (changes of the primary: keys a, b)
 * owns:       -------p(a)------------   (a pod owned by a: key a)
 * reconcile:  --[a]--[a']-----[b]----   (a' and p(a) merge while a is queued)
 * ```
 *
 * @example
 * ```ts
 * const ctl = controller({
 *   for: factory.deployments(),
 *   forKind: { apiVersion: 'apps/v1', kind: 'Deployment' },
 *   owns: [factory.replicaSets()],
 *   predicates: [generationChanged],
 *   reconcile: async (key, { object }) => {
 *     if (!object) return; // deleted
 *     await ensureLabel(object);
 *   },
 *   concurrency: 4,
 * });
 * ctl.start();
 * ```
 */
export function controller<T extends KubeObjectLike>(options: ControllerOptions<T>): Controller {
  const name = options?.name ?? 'controller';
  const concurrency = checkControllerOptions(name, options);
  const sources: TriggerSource[] = [
    ...(options.owns ?? []).map((o) => ('keysOf' in o ? o : owned(o))),
    ...(options.watches ?? []),
  ];
  if (sources.some((s) => s.needsForKind) && options.forKind === undefined) {
    throw new ConfigError(
      'forKind',
      `controller ${JSON.stringify(name)}: owns needs forKind (the apiVersion and kind of the primary objects) to follow owner references`,
    );
  }
  const run = new ControllerRun(name, options, sources, concurrency);
  // What it needs, for RBAC generation (permissionsOf): its informers' reads and what it declares.
  declareParts(run, [options.for, ...sources.map((s) => s.informer), ...(options.permissions ?? [])]);
  return run;
}
