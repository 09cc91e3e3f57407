// apimachinery's string checks (util/validation, api/validate/content), each returning kube's
// messages for a bad value; callers turn every message into a field.Invalid cause.

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const LABEL_KEY = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${LABEL_KEY})?`;
const CONFIG_MAP_KEY = '[-._a-zA-Z0-9]+';
const PERCENT = '[0-9]+%';
const WILDCARD_SUBDOMAIN = `\\*\\.${DNS1123_SUBDOMAIN}`;

const anchored = (re: string): RegExp => new RegExp(`^${re}$`);
const labelRe = anchored(DNS1123_LABEL);
const subdomainRe = anchored(DNS1123_SUBDOMAIN);
const dns1035Re = anchored(DNS1035_LABEL);
const labelKeyRe = anchored(LABEL_KEY);
const labelValueRe = anchored(LABEL_VALUE);
const configMapKeyRe = anchored(CONFIG_MAP_KEY);
const percentRe = anchored(PERCENT);
const wildcardRe = anchored(WILDCARD_SUBDOMAIN);

/**
 * apimachinery's `RegexError`: the message, its examples and the regex.
 *
 * @example
 * ```ts
 * regexError('a valid thing', '[a-z]+', 'abc'); // "a valid thing (e.g. 'abc', regex used for validation is '[a-z]+')"
 * ```
 */
export function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${re}')`;
}

/**
 * `must be no more than N characters` (util/validation's MaxLenError, used by the DNS checks).
 *
 * @example
 * ```ts
 * maxLenError(63); // 'must be no more than 63 characters'
 * ```
 */
export const maxLenError = (n: number): string => `must be no more than ${n} characters`;

/**
 * `must be between lo and hi, inclusive`.
 *
 * @example
 * ```ts
 * inclusiveRangeError(1, 65535); // 'must be between 1 and 65535, inclusive'
 * ```
 */
export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

/** UTF-8 length, as Go's `len(string)` counts. */
const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * `IsDNS1123Label`: a lowercase RFC 1123 label of at most 63 characters.
 *
 * @example
 * ```ts
 * isDNS1123Label('web'); // []
 * isDNS1123Label('a.b'); // ['must not contain dots']
 * ```
 */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!labelRe.test(value)) {
    if (subdomainRe.test(value)) errs.push('must not contain dots');
    else
      errs.push(
        regexError(
          'a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character',
          DNS1123_LABEL,
          'my-name',
          '123-abc',
        ),
      );
  }
  return errs;
}

/**
 * `IsDNS1123Subdomain`: a lowercase RFC 1123 subdomain of at most 253 characters.
 *
 * @example
 * ```ts
 * isDNS1123Subdomain('example.com'); // []
 * ```
 */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!subdomainRe.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN,
        'example.com',
      ),
    );
  }
  return errs;
}

/**
 * `IsDNS1035Label`: a DNS-1035 label (starts with a letter), at most 63 characters.
 *
 * @example
 * ```ts
 * isDNS1035Label('1web'); // one message
 * ```
 */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!dns1035Re.test(value)) {
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL,
        'my-name',
        'abc-123',
      ),
    );
  }
  return errs;
}

/**
 * `IsWildcardDNS1123Subdomain`: `*.` followed by a DNS subdomain.
 *
 * @example
 * ```ts
 * isWildcardDNS1123Subdomain('*.example.com'); // []
 * ```
 */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!wildcardRe.test(value)) {
    errs.push(
      regexError(
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
        WILDCARD_SUBDOMAIN,
        '*.example.com',
      ),
    );
  }
  return errs;
}

const labelKeyNameError = (): string =>
  regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", LABEL_KEY, 'MyName', 'my.name', '123-abc');

/**
 * `IsQualifiedName` (a label key): an optional DNS-subdomain prefix and `/`, then a name of at
 * most 63 bytes.
 *
 * @example
 * ```ts
 * isQualifiedName('app.kubernetes.io/name'); // []
 * ```
 */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [`a valid label key ${labelKeyNameError()} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (byteLength(name) > 63) errs.push('name part must be no more than 63 bytes');
  if (!labelKeyRe.test(name)) errs.push(`name part ${labelKeyNameError()}`);
  return errs;
}

/**
 * `IsValidLabelValue`: empty, or at most 63 bytes of alphanumerics, `-`, `_`, `.`.
 *
 * @example
 * ```ts
 * isLabelValue('v1.2'); // []
 * ```
 */
export function isLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push('must be no more than 63 bytes');
  if (!labelValueRe.test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

/**
 * `IsValidPortName`: an IANA service name (at most 15 of `[-a-z0-9]`, a letter, no `--`).
 *
 * @example
 * ```ts
 * isValidPortName('http'); // []
 * ```
 */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/**
 * `IsValidPortNum`: 1 to 65535.
 *
 * @example
 * ```ts
 * isValidPortNum(0); // ['must be between 1 and 65535, inclusive']
 * ```
 */
export const isValidPortNum = (port: number): string[] => (Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)]);

/**
 * `IsRelaxedEnvVarName` (kube's rule since RelaxedEnvironmentVariableValidation went GA in
 * 1.34): printable ASCII other than `=`.
 *
 * @example
 * ```ts
 * isEnvVarName('MY VAR'); // []
 * ```
 */
export function isEnvVarName(value: string): string[] {
  if (value.length === 0) return ['environment variable name must be non-empty'];
  return [...value].some((c) => c.charCodeAt(0) > 0x7e || c.charCodeAt(0) < 0x20 || c === '=')
    ? ["a valid environment variable name must consist only of printable ASCII characters other than '='"]
    : [];
}

function chDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

/**
 * `IsConfigMapKey`: a ConfigMap or Secret data key.
 *
 * @example
 * ```ts
 * isConfigMapKey('app.properties'); // []
 * ```
 */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!configMapKeyRe.test(value)) {
    errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_MAP_KEY, 'key.name', 'KEY_NAME', 'key-name'));
  }
  return [...errs, ...chDirPrefix(value)];
}

/**
 * `IsValidPercent`: digits followed by `%`.
 *
 * @example
 * ```ts
 * isValidPercent('25%'); // []
 * ```
 */
export const isValidPercent = (value: string): string[] =>
  percentRe.test(value) ? [] : [regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT, '1%', '93%')];

/**
 * `IsPathSegmentName`: a name that can be a URL path segment (RBAC names, object references).
 *
 * @example
 * ```ts
 * isPathSegmentName('a/b'); // ["may not contain '/'"]
 * ```
 */
export function isPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}
