// The JSONPath that CRD printer columns use (client-go's util/jsonpath, as kube-apiserver runs it
// with missing keys allowed): `.a.b`, `['a.b']`, escaped dots (`a\.b`), `[0]` and `[-1]`, `[1:3]`,
// `[*]` and `.*`, `..name` (recursive), and filters such as `[?(@.type=="Ready")]`. A path is parsed
// once into steps; evaluating a step maps each current value to zero or more values.

/** One step of a compiled path. */
type Step =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'slice'; readonly start?: number; readonly end?: number }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'recursive'; readonly name: string | undefined }
  | { readonly kind: 'filter'; readonly left: ReadonlyArray<Step>; readonly op?: FilterOp; readonly right?: Operand };

type FilterOp = '==' | '!=' | '<' | '>' | '<=' | '>=';
type Operand = { readonly path: ReadonlyArray<Step> } | { readonly literal: string | number | boolean };

/**
 * A JSONPath that does not parse, with what is wrong.
 *
 * @example
 * ```ts
 * try { compileJsonPath('.spec['); } catch (e) { (e as JsonPathError).message; }
 * ```
 */
export class JsonPathError extends Error {}

const TERMINATORS = new Set(['.', '[', ']', '{', '}', ',', '|', '*', ' ', '(', ')', '=', '!', '<', '>']);

class Parser {
  private i = 0;
  constructor(private readonly text: string) {}

  steps(until: (c: string | undefined) => boolean): Step[] {
    const out: Step[] = [];
    while (!until(this.peek())) {
      const c = this.peek();
      if (c === '.') {
        this.i++;
        if (this.peek() === '.') {
          this.i++;
          out.push({ kind: 'recursive', name: this.peek() === '*' ? (this.i++, undefined) : this.field() });
        } else if (this.peek() === '*') {
          this.i++;
          out.push({ kind: 'wildcard' });
        } else if (this.peek() !== undefined && !TERMINATORS.has(this.peek() as string)) out.push({ kind: 'field', name: this.field() });
        // a lone trailing '.' is the current value (client-go accepts `{.}`)
      } else if (c === '[') out.push(this.bracket());
      else throw new JsonPathError(`unexpected ${JSON.stringify(c)} at ${this.i} in ${this.text}`);
    }
    return out;
  }

  private peek(): string | undefined {
    return this.i < this.text.length ? this.text[this.i] : undefined;
  }

  private field(): string {
    let name = '';
    while (this.peek() !== undefined && !TERMINATORS.has(this.peek() as string)) {
      if (this.peek() === '\\' && this.i + 1 < this.text.length) this.i++;
      name += this.text[this.i++];
    }
    if (name === '') throw new JsonPathError(`a field name is missing at ${this.i} in ${this.text}`);
    return name;
  }

  private bracket(): Step {
    const close = this.text.indexOf(']', this.i);
    if (close < 0) throw new JsonPathError(`unterminated [ at ${this.i} in ${this.text}`);
    if (this.text[this.i + 1] === '?') return this.filter();
    const inner = this.text.slice(this.i + 1, close).trim();
    this.i = close + 1;
    const quoted = /^'(.*)'$|^"(.*)"$/.exec(inner);
    if (quoted) return { kind: 'field', name: quoted[1] ?? quoted[2] };
    if (inner === '*') return { kind: 'wildcard' };
    if (/^-?\d+$/.test(inner)) return { kind: 'index', index: Number(inner) };
    const slice = /^(-?\d+)?:(-?\d+)?(:\d+)?$/.exec(inner);
    if (slice) return { kind: 'slice', start: slice[1] === undefined ? undefined : Number(slice[1]), end: slice[2] === undefined ? undefined : Number(slice[2]) };
    throw new JsonPathError(`unsupported subscript [${inner}] in ${this.text}`);
  }

  // `[?(<@path> [<op> <operand>])]`
  private filter(): Step {
    const end = this.text.indexOf(')]', this.i);
    if (end < 0 || this.text[this.i + 2] !== '(') throw new JsonPathError(`unterminated filter at ${this.i} in ${this.text}`);
    const body = this.text.slice(this.i + 3, end).trim();
    this.i = end + 2;
    const m = /^(@[^=!<>\s]*)\s*(?:(==|!=|<=|>=|<|>)\s*(.+))?$/.exec(body);
    if (!m) throw new JsonPathError(`unsupported filter ${body} in ${this.text}`);
    const left = new Parser(m[1].slice(1)).steps((c) => c === undefined);
    if (m[2] === undefined) return { kind: 'filter', left };
    return { kind: 'filter', left, op: m[2] as FilterOp, right: operand(m[3].trim(), this.text) };
  }
}

