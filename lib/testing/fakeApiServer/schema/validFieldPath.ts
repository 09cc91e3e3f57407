import { mapValueSchema, type StructuralSchema } from './structuralSchema.js';

/**
 * The answer of {@link validFieldPath}: the field path it names (`spec.color`, `spec.labels[x]`)
 * and the schema there, or why it names none (kube's words).
 *
 * @example
 * ```ts
 * const r: FieldPathResult = { path: 'spec.color', schema: colorSchema };
 * ```
 */
export interface FieldPathResult {
  readonly path?: string;
  readonly schema?: StructuralSchema;
  readonly error?: string;
}

/** Splits `.a['b'].c` into `.`, `a`, `[`, `'b'`, `]`, `.`, `c` (quoted strings whole), as kube's scanner does. */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      out.push(path.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < path.length && !'.[]'.includes(path[j])) j++;
      out.push(path.slice(i, j));
      i = j;
    }
  }
  return out;
}

/**
 * apiextensions' `cel.ValidFieldPath`: whether a JSON path such as `.spec.color` or
 * `.spec['x.y']` names a field of `schema`, for a rule's `fieldPath` and a version's
 * `selectableFields` (which pass `allowArrayNotation` false).
 *
 * @example
 * ```ts
 * validFieldPath('.spec.color', schema, false); // { path: 'spec.color', schema: { type: 'string', ... } }
 * validFieldPath('.spec.nope', schema, false).error; // 'does not refer to a valid field'
 * ```
 */
export function validFieldPath(path: string, schema: StructuralSchema, allowArrayNotation: boolean): FieldPathResult {
  const toks = tokens(path);
  let at: StructuralSchema | undefined = schema;
  let out = '';
  const step = (name: string): string | undefined => {
    if (!at) return 'does not refer to a valid field';
    if (at.properties) {
      const next: StructuralSchema | undefined = at.properties[name];
      if (!next) return 'does not refer to a valid field';
      out = out ? `${out}.${name}` : name;
      at = next;
      return undefined;
    }
    const values = mapValueSchema(at);
    if (!values) return 'does not refer to a valid field';
    out = `${out}[${name}]`;
    at = values;
    return undefined;
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t === '[') {
      if (!allowArrayNotation) return { error: 'array notation is not allowed' };
      const q = toks[++i];
      if (q === undefined) return { error: 'unexpected end of JSON path' };
      if (q.length < 2 || !q.startsWith("'") || !q.endsWith("'")) return { error: `expected single quoted string but got ${q}` };
      const problem = step(q.slice(1, -1).replace(/\\'/g, "'").replace(/\\\\/g, '\\'));
      if (problem) return { error: problem };
      const close = toks[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (t === '.') {
      const name = toks[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const problem = step(name);
      if (problem) return { error: problem };
    } else {
      return { error: `expected [ or . but got: ${t}` };
    }
  }
  return { path: out, ...(at ? { schema: at } : {}) };
}
