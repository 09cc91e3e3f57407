import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { child, forbidden, index, invalidValue, required, tooLong } from '../../../schema/fieldErrors.js';
import { invalidEach } from './errors.js';
import { isObject, listAt, sortedMap } from './json.js';
import { isLabelValue, isQualifiedName } from './names.js';

// Label maps and metav1.LabelSelector: their validation (apimachinery meta/v1/validation), the
// selector they make (labels.Selector: nil selects nothing, an empty one everything) and how an
// error prints one (Go's json.Marshal: struct fields in declaration order, map keys sorted).

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/**
 * `ValidateLabels`: each key a qualified name, each value a label value (keys in sorted order,
 * where Go's map order is random).
 *
 * @example
 * ```ts
 * validateLabels({ app: 'web' }, 'spec.selector.matchLabels'); // []
 * ```
 */
export function validateLabels(labels: unknown, field: string): FieldError[] {
  if (!isObject(labels)) return [];
  const errs: FieldError[] = [];
  for (const k of Object.keys(labels).sort()) {
    const v = labels[k];
    errs.push(...invalidEach(field, k, isQualifiedName(k)));
    errs.push(...invalidEach(field, v, typeof v === 'string' ? isLabelValue(v) : []));
  }
  return errs;
}

/**
 * `ValidateAnnotations`: each key a qualified name (case aside), at most 256 KiB in all.
 *
 * @example
 * ```ts
 * validateAnnotations({ 'a/b/c': 'x' }, 'spec.template.annotations'); // one cause
 * ```
 */
export function validateAnnotations(annotations: unknown, field: string): FieldError[] {
  if (!isObject(annotations)) return [];
  const errs: FieldError[] = [];
  let size = 0;
  for (const k of Object.keys(annotations).sort()) {
    errs.push(...invalidEach(field, k, isQualifiedName(k.toLowerCase())));
    const v = annotations[k];
    size += Buffer.byteLength(k, 'utf8') + (typeof v === 'string' ? Buffer.byteLength(v, 'utf8') : 0);
  }
  if (size > 256 * 1024) errs.push(tooLong(field, 256 * 1024));
  return errs;
}

/**
 * `ValidateLabelSelector`: matchLabels as labels, each matchExpressions requirement's operator,
 * key and values.
 *
 * @example
 * ```ts
 * validateLabelSelector({ matchExpressions: [{ key: 'a', operator: 'In' }] }, 'spec.selector');
 * // [spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn']
 * ```
 */
