import { mapValueSchema, type StructuralSchema } from './structuralSchema.js';

// An estimate of a rule's worst-case cost in the spirit of cel-go's checker/cost.go as
// apiextensions-apiserver uses it: sizes come from maxLength/maxItems/maxProperties, and where a
// schema leaves them open, from the largest request the server accepts (3 MiB). It is an
// approximation (the constants are cel-go's, the walk simpler), good for telling apart a rule a
// real server accepts from one it refuses by orders of magnitude.

/** Per-rule static cost limit (apiextensions' StaticEstimatedCostLimit). */
export const PER_RULE_COST_LIMIT = 10_000_000;
/** Limit on the sum over a CRD of rule cost times how often it can run (StaticEstimatedCRDCostLimit). */
export const PER_CRD_COST_LIMIT = 100_000_000;
const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

/** The minimal serialised size of one value of `s` (for sizing unbounded lists and maps). */
function minSize(s: StructuralSchema | undefined): number {
  if (!s) return 1;
  if (s.type === 'string' || s.type === 'object' || s.type === 'array') return 2;
  return 1;
}

/** The largest number of elements (lists, maps) or characters (strings) a value of `s` can have. */
export function maxSize(s: StructuralSchema | undefined): number {
  if (!s) return MAX_REQUEST_BYTES;
  const c = s.checks;
  if (s.type === 'string') return c.maxLength ?? MAX_REQUEST_BYTES - 2;
  if (s.type === 'array') return c.maxItems ?? Math.floor((MAX_REQUEST_BYTES - 2) / (minSize(s.items) + 1));
  if (s.type === 'object') return c.maxProperties ?? Math.floor((MAX_REQUEST_BYTES - 2) / (minSize(mapValueSchema(s)) + 4));
  return 1;
}

interface AstNode {
  readonly op: string;
  readonly args: unknown;
}
type Scope = ReadonlyMap<string, StructuralSchema | undefined>;
interface Estimate {
  readonly cost: number;
  readonly schema?: StructuralSchema;
  readonly strLen?: number;
}

const isNode = (v: unknown): v is AstNode => typeof v === 'object' && v !== null && 'op' in v;
const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);
const STRING_FNS = new Set(['matches', 'contains', 'startsWith', 'endsWith', 'indexOf', 'lastIndexOf', 'lowerAscii', 'upperAscii', 'split', 'replace', 'trim', 'substring', 'find', 'findAll', 'join']);

const len = (e: Estimate): number => e.strLen ?? maxSize(e.schema);

function elementSchema(s: StructuralSchema | undefined): StructuralSchema | undefined {
  if (!s) return undefined;
  if (s.type === 'array') return s.items;
  return undefined; // map keys: unbounded strings
}

function estimateCall(name: string, recv: Estimate | undefined, argNodes: unknown[], scope: Scope): Estimate {
  if (recv && MACROS.has(name) && argNodes.length >= 2) {
    const v = argNodes[0];
    const varName = isNode(v) && v.op === 'id' ? String(v.args) : '';
    const inner = new Map(scope).set(varName, elementSchema(recv.schema));
    const body = argNodes.slice(1).reduce((sum: number, b) => sum + estimate(b, inner).cost, 0);
    const n = recv.schema?.type === 'string' ? 1 : maxSize(recv.schema);
    return { cost: recv.cost + n * (body + 1) };
  }
  const args = argNodes.map((a) => estimate(a, scope));
  const base = (recv?.cost ?? 0) + args.reduce((s, a) => s + a.cost, 0) + 1;
  if (recv && STRING_FNS.has(name)) {
    const strCost = Math.ceil(len(recv) * 0.1);
    if (name === 'matches' || name === 'find' || name === 'findAll') return { cost: base + strCost * Math.max(1, Math.ceil(len(args[0] ?? { cost: 0 }) * 0.25)) };
    if (name === 'contains' || name === 'indexOf' || name === 'lastIndexOf' || name === 'replace' || name === 'split') {
      return { cost: base + strCost * Math.max(1, Math.ceil(len(args[0] ?? { cost: 0 }) * 0.1)) };
    }
    return { cost: base + strCost };
  }
  return { cost: base };
}

function estimate(node: unknown, scope: Scope): Estimate {
  if (!isNode(node)) return { cost: 0 };
  const args = node.args;
  switch (node.op) {
    case 'value':
      return { cost: 0, ...(typeof args === 'string' ? { strLen: args.length } : {}) };
    case 'id': {
      const name = String(args);
      return { cost: 1, schema: scope.get(name) };
    }
    case '.':
    case '.?': {
      const [recvNode, field] = args as [unknown, string];
      const recv = estimate(recvNode, scope);
      const s = recv.schema;
      return { cost: recv.cost + 1, schema: s?.properties?.[field] ?? (s ? mapValueSchema(s) : undefined) };
    }
    case 'rcall': {
      const [name, recvNode, callArgs] = args as [string, unknown, unknown[]];
      return estimateCall(name, estimate(recvNode, scope), callArgs ?? [], scope);
    }
    case 'call': {
      const [name, callArgs] = args as [string, unknown[]];
      if (name === 'size' || name === 'has') return { cost: 1 + (callArgs ?? []).reduce((s: number, a) => s + estimate(a, scope).cost, 0) };
      return estimateCall(name, undefined, callArgs ?? [], scope);
    }
    default: {
      const kids = Array.isArray(args) ? args.map((a) => estimate(a, scope)) : isNode(args) ? [estimate(args, scope)] : [];
      const sum = kids.reduce((s, k) => s + k.cost, 0);
      // Comparing strings or lists costs with their size; anything else one step.
      const cmp = ['==', '!=', '<', '<=', '>', '>=', 'in', '+'].includes(node.op) ? Math.ceil(Math.min(...kids.map(len), MAX_REQUEST_BYTES) * 0.1) : 0;
      const idx = node.op === '[]' || node.op === '[?]' ? kids[0]?.schema : undefined;
      const stringy = (k: Estimate) => k.strLen !== undefined || k.schema?.type === 'string';
      if (node.op === '+' && kids.some(stringy)) return { cost: sum + 1, strLen: kids.reduce((s, k) => s + len(k), 0) };
      return { cost: sum + 1 + (kids.some((k) => k.schema?.type === 'string' || k.schema?.type === 'array' || k.strLen !== undefined) ? cmp : 0), schema: idx ? (elementSchema(idx) ?? mapValueSchema(idx)) : undefined };
    }
  }
}

/**
 * The estimated worst-case cost of a parsed rule on node `self`.
 *
 * @example
 * ```ts
 * estimateRuleCost(env.parse('self.all(x, x.matches("^a"))').ast, listSchema); // large when unbounded
 * ```
 */
export function estimateRuleCost(ast: unknown, self: StructuralSchema): number {
  return estimate(ast, new Map([['self', self], ['oldSelf', self]])).cost;
}

/** How a real server words a cost over budget: `4.5x`, or `more than 100x`. */
export function costFactor(cost: number, limit: number): string {
  const f = cost / limit;
  return f > 100 ? 'more than 100x' : `${f.toFixed(1)}x`;
}
