// MutatingAdmissionPolicy's typed literals (`Object{spec: Object.spec{replicas: 3}}`,
// `JSONPatch{op: "add", path: "/x", value: 1}`; ADMISSION.md §6) as the evaluator can read them:
// map literals with quoted keys. Kube types them against the schema; here they are plain maps,
// which is what the merge and the patch need. String literals are left alone.

const TYPED = /^(Object(\.[A-Za-z_][A-Za-z0-9_]*)*|JSONPatch)\s*\{/;
const IDENT_COLON = /^([A-Za-z_][A-Za-z0-9_]*)\s*:/;

/** The end index (exclusive) of the string literal starting at `i` (quotes, triple quotes, raw). */
function stringEnd(s: string, i: number): number {
  const raw = s[i] === 'r' || s[i] === 'R';
  const q = raw ? i + 1 : i;
  const quote = s.startsWith(s[q].repeat(3), q) ? s[q].repeat(3) : s[q];
  let j = q + quote.length;
  while (j < s.length && !s.startsWith(quote, j)) j += !raw && s[j] === '\\' ? 2 : 1;
  return Math.min(s.length, j + quote.length);
}

/**
 * `expression` with its `Object{...}`, `Object.a.b{...}` and `JSONPatch{...}` literals written as
 * map literals (`{"spec": {"replicas": 3}}`).
 *
 * @example
 * ```ts
 * typedLiteralsAsMaps('Object{spec: Object.spec{replicas: 3}}'); // '{"spec": {"replicas": 3}}'
 * ```
 */
export function typedLiteralsAsMaps(expression: string): string {
  if (!/(Object|JSONPatch)\s*[.{]/.test(expression)) return expression;
  let out = '';
  const braces: boolean[] = []; // true: a typed literal, whose field names get quoted
  let fieldNext = false;
  for (let i = 0; i < expression.length; ) {
    const c = expression[i];
    const startsString = c === '"' || c === "'" || ((c === 'r' || c === 'R') && (expression[i + 1] === '"' || expression[i + 1] === "'"));
    if (startsString && !/[A-Za-z0-9_]/.test(expression[i - 1] ?? '')) {
      const end = stringEnd(expression, i);
      out += expression.slice(i, end);
      i = end;
      fieldNext = false;
      continue;
    }
    const rest = expression.slice(i);
    const typed = /[A-Za-z0-9_.]/.test(expression[i - 1] ?? '') ? null : TYPED.exec(rest);
    if (typed) {
      out += '{';
      braces.push(true);
      i += typed[0].length;
      fieldNext = true;
      continue;
    }
    if (fieldNext && braces[braces.length - 1]) {
      const ws = /^\s*/.exec(rest)![0];
      const field = IDENT_COLON.exec(rest.slice(ws.length));
      if (field) {
        out += `${ws}"${field[1]}":`;
        i += ws.length + field[0].length;
        fieldNext = false;
        continue;
      }
    }
    if (c === '{') braces.push(false);
    else if (c === '}') braces.pop();
    fieldNext = c === ',' && braces[braces.length - 1] === true ? true : c === '{' ? false : fieldNext && /\s/.test(c);
    out += c;
    i += 1;
  }
  return out;
}