export function validateLabelSelector(selector: unknown, field: string): FieldError[] {
  if (!isObject(selector)) return [];
  const errs = validateLabels(selector.matchLabels, child(field, 'matchLabels'));
  listAt(selector, 'matchExpressions').forEach((req, i) => {
    const path = index(child(field, 'matchExpressions'), i);
    const r = isObject(req) ? req : {};
    const operator = r.operator;
    const values = listAt(r, 'values');
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) errs.push(required(child(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length > 0) errs.push(forbidden(child(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errs.push(invalidValue(child(path, 'operator'), operator ?? '', 'not a valid selector operator'));
    }
    const key = typeof r.key === 'string' ? r.key : '';
    errs.push(...invalidEach(child(path, 'key'), key, isQualifiedName(key)));
    values.forEach((v, j) => {
      if (typeof v === 'string') errs.push(...invalidEach(index(child(path, 'values'), j), v, isLabelValue(v)));
    });
  });
  return errs;
}

/** One requirement of a parsed selector. */
interface Requirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values: ReadonlyArray<string>;
}

/**
 * A selector as `LabelSelectorAsSelector` makes it: `nothing` for a nil selector, `invalid`
 * where it returns an error, else its requirements (none: selects everything).
 *
 * @example
 * ```ts
 * const s: ParsedSelector = { kind: 'requirements', requirements: [] }; // selects everything
 * ```
 */
export type ParsedSelector = { readonly kind: 'nothing' } | { readonly kind: 'invalid' } | { readonly kind: 'requirements'; readonly requirements: ReadonlyArray<Requirement> };

/**
 * Parses a metav1.LabelSelector into a {@link ParsedSelector}.
 *
 * @example
 * ```ts
 * parseSelector({ matchLabels: { app: 'web' } }); // { kind: 'requirements', requirements: [...] }
 * parseSelector(undefined); // { kind: 'nothing' }
 * ```
 */
export function parseSelector(selector: unknown): ParsedSelector {
  if (selector === undefined || selector === null) return { kind: 'nothing' };
  if (!isObject(selector)) return { kind: 'invalid' };
  const requirements: Requirement[] = [];
  const labels = isObject(selector.matchLabels) ? selector.matchLabels : {};
  for (const [key, value] of Object.entries(labels)) {
    if (typeof value !== 'string' || isQualifiedName(key).length > 0 || isLabelValue(value).length > 0) return { kind: 'invalid' };
    requirements.push({ key, operator: 'In', values: [value] });
  }
  for (const req of listAt(selector, 'matchExpressions')) {
    if (!isObject(req) || typeof req.key !== 'string' || typeof req.operator !== 'string' || !OPERATORS.has(req.operator)) return { kind: 'invalid' };
    const values = listAt(req, 'values');
    if (!values.every((v): v is string => typeof v === 'string' && isLabelValue(v).length === 0)) return { kind: 'invalid' };
    const operator = req.operator as Requirement['operator'];
    const needsValues = operator === 'In' || operator === 'NotIn';
    if (needsValues !== values.length > 0 || isQualifiedName(req.key).length > 0) return { kind: 'invalid' };
    requirements.push({ key: req.key, operator, values });
  }
  return { kind: 'requirements', requirements };
}

/**
 * Whether the parsed selector is `Empty()` (no requirements: it selects everything).
 *
 * @example
 * ```ts
 * selectorIsEmpty(parseSelector({})); // true
 * ```
 */
export const selectorIsEmpty = (s: ParsedSelector): boolean => s.kind === 'requirements' && s.requirements.length === 0;

/**
 * Whether the selector matches a label set (a nil selector matches nothing).
 *
 * @example
 * ```ts
 * selectorMatches(parseSelector({ matchLabels: { app: 'web' } }), { app: 'web', tier: 'a' }); // true
 * ```
 */
export function selectorMatches(s: ParsedSelector, labels: unknown): boolean {
  if (s.kind !== 'requirements') return false;
  const set = isObject(labels) ? labels : {};
  return s.requirements.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(set, r.key) && typeof set[r.key] === 'string';
    const value = has ? (set[r.key] as string) : '';
    switch (r.operator) {
      case 'In':
        return has && r.values.includes(value);
      case 'NotIn':
        return !has || !r.values.includes(value);
      case 'Exists':
        return has;
      case 'DoesNotExist':
        return !has;
    }
  });
}

/**
 * A label selector as kube prints it in an error value: `{"matchLabels":{...},"matchExpressions":[...]}`
 * with Go's field order and empty fields left out.
 *
 * @example
 * ```ts
 * renderSelector({ matchExpressions: [], matchLabels: { b: '1', a: '2' } }); // { matchLabels: { a: '2', b: '1' } }
 * ```
 */
export function renderSelector(selector: unknown): unknown {
  if (!isObject(selector)) return selector ?? null;
  const out: JsonObject = {};
  if (isObject(selector.matchLabels) && Object.keys(selector.matchLabels).length > 0) out.matchLabels = sortedMap(selector.matchLabels);
  const exprs = listAt(selector, 'matchExpressions');
  if (exprs.length > 0) {
    out.matchExpressions = exprs.map((e) => {
      if (!isObject(e)) return e;
      const r: JsonObject = { key: e.key ?? '', operator: e.operator ?? '' };
      if (Array.isArray(e.values) && e.values.length > 0) r.values = e.values;
      return r;
    });
  }
  return out;
}
