// A YAML writer for plain data (objects, arrays, strings, numbers, booleans), enough for rules files
// and manifests: block style, strings quoted as JSON when plain YAML could misread them.

const PLAIN = /^[A-Za-z_][\w .\-/()]*$/;
const RESERVED = /^(true|false|yes|no|on|off|null|~|y|n)$/i;

function scalar(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'null';
  const s = String(v);
  return PLAIN.test(s) && !RESERVED.test(s) && !s.includes(': ') && !s.endsWith(':') && !s.includes(' #')
    ? s
    : JSON.stringify(s);
}

const isObject = (v: unknown): v is { [k: string]: unknown } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function lines(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    if (v.length === 0) return [`${indent}[]`];
    return v.flatMap((item) => {
      const inner = lines(item, `${indent}  `);
      return [`${indent}- ${inner[0].trimStart()}`, ...inner.slice(1)];
    });
  }
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) return [`${indent}{}`];
    return keys.flatMap((k) => {
      const child = v[k];
      if ((Array.isArray(child) && child.length > 0) || (isObject(child) && Object.keys(child).length > 0)) {
        return [`${indent}${scalar(k)}:`, ...lines(child, Array.isArray(child) ? indent : `${indent}  `)];
      }
      return [`${indent}${scalar(k)}: ${lines(child, '')[0]}`];
    });
  }
  return [`${indent}${scalar(v)}`];
}

/**
 * `value` as a YAML document (block style, key order kept). @internal
 *
 * @example
 * ```ts
 * toYaml({ groups: [{ name: 'a', rules: [] }] }); // 'groups:\n- name: a\n  rules: []\n'
 * ```
 */
export function toYaml(value: unknown): string {
  return `${lines(value, '').join('\n')}\n`;
}
