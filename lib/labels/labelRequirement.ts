import { LabelSelectorParseError } from './labelSelectorParseError.js';

/**
 * The operators of a label selector requirement, as Kubernetes names them (`selection.Operator`).
 * `GreaterThan`/`LessThan` (`a>1`, `a<5`) compare integer label values, as node affinity does.
 *
 * @example
 * ```ts
 * parseLabelSelector('env notin (dev)').requirements[0].operator; // 'NotIn'
 * ```
 */
export type LabelSelectorOperator =
  | 'Exists'
  | 'DoesNotExist'
  | 'Equals'
  | 'DoubleEquals'
  | 'NotEquals'
  | 'In'
  | 'NotIn'
  | 'GreaterThan'
  | 'LessThan';

/**
 * A set of labels, as `metadata.labels` carries them.
 *
 * @example
 * ```ts
 * const labels: Labels = { app: 'web', tier: 'frontend' };
 * ```
 */
export type Labels = { readonly [key: string]: string };

/**
 * One term of a label selector: a key, an operator and its values (sorted, no duplicates). A
 * selector is the AND of its requirements.
 *
 * @example
 * ```ts
 * const r: LabelRequirement = { key: 'tier', operator: 'In', values: ['backend', 'cache'] };
 * ```
 */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelSelectorOperator;
  readonly values: ReadonlyArray<string>;
}

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const INTEGER = /^[-+]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * `value` as a 64-bit signed integer, as Go's `strconv.ParseInt(value, 10, 64)` reads it (an optional
 * sign, decimal digits, in range), or undefined. apimachinery compares `>`/`<` label values this way.
 *
 * @example
 * ```ts
 * parseInt64('42');                   // 42n
 * parseInt64('99999999999999999999'); // undefined (out of range)
 * ```
 */
export function parseInt64(value: string): bigint | undefined {
  if (!INTEGER.test(value)) return undefined;
  const n = BigInt(value);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

/**
 * Why `key` is not a valid label key (a qualified name: `[prefix/]name`), or undefined if it is.
 *
 * @example
 * ```ts
 * labelKeyProblem('app.kubernetes.io/name'); // undefined
 * labelKeyProblem('-app');                   // "key name \"-app\" must be alphanumeric, ..."
 * ```
 */
export function labelKeyProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return `key ${JSON.stringify(key)} has more than one '/'`;
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix.length === 0) return `key ${JSON.stringify(key)} has an empty prefix`;
    if (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)) {
      return `key prefix ${JSON.stringify(prefix)} is not a DNS subdomain (lower case, at most 253 characters)`;
    }
  }
  if (name.length === 0) return `key ${JSON.stringify(key)} has an empty name`;
  if (name.length > 63) return `key name ${JSON.stringify(name)} is longer than 63 characters`;
  if (!NAME.test(name)) {
    return `key name ${JSON.stringify(name)} must be alphanumeric, '-', '_' or '.', starting and ending alphanumeric`;
  }
  return undefined;
}

/**
 * Why `value` is not a valid label value, or undefined if it is. The empty string is valid.
 *
 * @example
 * ```ts
 * labelValueProblem('');       // undefined
 * labelValueProblem('a b');    // "value \"a b\" must be alphanumeric, ..."
 * ```
 */
export function labelValueProblem(value: string): string | undefined {
  if (value.length > 63) return `value ${JSON.stringify(value)} is longer than 63 characters`;
  if (value !== '' && !NAME.test(value)) {
    return `value ${JSON.stringify(value)} must be alphanumeric, '-', '_' or '.', starting and ending alphanumeric`;
  }
  return undefined;
}

/**
 * Builds a validated requirement (client-go's `NewRequirement`): the key must be a qualified name;
 * `Exists`/`DoesNotExist` take no values; `Equals`/`DoubleEquals`/`NotEquals` exactly one; `In`/`NotIn`
 * at least one; `GreaterThan`/`LessThan` exactly one value, a valid label value that parses as a
 * 64-bit integer (so `x>-1`, `x>+1` and `x>99999999999999999999` are refused, as the API server does). Throws {@link LabelSelectorParseError}.
 *
 * @example
 * ```ts
 * labelRequirement('env', 'NotIn', ['dev', 'test']);
 * ```
 */
