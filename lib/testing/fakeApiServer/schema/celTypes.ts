import { Environment } from '@marcbachmann/cel-js';
import type { JsonObject } from '../resources.js';
import { jsonEqual } from './schemaValidation.js';
import { mapValueSchema, type StructuralSchema } from './structuralSchema.js';

// How a CRD schema node becomes CEL types and values, as apiextensions-apiserver's
// SchemaDeclType does: integer -> int, number -> double, objects with properties -> an object type
// whose fields the type checker knows (so `self.nope` fails when the CRD is created), maps ->
// map<string, V>, int-or-string and preserved unknown data -> dyn. Integers are BigInts in the
// evaluator, so values are converted by the schema before a rule sees them.

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Strings of these formats are timestamps, durations and bytes to rules, as kube declares them. */
const STRING_FORMAT_TYPES: { readonly [format: string]: string } = {
  'date-time': 'google.protobuf.Timestamp',
  datetime: 'google.protobuf.Timestamp',
  date: 'google.protobuf.Timestamp',
  duration: 'google.protobuf.Duration',
  byte: 'bytes',
};

let durationOf: ((ctx: object) => unknown) | undefined;

/** A formatted string as its CEL value (left a string when it does not parse: schema validation reports it). */
function formattedString(v: string, format: string | undefined): unknown {
  try {
    switch (format) {
      case 'date-time':
      case 'datetime':
      case 'date': {
        const d = new Date(format === 'date' ? `${v}T00:00:00Z` : v);
        return Number.isNaN(d.getTime()) ? v : d;
      }
      case 'duration': {
        if (!durationOf) {
          const env = new Environment();
          env.registerVariable('s', 'string');
          durationOf = env.parse('duration(s)') as unknown as (ctx: object) => unknown;
        }
        return durationOf({ s: v });
      }
      case 'byte':
        return new Uint8Array(Buffer.from(v, 'base64'));
      default:
        return v;
    }
  } catch {
    return v;
  }
}

/** A resource's implied fields (the root, embedded resources): of metadata only name/generateName. */
const RESOURCE_FIELDS = { apiVersion: 'string', kind: 'string' } as const;

/** Structural equality for the object types (the evaluator compares them by identity otherwise). */
const celEqual = (a: unknown, b: unknown): boolean => jsonEqual(toJson(a), toJson(b));

function toJson(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(toJson);
  if (v instanceof Map) return Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), toJson(x)]));
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]));
  return v;
}

/**
 * Declares the CEL types of a schema subtree in an environment; one per rule-bearing node.
 *
 * @example
 * ```ts
 * const t = new CelTypeDeclarer(env).typeOf(schema, true); // e.g. 'T0'
 * ```
 */
export class CelTypeDeclarer {
  private n = 0;
  constructor(private readonly env: Environment) {}

  /** The CEL type name of node `s` (declaring object types as needed). */
  typeOf(s: StructuralSchema, isResource: boolean): string {
    if (s.intOrString) return 'dyn';
    switch (s.type) {
      case 'integer':
        return 'int';
      case 'number':
        return 'double';
      case 'boolean':
        return 'bool';
      case 'string':
        return STRING_FORMAT_TYPES[s.checks.format ?? ''] ?? 'string';
      case 'array':
        return s.items ? `list<${this.typeOf(s.items, s.items.embeddedResource)}>` : 'list<dyn>';
      case 'object':
        return this.objectType(s, isResource);
      default:
        return 'dyn';
    }
  }

  private objectType(s: StructuralSchema, isResource: boolean): string {
    const values = mapValueSchema(s);
    if (!s.properties && !isResource) {
      // A map by its value schema; an object with neither properties nor one holds anything.
      return values ? `map<string, ${this.typeOf(values, values.embeddedResource)}>` : 'map<string, dyn>';
    }
    const fields: { [k: string]: string } = {};
    if (isResource) {
      Object.assign(fields, RESOURCE_FIELDS);
      const meta = `T${this.n++}`;
      this.declare(meta, { name: 'string', generateName: 'string' });
      fields['metadata'] = meta;
    }
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      if (isResource && (k === 'metadata' || k in RESOURCE_FIELDS)) continue;
      fields[k] = this.typeOf(p, p.embeddedResource);
    }
    const name = `T${this.n++}`;
    this.declare(name, fields);
    return name;
  }

  private declare(name: string, fields: { [k: string]: string }): void {
    this.env.registerType(name, { fields });
    // `!=` is derived from `==` by the evaluator.
    this.env.registerOperator(`${name} == ${name}`, celEqual);
  }
}

