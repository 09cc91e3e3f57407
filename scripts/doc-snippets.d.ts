// The reader's own code that the documentation's TypeScript blocks call, declared once so that the
// blocks stay short. scripts/check-doc-snippets.mjs compiles every block with this file. Keep it small:
// a block should import or declare what it uses; only placeholders for "your code" belong here.
import type { KubeConfig, V1Pod } from '@kubernetes/client-node';
import type { KubeObject } from 'rxkube';

declare global {
  /** Your KubeConfig, loaded as in getting-started (`kc.loadFromDefault()`). */
  const kubeConfig: KubeConfig;
  /** Your reconcile function. */
  // KubeObject until `applied()` then `predicateFilter()` keeps the element type (getting-started).
  function reconcile(obj: KubeObject): void;
  /** Your work queue's add. */
  function enqueue(obj: { metadata?: { namespace?: string; name?: string } }): void;
  /** Your view. */
  function render(pods: ReadonlyArray<V1Pod>): void;
}