export function labelRequirement(
  key: string,
  operator: LabelSelectorOperator,
  values: Iterable<string> = [],
): LabelRequirement {
  const fail = (reason: string): never => {
    throw new LabelSelectorParseError(`${key} ${operator} ${[...values].join(',')}`.trim(), 0, reason);
  };
  const keyProblem = labelKeyProblem(key);
  if (keyProblem) fail(keyProblem);
  const vals = [...new Set(values)].sort();
  switch (operator) {
    case 'Exists':
    case 'DoesNotExist':
      if (vals.length !== 0) fail(`values must be empty for '${operator}'`);
      break;
    case 'Equals':
    case 'DoubleEquals':
    case 'NotEquals':
      if (vals.length !== 1) fail(`exactly one value is required for '${operator}'`);
      break;
    case 'In':
    case 'NotIn':
      if (vals.length === 0) fail(`the values of '${operator}' can't be empty`);
      break;
    case 'GreaterThan':
    case 'LessThan':
      if (vals.length !== 1) fail(`exactly one value is required for '${operator}'`);
      // apimachinery: a valid label value (so no sign) that ParseInt reads as a 64-bit integer.
      if (parseInt64(vals[0]) === undefined)
        fail(`the value of '${operator}' must be a 64-bit integer, got ${JSON.stringify(vals[0])}`);
      break;
    default:
      fail(`unknown operator ${JSON.stringify(operator)}`);
  }
  for (const v of vals) {
    const problem = labelValueProblem(v);
    if (problem) fail(problem);
  }
  return Object.freeze({ key, operator, values: Object.freeze(vals) });
}

/**
 * Compiles a requirement into a predicate over a label set. `NotEquals` and `NotIn` match objects
 * without the label (as Kubernetes does); every other operator except `DoesNotExist` needs it.
 *
 * @example
 * ```ts
 * const isProd = requirementMatcher(labelRequirement('env', 'Equals', ['prod']));
 * isProd({ env: 'prod' }); // true
 * ```
 */
export function requirementMatcher(req: LabelRequirement): (labels: Labels | undefined) => boolean {
  const { key } = req;
  const has = (labels: Labels | undefined): labels is Labels => labels != null && Object.hasOwn(labels, key);
  switch (req.operator) {
    case 'Exists':
      return (labels) => has(labels);
    case 'DoesNotExist':
      return (labels) => !has(labels);
    case 'Equals':
    case 'DoubleEquals':
    case 'In': {
      const set = new Set(req.values);
      return (labels) => has(labels) && set.has(labels[key]);
    }
    case 'NotEquals':
    case 'NotIn': {
      const set = new Set(req.values);
      return (labels) => !has(labels) || !set.has(labels[key]);
    }
    case 'GreaterThan':
    case 'LessThan': {
      const bound = parseInt64(req.values[0]);
      const greater = req.operator === 'GreaterThan';
      return (labels) => {
        if (!has(labels) || bound === undefined) return false;
        const v = parseInt64(labels[key]);
        if (v === undefined) return false;
        return greater ? v > bound : v < bound;
      };
    }
  }
}

/**
 * The string form of one requirement, as Kubernetes writes it (`a in (x,y)`, `!a`, `a!=b`).
 *
 * @example
 * ```ts
 * requirementToString(labelRequirement('tier', 'In', ['web', 'cache'])); // 'tier in (cache,web)'
 * ```
 */
export function requirementToString(req: LabelRequirement): string {
  const v = req.values;
  switch (req.operator) {
    case 'Exists':
      return req.key;
    case 'DoesNotExist':
      return `!${req.key}`;
    case 'Equals':
      return `${req.key}=${v[0]}`;
    case 'DoubleEquals':
      return `${req.key}==${v[0]}`;
    case 'NotEquals':
      return `${req.key}!=${v[0]}`;
    case 'In':
      return `${req.key} in (${v.join(',')})`;
    case 'NotIn':
      return `${req.key} notin (${v.join(',')})`;
    case 'GreaterThan':
      return `${req.key}>${v[0]}`;
    case 'LessThan':
      return `${req.key}<${v[0]}`;
  }
}