/**
 * A JSON value as the CEL evaluator takes it for node `s`: integers as BigInt, unknown fields
 * dropped (unknown data under `x-kubernetes-preserve-unknown-fields` is invisible to rules), of a
 * resource's metadata only name and generateName.
 *
 * @example
 * ```ts
 * toCelValue({ replicas: 3 }, specSchema, false); // { replicas: 3n }
 * ```
 */
export function toCelValue(v: unknown, s: StructuralSchema | undefined, isResource: boolean): unknown {
  if (v === null || v === undefined) return v;
  if (typeof v === 'number') return Number.isInteger(v) && s?.type !== 'number' ? BigInt(v) : v;
  if (typeof v === 'string') return s?.type === 'string' && s.checks.format ? formattedString(v, s.checks.format) : v;
  if (Array.isArray(v)) return v.map((x) => toCelValue(x, s?.items, s?.items?.embeddedResource ?? false));
  if (!isObject(v)) return v;
  const typed = s !== undefined && s.type !== '' && !s.intOrString;
  const values = s ? mapValueSchema(s) : undefined;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    if (isResource && k === 'metadata') {
      const m = isObject(x) ? x : {};
      out[k] = Object.fromEntries(['name', 'generateName'].filter((f) => typeof m[f] === 'string').map((f) => [f, m[f]]));
      continue;
    }
    if (isResource && (k === 'apiVersion' || k === 'kind')) {
      out[k] = x;
      continue;
    }
    const ps = s?.properties?.[k] ?? values;
    if (ps === undefined && typed && s?.properties) continue;
    out[k] = toCelValue(x, ps, ps?.embeddedResource ?? false);
  }
  return out;
}

/**
 * A CEL environment with the options and libraries Kubernetes enables for CRD rules that the
 * evaluator supports: optional types, heterogeneous literals, and the extra string and list
 * functions (`replace`, `charAt`, `isSorted`, `sum`, `min`, `max`, `indexOf`, `find`, `findAll`, `isURL`).
 *
 * @example
 * ```ts
 * const env = kubeCelEnvironment();
 * ```
 */
export function kubeCelEnvironment(): Environment {
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false, limits: { maxAstNodes: 10000, maxDepth: 250 } });
  const cmp = (a: unknown, b: unknown): number => (a === b ? 0 : (a as number) < (b as number) ? -1 : 1);
  env
    .registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) => s.split(a).join(b))
    .registerFunction('string.replace(string, string, int): string', (s: string, a: string, b: string, n: bigint) => {
      const parts = s.split(a);
      const k = n < 0n ? parts.length : Math.min(parts.length, Number(n) + 1);
      return parts.slice(0, k).join(b) + (k < parts.length ? a + parts.slice(k).join(a) : '');
    })
    .registerFunction('string.charAt(int): string', (s: string, i: bigint) => [...s][Number(i)] ?? '')
    .registerFunction('string.find(string): string', (s: string, r: string) => new RegExp(r, 'u').exec(s)?.[0] ?? '')
    .registerFunction('string.findAll(string): list<string>', (s: string, r: string) => [...s.matchAll(new RegExp(r, 'gu'))].map((m) => m[0]))
    .registerFunction('isURL(string): bool', (s: string) => URL.canParse(s))
    .registerFunction('list.isSorted(): bool', (l: unknown[]) => l.every((x, i) => i === 0 || cmp(l[i - 1], x) <= 0))
    .registerFunction('list.sum(): dyn', (l: unknown[]) => l.reduce((a: unknown, b: unknown) => (a as number) + (b as number), typeof l[0] === 'bigint' ? 0n : 0))
    .registerFunction('list.min(): dyn', (l: unknown[]) => l.reduce((a, b) => (cmp(a, b) <= 0 ? a : b)))
    .registerFunction('list.max(): dyn', (l: unknown[]) => l.reduce((a, b) => (cmp(a, b) >= 0 ? a : b)))
    .registerFunction('list.indexOf(dyn): int', (l: unknown[], x: unknown) => BigInt(l.findIndex((y) => celEqual(x, y))))
    .registerFunction('list.lastIndexOf(dyn): int', (l: unknown[], x: unknown) => {
      for (let i = l.length - 1; i >= 0; i--) if (celEqual(x, l[i])) return BigInt(i);
      return -1n;
    });
  return env;
}
