import { labelRequirement, type LabelRequirement, type LabelSelectorOperator } from './labelRequirement.js';
import { everythingLabelSelector, labelSelector, type LabelSelector } from './labelSelector.js';
import { LabelSelectorParseError } from './labelSelectorParseError.js';

type TokenType = 'id' | 'in' | 'notin' | '=' | '==' | '!=' | '!' | '>' | '<' | '(' | ')' | ',' | 'end';
interface Token {
  readonly type: TokenType;
  readonly text: string;
  readonly pos: number;
}

const SYMBOLS: ReadonlySet<string> = new Set(['=', '==', '!=', '!', '>', '<', '(', ')', ',']);
const isSpecial = (ch: string) => '=!()<>,'.includes(ch);
const isSpace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';

// The lexer of apimachinery's labels package: identifiers run until whitespace or a special symbol;
// symbols take the longest match (`!=` before `!`); `in`/`notin` are keywords.
function lex(s: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (true) {
    while (i < s.length && isSpace(s[i])) i++;
    if (i >= s.length) {
      tokens.push({ type: 'end', text: '', pos: s.length });
      return tokens;
    }
    const start = i;
    if (isSpecial(s[i])) {
      let text = s[i++];
      if (i < s.length && SYMBOLS.has(text + s[i])) text += s[i++];
      tokens.push({ type: text as TokenType, text, pos: start });
    } else {
      while (i < s.length && !isSpecial(s[i]) && !isSpace(s[i])) i++;
      const text = s.slice(start, i);
      tokens.push({ type: text === 'in' || text === 'notin' ? text : 'id', text, pos: start });
    }
  }
}

const OPERATORS: { readonly [t: string]: LabelSelectorOperator } = {
  '=': 'Equals',
  '==': 'DoubleEquals',
  '!=': 'NotEquals',
  in: 'In',
  notin: 'NotIn',
  '>': 'GreaterThan',
  '<': 'LessThan',
};

class Parser {
  private at = 0;
  constructor(
    private readonly source: string,
    private readonly tokens: ReadonlyArray<Token>,
  ) {}

  // Where a value or key is expected, `in` and `notin` are plain identifiers (`in in (in)` is valid).
  private peek(asValue: boolean): Token {
    const t = this.tokens[this.at];
    return asValue && (t.type === 'in' || t.type === 'notin') ? { ...t, type: 'id' } : t;
  }
  private next(asValue: boolean): Token {
    const t = this.peek(asValue);
    this.at++;
    return t;
  }
  private fail(t: Token, expected: string): never {
    throw new LabelSelectorParseError(
      this.source,
      t.pos,
      `found '${t.type === 'end' ? 'end of string' : t.text}', expected: ${expected}`,
    );
  }
  private build(t: Token, key: string, op: LabelSelectorOperator, values: string[]): LabelRequirement {
    try {
      return labelRequirement(key, op, values);
    } catch (e) {
      if (e instanceof LabelSelectorParseError)
        throw new LabelSelectorParseError(this.source, t.pos, e.reason);
      throw e;
    }
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const t = this.peek(true);
      if (t.type === 'end') return reqs;
      if (t.type !== 'id' && t.type !== '!') this.fail(t, "'!', identifier, or end of string");
      reqs.push(this.requirement());
      const sep = this.next(true);
      if (sep.type === 'end') return reqs;
      if (sep.type !== ',') this.fail(sep, "',' or end of string");
      const after = this.peek(true);
      if (after.type !== 'id' && after.type !== '!') this.fail(after, "identifier after ','");
    }
  }

  private requirement(): LabelRequirement {
    let t = this.next(true);
    const negated = t.type === '!';
    if (negated) t = this.next(true);
    if (t.type !== 'id') this.fail(t, 'identifier');
    const key = t.text;
    const la = this.peek(true);
    if (la.type === 'end' || la.type === ',')
      return this.build(t, key, negated ? 'DoesNotExist' : 'Exists', []);
    if (negated) this.fail(la, "',' or end of string after '!key'");
    const opToken = this.next(false);
    const op = OPERATORS[opToken.type];
    if (op == null) this.fail(opToken, '=, ==, !=, in, notin, >, <');
    const values = op === 'In' || op === 'NotIn' ? this.setValues() : this.exactValue();
    return this.build(t, key, op, values);
  }

  // `( a, b )`; empty members are the empty string, as in Kubernetes (`(a,,b)`, `()`).
  private setValues(): string[] {
    const open = this.next(true);
    if (open.type !== '(') this.fail(open, "'('");
    const values: string[] = [];
    let expectValue = true;
    for (;;) {
      const t = this.next(true);
      if (t.type === ')') {
        if (expectValue) values.push('');
        return values;
      }
      if (t.type === ',') {
        if (expectValue) values.push('');
        expectValue = true;
      } else if (t.type === 'id' && expectValue) {
        values.push(t.text);
        expectValue = false;
      } else {
        this.fail(t, expectValue ? "identifier, ',' or ')'" : "',' or ')'");
      }
    }
  }

  // `a=` is a requirement on the empty value.
  private exactValue(): string[] {
    const t = this.peek(true);
    if (t.type === 'end' || t.type === ',') return [''];
    this.at++;
    if (t.type !== 'id') this.fail(t, 'identifier');
    return [t.text];
  }
}

