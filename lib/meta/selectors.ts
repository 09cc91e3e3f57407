import {
  labelSelectorFromObject,
  labelSelectorFromSet,
  nothingLabelSelector,
  type LabelSelector,
  type LabelSelectorObject,
} from '../labels/labelSelector.js';
import type { KubeObjectLike } from './kubeObject.js';

/** An object that may select others: a `spec.selector`, structured or a plain label map. */
type Selecting = KubeObjectLike & { spec?: { selector?: LabelSelectorObject | { [key: string]: string } | null } | null };

const isStructured = (s: object): s is LabelSelectorObject => 'matchLabels' in s || 'matchExpressions' in s;

/**
 * The label selector in an object's `spec.selector`: a structured one (`matchLabels` and
 * `matchExpressions`, as Deployments, ReplicaSets, Jobs have) or a plain label map (Services,
 * ReplicationControllers). No selector selects nothing (client-go's `LabelSelectorAsSelector` of
 * nil); an empty structured one selects everything.
 *
 * @example
 * ```ts
 * const sel = selectorOf(deployment);
 * const pods = podLister.byNamespace(deployment.metadata!.namespace!).list(sel);
 * ```
 */
export function selectorOf(obj: Selecting): LabelSelector {
  const s = obj.spec?.selector;
  if (s == null) return nothingLabelSelector;
  if (isStructured(s) || Object.keys(s).length === 0) return labelSelectorFromObject(s as LabelSelectorObject);
  return labelSelectorFromSet(s as { [key: string]: string });
}

/**
 * Whether `selector` (its `spec.selector`) selects `obj`: same namespace and matching labels.
 *
 * @example
 * ```ts
 * if (selects(deployment, pod)) console.log('pod belongs to the deployment by its labels');
 * ```
 */
export function selects(selector: Selecting, obj: KubeObjectLike): boolean {
  if ((selector.metadata?.namespace ?? '') !== (obj.metadata?.namespace ?? '')) return false;
  return selectorOf(selector).matches(obj.metadata?.labels);
}

/**
 * Which of `candidates` select `obj` ("which Deployments select this Pod", what a `watches`
 * mapping from a Pod to its Deployments' keys needs): those in its namespace whose
 * `spec.selector` matches its labels. Candidates whose selector is invalid are skipped.
 *
 * @example
 * ```ts
 * const owners = selectedBy(pod, deployments.lister().byNamespace(pod.metadata!.namespace!).list());
 * ```
 */
export function selectedBy<S extends Selecting>(obj: KubeObjectLike, candidates: Iterable<S>): S[] {
  const out: S[] = [];
  for (const c of candidates) {
    try {
      if (selects(c, obj)) out.push(c);
    } catch {
      // An invalid selector (bad operator) selects nothing, as the API server would not accept it.
    }
  }
  return out;
}
