// The reader's own code that the documentation's TypeScript blocks call, declared once so that the
// blocks stay short. scripts/check-doc-snippets.mjs compiles every block with this file. Keep it small:
// a block should import or declare what it uses; only placeholders for "your code" belong here.
import type { KubeConfig } from '@kubernetes/client-node';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';

declare global {
  /** Your KubeConfig, loaded as in getting-started (`kc.loadFromDefault()`). */
  const kubeConfig: KubeConfig;
  /** Your reconcile function: typed, so getting-started's `applied()` then `predicateFilter()` must keep Deployment (the factory's type). */
  function reconcile(deployment: Deployment): void;
  /** Your work queue's add. */
  function enqueue(obj: { metadata?: { namespace?: string; name?: string } }): void;
  /** Your view. */
  function render(pods: ReadonlyArray<Pod>): void;
}