/**
 * Parses a label selector in Kubernetes syntax (apimachinery's `labels.Parse`): terms joined by
 * commas (AND): `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x,y)`, `a` (exists), `!a` (does not
 * exist), and `a>1`, `a<5` on integer values. The empty string matches everything. Keys and values
 * are validated; anything malformed throws {@link LabelSelectorParseError} with the position.
 *
 * @example
 * ```ts
 * const sel = parseLabelSelector('app=web, tier in (frontend,cache), !canary');
 * sel.matches({ app: 'web', tier: 'cache' });               // true
 * sel.matches({ app: 'web', tier: 'cache', canary: 'yes' }); // false
 * ```
 */
export function parseLabelSelector(selector: string): LabelSelector {
  if (typeof selector !== 'string') throw notASelector(selector, 'a label selector string is needed');
  const cached = cache.get(selector);
  if (cached) return cached;
  const reqs = new Parser(selector, lex(selector)).parse();
  const parsed = reqs.length === 0 ? everythingLabelSelector : labelSelector(reqs);
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(selector, parsed);
  return parsed;
}

// Listers are called with the same few selector strings over and over; parsed selectors are
// immutable, so they are kept (a small bounded map, emptied when full).
const CACHE_SIZE = 256;
const cache = new Map<string, LabelSelector>();

/** What rxkube accepts wherever a label selector is asked for: a string, a parsed selector, or none. */
export type LabelSelectorInput = string | LabelSelector | undefined;

/**
 * Normalises a {@link LabelSelectorInput}: strings are parsed, `undefined` matches everything.
 *
 * @example
 * ```ts
 * toLabelSelector('app=web').matches({ app: 'web' }); // true
 * toLabelSelector(undefined).isEmpty;                  // true
 * ```
 */
export function toLabelSelector(input: LabelSelectorInput): LabelSelector {
  if (input == null) return everythingLabelSelector;
  if (typeof input === 'string') return parseLabelSelector(input);
  if (typeof (input as Partial<LabelSelector>).matches === 'function') return input;
  // A structured selector (a Deployment's spec.selector) is a common slip: say how to convert it.
  const structured = typeof input === 'object' && ('matchLabels' in input || 'matchExpressions' in input);
  throw notASelector(
    input,
    structured
      ? 'this is a structured selector: convert it with labelSelectorFromObject(selector)'
      : 'a string or a LabelSelector is needed',
  );
}

/** A LabelSelectorParseError for something that is no selector at all (plain JavaScript). */
function notASelector(input: unknown, reason: string): LabelSelectorParseError {
  let shown: string;
  try {
    shown = typeof input === 'object' && input !== null ? JSON.stringify(input) : String(input);
  } catch {
    shown = Object.prototype.toString.call(input);
  }
  return new LabelSelectorParseError(shown, 0, `${reason} (got ${typeof input})`);
}
