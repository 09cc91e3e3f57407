// The small formats the printers share, as apimachinery and the printers write them: label maps,
// label selectors, container names and images, int-or-string values, PVC access modes.
import { arr, obj, str } from './fields.js';

/**
 * A label map as `labels.FormatLabels` writes it: `k=v` pairs sorted by key, joined by commas;
 * `<none>` when empty.
 *
 * @example
 * ```ts
 * formatLabels({ tier: 'web', app: 'shop' }); // 'app=shop,tier=web'
 * ```
 */
export function formatLabels(labels: unknown): string {
  const entries = Object.entries(obj(labels)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${str(v)}`).join(',');
}

const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const validKey = (key: string): boolean => {
  const slash = key.lastIndexOf('/');
  const [prefix, name] = slash < 0 ? ['', key] : [key.slice(0, slash), key.slice(slash + 1)];
  if (slash >= 0 && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) return false;
  return name.length > 0 && name.length <= 63 && LABEL_NAME.test(name);
};
const validValue = (value: string): boolean => value === '' || (value.length <= 63 && LABEL_NAME.test(value));

const byKey = (a: { key: string }, b: { key: string }): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * A LabelSelector (`matchLabels`, `matchExpressions`) as `metav1.LabelSelectorAsSelector(..).String()`
 * writes it: requirements sorted by key, `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`; `''` for a
 * missing or empty selector; undefined when the selector is invalid (an unknown operator, an `In`
 * without values, a bad key or value).
 *
 * @example
 * ```ts
 * selectorString({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] });
 * // 'app=web,tier in (a,b)'
 * ```
 */
export function selectorString(selector: unknown): string | undefined {
  const reqs: { key: string; text: string }[] = [];
  for (const [key, value] of Object.entries(obj(obj(selector).matchLabels))) {
    if (typeof value !== 'string' || !validKey(key) || !validValue(value)) return undefined;
    reqs.push({ key, text: `${key}=${value}` });
  }
  for (const e of arr(obj(selector).matchExpressions)) {
    const key = str(obj(e).key);
    const values = arr(obj(e).values).map(str);
    if (!validKey(key) || !values.every(validValue)) return undefined;
    const list = `(${[...values].sort().join(',')})`;
    switch (obj(e).operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) return undefined;
        reqs.push({ key, text: `${key} ${obj(e).operator === 'In' ? 'in' : 'notin'} ${list}` });
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) return undefined;
        reqs.push({ key, text: obj(e).operator === 'Exists' ? key : `!${key}` });
        break;
      default:
        return undefined;
    }
  }
  return reqs.sort(byKey).map((r) => r.text).join(',');
}

/**
 * A LabelSelector as `metav1.FormatLabelSelector` writes it: {@link selectorString}, `<none>` when
 * empty or missing, `<error>` when invalid.
 *
 * @example
 * ```ts
 * formatLabelSelector(undefined); // '<none>'
 * ```
 */
export function formatLabelSelector(selector: unknown): string {
  const s = selectorString(selector);
  return s === undefined ? '<error>' : s === '' ? '<none>' : s;
}

/**
 * The containers' names and images, each joined by commas (the printers' `layoutContainerCells`).
 *
 * @example
 * ```ts
 * containerCells([{ name: 'app', image: 'nginx' }, { name: 'log', image: 'busybox' }]); // ['app,log', 'nginx,busybox']
 * ```
 */
export function containerCells(containers: unknown): [string, string] {
  const list = arr(containers).map(obj);
  return [list.map((c) => str(c.name)).join(','), list.map((c) => str(c.image)).join(',')];
}

/**
 * An int-or-string value as `intstr.IntOrString.String()` writes it.
 *
 * @example
 * ```ts
 * intOrString(1); // '1'
 * intOrString('25%'); // '25%'
 * ```
 */
export const intOrString = (value: unknown): string =>
  typeof value === 'number' ? String(Math.trunc(value)) : typeof value === 'string' ? value : '';

/**
 * PersistentVolume access modes as kube abbreviates them, in kube's order: `RWO,ROX,RWX,RWOP`.
 *
 * @example
 * ```ts
 * accessModes(['ReadWriteMany', 'ReadWriteOnce']); // 'RWO,RWX'
 * ```
 */
export function accessModes(modes: unknown): string {
  const has = new Set(arr(modes).map(str));
  const short: ReadonlyArray<[string, string]> = [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ];
  return short.filter(([mode]) => has.has(mode)).map(([, s]) => s).join(',');
}
