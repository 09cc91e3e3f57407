/**
 * One problem kube would refuse a webhook configuration for: the field path and kube's text
 * (apimachinery's field errors as kube-apiserver puts them in a 422).
 *
 * @example
 * ```ts
 * const e: FieldError = { field: 'webhooks[0].timeoutSeconds', message: 'Invalid value: 31: the timeout value must be between 1 and 30 seconds' };
 * ```
 */
export interface FieldError {
  /** The field path, e.g. `webhooks[0].timeoutSeconds`. */
  readonly field: string;
  /** What is wrong, as kube words it after the field: `Invalid value: 31: the timeout value must be between 1 and 30 seconds`. */
  readonly message: string;
}

const show = (value: unknown): string => {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
};
const withDetail = (text: string, detail: string): string => (detail ? `${text}: ${detail}` : text);

export const required = (field: string, detail = ''): FieldError => ({ field, message: withDetail('Required value', detail) });
export const invalid = (field: string, value: unknown, detail: string): FieldError => ({ field, message: withDetail(`Invalid value: ${show(value)}`, detail) });
export const duplicate = (field: string, value: unknown): FieldError => ({ field, message: `Duplicate value: ${show(value)}` });
export const tooMany = (field: string, actual: number, max: number): FieldError => ({ field, message: `Too many: ${actual}: must have at most ${max} items` });
export const notSupported = (field: string, value: unknown, supported: ReadonlyArray<string>): FieldError => ({
  field,
  message: `Unsupported value: ${show(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
});

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SUBDOMAIN_TEXT =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_1035_TEXT =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/** apimachinery's IsDNS1123Subdomain: the problems of `value`, none when it is one. */
export function dns1123SubdomainProblems(value: string): string[] {
  const out: string[] = [];
  if (value.length > 253) out.push('must be no more than 253 characters');
  if (!SUBDOMAIN.test(value)) out.push(SUBDOMAIN_TEXT);
  return out;
}

/** apimachinery's IsDNS1035Label. */
export function dns1035LabelProblems(value: string): string[] {
  const out: string[] = [];
  if (value.length > 63) out.push('must be no more than 63 characters');
  if (!LABEL_1035.test(value)) out.push(LABEL_1035_TEXT);
  return out;
}

/** apimachinery's IsFullyQualifiedName (a webhook's name). */
export function fullyQualifiedName(field: string, name: string): FieldError[] {
  if (name === '') return [required(field)];
  const problems = dns1123SubdomainProblems(name);
  if (problems.length > 0) return [invalid(field, name, problems.join(','))];
  if (name.split('.').length < 3) return [invalid(field, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/**
 * kube's aggregate of field errors after `<Kind>.<group> "<name>" is invalid: `: one error as it
 * is, several in brackets, comma-separated.
 */
export function aggregate(errors: ReadonlyArray<FieldError>): string {
  const texts = errors.map((e) => `${e.field}: ${e.message}`);
  return texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
}