function operand(text: string, path: string): Operand {
  if (text.startsWith('@')) return { path: new Parser(text.slice(1)).steps((c) => c === undefined) };
  const quoted = /^'(.*)'$|^"(.*)"$/.exec(text);
  if (quoted) return { literal: quoted[1] ?? quoted[2] };
  if (text === 'true' || text === 'false') return { literal: text === 'true' };
  if (/^-?\d+(\.\d+)?$/.test(text)) return { literal: Number(text) };
  throw new JsonPathError(`unsupported filter operand ${text} in ${path}`);
}

/**
 * A compiled JSONPath (the text of a CRD column's `jsonPath`, without the braces kube adds).
 *
 * @example
 * ```ts
 * const ready = compileJsonPath('.status.conditions[?(@.type=="Ready")].status');
 * ```
 */
export interface JsonPath {
  /** Every value the path reaches, in document order; empty when a key is missing. */
  evaluate(data: unknown): unknown[];
}

/**
 * Parses a JSONPath once; throws a {@link JsonPathError} for text client-go's parser would refuse
 * (or that this subset does not take: scripts, unions).
 *
 * @example
 * ```ts
 * compileJsonPath('.spec.replicas').evaluate({ spec: { replicas: 3 } }); // [3]
 * ```
 */
export function compileJsonPath(text: string): JsonPath {
  const trimmed = text.trim().replace(/^\{(.*)\}$/s, '$1');
  const steps = new Parser(trimmed).steps((c) => c === undefined);
  return { evaluate: (data) => run(steps, [data]) };
}

const isObject = (v: unknown): v is { [k: string]: unknown } => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (v: { [k: string]: unknown }, name: string): boolean => Object.prototype.hasOwnProperty.call(v, name);
const children = (v: unknown): unknown[] => (Array.isArray(v) ? v : isObject(v) ? Object.keys(v).sort().map((k) => v[k]) : []);

function descend(v: unknown, name: string | undefined, out: unknown[]): void {
  if (name === undefined) out.push(...children(v));
  else if (isObject(v) && has(v, name)) out.push(v[name]);
  for (const c of children(v)) if (c !== null && typeof c === 'object') descend(c, name, out);
}

function run(steps: ReadonlyArray<Step>, values: unknown[]): unknown[] {
  let current = values;
  for (const step of steps) current = current.flatMap((v) => apply(step, v));
  return current;
}

function apply(step: Step, v: unknown): unknown[] {
  switch (step.kind) {
    case 'field':
      return isObject(v) && has(v, step.name) ? [v[step.name]] : [];
    case 'index': {
      if (!Array.isArray(v)) return [];
      const i = step.index < 0 ? v.length + step.index : step.index;
      return i >= 0 && i < v.length ? [v[i]] : [];
    }
    case 'slice': {
      if (!Array.isArray(v)) return [];
      const norm = (n: number | undefined, dflt: number): number => (n === undefined ? dflt : n < 0 ? Math.max(0, v.length + n) : Math.min(n, v.length));
      return v.slice(norm(step.start, 0), norm(step.end, v.length));
    }
    case 'wildcard':
      return children(v);
    case 'recursive': {
      const out: unknown[] = [];
      descend(v, step.name, out);
      return out;
    }
    case 'filter':
      // only arrays can be filtered (client-go: "is not array or slice and cannot be filtered")
      return Array.isArray(v) ? v.filter((item) => matches(step, item)) : [];
  }
}

function matches(step: Extract<Step, { kind: 'filter' }>, item: unknown): boolean {
  const left = run(step.left, [item]);
  if (step.op === undefined || step.right === undefined) return left.length > 0;
  const rights = 'path' in step.right ? run(step.right.path, [item]) : [step.right.literal];
  if (left.length === 0 || rights.length === 0) return false;
  const [a, b] = [left[0], rights[0]];
  switch (step.op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    default: {
      if (typeof a !== 'number' || typeof b !== 'number') return false;
      return step.op === '<' ? a < b : step.op === '>' ? a > b : step.op === '<=' ? a <= b : a >= b;
    }
  }
}
