// client-go's jsonpath parser (util/jsonpath/parser.go) as far as a printer column uses it: kube
// accepts any column path that starts with a dot, then parses `{<path>}` when it serves the CRD,
// and on a parse error it logs and silently prints the default columns instead. Checked here so
// that such a column fails when the CRD is generated. The errors keep client-go's words.

const TERMINATORS = new Set([' ', '\t', '\r', '\n', '.', ',', '[', ']', '$', '@', '{', '}']);
const INDEX = /^\s*-?\d*\s*$/;

/** The bracket's content: `*`, a union of indexes, a slice `a:b:c`, or a quoted name. */
function arrayProblem(text: string): string | undefined {
  if (text === '*') return undefined;
  if (/^'[^']*'$/.test(text) || /^"[^"]*"$/.test(text)) return undefined;
  for (const part of text.split(',')) {
    if (/^'[^']*'$/.test(part) || /^"[^"]*"$/.test(part)) continue;
    const bounds = part.split(':');
    if (bounds.length > 3) return `invalid array index ${part}`;
    for (const b of bounds) if (!INDEX.test(b)) return `invalid array index ${b}`;
  }
  return undefined;
}

/**
 * Why client-go's jsonpath cannot parse the template `{<path>}`, or undefined when it can.
 *
 * @example
 * ```ts
 * jsonPathProblem('.spec.replicas'); // undefined
 * jsonPathProblem('.spec.ports[0'); // 'unterminated array'
 * ```
 */
export function jsonPathProblem(path: string): string | undefined {
  let i = 0;
  const at = (k: number) => path[k] ?? '';
  while (i < path.length) {
    const c = at(i);
    if (c === ' ' || c === '\t') i++;
    else if (c === '.') {
      if (at(i + 1) === '.') i++; // `..`: recursive descent
      i++;
      while (i < path.length && !TERMINATORS.has(at(i))) i += at(i) === '\\' ? 2 : 1;
    } else if (c === '[') {
      if (at(i + 1) === '?') {
        if (at(i + 2) !== '(') return 'unrecognized character in filter: expected (';
        const close = path.indexOf(')', i);
        if (close === -1) return 'unterminated filter';
        if (at(close + 1) !== ']') return 'unclosed array expect ]';
        i = close + 2;
      } else {
        const close = path.indexOf(']', i);
        if (close === -1) return 'unterminated array';
        const problem = arrayProblem(path.slice(i + 1, close));
        if (problem) return problem;
        i = close + 1;
      }
    } else if (c === '"' || c === "'") {
      const close = path.indexOf(c, i + 1);
      if (close === -1) return 'unterminated quoted string';
      i = close + 1;
    } else if (c === '$' || c === '@') i++;
    else if (c === '{' || c === '}') return `unrecognized character in action: U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} '${c}'`;
    else if (/[A-Za-z]/.test(c)) {
      // identifiers such as `range` / `end` are template words, not a column's path
      return `unrecognized identifier ${/^[A-Za-z]+/.exec(path.slice(i))?.[0] ?? c}: a column's path starts with a dot`;
    } else return `unrecognized character in action: U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} '${c}'`;
  }
  return undefined;
}
