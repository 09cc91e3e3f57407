import {
  labelRequirement,
  requirementMatcher,
  requirementToString,
  type LabelRequirement,
  type Labels,
} from './labelRequirement.js';
import { LabelSelectorParseError } from './labelSelectorParseError.js';
import { describeValue } from '../meta/describeValue.js';

/**
 * A parsed label selector (client-go's `labels.Selector`): the AND of its requirements. Immutable.
 * Build one with {@link parseLabelSelector}, {@link labelSelectorFromSet} or
 * {@link labelSelectorFromObject}.
 *
 * @example
 * ```ts
 * const sel = parseLabelSelector('app=web,env notin (dev)');
 * sel.matches({ app: 'web', env: 'prod' }); // true
 * sel.toString();                           // 'app=web,env notin (dev)'
 * ```
 */
export interface LabelSelector {
  /** The requirements, sorted by key. Empty for a selector that matches everything. */
  readonly requirements: ReadonlyArray<LabelRequirement>;
  /** True when the selector restricts nothing (it matches every object). */
  readonly isEmpty: boolean;
  /** Whether a label set (an object's `metadata.labels`; undefined is no labels) matches. */
  matches(labels: Labels | undefined): boolean;
  /** The selector in Kubernetes syntax, as `labelSelector=` takes it. */
  toString(): string;
}

/**
 * Builds a selector from requirements (already validated by `labelRequirement`).
 *
 * @example
 * ```ts
 * const sel = labelSelector([labelRequirement('app', 'Exists')]);
 * ```
 */
export function labelSelector(requirements: ReadonlyArray<LabelRequirement>): LabelSelector {
  // Sorted by key (stable) so that the string form is deterministic, as client-go does.
  const reqs = Object.freeze([...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)));
  const matchers = reqs.map(requirementMatcher);
  const text = reqs.map(requirementToString).join(',');
  return Object.freeze({
    requirements: reqs,
    isEmpty: reqs.length === 0,
    matches: (labels: Labels | undefined) => matchers.every((m) => m(labels)),
    toString: () => text,
  });
}

/**
 * The selector that matches every object (the empty selector `''`).
 *
 * @example
 * ```ts
 * everythingLabelSelector.matches(undefined); // true
 * ```
 */
export const everythingLabelSelector: LabelSelector = labelSelector([]);

/**
 * The selector that matches no object (client-go's `labels.Nothing()`, what a `null`
 * `metav1.LabelSelector` means). It has no string form the API server accepts.
 *
 * @example
 * ```ts
 * nothingLabelSelector.matches({ app: 'web' }); // false
 * ```
 */
export const nothingLabelSelector: LabelSelector = Object.freeze({
  requirements: Object.freeze([]),
  isEmpty: false,
  matches: () => false,
  toString: () => '',
});

/**
 * A selector matching exactly the given labels (`k1=v1,k2=v2`); an empty set matches everything.
 *
 * @example
 * ```ts
 * labelSelectorFromSet({ app: 'web' }).toString(); // 'app=web'
 * ```
 */
export function labelSelectorFromSet(set: Labels | undefined): LabelSelector {
  return labelSelector(
    Object.entries(set ?? {}).map(([k, v]: [string, unknown]) => {
      // A number would never equal a label value (labels are strings): refused, not a silent miss.
      if (typeof v !== 'string') {
        throw new LabelSelectorParseError(`${k}=${describeValue(v)}`, k.length + 1, `the value of ${JSON.stringify(k)} must be a string (got ${v === null ? 'null' : typeof v})`);
      }
      return labelRequirement(k, 'Equals', [v]);
    }),
  );
}

/** The structured selector of Kubernetes objects (`spec.selector` of a Deployment, `V1LabelSelector`). */
export interface LabelSelectorObject {
  matchLabels?: { [key: string]: string };
  matchExpressions?: ReadonlyArray<{ key: string; operator: string; values?: ReadonlyArray<string> }>;
}

/**
 * Converts a structured selector (`metav1.LabelSelector`, e.g. a Deployment's `spec.selector`) into a
 * {@link LabelSelector}, as client-go's `LabelSelectorAsSelector`: null/undefined selects nothing, an
 * empty one everything. Operators are `In`, `NotIn`, `Exists`, `DoesNotExist`.
 *
 * @example
 * ```ts
 * const sel = labelSelectorFromObject(deployment.spec?.selector);
 * const pods = lister.byNamespace('default').list(sel);
 * ```
 */
export function labelSelectorFromObject(obj: LabelSelectorObject | null | undefined): LabelSelector {
  if (obj == null) return nothingLabelSelector;
  const reqs: LabelRequirement[] = Object.entries(obj.matchLabels ?? {}).map(([k, v]) =>
    labelRequirement(k, 'Equals', [v]),
  );
  for (const e of obj.matchExpressions ?? []) {
    if (
      e.operator !== 'In' &&
      e.operator !== 'NotIn' &&
      e.operator !== 'Exists' &&
      e.operator !== 'DoesNotExist'
    ) {
      throw new LabelSelectorParseError(
        JSON.stringify(e),
        0,
        `${JSON.stringify(e.operator)} is not a valid label selector operator`,
      );
    }
    reqs.push(labelRequirement(e.key, e.operator, e.values ?? []));
  }
  return labelSelector(reqs);
}
