// A YAML writer for JSON values, for CRDs and RBAC objects on disk: block style, keys in the
// object's own order, strings plain only where YAML 1.1 and 1.2 both read them back as the same
// string (else double-quoted, JSON escapes), so the same object always writes the same bytes and
// kubectl, Helm and GitOps tools read it back unchanged.

const RESERVED = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~|\.inf|\.Inf|\.INF|\.nan|\.NaN|\.NAN)$/;

/** Whether `s` reads back as itself unquoted: printable ASCII, no indicator first, no `: ` or ` #`, not a number, bool or null. */
function plain(s: string): boolean {
  if (!/^[\x20-\x7e]+$/.test(s) || RESERVED.test(s)) return false;
  if (!/^[A-Za-z_/(]|^\.[^0-9]/.test(s)) return false; // a number, a date or an indicator first
  if (s.includes(': ') || s.includes(' #') || s.endsWith(':') || s.endsWith(' ')) return false;
  return true;
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const s = String(v);
  return plain(s) ? s : JSON.stringify(s);
}

const isObject = (v: unknown): v is { [k: string]: unknown } => typeof v === 'object' && v !== null && !Array.isArray(v);
const empty = (v: unknown): boolean => (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
const inline = (v: unknown): string => (Array.isArray(v) ? '[]' : isObject(v) ? '{}' : scalar(v));

function lines(v: unknown, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if ((isObject(item) || Array.isArray(item)) && !empty(item)) {
        const nested: string[] = [];
        lines(item, `${indent}  `, nested);
        out.push(`${indent}- ${nested[0].slice(indent.length + 2)}`, ...nested.slice(1));
      } else out.push(`${indent}- ${inline(item)}`);
    }
    return;
  }
  if (!isObject(v)) {
    out.push(`${indent}${scalar(v)}`);
    return;
  }
  for (const [k, value] of Object.entries(v)) {
    if (value === undefined) continue;
    const key = scalar(k);
    if ((isObject(value) || Array.isArray(value)) && !empty(value)) {
      out.push(`${indent}${key}:`);
      lines(value, Array.isArray(value) ? indent : `${indent}  `, out);
    } else out.push(`${indent}${key}: ${inline(value)}`);
  }
}

/**
 * One YAML document of a JSON value (no `---`), ending with a newline.
 *
 * @example
 * ```ts
 * toYaml({ kind: 'Backup', spec: { schedule: '0 3 * * *', ports: [80] } });
 * // 'kind: Backup\nspec:\n  schedule: "0 3 * * *"\n  ports:\n  - 80\n'
 * ```
 */
export function toYaml(value: unknown): string {
  const out: string[] = [];
  lines(value, '', out);
  return `${out.join('\n')}\n`;
}
